// Binary and prelu post-ops on whole primitives, through the public API (whichever
// implementation creation picks, and capped to the reference).
// Convolution (1D, 2D, 3D, grouped), inner product and eltwise, with chains mixing binary entries
// of every algorithm and policy, prelu, eltwise and sum entries, on plain, channels-last, blocked
// and 'any' destinations, channel tails (oc 19) and odd spatial sizes. Operands either follow the
// destination (a policy mask: their descs queried with query_md) or are given by the user in
// another layout than dst. Each result is compared exactly (integer-filled data) with the same
// primitive run without the chain, the chain then applied here by plain loops over coordinates.
// Each case runs twice: capped to the reference, and with the default ISA (the JIT).
#include "api_test_util.hpp"

#include <memory>

namespace {

// ---- data in any layout ---------------------------------------------------------------------

// Integers in [lo, hi], a fixed sequence per seed: every product and sum below stays exact.
std::vector<float> integers(int64_t n, int lo, int hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(lo, hi);
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = static_cast<float>(dist(rng));
    return v;
}

// Values from a short list (divisors that keep quotients exact, slopes).
std::vector<float> picks(int64_t n, const std::vector<float> &from, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = from[rng() % from.size()];
    return v;
}

// The layout letters of a rank: plain "abcd", channels-last "acdb" (rank 2: "ba").
std::string plain_pattern(size_t rank) {
    std::string p;
    for (size_t i = 0; i < rank; ++i) p += static_cast<char>('a' + i);
    return p;
}
std::string channels_last_pattern(size_t rank) {
    if (rank == 2) return "ba";
    std::string p = "a";
    for (size_t i = 2; i < rank; ++i) p += static_cast<char>('a' + i);
    return p + "b";
}

// ---- the chain, described so that the test can apply it itself ------------------------------

enum class po_kind { sum, eltwise, binary, prelu };
// binary: the operand follows dst, or is given plain, channels-last, or by strides with gaps
// (every other float of a larger buffer, channels innermost).
enum class src1_given { no, plain, channels_last, strided };

struct po_spec {
    po_kind kind;
    algorithm alg = algorithm::undef;
    float alpha = 0.f, beta = 0.f, scale = 1.f;
    int mask = post_ops::policy::common;
    src1_given given = src1_given::no;
};

po_spec sum(float scale) { return {po_kind::sum, algorithm::undef, 0.f, 0.f, scale}; }
po_spec relu(float alpha = 0.f) { return {po_kind::eltwise, algorithm::eltwise_relu, alpha}; }
po_spec linear(float a, float b) { return {po_kind::eltwise, algorithm::eltwise_linear, a, b}; }
po_spec binary_entry(algorithm alg, int mask, src1_given given = src1_given::no) {
    return {po_kind::binary, alg, 0.f, 0.f, 1.f, mask, given};
}
po_spec prelu(int mask) { return {po_kind::prelu, algorithm::undef, 0.f, 0.f, 1.f, mask}; }

// dst dims with the dims outside mask set to 1 (bits beyond the rank ignored).
dims operand_dims(const dims &dst, int mask) {
    dims d = dst;
    for (size_t i = 0; i < d.size(); ++i)
        if (!((mask >> i) & 1)) d[i] = 1;
    return d;
}

memory::desc given_src1(const po_spec &s, const dims &dst) {
    const dims d = operand_dims(dst, s.mask);
    if (s.given == src1_given::strided) {
        const std::string order = channels_last_pattern(d.size()); // outermost first
        dims strides(d.size());
        memory::dim step = 2;
        for (int i = static_cast<int>(order.size()) - 1; i >= 0; --i) {
            strides[order[i] - 'a'] = step;
            step *= d[order[i] - 'a'];
        }
        return memory::desc(d, dt::f32, strides);
    }
    return memory::desc(d, dt::f32,
                        s.given == src1_given::plain ? plain_pattern(d.size())
                                                     : channels_last_pattern(d.size()));
}

post_ops build_chain(const std::vector<po_spec> &specs, const dims &dst) {
    post_ops po;
    for (const po_spec &s : specs) {
        switch (s.kind) {
        case po_kind::sum: po.append_sum(s.scale); break;
        case po_kind::eltwise: po.append_eltwise(s.alg, s.alpha, s.beta, s.scale); break;
        case po_kind::prelu: po.append_prelu(s.mask); break;
        case po_kind::binary:
            if (s.given == src1_given::no)
                po.append_binary(s.alg, s.mask);
            else
                po.append_binary(s.alg, given_src1(s, dst));
            break;
        }
    }
    return po;
}

int operand_arg(const po_spec &s, int i) {
    return PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | (s.kind == po_kind::prelu ? PRIM_ARG_WEIGHTS
                                                                         : PRIM_ARG_SRC_1);
}

// Plain operand values suited to the entry: exact quotients for div, small factors for mul,
// slopes for prelu, and values near the running x for the others.
std::vector<float> operand_values(const po_spec &s, int64_t n, unsigned seed) {
    if (s.kind == po_kind::prelu) return picks(n, {-2.f, -1.f, 0.f, 0.5f, 1.f, 3.f}, seed);
    switch (s.alg) {
    case algorithm::binary_div: return picks(n, {1.f, 2.f, 4.f, -2.f, -1.f, 0.5f}, seed);
    case algorithm::binary_mul: return integers(n, -3, 3, seed);
    default: return integers(n, -12, 12, seed);
    }
}

// One binary algorithm, written out here (independent of the library's table).
float binary_value(algorithm alg, float a, float b) {
    switch (alg) {
    case algorithm::binary_add: return a + b;
    case algorithm::binary_sub: return a - b;
    case algorithm::binary_mul: return a * b;
    case algorithm::binary_div: return a / b;
    case algorithm::binary_max: return a > b ? a : b;
    case algorithm::binary_min: return a < b ? a : b;
    case algorithm::binary_ge: return a >= b ? 1.f : 0.f;
    case algorithm::binary_gt: return a > b ? 1.f : 0.f;
    case algorithm::binary_le: return a <= b ? 1.f : 0.f;
    case algorithm::binary_lt: return a < b ? 1.f : 0.f;
    case algorithm::binary_eq: return a == b ? 1.f : 0.f;
    case algorithm::binary_ne: return a != b ? 1.f : 0.f;
    default: break;
    }
    FAIL("not a binary algorithm");
    return 0.f;
}

float eltwise_value(const po_spec &s, float x) {
    float f = 0.f;
    switch (s.alg) {
    // A zero alpha gives +0 for negative x (a product with an exact zero factor is zero, as the
    // library defines it at x = -inf too), not alpha * x = -0.
    case algorithm::eltwise_relu: f = x > 0.f ? x : (s.alpha == 0.f ? 0.f : s.alpha * x); break;
    case algorithm::eltwise_linear: f = s.alpha * x + s.beta; break;
    default: FAIL("the test applies relu and linear only");
    }
    return s.scale * f;
}

// ---- one primitive, created and run ---------------------------------------------------------

struct created {
    primitive_desc_base pd; // queries
    std::function<void(const exec_args &)> run;
};

// Builds the primitive for a dst desc and an attribute.
using maker = std::function<created(const memory::desc &dst, const primitive_attr &attr)>;

struct shape {
    std::string name;
    dims dst;
    maker make;
    bool has_weights;
};

// An ungrouped convolution with bias, stride 1, the same padding at both ends; src and weights
// 'any' (the implementation chooses).
shape conv_shape(const std::string &name, dims src, dims wei, dims dst, dims pad) {
    const size_t sp = src.size() - 2;
    maker make = [=](const memory::desc &dst_md, const primitive_attr &attr) {
        const memory::desc src_md(src, dt::f32, tag::any), wei_md(wei, dt::f32, tag::any),
                bias_md({dst[1]}, dt::f32, tag::a);
        const convolution_forward::primitive_desc pd(
                {prop_kind::forward_inference, algorithm::convolution_direct, src_md, wei_md,
                 bias_md, dst_md, dims(sp, 1), dims(sp, 0), pad, pad},
                attr);
        const convolution_forward conv(pd);
        return created {pd, [conv](const exec_args &a) { conv.execute(a); }};
    };
    return {name, dst, make, true};
}

shape ip_shape() {
    const dims src = {3, 5, 2, 2}, wei = {19, 5, 2, 2}, dst = {3, 19};
    maker make = [=](const memory::desc &dst_md, const primitive_attr &attr) {
        const inner_product_forward::primitive_desc pd(
                {prop_kind::forward_inference, memory::desc(src, dt::f32, tag::any),
                 memory::desc(wei, dt::f32, tag::any), memory::desc({19}, dt::f32, tag::a), dst_md},
                attr);
        const inner_product_forward ip(pd);
        return created {pd, [ip](const exec_args &a) { ip.execute(a); }};
    };
    return {"inner_product mb3ic5ih2iw2oc19", dst, make, true};
}

// Eltwise linear(x) = 2x - 3 from a plain or channels-last src, the ISA capped at isa.
shape eltwise_shape(const dims &d, bool channels_last_src, cpu_isa isa) {
    maker make = [=](const memory::desc &dst_md, const primitive_attr &attr) {
        const memory::desc src_md(d, dt::f32,
                                  channels_last_src ? channels_last_pattern(d.size())
                                                    : plain_pattern(d.size()));
        primitive_attr capped = attr;
        capped.set_max_cpu_isa(isa);
        const eltwise_forward::primitive_desc pd(
                {prop_kind::forward_inference, algorithm::eltwise_linear, src_md, dst_md, 2.f, -3.f},
                capped);
        const eltwise_forward elt(pd);
        return created {pd, [elt](const exec_args &a) { elt.execute(a); }};
    };
    return {std::string("eltwise linear:2:-3 ") + (channels_last_src ? "channels-last src" : "plain src"),
            d, make, false};
}

// Runs shape with chain specs on a dst of layout dst_layout ("any" or a pattern): once without
// the chain (its dst read back plain is acc), once with it; the second must equal the chain
// applied here to acc, dst_old and the operands' plain values.
void check_chain(const shape &sh, const std::string &dst_layout, const std::vector<po_spec> &specs,
                 unsigned seed) {
    const dims &dd = sh.dst;
    const memory::desc dst_req = dst_layout == "any" ? memory::desc(dd, dt::f32, tag::any)
                                                     : memory::desc(dd, dt::f32, dst_layout);
    const post_ops chain = build_chain(specs, dd);
    INFO(sh.name << ", dst " << dst_layout << ", chain " << to_string(chain));

    primitive_attr with_chain;
    with_chain.set_post_ops(chain);
    const created plain_run = sh.make(dst_req, primitive_attr());
    const created fused = sh.make(dst_req, with_chain);
    INFO("implementations: " << plain_run.pd.impl_name() << " without the chain, "
                             << fused.pd.impl_name() << " with it");
    CHECK(fused.pd.get_primitive_attr().get_post_ops() == chain);

    // The same inputs for both runs, each in the layout its primitive chose.
    const memory::desc src_md = fused.pd.src_desc();
    const std::vector<float> src_v = integers(count(src_md.get_dims()), -3, 3, seed);
    std::vector<float> wei_v, bias_v;
    if (sh.has_weights) {
        wei_v = integers(count(fused.pd.weights_desc().get_dims()), -2, 2, seed + 1);
        bias_v = integers(count(fused.pd.bias_desc().get_dims()), -5, 5, seed + 2);
    }
    const std::vector<float> dst_old = integers(count(dd), -9, 9, seed + 3);
    const auto args_of = [&](const primitive_desc_base &pd, memory &dst) {
        exec_args a {{PRIM_ARG_SRC, from_plain(src_v, pd.src_desc())}};
        if (sh.has_weights) {
            a[PRIM_ARG_WEIGHTS] = from_plain(wei_v, pd.weights_desc());
            a[PRIM_ARG_BIAS] = from_plain(bias_v, pd.bias_desc());
        }
        dst = from_plain(dst_old, pd.dst_desc());
        a[PRIM_ARG_DST] = dst;
        return a;
    };
    memory acc_mem, out_mem;
    plain_run.run(args_of(plain_run.pd, acc_mem));
    const std::vector<float> acc = to_plain(acc_mem);

    // The operands: descs queried from the primitive, values plain in the operand's dims.
    exec_args args = args_of(fused.pd, out_mem);
    std::vector<std::vector<float>> operands(specs.size());
    std::vector<dims> op_dims(specs.size());
    for (size_t i = 0; i < specs.size(); ++i) {
        const po_spec &s = specs[i];
        if (s.kind != po_kind::binary && s.kind != po_kind::prelu) {
            CHECK(fused.pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i))
                                    | PRIM_ARG_SRC_1).is_zero());
            continue;
        }
        const memory::desc md = fused.pd.query_md(operand_arg(s, static_cast<int>(i)));
        INFO("post-op " << i << " operand desc " << md.layout());
        op_dims[i] = operand_dims(dd, s.mask);
        REQUIRE(md.get_dims() == op_dims[i]);
        if (s.kind == po_kind::binary && s.given != src1_given::no) CHECK(md == given_src1(s, dd));
        operands[i] = operand_values(s, count(op_dims[i]), seed + 10 + static_cast<unsigned>(i));
        args[operand_arg(s, static_cast<int>(i))] = from_plain(operands[i], md);
    }
    fused.run(args);
    const std::vector<float> got = to_plain(out_mem);

    int64_t mismatches = 0;
    std::vector<int64_t> co(dd.size());
    for (int64_t e = 0; e < count(dd); ++e) {
        int64_t rest = e;
        for (int d = static_cast<int>(dd.size()) - 1; d >= 0; --d) {
            co[d] = rest % dd[d];
            rest /= dd[d];
        }
        const auto operand_at = [&](size_t i) {
            int64_t off = 0;
            for (size_t d = 0; d < dd.size(); ++d)
                off = off * op_dims[i][d] + (op_dims[i][d] == 1 ? 0 : co[d]);
            return operands[i][static_cast<size_t>(off)];
        };
        float x = acc[static_cast<size_t>(e)];
        for (size_t i = 0; i < specs.size(); ++i) {
            const po_spec &s = specs[i];
            switch (s.kind) {
            case po_kind::sum:
                x = static_cast<float>(static_cast<double>(x)
                                       + s.scale * static_cast<double>(dst_old[e]));
                break;
            case po_kind::eltwise: x = eltwise_value(s, x); break;
            case po_kind::binary: x = binary_value(s.alg, x, operand_at(i)); break;
            case po_kind::prelu: x = x > 0.f ? x : x * operand_at(i); break;
            }
        }
        const float y = got[static_cast<size_t>(e)];
        uint32_t bx, by;
        std::memcpy(&bx, &x, 4);
        std::memcpy(&by, &y, 4);
        if (bx != by && !(std::isnan(x) && std::isnan(y)) && ++mismatches <= 5) {
            std::string at;
            for (size_t d = 0; d < co.size(); ++d) at += (d ? "," : "") + std::to_string(co[d]);
            INFO("element (" << at << "): acc " << acc[e] << ", dst_old " << dst_old[e]);
            CHECK(y == x);
        }
    }
    CHECK(mismatches == 0);
}

