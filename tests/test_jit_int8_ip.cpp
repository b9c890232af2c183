// The JIT int8 inner product and 1x1 convolution (src/jit/jit_ip_int8.cpp) against the
// reference (ISA cap none), on one instruction set per run: PRIM_TEST_ISA=avx2|avx512|avx512_vnni
// (one ctest entry each; a run for an ISA this machine lacks exits with 77, which ctest reports
// as skipped). Covers every data type combination, oneDNN 2.x output scales and v3 scales, zero
// points common and per channel, sums with zero points and types, f32 binary operands, oc and ic
// tails, mb 1 and large, 2D and 4D src, given (repacked) and chosen weights layouts, saturation
// of the integer destinations, accumulations that vpmaddubsw's 16-bit sums would saturate, and
// 1x1 convolutions on channels-last data in 1D, 2D and 3D. Every case asserts the chosen
// implementation's name. An s32 dst with no scales and no chain must equal the reference bit for
// bit; another integer dst within +-1; f32 within 1e-6·max(1, |largest|).
#include "api_test_util.hpp"

#include <cstdio>
#include <map>

#include "isa_under_test.hpp"

namespace {

// The entry's ISA (PRIM_TEST_ISA: catch_main.cpp skips an entry this CPU cannot run); run by
// hand, the best one the effective ISA allows.
cpu_isa tested_isa() {
    const cpu_isa entry = prim_test::entry_isa();
    return entry != cpu_isa::all ? entry : prim_test::effective_isa();
}

struct ip_case {
    int64_t mb = 3, ic = 19, oc = 37;
    dims spatial;                   // src and weights spatial dims (4D: {h, w})
    dt src = dt::u8, dst = dt::u8, bias = dt::f32; // bias undef: none
    bool any_weights = true;        // 'any' (the packed layout) or plain oi/oihw (repacked per call)
    // Quantization; -1 = not set.
    int oscale_mask = -1, wei_scale_mask = -1, src_zp_mask = -1, dst_zp_mask = -1;
    bool src_scale = false, dst_scale = false;
    std::string chain;
    bool saturating_fill = false;   // src 255 (u8) / -128 (s8), weights +-127 by oc
    std::string expected_impl;      // "" : the JIT on the tested ISA

