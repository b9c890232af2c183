// Pooling through the public API: the JIT (capped to avx512 and to avx2) against the reference
// (the same primitive capped to cpu_isa::none) for every algorithm on 1D, 2D and 3D shapes with
// channel tails, strides larger than the kernel, dilation, ceil-mode end padding and global
// pooling; channels-last, nChw16c, nChw8c, 'any' and plain layouts; chains with eltwise, sum,
// binary and prelu entries. Hand-computed values for the semantics (padding never wins a max,
// the two averages, NaN), the messages of bad descriptors, and benchdnn_lite's pool descriptor
// (parsing its printed form gives the problem back).
#include "api_test_util.hpp"

#include <memory>

#include "common/pool_problem.hpp"
#include "pool/pool_parse.hpp"

namespace {

using policy = post_ops::policy;

// A pooling shape: src dims and, per spatial dim, kernel, stride, dilation and both paddings.
struct shape {
    dims src;
    dims k, s, d, pl, pr;
};

dims dst_dims(const shape &sh) {
    dims o = {sh.src[0], sh.src[1]};
    for (size_t j = 0; j < sh.k.size(); ++j) {
        const int64_t e = (sh.k[j] - 1) * (sh.d[j] + 1) + 1;
        o.push_back((sh.src[2 + j] + sh.pl[j] + sh.pr[j] - e) / sh.s[j] + 1);
    }
    return o;
}

// The layouts by name for a rank: "plain", "cl" (channels-last), "16c", "8c", "any".
memory::desc layout_of(const dims &d, const std::string &name) {
    const size_t r = d.size();
    if (name == "any") return memory::desc(d, dt::f32, tag::any);
    if (name == "plain") return plain(d);
    if (name == "cl") return memory::desc(d, dt::f32, r == 3 ? "acb" : r == 4 ? "acdb" : "acdeb");
    const std::string inner = name == "16c" ? "16b" : "8b";
    return memory::desc(d, dt::f32, (r == 3 ? "aBc" : r == 4 ? "aBcd" : "aBcde") + inner);
}

struct pool_case {
    shape sh;
    algorithm alg = algorithm::pooling_max;
    std::string layout = "cl";
    post_ops chain;
};

pooling_forward::primitive_desc create(const pool_case &c, cpu_isa isa) {
    primitive_attr attr;
    attr.set_post_ops(c.chain);
    attr.set_max_cpu_isa(isa);
    // "mixed": plain src, channels-last dst (the channel-vector kernel repacks src).
    const memory::desc src = layout_of(c.sh.src, c.layout == "mixed" ? "plain" : c.layout);
    const memory::desc dst = layout_of(dst_dims(c.sh), c.layout == "plain" ? "plain"
                                                       : c.layout == "mixed" ? "cl" : "any");
    return pooling_forward::primitive_desc({prop_kind::forward_inference, c.alg, src, dst, c.sh.s,
                                            c.sh.k, c.sh.d, c.sh.pl, c.sh.pr}, attr);
}

// Small halves: maxima are exact, sums too (the averages round once, at the division).
std::vector<float> halves(int64_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = static_cast<float>(static_cast<int>(rng() % 33) - 16) * 0.5f;
    return v;
}

// Runs pd on the plain src, dst_old and operands; returns dst, plain.
std::vector<float> run(const pooling_forward::primitive_desc &pd, const post_ops &chain,
                       const std::vector<float> &src, const std::vector<float> &dst_old,
                       unsigned seed) {
    const memory s = from_plain(src, pd.src_desc());
    const memory d = from_plain(dst_old, pd.dst_desc());
    exec_args args {{PRIM_ARG_SRC, s}, {PRIM_ARG_DST, d}};
    for (int i = 0; i < chain.len(); ++i) {
        const post_ops::entry &e = chain.entries()[i];
        if (e.kind != post_ops::kind::binary && e.kind != post_ops::kind::prelu) continue;
        const int arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i)
                        | (e.kind == post_ops::kind::prelu ? PRIM_ARG_WEIGHTS : PRIM_ARG_SRC_1);
        const memory::desc md = pd.query_md(arg);
        std::vector<float> v = halves(count(md.get_dims()), seed + 7 + static_cast<unsigned>(i));
        if (e.alg == algorithm::binary_div)
            for (float &x : v) x = x >= 0 ? 2.f : -0.5f; // exact divisions
        args[arg] = from_plain(v, md);
    }
    pooling_forward(pd).execute(args);
    return to_plain(d);
}