// ---- the chains -----------------------------------------------------------------------------

using policy = post_ops::policy;
const int w_dim_of_4d = 1 << 3; // a custom mask: along the last dim of a 4D destination

std::vector<std::vector<po_spec>> chains_4d() {
    return {
        // A bias-like add per channel, then relu.
        {binary_entry(algorithm::binary_add, policy::per_oc), relu()},
        // sum first, a full-tensor product, channel slopes, an eltwise.
        {sum(1.f), binary_entry(algorithm::binary_mul, policy::per_tensor), prelu(policy::per_oc),
         linear(1.f, -5.f)},
        // prelu first, every policy, sums and comparisons in the middle.
        {prelu(policy::common), binary_entry(algorithm::binary_sub, policy::per_mb_spatial), sum(0.5f),
         binary_entry(algorithm::binary_max, policy::common), binary_entry(algorithm::binary_min, w_dim_of_4d),
         relu(0.5f), binary_entry(algorithm::binary_ge, policy::per_oc), linear(7.f, -3.f), sum(2.f)},
        // Operands given by the user: plain, channels-last and strided with gaps whatever dst's
        // layout, and one following dst.
        {binary_entry(algorithm::binary_add, policy::per_oc, src1_given::channels_last),
         binary_entry(algorithm::binary_div, policy::per_tensor, src1_given::plain),
         binary_entry(algorithm::binary_sub, policy::per_mb_spatial, src1_given::channels_last),
         prelu(policy::per_tensor), sum(-1.f),
         binary_entry(algorithm::binary_mul, policy::common, src1_given::plain),
         binary_entry(algorithm::binary_max, policy::per_tensor, src1_given::strided),
         binary_entry(algorithm::binary_add, policy::per_oc, src1_given::strided)},
        // Every binary algorithm once, linear entries spreading the comparisons' 0/1 again.
        {binary_entry(algorithm::binary_add, policy::per_oc), binary_entry(algorithm::binary_sub, policy::common),
         binary_entry(algorithm::binary_mul, policy::per_mb_spatial),
         binary_entry(algorithm::binary_div, policy::per_oc, src1_given::plain),
         binary_entry(algorithm::binary_max, policy::per_tensor), binary_entry(algorithm::binary_min, 5),
         binary_entry(algorithm::binary_ge, policy::per_oc), linear(9.f, -4.f),
         binary_entry(algorithm::binary_gt, policy::per_mb_spatial), linear(-6.f, 2.f),
         binary_entry(algorithm::binary_le, policy::per_tensor), linear(5.f, -1.f),
         binary_entry(algorithm::binary_lt, 9), linear(3.f, 1.f), binary_entry(algorithm::binary_eq, policy::common),
         linear(1.f, 1.f), binary_entry(algorithm::binary_ne, policy::per_oc, src1_given::channels_last),
         sum(1.f)},
    };
}