    std::string str() const {
        std::string s = "mb" + std::to_string(mb) + "ic" + std::to_string(ic) + "oc"
                        + std::to_string(oc) + " sp" + std::to_string(spatial.size()) + " "
                        + data_type_name(src) + ":s8:" + data_type_name(dst) + " bias "
                        + data_type_name(bias) + (any_weights ? " any" : " plain")
                        + " oscale" + std::to_string(oscale_mask) + " wscale"
                        + std::to_string(wei_scale_mask) + (src_scale ? " sscale" : "")
                        + (dst_scale ? " dscale" : "") + " szp" + std::to_string(src_zp_mask)
                        + " dzp" + std::to_string(dst_zp_mask) + " chain '" + chain + "'";
        return s;
    }
};

dims with_spatial(dims d, const dims &sp) {
    d.insert(d.end(), sp.begin(), sp.end());
    return d;
}

std::string plain_pattern(size_t rank) {
    std::string p;
    for (size_t i = 0; i < rank; ++i) p += static_cast<char>('a' + i);
    return p;
}

// A plain memory of type t holding `values` (integers that fit t).
memory typed_memory(const dims &d, dt t, const std::vector<float> &values) {
    memory m(memory::desc(d, t, plain_pattern(d.size())));
    for (size_t i = 0; i < values.size(); ++i) {
        void *p = m.get_data_handle();
        switch (t) {
        case dt::u8: static_cast<uint8_t *>(p)[i] = static_cast<uint8_t>(values[i]); break;
        case dt::s8: static_cast<int8_t *>(p)[i] = static_cast<int8_t>(values[i]); break;
        case dt::s32: static_cast<int32_t *>(p)[i] = static_cast<int32_t>(values[i]); break;
        default: static_cast<float *>(p)[i] = values[i];
        }
    }
    return m;
}

std::vector<float> values_of(const memory &m) {
    const memory::desc &md = m.get_desc();
    memory out(memory::desc(md.get_dims(), dt::f32, plain_pattern(md.get_dims().size())));
    reorder(md, out.get_desc()).execute(m, out);
    const float *p = static_cast<const float *>(out.get_data_handle());
    return std::vector<float>(p, p + out.get_desc().nelems_padded());
}

memory in_layout(const memory &m, const memory::desc &want) {
    if (m.get_desc() == want) return m;
    memory r(want);
    reorder(m.get_desc(), want).execute(m, r);
    return r;
}

// The case's inputs, made once and run under two ISA caps.
struct inputs {
    memory src, wei, bias, dst_old;
    std::vector<float> oscale, wscale, dst_zp_values;
    std::vector<int32_t> src_zp, dst_zp;
    std::map<int, std::vector<float>> operands; // per binary entry, plain values
};

std::vector<float> fill(std::mt19937 &gen, int64_t n, int lo, int hi) {
    std::vector<float> v(static_cast<size_t>(n));
    std::uniform_int_distribution<int> d(lo, hi);
    for (auto &x : v) x = static_cast<float>(d(gen));
    return v;
}

std::pair<int, int> range_of(dt t) {
    switch (t) {
    case dt::u8: return {0, 255};
    case dt::s8: return {-128, 127};
    case dt::s32: return {-1000, 1000};
    default: return {-8, 8};
    }
}

struct outcome_of_run {
    std::string impl;
    std::vector<float> dst;
};

outcome_of_run run(const ip_case &c, const inputs &in, cpu_isa cap) {
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
    const auto values = [&](int id, dt t, int64_t count, const void *data) {
        memory m(memory::desc({count}, t, tag::x));
        std::memcpy(m.get_data_handle(), data, static_cast<size_t>(count) * 4);
        args[id] = m;
    };
    const float src_scale = 0.25f, dst_scale = 8.f;
    if (c.oscale_mask >= 0) {
        attr.set_output_scales(c.oscale_mask, {PRIM_RUNTIME_F32_VAL});
        values(PRIM_ARG_ATTR_OUTPUT_SCALES, dt::f32, c.oscale_mask ? c.oc : 1, in.oscale.data());
    }
    if (c.src_scale) {
        attr.set_scales_mask(PRIM_ARG_SRC, 0);
        values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC, dt::f32, 1, &src_scale);
    }
    if (c.wei_scale_mask >= 0) {
        attr.set_scales_mask(PRIM_ARG_WEIGHTS, c.wei_scale_mask);
        values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_WEIGHTS, dt::f32, c.wei_scale_mask ? c.oc : 1, in.wscale.data());
    }
    if (c.dst_scale) {
        attr.set_scales_mask(PRIM_ARG_DST, 0);
        values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST, dt::f32, 1, &dst_scale);
    }
    if (c.src_zp_mask >= 0) {
        attr.set_zero_points_mask(PRIM_ARG_SRC, c.src_zp_mask);
        values(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, dt::s32, c.src_zp_mask ? c.ic : 1, in.src_zp.data());
    }
    if (c.dst_zp_mask >= 0) {
        attr.set_zero_points_mask(PRIM_ARG_DST, c.dst_zp_mask);
        values(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, dt::s32, c.dst_zp_mask ? c.oc : 1, in.dst_zp.data());
    }
    const inner_product_forward::primitive_desc pd(
            inner_product_forward::desc(prop_kind::forward_inference, src_md, wei_md, bias_md, dst_md),
            attr);
    args[PRIM_ARG_SRC] = in_layout(in.src, pd.src_desc());
    args[PRIM_ARG_WEIGHTS] = in_layout(in.wei, pd.weights_desc());
    if (c.bias != dt::undef) args[PRIM_ARG_BIAS] = in.bias;
    memory dst = in_layout(in.dst_old, pd.dst_desc());
    if (dst.get_data_handle() == in.dst_old.get_data_handle()) {
        dst = memory(pd.dst_desc());
        std::memcpy(dst.get_data_handle(), in.dst_old.get_data_handle(), pd.dst_desc().get_size());
    }
    args[PRIM_ARG_DST] = dst;
    for (const auto &[i, v] : in.operands) {
        const int id = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1;
        const memory::desc want = pd.query_md(id);
        args[id] = in_layout(typed_memory(want.get_dims(), want.get_data_type(), v), want);
    }
    inner_product_forward(pd).execute(args);
    return {pd.impl_name(), values_of(dst)};
}