// JIT (expected on the channels-last and blocked layouts) against the reference.
void check(const pool_case &c, cpu_isa isa, unsigned seed) {
    const char *alg = impl::pool_alg_name(c.alg);
    INFO("src " << count(c.sh.src) << " elements, rank " << c.sh.src.size() << ", alg " << alg
         << ", layout " << c.layout << ", chain '" << to_string(c.chain) << "', isa "
         << cpu_isa_name(isa));
    const auto jit = create(c, isa), ref = create(c, cpu_isa::none);
    REQUIRE(ref.impl_name() == "ref");
    const cpu_isa effective = std::min(isa, get_effective_cpu_isa());
    if (effective == cpu_isa::none) {
        CHECK(jit.impl_name() == "ref");
    } else {
        // A block of 8 channels runs on the avx2 kernel; plain src with channels-last dst is
        // repacked.
        const cpu_isa kernel = c.layout == "8c" ? cpu_isa::avx2 : effective;
        CHECK(jit.impl_name()
              == std::string("jit:") + cpu_isa_name(kernel) + (c.layout == "mixed" ? "+repack" : ""));
    }
    // 'any' is channels-last on the JIT, plain on the reference.
    if (c.layout != "any") {
        CHECK(jit.dst_desc() == ref.dst_desc());
        CHECK(jit.src_desc() == ref.src_desc());
    }
    const std::vector<float> src = halves(count(c.sh.src), seed);
    const std::vector<float> dst_old = halves(count(dst_dims(c.sh)), seed + 1);
    const std::vector<float> got = run(jit, c.chain, src, dst_old, seed);
    const std::vector<float> want = run(ref, c.chain, src, dst_old, seed);
    REQUIRE(got.size() == want.size());
    int64_t bad = 0, first_bad = -1;
    for (size_t i = 0; i < got.size(); ++i) {
        const bool same_nan = std::isnan(got[i]) && std::isnan(want[i]);
        const double tol = 1e-5 * std::max(1.0, std::fabs(static_cast<double>(want[i])));
        if (same_nan || std::fabs(static_cast<double>(got[i]) - want[i]) <= tol) continue;
        if (first_bad < 0) first_bad = static_cast<int64_t>(i);
        ++bad;
    }
    INFO("first mismatch at " << first_bad << ": jit " << (first_bad >= 0 ? got[first_bad] : 0.f)
         << " ref " << (first_bad >= 0 ? want[first_bad] : 0.f));
    CHECK(bad == 0);
}