// The destination layouts of a rank: plain, channels-last, blocked by 16 on channels
// (aBcd16b: oc 19 has a tail of 3), and 'any'.
std::vector<std::string> dst_layouts(size_t rank) {
    std::string blocked = plain_pattern(rank);
    blocked[1] = 'B';
    blocked += "16b";
    return {plain_pattern(rank), channels_last_pattern(rank), blocked, "any"};
}

} // namespace

TEST_CASE("convolution with binary and prelu post-ops, every layout", "[binary_post_ops][conv]") {
    // mb2 ic5 7x5 -> oc19 7x5 (3x3, padding 1): a channel tail and odd spatial sizes.
    const shape sh = conv_shape("conv mb2ic5ih7iw5oc19kh3kw3ph1pw1", {2, 5, 7, 5}, {19, 5, 3, 3},
                                {2, 19, 7, 5}, {1, 1});
    unsigned seed = 1;
    for (const std::string &layout : dst_layouts(4))
        for (const auto &chain : chains_4d()) check_chain(sh, layout, chain, seed++);
}

TEST_CASE("convolution 1D, 3D and grouped with binary and prelu post-ops",
          "[binary_post_ops][conv]") {
    // Rank-free policies: per_mb_spatial and per_tensor mean the same at every rank; the custom
    // masks pick other dims there.
    const std::vector<po_spec> chain = {
        binary_entry(algorithm::binary_add, policy::per_mb_spatial), prelu(policy::per_oc), sum(1.f),
        binary_entry(algorithm::binary_max, policy::per_tensor, src1_given::channels_last),
        binary_entry(algorithm::binary_mul, 1, src1_given::plain), binary_entry(algorithm::binary_lt, 4),
        linear(3.f, -1.f), prelu(policy::per_tensor)};
    unsigned seed = 100;
    const shape conv1d = conv_shape("conv 1D mb2ic3iw9oc19kw3", {2, 3, 9}, {19, 3, 3}, {2, 19, 7},
                                    {0});
    for (const std::string &layout : dst_layouts(3)) check_chain(conv1d, layout, chain, seed++);
    const shape conv3d = conv_shape("conv 3D mb1ic2id3ih4iw5oc17kd1kh3kw1ph1", {1, 2, 3, 4, 5},
                                    {17, 2, 1, 3, 1}, {1, 17, 3, 4, 5}, {0, 1, 0});
    for (const std::string &layout : dst_layouts(5)) check_chain(conv3d, layout, chain, seed++);

    // Grouped: g2 ic6 oc22, weights (g, oc/g, ic/g, kh, kw); channels keep their order in dst.
    maker make = [](const memory::desc &dst_md, const primitive_attr &attr) {
        const convolution_forward::primitive_desc pd(
                {prop_kind::forward_inference, algorithm::convolution_direct,
                 memory::desc({2, 6, 5, 5}, dt::f32, tag::any),
                 memory::desc({2, 11, 3, 3, 3}, dt::f32, tag::any),
                 memory::desc({22}, dt::f32, tag::a), dst_md, {1, 1}, {0, 0}, {1, 0}, {1, 0}},
                attr);
        const convolution_forward conv(pd);
        return created {pd, [conv](const exec_args &a) { conv.execute(a); }};
    };
    const shape grouped {"conv g2mb2ic6ih5oc22kh3ph1", {2, 22, 5, 3}, make, true};
    for (const std::string &layout : dst_layouts(4))
        for (const auto &c : chains_4d()) check_chain(grouped, layout, c, seed++);
}

