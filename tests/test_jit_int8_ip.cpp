// The JIT int8 inner product (src/jit/int8/jit_ip_int8.cpp) against the reference (ISA cap none),
// on one instruction set per run: PRIM_TEST_ISA=avx2|avx512|avx512_vnni
// (one ctest entry each; a run for an ISA this machine lacks exits with 77, which ctest reports
// as skipped). Covers every data type combination, oneDNN 2.x output scales and v3 scales, zero
// points common and per channel, sums with zero points and types, f32 binary operands, oc and ic
// tails, mb 1 and large, 2D and 4D src, given (repacked) and chosen weights layouts, saturation
// of the integer destinations and accumulations that vpmaddubsw's 16-bit sums would saturate
// (the convolution's: test_jit_int8_conv.cpp). Every case asserts the chosen implementation's
// name. An s32 dst with no scales and no chain must equal the reference bit for bit; another
// integer dst within +-1; f32 within 1e-6·max(1, |largest|).
#include "int8_test_util.hpp"

namespace {

struct ip_case {
    int64_t mb = 3, ic = 19, oc = 37;
    dims spatial;                   // src and weights spatial dims (4D: {h, w})
    dt src = dt::u8, dst = dt::u8, bias = dt::f32; // bias undef: none
    bool any_weights = true;        // 'any' (the packed layout) or plain oi/oihw (repacked per call)
    quant_masks q;                  // per channel: oscale 2, wei_scale 1, zero points 2
    std::string chain;
    bool saturating_fill = false;   // src 255 (u8) / -128 (s8), weights +-127 by oc
    std::string expected_impl;      // "" : the JIT on the tested ISA

    std::string str() const {
        std::string s = "mb" + std::to_string(mb) + "ic" + std::to_string(ic) + "oc"
                        + std::to_string(oc) + " sp" + std::to_string(spatial.size()) + " "
                        + data_type_name(src) + ":s8:" + data_type_name(dst) + " bias "
                        + data_type_name(bias) + (any_weights ? " any" : " plain") + q.str()
                        + " chain '" + chain + "'";
        return s;
    }
};

outcome_of_run run(const ip_case &c, const int8_inputs &in, cpu_isa cap) {
    const dims sdims = with_spatial({c.mb, c.ic}, c.spatial);
    const dims wdims = with_spatial({c.oc, c.ic}, c.spatial);
    const memory::desc src_md(sdims, c.src, tag::any);
    const memory::desc wei_md = c.any_weights ? memory::desc(wdims, dt::s8, tag::any)
                                              : memory::desc(wdims, dt::s8, plain_pattern(wdims.size()));
    const memory::desc bias_md = c.bias == dt::undef ? memory::desc() : memory::desc({c.oc}, c.bias, tag::x);
    const memory::desc dst_md({c.mb, c.oc}, c.dst, tag::any);
    primitive_attr attr;
    attr.set_max_cpu_isa(cap);
    const post_ops po = parse_post_ops(c.chain);
    attr.set_post_ops(po);
    exec_args args;
    set_quantization(c.q, in.quant, c.oc, c.ic, attr, args);
    const inner_product_forward::primitive_desc pd(
            inner_product_forward::desc(prop_kind::forward_inference, src_md, wei_md, bias_md, dst_md),
            attr);
    args[PRIM_ARG_SRC] = in_layout(in.src, pd.src_desc());
    args[PRIM_ARG_WEIGHTS] = in_layout(in.wei, pd.weights_desc());
    if (c.bias != dt::undef) args[PRIM_ARG_BIAS] = in.bias;
    const memory dst = copy_in_layout(in.dst_old, pd.dst_desc());
    args[PRIM_ARG_DST] = dst;
    add_operands(pd, in.operands, args);
    inner_product_forward(pd).execute(args);
    return {pd.impl_name(), values_of(dst)};
}

// Runs the case on the tested ISA and on the reference and compares.
void check(const ip_case &c, uint32_t seed = 1) {
    const cpu_isa isa = tested_isa();
    INFO(c.str() << " isa " << cpu_isa_name(isa));
    int8_input_spec spec;
    spec.src = with_spatial({c.mb, c.ic}, c.spatial);
    spec.wei = with_spatial({c.oc, c.ic}, c.spatial);
    spec.dst = {c.mb, c.oc};
    spec.src_dt = c.src;
    spec.dst_dt = c.dst;
    spec.bias_dt = c.bias;
    spec.chain = c.chain;
    spec.saturating = c.saturating_fill;
    spec.seed = seed;
    const int8_inputs in = make_inputs(spec);
    const outcome_of_run jit = run(c, in, isa);
    const outcome_of_run ref = run(c, in, cpu_isa::none);
    CHECK(ref.impl == "ref");
    CHECK(jit.impl == (c.expected_impl.empty() ? jit_name(isa, !c.any_weights) : c.expected_impl));
    const bool exact = c.dst == dt::s32 && !c.q.transforms_acc() && c.chain.empty();
    compare_with_reference(jit.dst, ref.dst, c.dst, exact, c.oc);
}

} // namespace