std::vector<shape> shapes() {
    return {
        // 1D, channel tail, padding both sides.
        {{2, 19, 11}, {3}, {2}, {0}, {1}, {1}},
        // 2D, ceil-mode end padding (ph_r 2 > ph_l 1), kernel 3x2.
        {{2, 37, 9, 7}, {3, 2}, {2, 1}, {0, 0}, {1, 0}, {2, 1}},
        // Strides larger than the kernel (taps skipped between windows).
        {{1, 24, 10, 11}, {2, 2}, {3, 4}, {0, 0}, {0, 0}, {0, 0}},
        // Dilation with padding: edge windows lose some of their spread taps.
        {{2, 20, 9, 8}, {3, 3}, {1, 2}, {1, 2}, {2, 2}, {2, 1}},
        // 3D, every dim different.
        {{2, 17, 5, 6, 4}, {2, 3, 2}, {2, 1, 2}, {0, 0, 0}, {1, 1, 0}, {1, 1, 0}},
        // Global pooling: the kernel is the spatial size (on plain layouts, the plane reduced as
        // one run: a few vectors and a tail, then blocks of vectors).
        {{3, 35, 7, 6}, {7, 6}, {1, 1}, {0, 0}, {0, 0}, {0, 0}},
        {{2, 5, 20, 13}, {20, 13}, {1, 1}, {0, 0}, {0, 0}, {0, 0}},
        {{2, 3, 4, 5, 6}, {4, 5, 6}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
        // More channels than one chunk of registers holds, windows larger than the input.
        {{1, 200, 3, 3}, {4, 4}, {1, 1}, {0, 0}, {2, 2}, {1, 1}},
        // Long rows: the plain-layout kernel's blocks of vectors along ow, contiguous (stride 1)
        // and gathered (stride 2), then single vectors and a tail.
        {{1, 3, 5, 75}, {3, 3}, {1, 1}, {0, 0}, {1, 1}, {1, 1}},
        {{2, 2, 3, 141}, {2, 3}, {1, 2}, {0, 1}, {0, 1}, {0, 1}},
        {{1, 2, 2, 300}, {1, 3}, {1, 2}, {0, 0}, {0, 1}, {0, 1}},
    };
}

std::vector<post_ops> chains() {
    std::vector<post_ops> out(4);
    out[1].append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    out[1].append_sum(0.5f);
    out[2].append_binary(algorithm::binary_add, policy::per_oc);
    out[2].append_prelu(policy::per_tensor);
    out[2].append_binary(algorithm::binary_mul, policy::per_mb_spatial);
    out[2].append_eltwise(algorithm::eltwise_linear, 2.f, -1.f);
    out[3].append_sum(1.f);
    out[3].append_eltwise(algorithm::eltwise_gelu_erf, 0.f, 0.f);
    out[3].append_binary(algorithm::binary_div, policy::common);
    out[3].append_binary(algorithm::binary_max, policy::per_tensor);
    out[3].append_sum(-1.f);
    return out;
}

const algorithm all_algs[] = {algorithm::pooling_max, algorithm::pooling_avg_include_padding,
                              algorithm::pooling_avg_exclude_padding};

pooling_forward::primitive_desc plain_1d(algorithm alg, const dims &src, int64_t k, int64_t s,
                                         int64_t pl, int64_t pr, int64_t d = 0) {
    const int64_t e = (k - 1) * (d + 1) + 1;
    const dims dst = {src[0], src[1], (src[2] + pl + pr - e) / s + 1};
    return pooling_forward::primitive_desc({prop_kind::forward_inference, alg, plain(src),
                                            plain(dst), {s}, {k}, {d}, {pl}, {pr}},
                                           [] {
                                               primitive_attr a;
                                               a.set_max_cpu_isa(cpu_isa::none);
                                               return a;
                                           }());
}

} // namespace

TEST_CASE("pooling: JIT matches the reference on every algorithm, layout and ISA", "[pooling]") {
    unsigned seed = 1;
    for (const shape &sh : shapes())
        for (algorithm alg : all_algs)
            for (const std::string layout : {"cl", "16c", "8c", "any", "plain", "mixed"})
                for (const post_ops &chain : chains())
                    for (cpu_isa isa : prim_test::jit_isas_under_test()) {
                        pool_case c;
                        c.sh = sh;
                        c.alg = alg;
                        c.layout = layout;
                        c.chain = chain;
                        check(c, isa, seed++);
                    }
}