// Runs the case on the tested ISA and on the reference and compares.
void check(const ip_case &c, uint32_t seed = 1) {
    const cpu_isa isa = tested_isa();
    INFO(c.str() << " isa " << cpu_isa_name(isa));
    std::mt19937 gen(seed);
    const dims sdims = with_spatial({c.mb, c.ic}, c.spatial);
    const dims wdims = with_spatial({c.oc, c.ic}, c.spatial);
    int64_t sn = 1, wn = 1;
    for (auto d : sdims) sn *= d;
    for (auto d : wdims) wn *= d;
    inputs in;
    std::vector<float> s, w;
    if (c.saturating_fill) {
        s.assign(static_cast<size_t>(sn), c.src == dt::u8 ? 255.f : -128.f);
        w.resize(static_cast<size_t>(wn));
        for (int64_t i = 0; i < wn; ++i) w[static_cast<size_t>(i)] = (i / (wn / c.oc)) % 2 ? -127.f : 127.f;
    } else {
        const auto [lo, hi] = range_of(c.src);
        s = fill(gen, sn, lo, hi);
        w = fill(gen, wn, -128, 127);
    }
    in.src = typed_memory(sdims, c.src, s);
    in.wei = typed_memory(wdims, dt::s8, w);
    if (c.bias != dt::undef) in.bias = typed_memory({c.oc}, c.bias, fill(gen, c.oc, -3000, 3000));
    const auto [dlo, dhi] = range_of(c.dst);
    in.dst_old = typed_memory({c.mb, c.oc}, c.dst, fill(gen, c.mb * c.oc, dlo, dhi));
    for (int64_t i = 0; i < c.oc; ++i) {
        in.oscale.push_back(1.f / static_cast<float>(std::uniform_int_distribution<int>(64, 4096)(gen)));
        in.wscale.push_back(static_cast<float>(std::uniform_int_distribution<int>(1, 16)(gen)) / 64.f);
        in.dst_zp.push_back(std::uniform_int_distribution<int>(-3, 9)(gen));
    }
    for (int64_t i = 0; i < c.ic; ++i) in.src_zp.push_back(std::uniform_int_distribution<int>(-5, 130)(gen));
    const post_ops po = parse_post_ops(c.chain);
    for (int i = 0; i < po.len(); ++i) {
        const post_ops::entry &e = po.entries()[i];
        if (e.kind != post_ops::kind::binary) continue;
        int64_t n = 1;
        for (int d = 0; d < 2; ++d) n *= ((e.mask >> d) & 1) ? (d == 0 ? c.mb : c.oc) : 1;
        in.operands[i] = fill(gen, n, -8, 8);
    }

    const outcome_of_run jit = run(c, in, isa);
    const outcome_of_run ref = run(c, in, cpu_isa::none);
    CHECK(ref.impl == "ref");
    const std::string want_impl = c.expected_impl.empty()
            ? std::string("jit:") + cpu_isa_name(isa) + (c.any_weights ? "" : "+repack")
            : c.expected_impl;
    CHECK(jit.impl == want_impl);
    REQUIRE(jit.dst.size() == ref.dst.size());
    const bool exact = c.dst == dt::s32 && c.oscale_mask < 0 && c.wei_scale_mask < 0 && !c.src_scale
            && !c.dst_scale && c.dst_zp_mask < 0 && po.len() == 0;
    float largest = 1.f;
    for (float v : ref.dst) largest = std::max(largest, std::fabs(v));
    const float tol = exact ? 0.f : c.dst == dt::f32 ? 1e-6f * largest : 1.f;
    size_t bad = 0;
    for (size_t i = 0; i < ref.dst.size(); ++i)
        if (!(std::fabs(jit.dst[i] - ref.dst[i]) <= tol) && bad++ < 5)
            FAIL_CHECK("i=" << i << " (mb " << i / c.oc << " oc " << i % c.oc << ") jit " << jit.dst[i]
                            << " ref " << ref.dst[i]);
    CHECK(bad == 0);
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
                c.oscale_mask = dst == dt::s32 ? -1 : 2; // s32 dst: the accumulator itself
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
        c.oscale_mask = 0;
        for (dt dst : {dt::u8, dt::s8}) {
            c.dst = dst;
            check(c);
        }
    }
}

