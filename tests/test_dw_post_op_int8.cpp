// The int8 dw post-op (doc/reference.md, "The dw post-op"; CONTRACT.md §6): an int8 1x1
// convolution writing u8/s8 ("mid") for an int8 depthwise convolution in one primitive, through
// the public API. The oracle is the definition run apart: the 1x1 int8 convolution with dst = mid
// and the entries before the dw, then the depthwise convolution (groups = channels) reading mid
// with the entries after it, each with its own quantization (oneDNN v3: the depthwise's src
// scale is the 1x1's dst scale, its weights' and dst scales the dw arguments'; oneDNN 2.x: the
// 1x1's output scales and the entry's scales as the depthwise's output scales). Scales are powers
// of two and every chain entry is exact on the integers involved, so the fused result equals the
// oracle bit for bit (mid rounds the same on both sides); one case with scales that are not
// powers of two allows the contract's +-1 (and explains why a flip of mid may need more).
// Covers u8/s8 src, u8/s8 mid, every dw dst type, bias f32/s32/none, kernels 3 and 5, strides 1
// and 2, paddings 0..k-1, channel tails, one-pixel images, saturating images, nhwc and nchw,
// binary operands s8/f32 per_oc and per_tensor before and after the dw; and the refusals.
//
// PRIM_TEST_EXPECT_INT8_DW_JIT=1 also requires, on an entry whose ISA is a JIT one, that the
// fused primitive runs on that ISA's JIT ("jit:<isa>...") where the JIT pass means to take it
// (jit_expected); what it declines by design goes to the reference (doc/dw_post_op.md, "The
// int8 pair"). Off by default: the int8 pair ran on the reference when this test was written.
#include "int8_test_util.hpp"

#include <cmath>
#include <sstream>