TEST_CASE("pooling: hand-computed values of the three algorithms", "[pooling]") {
    // src -1 -2 -3 -4, k3 s1 p1/1: windows {pad,-1,-2} {-1,-2,-3} {-2,-3,-4} {-3,-4,pad}.
    const std::vector<float> src = {-1.f, -2.f, -3.f, -4.f};
    const std::vector<float> zeros(4, 0.f);
    const struct {
        algorithm alg;
        std::vector<float> want;
    } cases[] = {
        {algorithm::pooling_max, {-1.f, -1.f, -2.f, -3.f}}, // padding (0) never wins
        {algorithm::pooling_avg_include_padding, {-1.f, -2.f, -3.f, -7.f / 3.f}},
        {algorithm::pooling_avg_exclude_padding, {-1.5f, -2.f, -3.f, -3.5f}},
    };
    for (const auto &c : cases)
        for (const std::string layout : {"plain", "cl"})
            for (cpu_isa isa : prim_test::isas_under_test()) {
                INFO(impl::pool_alg_name(c.alg) << " " << layout << " " << cpu_isa_name(isa));
                pool_case pc;
                pc.sh = {{1, 1, 4}, {3}, {1}, {0}, {1}, {1}};
                pc.alg = c.alg;
                pc.layout = layout;
                const std::vector<float> got = run(create(pc, isa), post_ops(), src, zeros, 1);
                for (size_t i = 0; i < 4; ++i) CHECK(got[i] == Approx(c.want[i]).epsilon(1e-6));
            }
    // Dilation 1 (taps two apart), k2, p1: windows {pad,-2} {-1,-3} {-2,-4} {-3,pad}.
    const auto pd = plain_1d(algorithm::pooling_avg_include_padding, {1, 1, 4}, 2, 1, 1, 1, 1);
    CHECK(pd.dst_desc().get_dims() == dims {1, 1, 4});
    const std::vector<float> got = run(pd, post_ops(), src, zeros, 1);
    CHECK(got == std::vector<float> {-1.f, -2.f, -3.f, -1.5f});
}

TEST_CASE("pooling: a NaN tap gives NaN in max and the averages", "[pooling]") {
    for (algorithm alg : all_algs)
        for (cpu_isa isa : prim_test::isas_under_test())
            for (const std::string layout : {"cl", "16c", "plain"}) {
                INFO(impl::pool_alg_name(alg) << " " << layout << " " << cpu_isa_name(isa));
                pool_case c;
                c.sh = {{1, 19, 6}, {2}, {2}, {0}, {0}, {0}}; // windows {0,1} {2,3} {4,5}
                c.alg = alg;
                c.layout = layout;
                std::vector<float> src(19 * 6, 1.f);
                src[3 * 6 + 1] = nan_f;  // channel 3, second tap of window 0
                src[18 * 6 + 4] = nan_f; // channel 18 (the tail), first tap of window 2
                src[5 * 6 + 2] = 7.f;    // a larger value after a NaN-free window start
                const std::vector<float> got
                        = run(create(c, isa), post_ops(), src, std::vector<float>(19 * 3, 0.f), 1);
                for (int64_t ch = 0; ch < 19; ++ch)
                    for (int64_t o = 0; o < 3; ++o) {
                        const bool nan = (ch == 3 && o == 0) || (ch == 18 && o == 2);
                        INFO("channel " << ch << " output " << o);
                        CHECK(std::isnan(got[ch * 3 + o]) == nan);
                    }
                CHECK(got[5 * 3 + 1] == (alg == algorithm::pooling_max ? 7.f : 4.f));
                // Global: one window over the row.
                c.sh = {{1, 19, 6}, {6}, {1}, {0}, {0}, {0}};
                const std::vector<float> global
                        = run(create(c, isa), post_ops(), src, std::vector<float>(19, 0.f), 1);
                for (int64_t ch = 0; ch < 19; ++ch) {
                    INFO("global, channel " << ch);
                    CHECK(std::isnan(global[ch]) == (ch == 3 || ch == 18));
                }
                CHECK(global[5] == (alg == algorithm::pooling_max ? 7.f : 12.f / 6.f));
            }
}