TEST_CASE("jit int8 ip: every data type combination", "[jit][int8][ip]") {
    for (dt src : {dt::u8, dt::s8})
        for (dt dst : {dt::u8, dt::s8, dt::s32, dt::f32})
            for (dt bias : {dt::f32, dt::s32, dt::undef}) {
                ip_case c;
                c.src = src;
                c.dst = dst;
                c.bias = bias;
                c.q.oscale = dst == dt::s32 ? -1 : 2; // s32 dst: the accumulator itself
                check(c);
            }
}

TEST_CASE("jit int8 ip: s32 dst without scales is bit-exact", "[jit][int8][ip]") {
    for (dt src : {dt::u8, dt::s8})
        for (int64_t ic : {1, 4, 19, 64, 301}) {
            ip_case c;
            c.src = src;
            c.dst = dt::s32;
            c.bias = dt::undef;
            c.ic = ic;
            check(c);
        }
}

TEST_CASE("jit int8 ip: exact where vpmaddubsw would saturate", "[jit][int8][ip]") {
    // src 255 (or -128) times +-127 over 1000 values: pairs of products reach 64770, beyond
    // s16; the sums (up to 3.2e7) beyond 2^24 are rounded to f32 exactly as the reference does.
    for (dt src : {dt::u8, dt::s8}) {
        ip_case c;
        c.src = src;
        c.dst = dt::s32;
        c.bias = dt::undef;
        c.mb = 5;
        c.ic = 1000;
        c.oc = 20;
        c.saturating_fill = true;
        check(c);
        // The same through an output scale to u8 and s8: saturates the store at both ends.
        c.q.oscale = 0;
        for (dt dst : {dt::u8, dt::s8}) {
            c.dst = dst;
            check(c);
        }
    }
}

TEST_CASE("jit int8 ip: v3 scales, 2.x output scales and zero points", "[jit][int8][ip]") {
    for (const quant_combination &qc : quant_combinations()) {
        ip_case c;
        c.src = qc.src;
        c.dst = qc.dst;
        c.q = qc.q;
        check(c);
    }
}

TEST_CASE("jit int8 ip: chains, sums with zero points and types", "[jit][int8][ip]") {
    for (const auto &[chain, dst] : chain_combinations()) {
        ip_case c;
        c.dst = dst;
        c.chain = chain;
        c.q.oscale = 2;
        c.q.dst_zp = dst == dt::u8 || dst == dt::s8 ? 0 : -1;
        check(c);
    }
}

TEST_CASE("jit int8 ip: tails, batches and ranks", "[jit][int8][ip]") {
    struct shape {
        int64_t mb, ic, oc;
        dims sp;
    };
    const shape shapes[] = {{1, 1, 1, {}},     {1, 3, 5, {}},     {1, 64, 16, {}},   {2, 7, 17, {}},
                            {9, 13, 48, {}},   {8, 16, 49, {}},   {17, 5, 95, {}},   {1, 768, 200, {}},
                            {257, 33, 23, {}}, {3, 4, 9, {3, 3}}, {2, 3, 33, {2, 5}}, {130, 8, 40, {1, 3}}};
    for (const shape &s : shapes)
        for (bool any : {true, false}) {
            ip_case c;
            c.mb = s.mb;
            c.ic = s.ic;
            c.oc = s.oc;
            c.spatial = s.sp;
            c.any_weights = any;
            c.dst = dt::s8;
            c.q.oscale = 2;
            c.q.src_zp = 2;
            c.chain = "sum:0.5:1+relu";
            // With spatial dims the weights' 'any' is plain, repacked per call too.
            if (!s.sp.empty() && any)
                c.expected_impl = jit_name(tested_isa(), true);
            check(c, static_cast<uint32_t>(s.mb * 1000 + s.oc));
            c.src = dt::s8;
            c.dst = dt::f32;
            c.chain = "gelu_erf";
            check(c, static_cast<uint32_t>(s.mb * 1000 + s.oc + 1));
        }
}

TEST_CASE("jit int8 ip: typed binary operands on every tail", "[jit][int8][ip]") {
    for (int64_t oc : {1, 7, 16, 37, 64})
        for (const char *chain : {"add:s8:per_oc", "mul:u8:per_tensor", "add:s32:per_tensor",
                                  "add:u8:per_mb_spatial", "mul:s8:common"}) {
            ip_case c;
            c.oc = oc;
            c.mb = 11;
            c.q.oscale = 0;
            c.dst = dt::s8;
            c.chain = chain;
            check(c, static_cast<uint32_t>(oc));
        }
}