namespace {

struct pair_shape {
    int64_t mb, ic, oc, ih, iw, k, s, p;
    int64_t oh() const { return (ih + s - 1) / s; } // ceil(ih / s), oneDNN's definition
    int64_t ow() const { return (iw + s - 1) / s; }
    int64_t pad_r_h() const { return (oh() - 1) * s - ih + k - p; }
    int64_t pad_r_w() const { return (ow() - 1) * s - iw + k - p; }
};

// How the pair is quantized.
enum class scales_kind {
    v3_common,         // src, weights (common), dst; dw weights common, dw dst
    v3_per_channel,    // weights and dw weights per channel (dw mask 3), dw dst
    v3_per_channel_1,  // the same with dw weights mask 1, no dw dst scale
    v2_common,         // output scales (common), the entry's scales common (mask 0)
    v2_per_channel,    // output scales per oc, the entry's scales per channel (mask 2)
};

struct pair_case {
    pair_shape sh;
    dt src, mid, dst, dw_bias;
    scales_kind scales;
    std::string before, after; // fusion strings of the entries before and after the dw
    bool nhwc;
    bool src_zp = false;
    bool saturate = false; // inputs that drive mid and dst to their bounds
    bool dyadic = true;    // scales powers of two (else: +-1)
};

std::string describe(const pair_case &c) {
    std::ostringstream s;
    s << "mb" << c.sh.mb << "ic" << c.sh.ic << "oc" << c.sh.oc << "ih" << c.sh.ih << "iw" << c.sh.iw << " dw:k"
      << c.sh.k << "s" << c.sh.s << "p" << c.sh.p << " " << data_type_name(c.src) << ":s8:"
      << data_type_name(c.mid) << " -> " << data_type_name(c.dst) << " dw bias " << data_type_name(c.dw_bias)
      << " scales " << static_cast<int>(c.scales) << " before '" << c.before << "' after '" << c.after << "' "
      << (c.nhwc ? "nhwc" : "nchw") << (c.src_zp ? " src zp" : "") << (c.saturate ? " saturating" : "")
      << (c.dyadic ? "" : " non-dyadic scales");
    return s.str();
}

bool is_v3(scales_kind k) { return k != scales_kind::v2_common && k != scales_kind::v2_per_channel; }
bool wei_per_channel(scales_kind k) { return k != scales_kind::v3_common && k != scales_kind::v2_common; }

// The quantization values: every one a power of two unless `dyadic` is off.
struct pair_values {
    float src_scale = 0.25f, dst_scale = 0.5f, dw_dst_scale = 4.f;
    std::vector<float> wei_scale, dw_wei_scale; // oc values (per channel) or one
    std::vector<float> oscale, entry_scales;    // 2.x
    std::vector<int32_t> src_zp;                // one value
};

pair_values values_of(const pair_case &c) {
    pair_values v;
    const int64_t n = wei_per_channel(c.scales) ? c.sh.oc : 1;
    static const float pow2[] = {1.f, 0.5f, 2.f, 0.25f};
    static const float odd[] = {0.3f, 0.7f, 1.3f, 0.45f};
    for (int64_t i = 0; i < n; ++i) {
        const float f = c.dyadic ? pow2[i % 4] : odd[i % 4];
        v.wei_scale.push_back(f);
        v.dw_wei_scale.push_back(c.dyadic ? pow2[(i + 1) % 4] : odd[(i + 2) % 4]);
        v.oscale.push_back(f / 8.f);
        v.entry_scales.push_back(c.dyadic ? pow2[(i + 3) % 4] / 4.f : odd[(i + 1) % 4] / 4.f);
    }
    if (!c.dyadic) {
        v.src_scale = 0.3f;
        v.dst_scale = 0.7f;
        v.dw_dst_scale = 3.f;
    }
    v.src_zp = {c.src == dt::u8 ? 100 : -7};
    return v;
}

memory f32_values(const std::vector<float> &v) {
    memory m(memory::desc({static_cast<int64_t>(v.size())}, dt::f32, tag::x));
    std::memcpy(m.get_data_handle(), v.data(), v.size() * sizeof(float));
    return m;
}

// A chain's eltwise and binary entries appended to po (the public fields of each entry).
void append_chain(post_ops &po, const std::string &text) {
    if (text.empty()) return;
    const post_ops parsed = parse_post_ops(text);
    for (const post_ops::entry &e : parsed.entries()) {
        if (e.kind == post_ops::kind::eltwise) po.append_eltwise(e.alg, e.alpha, e.beta, e.scale);
        else if (e.kind == post_ops::kind::binary) po.append_binary(e.alg, e.mask, e.dt);
        else FAIL("append_chain takes eltwise and binary entries");
    }
}

int chain_len(const std::string &text) { return text.empty() ? 0 : parse_post_ops(text).len(); }

memory::desc data_md(const dims &d, dt t, bool nhwc) {
    return memory::desc(d, t, nhwc ? channels_last_pattern(d.size()) : plain_pattern(d.size()));
}

// The inputs of a case, plain.
struct pair_inputs {
    std::vector<float> src, wei, bias, dw_wei, dw_bias;
    std::map<int, std::vector<float>> before_ops, after_ops; // binary operands by entry index
};

pair_inputs inputs_of(const pair_case &c) {
    std::mt19937 gen(static_cast<unsigned>(c.sh.ic * 131 + c.sh.oc * 7 + c.sh.k * 3 + c.sh.s
                                           + static_cast<int>(c.scales) * 1000));
    const pair_shape &p = c.sh;
    pair_inputs in;
    const auto [lo, hi] = range_of(c.src);
    if (c.saturate) {
        in.src = saturating_src(c.src, p.mb * p.ic * p.ih * p.iw);
        in.wei = saturating_weights(p.oc * p.ic, p.oc);
        in.dw_wei = saturating_weights(p.oc * p.k * p.k, p.oc);
    } else {
        in.src = fill(gen, p.mb * p.ic * p.ih * p.iw, lo, hi);
        in.wei = fill(gen, p.oc * p.ic, -2, 2);
        in.dw_wei = fill(gen, p.oc * p.k * p.k, -4, 4);
    }
    in.bias = fill(gen, p.oc, -40, 40);
    if (c.dw_bias != dt::undef) in.dw_bias = fill(gen, p.oc, -40, 40);
    return in;
}

// Operand values for each binary entry of chain (entry i of the whole chain at i + offset).
std::map<int, std::vector<float>> operand_values(std::mt19937 &gen, const std::string &chain,
                                                 const dims &target) {
    return chain.empty() ? std::map<int, std::vector<float>>() : random_operands(gen, parse_post_ops(chain), target);
}

// The 1x1's desc (dst: dst_dims, of type mid) and its attribute's quantization without the dw's.
struct run_result {
    std::vector<float> dst, mid; // mid: the oracle's only
    std::string impl;
};

void set_one_by_one_quant(const pair_case &c, const pair_values &v, primitive_attr &attr, exec_args &args) {
    if (is_v3(c.scales)) {
        attr.set_scales_mask(PRIM_ARG_SRC, 0);
        attr.set_scales_mask(PRIM_ARG_WEIGHTS, wei_per_channel(c.scales) ? 1 : 0);
        attr.set_scales_mask(PRIM_ARG_DST, 0);
        args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC] = f32_values({v.src_scale});
        args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_WEIGHTS] = f32_values(v.wei_scale);
        args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST] = f32_values({v.dst_scale});
    } else {
        attr.set_output_scales(wei_per_channel(c.scales) ? 1 << 1 : 0, {PRIM_RUNTIME_F32_VAL});
        args[PRIM_ARG_ATTR_OUTPUT_SCALES] = f32_values(v.oscale);
    }
    if (c.src_zp) {
        attr.set_zero_points_mask(PRIM_ARG_SRC, 0);
        memory zp(memory::desc({1}, dt::s32, tag::x));
        *static_cast<int32_t *>(zp.get_data_handle()) = v.src_zp[0];
        args[PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC] = zp;
    }
}