TEST_CASE("inner product with binary and prelu post-ops", "[binary_post_ops][ip]") {
    // dst mb3 x oc19 (2D): per_oc is along oc, per_mb_spatial along mb; masks of higher dims
    // fall away (bits beyond the rank are ignored).
    const shape sh = ip_shape();
    unsigned seed = 200;
    for (const std::string &layout : {std::string("ab"), std::string("ba"), std::string("any")})
        for (const auto &chain : chains_4d()) check_chain(sh, layout, chain, seed++);
}

namespace {

void eltwise_chains(cpu_isa isa) {
    unsigned seed = 300;
    for (const bool channels_last_src : {false, true}) {
        const shape sh = eltwise_shape({2, 19, 3, 5}, channels_last_src, isa);
        for (const std::string &layout : dst_layouts(4))
            for (const auto &chain : chains_4d()) check_chain(sh, layout, chain, seed++);
    }
    // Rank 1 and 5: policies are rank-free.
    const std::vector<po_spec> chain = {binary_entry(algorithm::binary_sub, policy::per_tensor),
                                        prelu(policy::common), sum(1.f),
                                        binary_entry(algorithm::binary_max, policy::per_oc)};
    check_chain(eltwise_shape({37}, false, isa), "a", chain, seed++);
    check_chain(eltwise_shape({2, 3, 2, 3, 5}, true, isa), "aBcde16b", chain, seed++);
}

// src and dst the same memory: each element is read before it is written, and an operand
// indexed by the element's coordinates is read at the right place in every layout.
void eltwise_in_place(cpu_isa isa) {
    for (const char *layout : {"abcd", "acdb", "aBcd16b"}) {
        INFO("layout " << layout);
        const dims d = {2, 19, 3, 5};
        const memory::desc md(d, dt::f32, std::string(layout));
        post_ops po;
        po.append_binary(algorithm::binary_add, post_ops::policy::per_oc);
        po.append_prelu(post_ops::policy::per_mb_spatial);
        primitive_attr attr;
        attr.set_post_ops(po);
        attr.set_max_cpu_isa(isa);
        const eltwise_forward::primitive_desc pd(
                {prop_kind::forward_inference, algorithm::eltwise_abs, md, 0.f, 0.f}, attr);
        const std::vector<float> src = integers(count(d), -9, 9, 5);
        const memory data = from_plain(src, md);
        const std::vector<float> add = integers(d[1], -12, 12, 6);
        const std::vector<float> slope = integers(d[0] * d[2] * d[3], -2, 2, 7);
        const int add_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1;
        const int slope_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_WEIGHTS;
        eltwise_forward(pd).execute({{PRIM_ARG_SRC, data}, {PRIM_ARG_DST, data},
                                     {add_arg, from_plain(add, pd.query_md(add_arg))},
                                     {slope_arg, from_plain(slope, pd.query_md(slope_arg))}});
        const std::vector<float> got = to_plain(data);
        int64_t mismatches = 0;
        for (int64_t n = 0; n < d[0]; ++n)
            for (int64_t c = 0; c < d[1]; ++c)
                for (int64_t hw = 0; hw < d[2] * d[3]; ++hw) {
                    const int64_t e = (n * d[1] + c) * d[2] * d[3] + hw;
                    float x = std::fabs(src[e]) + add[c];
                    if (!(x > 0.f)) x *= slope[n * d[2] * d[3] + hw];
                    mismatches += got[e] != x;
                }
        CHECK(mismatches == 0);
    }
}

} // namespace