TEST_CASE("jit int8 ip: v3 scales, 2.x output scales and zero points", "[jit][int8][ip]") {
    for (dt src : {dt::u8, dt::s8})
        for (dt dst : {dt::u8, dt::s8, dt::f32})
            for (int wmask : {0, 1})
                for (int zp : {-1, 0, 2}) {
                    ip_case c;
                    c.src = src;
                    c.dst = dst;
                    c.src_scale = true;
                    c.wei_scale_mask = wmask;
                    c.dst_scale = dst != dt::f32;
                    c.src_zp_mask = zp;
                    c.dst_zp_mask = dst == dt::f32 ? -1 : zp;
                    check(c);
                    // 2.x: output scales instead
                    ip_case v2 = c;
                    v2.src_scale = v2.dst_scale = false;
                    v2.wei_scale_mask = -1;
                    v2.oscale_mask = wmask ? 2 : 0;
                    check(v2);
                }
}

TEST_CASE("jit int8 ip: chains, sums with zero points and types", "[jit][int8][ip]") {
    const char *chains[] = {"relu", "gelu_erf", "sum", "sum:0.5", "sum:0.5:3", "sum:1:0:s8",
                            "sum:2:-1:u8+relu", "linear:0.5:1+sum:0.25:2+gelu_erf", "relu+sum+tanh",
                            "add:f32:per_oc+relu", "mul:f32:per_tensor+sum:0.5", "add:f32:per_mb_spatial",
                            "add:f32:common+relu", "add:s8:per_oc+relu", "mul:u8:per_tensor",
                            "add:s32:per_mb_spatial+sum:0.5", "sub:u8:common", "max:s8:per_tensor+gelu_erf"};
    for (const char *chain : chains)
        for (dt dst : {dt::u8, dt::s8, dt::s32, dt::f32}) {
            const std::string ch = chain;
            const bool needs_int_dst = ch.find("sum:0.5:3") != std::string::npos
                    || ch.find(":s8") != std::string::npos || ch.find(":u8") != std::string::npos
                    || ch.find("sum:0.25:2") != std::string::npos;
            if (needs_int_dst && (dst == dt::f32 || dst == dt::s32)) continue;
            ip_case c;
            c.dst = dst;
            c.chain = ch;
            c.oscale_mask = 2;
            c.dst_zp_mask = dst == dt::u8 || dst == dt::s8 ? 0 : -1;
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
            c.oscale_mask = 2;
            c.src_zp_mask = 2;
            c.chain = "sum:0.5:1+relu";
            // With spatial dims the weights' 'any' is plain, repacked per call too.
            if (!s.sp.empty() && any)
                c.expected_impl = std::string("jit:") + cpu_isa_name(tested_isa()) + "+repack";
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
            c.oscale_mask = 0;
            c.dst = dt::s8;
            c.chain = chain;
            check(c, static_cast<uint32_t>(oc));
        }
}