bool dw_dst_scaled(const pair_case &c) {
    return c.scales == scales_kind::v3_common || c.scales == scales_kind::v3_per_channel;
}

int dw_wei_mask(const pair_case &c) {
    return c.scales == scales_kind::v3_per_channel ? 3 : c.scales == scales_kind::v3_per_channel_1 ? 1 : 0;
}

// The fused primitive: one convolution with the whole chain.
run_result run_fused(const pair_case &c, const pair_inputs &in, const pair_values &v, cpu_isa isa) {
    const pair_shape &p = c.sh;
    post_ops po = parse_post_ops(c.before);
    const bool v2 = !is_v3(c.scales);
    po.append_dw(dt::s8, c.dw_bias, c.dst, p.k, p.s, p.p, v2 && wei_per_channel(c.scales) ? 2 : 0,
                 v2 ? v.entry_scales : std::vector<float>());
    append_chain(po, c.after);
    primitive_attr attr;
    attr.set_post_ops(po);
    attr.set_max_cpu_isa(isa);
    exec_args args;
    set_one_by_one_quant(c, v, attr, args);
    if (is_v3(c.scales)) {
        attr.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, dw_wei_mask(c));
        args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS] = f32_values(v.dw_wei_scale);
        if (dw_dst_scaled(c)) {
            attr.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST, 0);
            args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST] = f32_values({v.dw_dst_scale});
        }
    }
    const convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
            data_md({p.mb, p.ic, p.ih, p.iw}, c.src, c.nhwc), memory::desc({p.oc, p.ic, 1, 1}, dt::s8, tag::any),
            memory::desc({p.oc}, dt::f32, tag::x), data_md({p.mb, p.oc, p.oh(), p.ow()}, c.mid, c.nhwc),
            {1, 1}, {0, 0}, {0, 0}, {0, 0});
    const convolution_forward::primitive_desc pd(d, attr);
    REQUIRE(pd.dst_desc().get_data_type() == c.dst);
    args[PRIM_ARG_SRC] = typed_memory({p.mb, p.ic, p.ih, p.iw}, c.src, in.src);
    args[PRIM_ARG_SRC] = in_layout(args[PRIM_ARG_SRC], pd.src_desc());
    args[PRIM_ARG_WEIGHTS] = in_layout(typed_memory({p.oc, p.ic, 1, 1}, dt::s8, in.wei), pd.weights_desc());
    args[PRIM_ARG_BIAS] = typed_memory({p.oc}, dt::f32, in.bias);
    const int dw_wei = PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, dw_bias = PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS;
    args[dw_wei] = in_layout(typed_memory({p.oc, 1, 1, p.k, p.k}, dt::s8, in.dw_wei), pd.query_md(dw_wei));
    if (c.dw_bias != dt::undef)
        args[dw_bias] = in_layout(typed_memory({p.oc}, c.dw_bias, in.dw_bias), pd.query_md(dw_bias));
    add_operands(pd, in.before_ops, args);
    std::map<int, std::vector<float>> after; // the whole chain's numbering: after the dw entry
    for (const auto &[i, vals] : in.after_ops) after[i + chain_len(c.before) + 1] = vals;
    add_operands(pd, after, args);
    args[PRIM_ARG_DST] = memory(pd.dst_desc());
    convolution_forward(pd).execute(args);
    return {values_of(args[PRIM_ARG_DST]), {}, pd.impl_name()};
}