TEST_CASE("eltwise with binary and prelu post-ops (reference)", "[binary_post_ops][eltwise]") {
    eltwise_chains(cpu_isa::none);
}

TEST_CASE("eltwise in place with operands (reference)", "[binary_post_ops][eltwise]") {
    eltwise_in_place(cpu_isa::none);
}

TEST_CASE("eltwise with binary and prelu post-ops, default ISA", "[binary_post_ops][eltwise]") {
    eltwise_chains(cpu_isa::all);
    eltwise_in_place(cpu_isa::all);
}

TEST_CASE("operand descs follow the destination", "[binary_post_ops][query_md]") {
    // An operand given by a policy is laid out as dst with the broadcast dims 1; a broadcast
    // dim loses its block, a kept one keeps it (even when dst's dim is 1).
    const dims d = {2, 19, 3, 5};
    struct layout_case {
        const char *dst;
        int mask;
        dims op_dims;
        const char *op_layout;
    };
    const layout_case cases[] = {
        {"abcd", policy::common, {1, 1, 1, 1}, "abcd"},
        {"abcd", policy::per_oc, {1, 19, 1, 1}, "abcd"},
        {"acdb", policy::per_oc, {1, 19, 1, 1}, "acdb"},
        {"acdb", policy::per_mb_spatial, {2, 1, 3, 5}, "acdb"},
        {"acdb", policy::per_tensor, {2, 19, 3, 5}, "acdb"},
        {"aBcd16b", policy::common, {1, 1, 1, 1}, "abcd"},
        {"aBcd16b", policy::per_oc, {1, 19, 1, 1}, "aBcd16b"},
        {"aBcd16b", policy::per_mb_spatial, {2, 1, 3, 5}, "abcd"},
        {"aBcd16b", policy::per_tensor, {2, 19, 3, 5}, "aBcd16b"},
        {"aBcd16b", 5, {2, 1, 3, 1}, "abcd"},
        {"aBcd16b", 6, {1, 19, 3, 1}, "aBcd16b"},
        {"Abcd8a", policy::per_mb_spatial, {2, 1, 3, 5}, "Abcd8a"},
    };
    for (const layout_case &c : cases) {
        INFO("dst " << c.dst << ", mask " << c.mask);
        post_ops po;
        po.append_sum();
        po.append_binary(algorithm::binary_add, c.mask);
        po.append_prelu(c.mask);
        primitive_attr attr;
        attr.set_post_ops(po);
        const memory::desc dst(d, dt::f32, std::string(c.dst));
        const convolution_forward::primitive_desc pd(
                {prop_kind::forward_inference, algorithm::convolution_direct,
                 memory::desc({2, 3, 3, 5}, dt::f32, tag::any),
                 memory::desc({19, 3, 1, 1}, dt::f32, tag::any), dst, {1, 1}, {0, 0}, {0, 0},
                 {0, 0}},
                attr);
        CHECK(pd.dst_desc() == dst);
        const memory::desc expected(c.op_dims, dt::f32, std::string(c.op_layout));
        const memory::desc src1 = pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_SRC_1);
        const memory::desc slopes = pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(2) | PRIM_ARG_WEIGHTS);
        CHECK(src1.layout() == expected.layout());
        CHECK(src1 == expected);
        CHECK(slopes == expected);
        // Arguments the chain does not have are zero descs.
        CHECK(pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1).is_zero());
        CHECK(pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_WEIGHTS).is_zero());
        CHECK(pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(2) | PRIM_ARG_SRC_1).is_zero());
        CHECK(pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(3) | PRIM_ARG_SRC_1).is_zero());
        // The usual arguments answer too.
        CHECK(pd.query_md(PRIM_ARG_SRC) == pd.src_desc());
        CHECK(pd.query_md(PRIM_ARG_DST) == dst);
        CHECK(pd.query_md(PRIM_ARG_WEIGHTS) == pd.weights_desc());
        CHECK(pd.query_md(PRIM_ARG_BIAS).is_zero()); // no bias
    }
}