namespace {

// A 1x1 convolution on channels-last src and dst (the same kernel over mb·oh·ow rows), against
// the reference; layout "nhwc" or "any" (which the JIT resolves to channels-last).
struct conv_case {
    int64_t mb = 2, ic = 21, oc = 35;
    dims sp = {5, 3};
    dt src = dt::u8, dst = dt::u8;
    bool src_zp = false, dst_zp = false;
    std::string chain;
    bool any = false;
    std::string expected_impl; // "": the JIT on the tested ISA
};

std::string channels_last_pattern(size_t rank) {
    std::string p = "a";
    for (size_t i = 2; i < rank; ++i) p += static_cast<char>('a' + i);
    return p + "b";
}

std::vector<float> run_conv(const conv_case &c, cpu_isa cap, const memory &src, const memory &wei,
                            const memory &bias, const memory &dst_old,
                            const std::map<int, std::vector<float>> &operands,
                            const std::vector<float> &oscale, const std::vector<int32_t> &zps,
                            std::string &impl) {
    const dims sdims = with_spatial({c.mb, c.ic}, c.sp), ddims = with_spatial({c.mb, c.oc}, c.sp);
    dims wdims = {c.oc, c.ic}, strides, dil, pad;
    for (size_t i = 0; i < c.sp.size(); ++i) {
        wdims.push_back(1);
        strides.push_back(1);
        dil.push_back(0);
        pad.push_back(0);
    }
    const std::string cl = channels_last_pattern(sdims.size());
    const memory::desc src_md = c.any ? memory::desc(sdims, c.src, tag::any) : memory::desc(sdims, c.src, cl);
    const memory::desc dst_md = c.any ? memory::desc(ddims, c.dst, tag::any) : memory::desc(ddims, c.dst, cl);
    primitive_attr attr;
    attr.set_max_cpu_isa(cap);
    attr.set_post_ops(parse_post_ops(c.chain));
    attr.set_output_scales(1 << 1, {PRIM_RUNTIME_F32_VAL});
    exec_args args;
    const auto values = [&](int id, dt t, int64_t count, const void *data) {
        memory m(memory::desc({count}, t, tag::x));
        std::memcpy(m.get_data_handle(), data, static_cast<size_t>(count) * 4);
        args[id] = m;
    };
    values(PRIM_ARG_ATTR_OUTPUT_SCALES, dt::f32, c.oc, oscale.data());
    if (c.src_zp) {
        attr.set_zero_points_mask(PRIM_ARG_SRC, 1 << 1);
        values(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, dt::s32, c.ic, zps.data());
    }
    if (c.dst_zp) {
        attr.set_zero_points_mask(PRIM_ARG_DST, 0);
        values(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, dt::s32, 1, zps.data());
    }
    const convolution_forward::primitive_desc pd(
            convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                      src_md, memory::desc(wdims, dt::s8, tag::any),
                                      memory::desc({c.oc}, dt::f32, tag::x), dst_md, strides, dil, pad, pad),
            attr);
    impl = pd.impl_name();
    args[PRIM_ARG_SRC] = in_layout(src, pd.src_desc());
    args[PRIM_ARG_WEIGHTS] = in_layout(wei, pd.weights_desc());
    args[PRIM_ARG_BIAS] = bias;
    memory dst = in_layout(dst_old, pd.dst_desc());
    if (dst.get_data_handle() == dst_old.get_data_handle()) {
        dst = memory(pd.dst_desc());
        std::memcpy(dst.get_data_handle(), dst_old.get_data_handle(), pd.dst_desc().get_size());
    }
    args[PRIM_ARG_DST] = dst;
    for (const auto &[i, v] : operands) {
        const int id = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1;
        const memory::desc want = pd.query_md(id);
        args[id] = in_layout(typed_memory(want.get_dims(), want.get_data_type(), v), want);
    }
    convolution_forward(pd).execute(args);
    return values_of(dst);
}