// The oracle: the two int8 convolutions apart.
run_result run_apart(const pair_case &c, const pair_inputs &in, const pair_values &v, cpu_isa isa) {
    const pair_shape &p = c.sh;
    run_result r;
    // The 1x1: dst = mid, the entries before the dw, its own quantization.
    primitive_attr a1;
    a1.set_post_ops(parse_post_ops(c.before));
    a1.set_max_cpu_isa(isa);
    exec_args args1;
    set_one_by_one_quant(c, v, a1, args1);
    const dims mid_dims {p.mb, p.oc, p.ih, p.iw};
    const convolution_forward::desc d1(prop_kind::forward_inference, algorithm::convolution_direct,
            data_md({p.mb, p.ic, p.ih, p.iw}, c.src, c.nhwc), memory::desc({p.oc, p.ic, 1, 1}, dt::s8, tag::any),
            memory::desc({p.oc}, dt::f32, tag::x), data_md(mid_dims, c.mid, c.nhwc), {1, 1}, {0, 0},
            {0, 0}, {0, 0});
    const convolution_forward::primitive_desc pd1(d1, a1);
    args1[PRIM_ARG_SRC] = in_layout(typed_memory({p.mb, p.ic, p.ih, p.iw}, c.src, in.src), pd1.src_desc());
    args1[PRIM_ARG_WEIGHTS] = in_layout(typed_memory({p.oc, p.ic, 1, 1}, dt::s8, in.wei), pd1.weights_desc());
    args1[PRIM_ARG_BIAS] = typed_memory({p.oc}, dt::f32, in.bias);
    add_operands(pd1, in.before_ops, args1);
    args1[PRIM_ARG_DST] = memory(pd1.dst_desc());
    convolution_forward(pd1).execute(args1);
    r.mid = values_of(args1[PRIM_ARG_DST]);

    // The depthwise: groups = channels, src = mid (its scale: the 1x1's dst scale).
    primitive_attr a2;
    a2.set_post_ops(parse_post_ops(c.after));
    a2.set_max_cpu_isa(isa);
    exec_args args2;
    if (is_v3(c.scales)) {
        a2.set_scales_mask(PRIM_ARG_SRC, 0);
        a2.set_scales_mask(PRIM_ARG_WEIGHTS, dw_wei_mask(c) ? 3 : 0);
        args2[PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC] = f32_values({v.dst_scale});
        args2[PRIM_ARG_ATTR_SCALES | PRIM_ARG_WEIGHTS] = f32_values(v.dw_wei_scale);
        if (dw_dst_scaled(c)) {
            a2.set_scales_mask(PRIM_ARG_DST, 0);
            args2[PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST] = f32_values({v.dw_dst_scale});
        }
    } else {
        a2.set_output_scales(wei_per_channel(c.scales) ? 1 << 1 : 0, {PRIM_RUNTIME_F32_VAL});
        args2[PRIM_ARG_ATTR_OUTPUT_SCALES] = f32_values(v.entry_scales);
    }
    const convolution_forward::desc d2(prop_kind::forward_inference, algorithm::convolution_direct,
            pd1.dst_desc(), memory::desc({p.oc, 1, 1, p.k, p.k}, dt::s8, tag::any),
            c.dw_bias == dt::undef ? memory::desc() : memory::desc({p.oc}, c.dw_bias, tag::x),
            data_md({p.mb, p.oc, p.oh(), p.ow()}, c.dst, c.nhwc), {p.s, p.s}, {0, 0}, {p.p, p.p},
            {p.pad_r_h(), p.pad_r_w()});
    const convolution_forward::primitive_desc pd2(d2, a2);
    args2[PRIM_ARG_SRC] = args1[PRIM_ARG_DST];
    args2[PRIM_ARG_WEIGHTS] = in_layout(typed_memory({p.oc, 1, 1, p.k, p.k}, dt::s8, in.dw_wei), pd2.weights_desc());
    if (c.dw_bias != dt::undef) args2[PRIM_ARG_BIAS] = typed_memory({p.oc}, c.dw_bias, in.dw_bias);
    add_operands(pd2, in.after_ops, args2);
    args2[PRIM_ARG_DST] = memory(pd2.dst_desc());
    convolution_forward(pd2).execute(args2);
    r.dst = values_of(args2[PRIM_ARG_DST]);
    return r;
}