TEST_CASE("mb0 with operands executes as a no-op", "[binary_post_ops][conv]") {
    post_ops po;
    po.append_binary(algorithm::binary_add, post_ops::policy::per_tensor);
    po.append_prelu(post_ops::policy::per_oc);
    primitive_attr attr;
    attr.set_post_ops(po);
    const convolution_forward::primitive_desc pd(
            {prop_kind::forward_inference, algorithm::convolution_direct,
             memory::desc({0, 3, 5, 5}, dt::f32, tag::any), memory::desc({4, 3, 3, 3}, dt::f32, tag::any),
             memory::desc({0, 4, 3, 3}, dt::f32, tag::any), {1, 1}, {0, 0}, {0, 0}, {0, 0}},
            attr);
    const memory::desc src1 = pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1);
    CHECK(src1.get_dims() == dims {0, 4, 3, 3});
    const memory::desc slopes = pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_WEIGHTS);
    CHECK(slopes.get_dims() == dims {1, 4, 1, 1});
    float slope_data[4] = {1, 2, 3, 4};
    CHECK_NOTHROW(convolution_forward(pd).execute(
            {{PRIM_ARG_SRC, memory(pd.src_desc(), nullptr)},
             {PRIM_ARG_WEIGHTS, memory(pd.weights_desc(), nullptr)},
             {PRIM_ARG_DST, memory(pd.dst_desc(), nullptr)},
             {PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1, memory(src1, nullptr)},
             {PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_WEIGHTS, memory(slopes, slope_data)}}));
}