TEST_CASE("pooling: mb0 is an empty problem that executes as a no-op", "[pooling]") {
    pool_case c;
    c.sh = {{0, 19, 6, 6}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 1}};
    for (cpu_isa isa : prim_test::isas_under_test()) {
        const auto pd = create(c, isa);
        const memory src(pd.src_desc(), nullptr), dst(pd.dst_desc(), nullptr);
        CHECK_NOTHROW(pooling_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}}));
    }
}

TEST_CASE("pooling: the descriptor prints as benchdnn's pool driver does", "[pooling]") {
    impl::pool_problem p;
    p.mb = 2;
    p.ic = 64;
    p.nsp = 2;
    for (int sp = 1; sp < 3; ++sp) {
        p.i[sp] = 56;
        p.o[sp] = 28;
        p.k[sp] = 3;
        p.s[sp] = 2;
        p.p[sp] = 1;
        p.p_end[sp] = (28 - 1) * 2 - 56 + 3 - 1;
    }
    CHECK(impl::descriptor_string(p) == "mb2ic64_ih56oh28kh3sh2ph1");
    CHECK(impl::to_string(p) == "--alg=max mb2ic64_ih56oh28kh3sh2ph1");
    p.alg = algorithm::pooling_avg_exclude_padding;
    p.o[2] = 27; // ceil mode off along w: p_end follows from o
    p.p_end[2] = (27 - 1) * 2 - 56 + 3 - 1;
    CHECK(impl::to_string(p) == "--alg=avg_np mb2ic64_ih56oh28kh3sh2ph1_iw56ow27kw3sw2pw1");
}

TEST_CASE("pooling: bad descriptors are refused with a message naming the problem", "[pooling]") {
    const memory::desc src = plain({2, 8, 6, 6});
    const memory::desc dst = plain({2, 8, 3, 3});
    const auto make = [](algorithm alg, const memory::desc &s, const memory::desc &d,
                         const dims &st, const dims &k, const dims &dl, const dims &pl,
                         const dims &pr, prop_kind pk = prop_kind::forward_inference) {
        return pooling_forward::primitive_desc({pk, alg, s, d, st, k, dl, pl, pr});
    };
    const algorithm mx = algorithm::pooling_max;
    CHECK_NOTHROW(make(mx, src, dst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}));
    CHECK_INVALID(make(algorithm::eltwise_relu, src, dst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}),
                  "is not a pooling algorithm");
    CHECK_INVALID(make(mx, plain({2, 8}), plain({2, 8}), {}, {}, {}, {}, {}),
                  "src must have 3 to 5 dims");
    CHECK_INVALID(make(mx, src, plain({2, 8, 3}), {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}),
                  "dst has 3 dims, src 4");
    CHECK_INVALID(make(mx, src, plain({2, 9, 3, 3}), {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}),
                  "must keep src's N and C");
    CHECK_INVALID(make(mx, src, dst, {2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}),
                  "strides has 1 values, src has 2 spatial dims");
    CHECK_INVALID(make(mx, src, dst, {2, 2}, {2, 2}, {0, 0}, {-1, 0}, {1, 0}),
                  "padding -1/1 of dim h is negative");
    CHECK_INVALID(make(mx, src, plain({2, 8, 1, 1}), {1, 1}, {9, 2}, {0, 0}, {1, 0}, {1, 0}),
                  "kernel extent 9 of dim h is larger than the padded src (6 + 1 + 1)");
    CHECK_INVALID(make(mx, src, plain({2, 8, 1, 1}), {1, 1}, {4, 2}, {2, 0}, {0, 0}, {0, 0}),
                  "kernel extent 10 of dim h is larger than the padded src (6 + 0 + 0)");
    CHECK_INVALID(make(mx, src, dst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {2, 0}),
                  "dst size 3 of dim h must be 4");
    CHECK_INVALID(make(mx, src, dst, {0, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}),
                  "stride 0 of dim h must be positive");
    CHECK_INVALID(make(mx, src, dst, {2, 2}, {2, 2}, {-1, 0}, {0, 0}, {0, 0}),
                  "dilation -1 of dim h is negative");
    // Padding of 2 before a kernel of 2: the first window sees padding only.
    CHECK_INVALID(make(mx, src, plain({2, 8, 4, 3}), {2, 2}, {2, 2}, {0, 0}, {2, 0}, {0, 0}),
                  "oh=0 is a window of padding only");
    CHECK_INVALID(make(algorithm::pooling_avg_include_padding, src, plain({2, 8, 4, 3}), {2, 2},
                       {2, 2}, {0, 0}, {0, 0}, {2, 0}),
                  "oh=3 is a window of padding only");
    CHECK_INVALID(make(mx, src, dst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0},
                       prop_kind::forward_training),
                  "forward_training is not supported for pooling_max");
    CHECK_NOTHROW(make(algorithm::pooling_avg_include_padding, src, dst, {2, 2}, {2, 2}, {0, 0},
                       {0, 0}, {0, 0}, prop_kind::forward_training));
    CHECK_INVALID(make(mx, memory::desc(), dst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}),
                  "src desc is empty");
}