// Whether the environment asks for the JIT fused pass on a JIT ISA (see the top).
bool expect_jit() {
    const char *v = std::getenv("PRIM_TEST_EXPECT_INT8_DW_JIT");
    return v && std::string(v) == "1";
}

// The cases the JIT pass takes (doc/dw_post_op.md): a channels-last dst, and a depthwise window
// that reads every column the 1x1 writes (kernel - padding >= stride).
bool jit_expected(const pair_case &c) { return c.nhwc && c.sh.k - c.sh.p >= c.sh.s; }

// What fraction of v sits at the bounds of the integer type t (0 for f32 and s32).
double saturated_fraction(const std::vector<float> &v, dt t) {
    if (t != dt::u8 && t != dt::s8) return 0;
    const auto [lo, hi] = range_of(t);
    int64_t n = 0;
    for (float x : v) n += x == lo || x == hi;
    return v.empty() ? 0 : static_cast<double>(n) / static_cast<double>(v.size());
}

struct pair_stats {
    int cases = 0, mid_saturated = 0, dst_saturated = 0;
};

void check_pair(const pair_case &c, pair_stats &stats) {
    INFO(describe(c));
    const cpu_isa isa = tested_isa();
    const pair_values v = values_of(c);
    pair_inputs in = inputs_of(c);
    std::mt19937 gen(static_cast<unsigned>(c.sh.oc * 17 + c.sh.k));
    in.before_ops = operand_values(gen, c.before, {c.sh.mb, c.sh.oc, c.sh.ih, c.sh.iw});
    in.after_ops = operand_values(gen, c.after, {c.sh.mb, c.sh.oc, c.sh.oh(), c.sh.ow()});
    const run_result fused = run_fused(c, in, v, isa);
    const run_result apart = run_apart(c, in, v, isa);
    INFO("impl " << fused.impl);
    if (expect_jit() && isa != cpu_isa::none && jit_expected(c))
        CHECK(fused.impl.rfind(std::string("jit:") + cpu_isa_name(isa), 0) == 0);
    REQUIRE(fused.dst.size() == apart.dst.size());
    ++stats.cases;
    stats.mid_saturated += saturated_fraction(apart.mid, c.mid) > 0.01;
    stats.dst_saturated += saturated_fraction(apart.dst, c.dst) > 0.01;
    // Bit for bit with dyadic scales: both sides compute mid, and from it dst, exactly (powers
    // of two, exact chains), and round half to even the same. Otherwise the contract's +-1 on
    // an integer dst; an f32 dst within 1e-5 relative. (A value of mid one f32 ulp from a
    // rounding tie could round the other way on one side and move dst by |dw weight| * scale;
    // the non-dyadic case below has none at these values.)
    int64_t off = 0;
    for (size_t i = 0; i < fused.dst.size(); ++i) {
        const float g = fused.dst[i], w = apart.dst[i];
        const bool ok = c.dyadic ? g == w
                : c.dst == dt::f32 ? std::fabs(g - w) <= 1e-5f * std::max(1.f, std::fabs(w))
                                   : std::fabs(g - w) <= 1.f;
        if (!ok && off++ < 5) FAIL_CHECK("dst[" << i << "] fused " << g << " apart " << w);
    }
    CHECK(off == 0);
}