void check_conv(const conv_case &c) {
    const cpu_isa isa = tested_isa();
    INFO("conv mb" << c.mb << " ic" << c.ic << " oc" << c.oc << " rank " << c.sp.size() + 2 << " "
         << data_type_name(c.src) << ":s8:" << data_type_name(c.dst) << " chain '" << c.chain
         << "' zp " << c.src_zp << c.dst_zp << (c.any ? " any" : " nhwc"));
    std::mt19937 gen(7);
    const dims sdims = with_spatial({c.mb, c.ic}, c.sp), ddims = with_spatial({c.mb, c.oc}, c.sp);
    dims wdims = {c.oc, c.ic};
    for (size_t i = 0; i < c.sp.size(); ++i) wdims.push_back(1);
    int64_t pix = 1;
    for (auto x : c.sp) pix *= x;
    const auto [slo, shi] = range_of(c.src);
    const auto [dlo, dhi] = range_of(c.dst);
    const memory src = typed_memory(sdims, c.src, fill(gen, c.mb * c.ic * pix, slo, shi));
    const memory wei = typed_memory(wdims, dt::s8, fill(gen, c.oc * c.ic, -128, 127));
    const memory bias = typed_memory({c.oc}, dt::f32, fill(gen, c.oc, -3000, 3000));
    const memory dst_old = typed_memory(ddims, c.dst, fill(gen, c.mb * c.oc * pix, dlo, dhi));
    std::vector<float> oscale;
    std::vector<int32_t> zps;
    for (int64_t i = 0; i < std::max(c.oc, c.ic); ++i) {
        oscale.push_back(1.f / static_cast<float>(std::uniform_int_distribution<int>(64, 4096)(gen)));
        zps.push_back(std::uniform_int_distribution<int>(-5, 130)(gen));
    }
    std::map<int, std::vector<float>> operands;
    const post_ops po = parse_post_ops(c.chain);
    for (int i = 0; i < po.len(); ++i) {
        const post_ops::entry &e = po.entries()[i];
        if (e.kind != post_ops::kind::binary) continue;
        int64_t n = 1;
        for (size_t d = 0; d < ddims.size(); ++d)
            if ((e.mask >> d) & 1) n *= ddims[d];
        operands[i] = fill(gen, n, -8, 8);
    }
    std::string jit_impl, ref_impl;
    const std::vector<float> got = run_conv(c, isa, src, wei, bias, dst_old, operands, oscale, zps, jit_impl);
    const std::vector<float> want = run_conv(c, cpu_isa::none, src, wei, bias, dst_old, operands, oscale, zps, ref_impl);
    CHECK(ref_impl == "ref");
    CHECK(jit_impl == (c.expected_impl.empty() ? std::string("jit:") + cpu_isa_name(isa) : c.expected_impl));
    REQUIRE(got.size() == want.size());
    float largest = 1.f;
    for (float v : want) largest = std::max(largest, std::fabs(v));
    const float tol = c.dst == dt::f32 ? 1e-6f * largest : 1.f;
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= tol) && bad++ < 5)
            FAIL_CHECK("i=" << i << " jit " << got[i] << " ref " << want[i]);
    CHECK(bad == 0);
}

} // namespace

TEST_CASE("jit int8 1x1 convolution: channels-last pixels as GEMM rows", "[jit][int8][conv]") {
    for (dt src : {dt::u8, dt::s8})
        for (dt dst : {dt::u8, dt::s8, dt::s32, dt::f32}) {
            conv_case c;
            c.src = src;
            c.dst = dst;
            check_conv(c);
        }
    const std::vector<dims> spatials = {{7}, {5, 3}, {2, 3, 4}};
    for (const dims &sp : spatials)
        for (const char *chain : {"sum:0.5:2+relu", "add:f32:per_oc+gelu_erf", "mul:f32:per_mb_spatial",
                                  "add:f32:per_tensor+sum", "add:u8:per_tensor+relu", "mul:s8:per_mb_spatial"}) {
            conv_case c;
            c.sp = sp;
            c.chain = chain;
            c.src_zp = true;
            c.dst_zp = true;
            c.any = sp.size() == 2;
            check_conv(c);
        }
    conv_case big; // more rows than one chunk of a thread, oc and ic tails
    big.mb = 3;
    big.sp = {14, 14};
    big.ic = 67;
    big.oc = 70;
    big.chain = "relu";
    check_conv(big);
}