TEST_CASE("pooling: which JIT kernel takes which layouts", "[pooling]") {
    if (get_effective_cpu_isa() == cpu_isa::none) return;
    // The f32 kernels name avx512 also where the CPU has VNNI.
    const std::string jit = std::string("jit:") + cpu_isa_name(std::min(get_effective_cpu_isa(), cpu_isa::avx512));
    pool_case c;
    c.sh = {{2, 16, 8, 8}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}};
    c.layout = "plain";
    const auto plain_pd = create(c, cpu_isa::all);
    CHECK(plain_pd.impl_name() == jit); // the plain-layout kernel, no repack
    CHECK(plain_pd.src_desc() == plain(c.sh.src));
    c.layout = "mixed";
    CHECK(create(c, cpu_isa::all).impl_name() == jit + "+repack");
    // A per_tensor operand given plain while the kernel's dst is channels-last: the reference.
    c.chain.append_binary(algorithm::binary_add, plain(dst_dims(c.sh)));
    CHECK(create(c, cpu_isa::all).impl_name() == "ref");
    c.chain = post_ops();
    c.layout = "any";
    const auto pd = create(c, cpu_isa::all);
    CHECK(pd.impl_name().rfind("jit:", 0) == 0);
    CHECK(pd.src_desc().layout() == "acdb");
    CHECK(pd.dst_desc().layout() == "acdb");
}

TEST_CASE("pooling: strided channels-last src and dst, and a dst overlapping src", "[pooling]") {
    // src nhwc with a gap after every pixel's channels (strides in elements), dst nhwc with a gap
    // after every row: the JIT reads and writes them in place.
    const dims sd = {2, 19, 6, 5}, dd = {2, 19, 3, 5};
    const memory::desc src_md(sd, dt::f32, dims {6 * 5 * 24, 1, 5 * 24, 24});
    const memory::desc dst_md(dd, dt::f32, dims {3 * 6 * 19, 1, 6 * 19, 19});
    for (cpu_isa isa : prim_test::isas_under_test()) {
        INFO(cpu_isa_name(isa));
        primitive_attr attr;
        attr.set_max_cpu_isa(isa);
        post_ops po;
        po.append_sum(2.f);
        attr.set_post_ops(po);
        const pooling_forward::primitive_desc pd(
                {prop_kind::forward_inference, algorithm::pooling_avg_exclude_padding, src_md,
                 dst_md, {2, 1}, {3, 3}, {0, 0}, {1, 1}, {1, 1}}, attr);
        if (std::min(isa, get_effective_cpu_isa()) != cpu_isa::none)
            CHECK(pd.impl_name().rfind("jit:", 0) == 0);
        const std::vector<float> src = halves(count(sd), 3), old = halves(count(dd), 4);
        const std::vector<float> got = run(pd, po, src, old, 5);
        pool_case ref_case;
        ref_case.sh = {sd, {3, 3}, {2, 1}, {0, 0}, {1, 1}, {1, 1}};
        ref_case.alg = algorithm::pooling_avg_exclude_padding;
        ref_case.layout = "plain";
        ref_case.chain = po;
        const std::vector<float> want = run(create(ref_case, cpu_isa::none), po, src, old, 5);
        CHECK(got == want);
    }
    // One buffer for src and dst: refused at execute, the data left alone.
    const memory::desc s = plain({1, 16, 4, 4}), d = plain({1, 16, 2, 2});
    const pooling_forward::primitive_desc pd(
            {prop_kind::forward_inference, algorithm::pooling_max, s, d, {2, 2}, {2, 2}, {0, 0},
             {0, 0}, {0, 0}});
    const memory buf(s);
    CHECK_INVALID(pooling_forward(pd).execute({{PRIM_ARG_SRC, buf}, {PRIM_ARG_DST, memory(d, data(buf))}}),
                  "dst and src overlap");
}