const pair_shape shapes[] = {
    {1, 5, 5, 7, 6, 3, 1, 1},   {2, 8, 17, 9, 7, 3, 2, 1}, {1, 16, 40, 6, 5, 5, 1, 2},
    {1, 12, 72, 8, 8, 5, 2, 0}, {1, 7, 17, 1, 1, 3, 1, 1}, {1, 5, 40, 5, 9, 3, 2, 2},
    {1, 6, 17, 6, 6, 5, 2, 4},  {1, 8, 72, 4, 4, 3, 1, 0}, {1, 6, 17, 7, 7, 5, 1, 3},
    {1, 6, 5, 6, 6, 5, 2, 1},   {1, 9, 40, 1, 1, 5, 2, 2},
};

const std::pair<const char *, const char *> chains[] = {
    {"", ""},
    {"relu", "relu"},
    {"linear:0.5:1.5", "add:s8:per_oc"},
    {"add:f32:per_tensor+relu", "linear:2:-1"},
    {"add:s8:per_oc", "add:f32:per_tensor"},
    {"relu+add:f32:per_oc", "relu+add:s8:per_tensor"},
};

const scales_kind all_scales[] = {scales_kind::v3_common, scales_kind::v3_per_channel,
                                  scales_kind::v3_per_channel_1, scales_kind::v2_common,
                                  scales_kind::v2_per_channel};

} // namespace

TEST_CASE("int8 dw post-op: every type combination against the two convolutions apart", "[dw][int8]") {
    pair_stats stats;
    int i = 0;
    for (dt src : {dt::u8, dt::s8})
        for (dt mid : {dt::u8, dt::s8})
            for (dt dst : {dt::u8, dt::s8, dt::s32, dt::f32})
                for (int rep = 0; rep < 3; ++rep, ++i) {
                    pair_case c {shapes[i % 11], src, mid, dst,
                                 i % 3 == 0 ? dt::f32 : i % 3 == 1 ? dt::s32 : dt::undef,
                                 all_scales[i % 5], chains[i % 6].first, chains[i % 6].second,
                                 i % 2 == 0};
                    c.src_zp = i % 4 == 1;
                    check_pair(c, stats);
                }
    // Not a test that cannot fail for want of data: most mid tensors and many outputs reach
    // their bounds, the rest stay inside them.
    CHECK(stats.cases == 48);
    CHECK(stats.mid_saturated >= 12);
    CHECK(stats.dst_saturated >= 6);
}

TEST_CASE("int8 dw post-op: every kernel, stride and padding, both layouts", "[dw][int8]") {
    pair_stats stats;
    int i = 0;
    for (int64_t k : {3, 5})
        for (int64_t s : {1, 2})
            for (int64_t p = 0; p < k; ++p, ++i) {
                const pair_shape sh {1 + i % 2, 6, i % 2 ? 17 : 40, 7 + i % 3, 6 + i % 4, k, s, p};
                pair_case c {sh, i % 3 ? dt::u8 : dt::s8, i % 2 ? dt::s8 : dt::u8,
                             i % 4 == 0 ? dt::f32 : dt::u8, dt::f32, all_scales[i % 5],
                             chains[i % 6].first, chains[i % 6].second, i % 2 == 1};
                check_pair(c, stats);
            }
    CHECK(stats.cases == 16);
}

