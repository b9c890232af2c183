// prim::fusion_plan against the reference: MIOpen's example (C+B+A), C+N+A, C+B+N+A, N+A, plans
// with residual adds (sum, binary), every MIOpen activation mode, on convolution shapes MIOpen's
// fusion refuses (groups, depthwise, 1D, 3D, dilation, strides, asymmetric padding), plain,
// channels-last and blocked inputs, on every ISA the machine has and on the reference. Every case
// runs three times, every argument changed in between (the third time by writing new values into
// the buffers already set, calling no setter), and no run after the first may generate a kernel.
// The oracle: the reference convolution (src/ref) without bias, then each operator in plan order
// computed here in double from MIOpen's formulas (not from the plan's mapping onto prim's
// algorithms, which is what is under test).
#include "isa_under_test.hpp"
#include "api_test_util.hpp"

#include "common/problem.hpp"
#include "ref/ref_kernels.hpp"

namespace {

using kind = fusion_op::kind;

std::vector<cpu_isa> isas() { return prim_test::isas_under_test(); }

// One operator of a test plan (the convolution is described by the case itself).
struct op_spec {
    kind k;
    activation_mode act = activation_mode::relu;
    batch_norm_mode bn = batch_norm_mode::spatial;
    algorithm alg = algorithm::binary_add;
    bool broadcast_channel = false; // binary: src1 is 1 x C x 1... instead of the output's dims
};

struct plan_case {
    std::string name;
    dims input;              // N x C x spatial
    std::string layout;      // the input's pattern ("abcd", "acdb", "aBcd8b"); empty: plain
    bool conv = true;
    dims wei;                // weights dims (grouped when input rank + 1)
    fusion_plan::convolution_params params;
    std::vector<op_spec> ops;
};

std::string plain_pattern(size_t rank) {
    std::string p;
    for (size_t i = 0; i < rank; ++i) p += static_cast<char>('a' + i);
    return p;
}

// Values in [lo, hi] on a 1/8 grid (exact in f32 products with small integers).
std::vector<float> values(int64_t n, double lo, double hi, std::mt19937 &rng) {
    std::uniform_int_distribution<int> d(static_cast<int>(lo * 8), static_cast<int>(hi * 8));
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = static_cast<float>(d(rng)) / 8.f;
    return v;
}

double miopen_activation(activation_mode m, double x, double a, double b, double g) {
    switch (m) {
    case activation_mode::passthru: return x;
    case activation_mode::logistic: return 1 / (1 + std::exp(-x));
    case activation_mode::tanh: return b * std::tanh(a * x);
    case activation_mode::relu: return std::max(0.0, x);
    case activation_mode::soft_relu: return x > 30 ? x : std::log1p(std::exp(x));
    case activation_mode::abs: return std::fabs(x);
    case activation_mode::power: return std::pow(a + b * x, g);
    case activation_mode::clipped_relu: return std::min(a, std::max(0.0, x));
    case activation_mode::leaky_relu: return x > 0 ? x : a * x;
    case activation_mode::elu: return x > 0 ? x : a * std::expm1(x);
    }
    return x;
}

// What one round of a case sets: the argument values, plain, per operator.
struct round_args {
    std::vector<float> wei;
    std::vector<std::vector<float>> data; // bias: {b}; bn: {scale, shift, mean, var}; binary: {src1}
    std::vector<std::vector<std::vector<float>>> bn;
    double eps = 1e-5, alpha = 0, beta = 0, gamma = 0;
    float sum_scale = 1;
};

struct runner {
    const plan_case &c;
    cpu_isa isa;
    std::mt19937 rng {7};

    dims out_dims;
    memory::desc in_md, out_md;

    dims stat_dims(const op_spec &o) const {
        dims d(out_dims.size(), 1);
        d[1] = out_dims[1];
        if (o.k == kind::batch_norm && o.bn == batch_norm_mode::per_activation)
            for (size_t j = 2; j < d.size(); ++j) d[j] = out_dims[j];
        if (o.k == kind::binary && !o.broadcast_channel) d = out_dims;
        if (o.k == kind::binary && o.broadcast_channel) d[0] = 1;
        return d;
    }