TEST_CASE("pooling: benchdnn's pool descriptor parses back from its printed form", "[pooling]") {
    bdl::settings s;
    const impl::pool_problem p = bdl::parse_pool_problem("mb2ic64_ih56oh28kh3sh2ph1", s);
    CHECK(p.nsp == 2);
    CHECK(p.o[impl::SP_W] == 28);
    CHECK(p.p_end[impl::SP_H] == 0);
    CHECK(impl::descriptor_string(p) == "mb2ic64_ih56oh28kh3sh2ph1");
    // Fields in any order, o derived, the w group copied, ceil mode through o.
    CHECK(impl::descriptor_string(bdl::parse_pool_problem("kh3ih10ic19sh2oh6", s))
          == "mb2ic19_ih10oh6kh3sh2ph1");
    CHECK(bdl::parse_pool_problem("ic19ih10oh6kh3sh2ph1", s).p_end[impl::SP_H] == 2);
    s.mb = 5;
    s.palg = algorithm::pooling_avg_exclude_padding;
    CHECK(impl::to_string(bdl::parse_pool_problem("ic3iw7kw2n\"x\"", s))
          == "--alg=avg_np mb5ic3_iw7ow6kw2n\"x\"");
    CHECK_INVALID(bdl::parse_pool_problem("ic3oc3ih5kh2", s), "field 'oc' at position 3 is not a pooling field");
    CHECK_INVALID(bdl::parse_pool_problem("g2ic4ih5kh2", s), "field 'g' at position 0 is not a pooling field");
    CHECK_INVALID(bdl::parse_pool_problem("ic3ih2kh2ph2", s), "oh=0 is a window of padding only");
    CHECK_INVALID(bdl::parse_pool_problem("ih5kh2", s), "field 'ic' is required");

    // Random problems: the printed form parses back to the same problem.
    std::mt19937 rng(7);
    int checked = 0;
    for (int t = 0; t < 3000; ++t) {
        const int nsp = 1 + static_cast<int>(rng() % 3);
        std::string text = "mb" + std::to_string(rng() % 4) + "ic" + std::to_string(1 + rng() % 40);
        for (int sp = 3 - nsp; sp < 3; ++sp) {
            const char dim = "dhw"[sp];
            text += std::string("_i") + dim + std::to_string(1 + rng() % 20);
            text += std::string("k") + dim + std::to_string(1 + rng() % 4);
            if (rng() % 2) text += std::string("s") + dim + std::to_string(1 + rng() % 3);
            if (rng() % 2) text += std::string("p") + dim + std::to_string(rng() % 3);
            if (rng() % 3 == 0) text += std::string("d") + dim + std::to_string(rng() % 2);
        }
        bdl::settings st;
        st.palg = all_algs[rng() % 3];
        impl::pool_problem p1;
        try {
            p1 = bdl::parse_pool_problem(text, st);
        } catch (const error &) {
            continue; // an invalid random problem (kernel larger than the input, ...)
        }
        INFO(text << " -> " << impl::to_string(p1));
        const impl::pool_problem p2 = bdl::parse_pool_problem(impl::descriptor_string(p1), st);
        CHECK(impl::to_string(p2) == impl::to_string(p1));
        bool same = p1.mb == p2.mb && p1.ic == p2.ic && p1.nsp == p2.nsp;
        for (int sp = 0; sp < 3; ++sp)
            same = same && p1.i[sp] == p2.i[sp] && p1.o[sp] == p2.o[sp] && p1.k[sp] == p2.k[sp]
                   && p1.s[sp] == p2.s[sp] && p1.p[sp] == p2.p[sp] && p1.p_end[sp] == p2.p_end[sp]
                   && p1.d[sp] == p2.d[sp];
        CHECK(same);
        ++checked;
    }
    CHECK(checked > 1000);
}