TEST_CASE("int8 dw post-op: saturating images and one-pixel images", "[dw][int8]") {
    pair_stats stats;
    int i = 0;
    for (dt src : {dt::u8, dt::s8})
        for (dt mid : {dt::u8, dt::s8})
            for (dt dst : {dt::u8, dt::s8}) {
                pair_case c {shapes[i % 2 ? 4 : 1], src, mid, dst, dt::s32, all_scales[i % 5], "", "", i % 2 == 0};
                c.saturate = true;
                check_pair(c, stats);
                ++i;
            }
    // Every one of them drives mid and dst to a bound (even and odd channels to both).
    CHECK(stats.mid_saturated == stats.cases);
    CHECK(stats.dst_saturated == stats.cases);
}

TEST_CASE("int8 dw post-op: scales that are not powers of two, within the contract's +-1", "[dw][int8]") {
    pair_stats stats;
    int i = 0;
    for (dt dst : {dt::u8, dt::s8, dt::s32, dt::f32})
        for (scales_kind sk : {scales_kind::v3_per_channel, scales_kind::v2_per_channel}) {
            pair_case c {shapes[(i++ % 4) + 1], dt::u8, dt::u8, dst, dt::f32, sk, "relu", "", true};
            c.dyadic = false;
            check_pair(c, stats);
        }
    CHECK(stats.cases == 8);
}

TEST_CASE("int8 dw post-op: refusals name the reason", "[dw][int8]") {
    using pd_t = convolution_forward::primitive_desc;
    const auto desc = [](dt src, dt mid) {
        return convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                memory::desc({1, 8, 6, 6}, src, tag::acdb), memory::desc({16, 8, 1, 1}, dt::s8, tag::any),
                memory::desc(), memory::desc({1, 16, 6, 6}, mid, tag::acdb), {1, 1}, {0, 0}, {0, 0}, {0, 0});
    };
    const auto with_dw = [](dt wei, dt dst, int mask, const std::vector<float> &scales) {
        post_ops po;
        po.append_dw(wei, dt::f32, dst, 3, 1, 1, mask, scales);
        primitive_attr a;
        a.set_post_ops(po);
        return a;
    };
    // The entry's 2.x scales beside v3 scales.
    primitive_attr mixed = with_dw(dt::s8, dt::u8, 0, {0.5f});
    mixed.set_scales_mask(PRIM_ARG_SRC, 0);
    CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), mixed),
                  "the entry's output scales (oneDNN 2.x) and per-argument scales (oneDNN v3) cannot be mixed");
    primitive_attr mixed_dw = with_dw(dt::s8, dt::u8, 0, {});
    mixed_dw.set_output_scales(0, {0.5f});
    mixed_dw.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, 0);
    CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), mixed_dw),
                  "output scales (oneDNN 2.x) and the depthwise's per-argument scales (oneDNN v3) cannot be mixed");
    // A dw weights mask of 2 (oneDNN 2.x's per-channel mask of output scales, not of weights).
    primitive_attr mask2 = with_dw(dt::s8, dt::u8, 0, {});
    mask2.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, 2);
    CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), mask2),
                  "weights scales mask 2 is not 0 (common) or per channel (1 or 3)");
    primitive_attr dst_mask = with_dw(dt::s8, dt::u8, 0, {});
    dst_mask.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST, 2);
    CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), dst_mask), "dst scales mask 2 must be 0 (one value)");
    // The entry's 2.x mask and count.
    CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), with_dw(dt::s8, dt::u8, 1, {0.5f})),
                  "scales mask 1 is not 0 (common) or 2 (per channel)");
    CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), with_dw(dt::s8, dt::u8, 2, {0.5f, 0.25f})),
                  "the entry has 2 scales, mask 2 needs 16");
    // A dst zero point.
    primitive_attr zp = with_dw(dt::s8, dt::u8, 0, {});
    zp.set_zero_points_mask(PRIM_ARG_DST, 0);
    CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), zp), "a dst zero point");
    // u8 depthwise weights, an s32 or f32 mid, a bad depthwise bias type.
    CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), with_dw(dt::u8, dt::u8, 0, {})),
                  "the depthwise weights of an int8 pair are s8, not u8");
    CHECK_INVALID(pd_t(desc(dt::s8, dt::s32), with_dw(dt::s8, dt::u8, 0, {})),
                  "writes u8 or s8, which the depthwise convolution reads; its dst type is s32");
    CHECK_INVALID(pd_t(desc(dt::s8, dt::f32), with_dw(dt::s8, dt::u8, 0, {})),
                  "its dst type is f32");
    {
        post_ops po;
        po.append_dw(dt::s8, dt::u8, dt::u8, 3, 1, 1, 0, {});
        primitive_attr a;
        a.set_post_ops(po);
        CHECK_INVALID(pd_t(desc(dt::u8, dt::u8), a), "the depthwise bias is f32 or s32, not u8");
    }
}