    void run() {
        const std::string pat = c.layout.empty() ? plain_pattern(c.input.size()) : c.layout;
        in_md = memory::desc(c.input, dt::f32, pat);
        fusion_plan plan(fusion_direction::vertical, in_md);
        plan.set_max_cpu_isa(isa);
        convolution_op conv;
        if (c.conv) conv = plan.add_convolution(c.params, plain(c.wei));
        out_dims = plan.output_desc().get_dims();
        out_md = plan.output_desc();
        std::vector<fusion_op> handles;
        for (const op_spec &o : c.ops) {
            switch (o.k) {
            case kind::bias: handles.push_back(plan.add_bias(plain(stat_dims(o)))); break;
            case kind::batch_norm:
                handles.push_back(plan.add_batch_norm_inference(o.bn, plain(stat_dims(o))));
                break;
            case kind::activation: handles.push_back(plan.add_activation(o.act)); break;
            case kind::sum: handles.push_back(plan.add_sum()); break;
            case kind::binary: handles.push_back(plan.add_binary(o.alg, plain(stat_dims(o)))); break;
            default: FAIL("bad op");
            }
        }
        plan.compile();
        INFO("plan " << plan.to_string() << " on " << plan.impl_name());
        if (isa != cpu_isa::none)
            CHECK_THAT(plan.impl_name(), Catch::StartsWith(std::string("jit:") + cpu_isa_name(isa)));

        const memory src = from_plain(values(count(c.input), -2, 2, rng), in_md);
        const std::vector<float> old_dst = values(count(out_dims), -2, 2, rng);
        const memory dst(out_md);
        fusion_args args;
        round_args ra;
        std::vector<memory> keep; // the buffers set, in the order the setters took them
        for (int round = 0; round < 3; ++round) {
            // Rounds 0 and 1 call every setter with new buffers and values. Round 2 writes new
            // values into round 1's buffers and calls no setter, as a MIOpen port does (MIOpen
            // reads its arguments at every execute). No round after the first generates code.
            const bool in_place = round == 2;
            const int64_t kernels_before = get_generated_kernel_count();
            size_t next = 0;
            // The buffer holding v: a new one (rounds 0, 1) or the next of the round before.
            const auto buffer = [&](const std::vector<float> &v, const dims &d) {
                if (!in_place) {
                    keep.push_back(from_plain(v, plain(d)));
                    return keep.back();
                }
                const memory &m = keep.at(next++);
                std::memcpy(m.get_data_handle(), v.data(), v.size() * sizeof(float));
                return m;
            };
            if (!in_place) {
                keep.clear();
                ra.eps = round ? 1e-3 : 1e-5;
                ra.alpha = round ? 0.25 : 1.5;
                ra.beta = round ? 0.75 : 0.5;
                ra.gamma = round ? 2.0 : 3.0;
                ra.sum_scale = round ? -0.5f : 2.f;
            }
            if (c.conv) {
                ra.wei = values(count(c.wei), -1, 1, rng);
                const memory w = buffer(ra.wei, c.wei);
                if (!in_place) args.set_convolution(conv, w);
            }
            ra.data.resize(c.ops.size());
            ra.bn.resize(c.ops.size());
            for (size_t i = 0; i < c.ops.size(); ++i) {
                const op_spec &o = c.ops[i];
                const dims sd = stat_dims(o);
                const int64_t n = count(sd);
                switch (o.k) {
                case kind::bias: {
                    ra.data[i] = values(n, -2, 2, rng);
                    const memory b = buffer(ra.data[i], sd);
                    if (!in_place) args.set_bias(static_cast<const bias_op &>(handles[i]), b);
                    break;
                }
                case kind::batch_norm: {
                    ra.bn[i] = {values(n, -2, 2, rng), values(n, -2, 2, rng),
                                values(n, -2, 2, rng), values(n, 0, 4, rng)};
                    std::vector<memory> m;
                    for (auto &v : ra.bn[i]) m.push_back(buffer(v, sd));
                    if (!in_place)
                        args.set_batch_norm_inference(static_cast<const batch_norm_op &>(handles[i]),
                                                      m[0], m[1], m[2], m[3], ra.eps);
                    break;
                }
                case kind::activation:
                    if (!in_place)
                        args.set_activation(static_cast<const activation_op &>(handles[i]),
                                            ra.alpha, ra.beta, ra.gamma);
                    break;
                case kind::sum:
                    if (!in_place) args.set_sum(static_cast<const sum_op &>(handles[i]), ra.sum_scale);
                    break;
                case kind::binary: {
                    ra.data[i] = values(n, 1, 3, rng); // positive: div stays finite
                    const memory b = buffer(ra.data[i], sd);
                    if (!in_place) args.set_binary(static_cast<const binary_op &>(handles[i]), b);
                    break;
                }
                default: break;
                }
            }
            reorder(plain(out_dims), out_md).execute(
                    memory(plain(out_dims), const_cast<float *>(old_dst.data())), dst);
            plan.execute(src, dst, args);
            // Every argument changed, power's gamma included: no new code.
            if (round > 0) CHECK(get_generated_kernel_count() == kernels_before);
            INFO("round " << round);
            compare(to_plain(src), ra, old_dst, to_plain(dst));
        }
    }