TEST_CASE("pooling: runtime post-op parameters are read at every execute", "[pooling]") {
    post_ops rt;
    rt.append_eltwise(algorithm::eltwise_relu, PRIM_RUNTIME_F32_VAL, 0.f);
    rt.append_sum(PRIM_RUNTIME_F32_VAL);
    rt.append_eltwise(algorithm::eltwise_linear, PRIM_RUNTIME_F32_VAL, PRIM_RUNTIME_F32_VAL,
                      PRIM_RUNTIME_F32_VAL);
    // Per entry {alpha, beta, scale}: two executes of one primitive with different values.
    const std::vector<std::vector<std::vector<float>>> value_sets = {
            {{0.25f, 0, 0}, {0, 0, 0.5f}, {2.f, -1.f, 1.5f}},
            {{0.1f, 0, 0}, {0, 0, -2.f}, {-0.5f, 3.f, 1.f}}};
    for (const std::string layout : {"cl", "16c", "plain"})
        for (cpu_isa isa : prim_test::isas_under_test()) {
            INFO(layout << " " << cpu_isa_name(isa));
            pool_case c;
            c.sh = {{2, 19, 7, 9}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 1}};
            c.alg = algorithm::pooling_avg_exclude_padding;
            c.layout = layout;
            c.chain = rt;
            const auto pd = create(c, isa);
            if (std::min(isa, get_effective_cpu_isa()) != cpu_isa::none)
                CHECK(pd.impl_name().rfind("jit:", 0) == 0);
            const pooling_forward prim(pd);
            const std::vector<float> src = halves(count(c.sh.src), 11);
            const std::vector<float> old = halves(count(dst_dims(c.sh)), 12);
            for (const auto &values : value_sets) {
                post_ops fixed;
                fixed.append_eltwise(algorithm::eltwise_relu, values[0][0], 0.f);
                fixed.append_sum(values[1][2]);
                fixed.append_eltwise(algorithm::eltwise_linear, values[2][0], values[2][1], values[2][2]);
                pool_case fc = c;
                fc.chain = fixed;
                const std::vector<float> want = run(create(fc, cpu_isa::none), fixed, src, old, 1);
                const memory s = from_plain(src, pd.src_desc()), d = from_plain(old, pd.dst_desc());
                exec_args args {{PRIM_ARG_SRC, s}, {PRIM_ARG_DST, d}};
                for (int i = 0; i < 3; ++i) {
                    memory m(memory::desc({3}, dt::f32, tag::x));
                    std::copy(values[i].begin(), values[i].end(), data(m));
                    args[PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_ATTR_POST_OP_PARAMS] = m;
                }
                prim.execute(args);
                const std::vector<float> got = to_plain(d);
                REQUIRE(got.size() == want.size());
                for (size_t i = 0; i < got.size(); ++i)
                    CHECK(got[i] == Approx(want[i]).epsilon(1e-6).margin(1e-6));
            }
        }
}