// Scales of the dw arguments on a convolution without a dw entry: refused, not ignored.
TEST_CASE("int8 dw post-op: dw scales without a dw post-op are refused", "[dw][int8]") {
    primitive_attr stray;
    stray.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, 0);
    const convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
            memory::desc({1, 8, 6, 6}, dt::u8, tag::acdb), memory::desc({16, 8, 1, 1}, dt::s8, tag::any),
            memory::desc(), memory::desc({1, 16, 6, 6}, dt::u8, tag::acdb), {1, 1}, {0, 0}, {0, 0}, {0, 0});
    CHECK_INVALID(convolution_forward::primitive_desc(d, stray),
                  "scales of PRIM_ARG_ATTR_POST_OP_DW arguments belong to a convolution with a dw post-op");
}

TEST_CASE("int8 dw post-op: missing scale arguments at execute are refused", "[dw][int8]") {
    primitive_attr attr;
    post_ops po;
    po.append_dw(dt::s8, dt::undef, dt::u8, 3, 1, 1, 0, {});
    attr.set_post_ops(po);
    attr.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, 3);
    attr.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST, 0);
    const convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
            memory::desc({1, 8, 5, 5}, dt::u8, tag::acdb), memory::desc({16, 8, 1, 1}, dt::s8, tag::any),
            memory::desc(), memory::desc({1, 16, 5, 5}, dt::u8, tag::acdb), {1, 1}, {0, 0}, {0, 0}, {0, 0});
    const convolution_forward::primitive_desc pd(d, attr);
    // The scales' descs are queryable: 16 weights scales (per channel), one dst scale.
    exec_args args;
    args[PRIM_ARG_SRC] = memory(pd.src_desc());
    args[PRIM_ARG_WEIGHTS] = memory(pd.weights_desc());
    args[PRIM_ARG_DST] = memory(pd.dst_desc());
    args[PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS] = memory(pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS));
    std::memset(args[PRIM_ARG_SRC].get_data_handle(), 0, pd.src_desc().get_size());
    std::memset(args[PRIM_ARG_WEIGHTS].get_data_handle(), 0, pd.weights_desc().get_size());
    std::memset(args[PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS].get_data_handle(), 0,
                pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS).get_size());
    const convolution_forward prim(pd);
    CHECK_INVALID(prim.execute(args), "dw post-op weights scales");
    args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS] = f32_values(std::vector<float>(16, 1.f));
    CHECK_INVALID(prim.execute(args), "dw post-op dst scales");
    // The wrong count of weights scales.
    args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST] = f32_values({1.f});
    args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS] = f32_values({1.f});
    CHECK_INVALID(prim.execute(args), "dw post-op weights scales");
    args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS] = f32_values(std::vector<float>(16, 1.f));
    CHECK_NOTHROW(prim.execute(args));
    // Missing depthwise weights.
    args.erase(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS);
    CHECK_INVALID(prim.execute(args), "");
}