    // The expected output, computed op by op.
    void compare(const std::vector<float> &src, const round_args &ra,
                 const std::vector<float> &old_dst, const std::vector<float> &got) {
        std::vector<float> acc(static_cast<size_t>(count(out_dims)));
        if (c.conv) {
            impl::conv_problem prb;
            const int nsp = static_cast<int>(c.input.size()) - 2;
            const bool grouped = c.wei.size() == c.input.size() + 1;
            const int wo = grouped ? 1 : 0;
            prb.nsp = nsp;
            prb.mb = c.input[0];
            prb.ic = c.input[1];
            prb.g = grouped ? c.wei[0] : 1;
            prb.oc = out_dims[1];
            for (int j = 0; j < nsp; ++j) {
                const int sp = 3 - nsp + j;
                prb.i[sp] = c.input[2 + j];
                prb.o[sp] = out_dims[2 + j];
                prb.k[sp] = c.wei[wo + 2 + j];
                prb.s[sp] = c.params.strides[j];
                prb.d[sp] = c.params.dilates[j];
                prb.p[sp] = c.params.padding_l[j];
                prb.p_end[sp] = (prb.o[sp] - 1) * prb.s[sp] - prb.i[sp] + prb.extent(sp) - prb.p[sp];
            }
            impl::ref_conv_fwd(prb, src.data(), ra.wei.data(), nullptr, post_ops(), acc.data());
        } else {
            acc = src;
        }
        const int64_t C = out_dims[1];
        int64_t S = 1;
        for (size_t j = 2; j < out_dims.size(); ++j) S *= out_dims[j];
        int errors = 0;
        for (size_t idx = 0; idx < acc.size(); ++idx) {
            const int64_t c_ = (static_cast<int64_t>(idx) / S) % C, s = static_cast<int64_t>(idx) % S;
            const int64_t n = static_cast<int64_t>(idx) / (S * C);
            double x = acc[idx];
            for (size_t i = 0; i < c.ops.size(); ++i) {
                const op_spec &o = c.ops[i];
                const bool per_pixel = count(stat_dims(o)) > C;
                const size_t k = static_cast<size_t>(per_pixel ? c_ * S + s : c_);
                switch (o.k) {
                case kind::bias: x += ra.data[i][k]; break;
                case kind::batch_norm: {
                    const auto &b = ra.bn[i];
                    x = b[0][k] * (x - b[2][k]) / std::sqrt(double(b[3][k]) + ra.eps) + b[1][k];
                    break;
                }
                case kind::activation: x = miopen_activation(o.act, x, ra.alpha, ra.beta, ra.gamma); break;
                case kind::sum: x += ra.sum_scale * double(old_dst[idx]); break;
                case kind::binary: {
                    const size_t j = o.broadcast_channel ? static_cast<size_t>(c_) : idx;
                    const double y = ra.data[i][j];
                    x = o.alg == algorithm::binary_add ? x + y
                            : o.alg == algorithm::binary_mul ? x * y
                            : o.alg == algorithm::binary_div ? x / y : std::max(x, y);
                    break;
                }
                default: break;
                }
            }
            (void)n;
            const double g = got[idx];
            const bool ok = (std::isnan(x) && std::isnan(g)) || std::fabs(g - x) <= 2e-5 * std::max(1.0, std::fabs(x));
            if (!ok && errors++ < 5)
                FAIL_CHECK(c.name << " isa " << cpu_isa_name(isa) << ": element " << idx
                                  << " got " << g << " expected " << x);
        }
        CHECK(errors == 0);
    }
};

fusion_plan::convolution_params params(const dims &s, const dims &d, const dims &pl,
                                       const dims &pr = {}) {
    return {s, d, pl, pr};
}

const op_spec B {kind::bias};
const op_spec N {kind::batch_norm};
const op_spec N_pixel {kind::batch_norm, activation_mode::relu, batch_norm_mode::per_activation};
const op_spec SUM {kind::sum};
op_spec A(activation_mode m) { return {kind::activation, m}; }
op_spec BIN(algorithm alg, bool per_channel) {
    return {kind::binary, activation_mode::relu, batch_norm_mode::spatial, alg, per_channel};
}

void run_all(const plan_case &c) {
    for (const cpu_isa isa : isas()) {
        DYNAMIC_SECTION(c.name << " on " << cpu_isa_name(isa)) {
            runner r {c, isa, std::mt19937 {7}, {}, {}, {}};
            r.run();
        }
    }
}

} // namespace

TEST_CASE("fusion_plan: MIOpen's example, convolution + bias + relu", "[fusion_plan]") {
    run_all({"CBA", {2, 8, 9, 11}, "", true, {16, 8, 3, 3}, params({1, 1}, {0, 0}, {1, 1}),
             {B, A(activation_mode::relu)}});
}

TEST_CASE("fusion_plan: C+N+A, C+B+N+A, N+A", "[fusion_plan]") {
    run_all({"CNA", {2, 5, 7, 6}, "acdb", true, {19, 5, 3, 3}, params({2, 1}, {0, 0}, {1, 0}),
             {N, A(activation_mode::relu)}});
    run_all({"CBNA", {1, 16, 8, 8}, "aBcd8b", true, {24, 16, 1, 1}, params({1, 1}, {0, 0}, {0, 0}),
             {B, N, A(activation_mode::relu)}});
    run_all({"NA", {2, 13, 5, 7}, "", false, {}, {}, {N, A(activation_mode::abs)}});
    run_all({"NA per-activation", {2, 3, 4, 5}, "acdb", false, {}, {}, {N_pixel, A(activation_mode::logistic)}});
}

TEST_CASE("fusion_plan: residual adds, repeated and reordered operators", "[fusion_plan]") {
    run_all({"CBNA+sum", {2, 8, 6, 6}, "", true, {8, 8, 3, 3}, params({1, 1}, {0, 0}, {1, 1}),
             {B, N, SUM, A(activation_mode::relu)}});
    run_all({"CN+add+A", {2, 8, 6, 6}, "acdb", true, {8, 8, 3, 3}, params({1, 1}, {0, 0}, {1, 1}),
             {N, BIN(algorithm::binary_add, false), A(activation_mode::relu)}});
    run_all({"C A B A N mul A", {1, 4, 5, 5}, "", true, {6, 4, 1, 3}, params({1, 1}, {0, 1}, {0, 2}),
             {A(activation_mode::abs), B, A(activation_mode::soft_relu), N,
              BIN(algorithm::binary_mul, true), A(activation_mode::relu), B, B}});
}

TEST_CASE("fusion_plan: convolution shapes MIOpen's fusion refuses", "[fusion_plan]") {
    run_all({"grouped", {2, 12, 7, 7}, "", true, {3, 6, 4, 3, 3}, params({1, 1}, {0, 0}, {1, 1}),
             {B, N, A(activation_mode::relu)}});
    run_all({"depthwise", {2, 16, 9, 9}, "aBcd8b", true, {16, 1, 1, 3, 3}, params({2, 2}, {0, 0}, {1, 1}),
             {B, N, A(activation_mode::relu)}});
    run_all({"1D", {2, 7, 17}, "acb", true, {9, 7, 5}, params({1}, {1}, {4}),
             {N, A(activation_mode::relu), SUM}});
    run_all({"3D", {1, 4, 4, 5, 6}, "", true, {8, 4, 3, 3, 3}, params({1, 1, 2}, {0, 1, 0}, {1, 2, 1}, {0, 2, 1}),
             {B, N_pixel, A(activation_mode::abs)}});
}

TEST_CASE("fusion_plan: every MIOpen activation mode, alpha beta gamma changed at run time",
          "[fusion_plan]") {
    for (const activation_mode m :
         {activation_mode::passthru, activation_mode::logistic, activation_mode::tanh,
          activation_mode::relu, activation_mode::soft_relu, activation_mode::abs,
          activation_mode::power, activation_mode::clipped_relu, activation_mode::leaky_relu,
          activation_mode::elu}) {
        run_all({std::string("CBNA ") + activation_mode_name(m), {2, 6, 5, 7}, "acdb", true,
                 {10, 6, 3, 3}, params({1, 1}, {0, 0}, {1, 1}), {B, N, A(m)}});
        // Two activations of the mode in one chain, with a residual between them.
        run_all({std::string("CA+sum+A ") + activation_mode_name(m), {1, 3, 4, 4}, "", true,
                 {5, 3, 1, 1}, params({1, 1}, {0, 0}, {0, 0}), {A(m), SUM, A(m)}});
    }
}
