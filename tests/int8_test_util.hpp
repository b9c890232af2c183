// What the int8 tests share. The JIT ones (test_jit_int8_ip.cpp, test_jit_int8_conv.cpp): the tested
// ISA, typed memories in plain layouts, random integer fills, the quantization attributes and
// their execute values, typed post-op operands, and the comparison with the reference.
#pragma once
#include "api_test_util.hpp"

#include <map>
#include <utility>

#include "isa_under_test.hpp"

namespace {

// The entry's ISA (PRIM_TEST_ISA: catch_main.cpp skips an entry this CPU cannot run); run by
// hand, the best one the effective ISA allows.
inline cpu_isa tested_isa() {
    const cpu_isa entry = prim_test::entry_isa();
    return entry != cpu_isa::all ? entry : prim_test::effective_isa();
}

// "jit:<isa>", "+repack" when the weights are given in a layout the kernel does not read.
inline std::string jit_name(cpu_isa isa, bool repacked) {
    return std::string("jit:") + cpu_isa_name(isa) + (repacked ? "+repack" : "");
}

// The same for the primitives whose kernels have no VNNI form (eltwise, binary, pooling, the
// normalizations, softmax): "jit:avx512" also under the avx512_vnni cap.
inline std::string jit_name_without_vnni(cpu_isa isa) {
    return std::string("jit:") + (isa >= cpu_isa::avx512 ? "avx512" : "avx2");
}

inline dims with_spatial(dims d, const dims &sp) {
    d.insert(d.end(), sp.begin(), sp.end());
    return d;
}

inline std::string plain_pattern(size_t rank) {
    std::string p;
    for (size_t i = 0; i < rank; ++i) p += static_cast<char>('a' + i);
    return p;
}

// "acb", "acdb", "acdeb": channels (b) innermost.
inline std::string channels_last_pattern(size_t rank) {
    std::string p = "a";
    for (size_t i = 2; i < rank; ++i) p += static_cast<char>('a' + i);
    return p + "b";
}

// A plain memory of type t holding `values` (integers that fit t).
inline memory typed_memory(const dims &d, dt t, const std::vector<float> &values) {
    memory m(memory::desc(d, t, plain_pattern(d.size())));
    void *p = m.get_data_handle();
    for (size_t i = 0; i < values.size(); ++i) {
        switch (t) {
        case dt::u8: static_cast<uint8_t *>(p)[i] = static_cast<uint8_t>(values[i]); break;
        case dt::s8: static_cast<int8_t *>(p)[i] = static_cast<int8_t>(values[i]); break;
        case dt::s32: static_cast<int32_t *>(p)[i] = static_cast<int32_t>(values[i]); break;
        default: static_cast<float *>(p)[i] = values[i];
        }
    }
    return m;
}

// m's values in the plain order of its dims, as f32 (exact for the integer types).
inline std::vector<float> values_of(const memory &m) {
    const memory::desc &md = m.get_desc();
    memory out(memory::desc(md.get_dims(), dt::f32, plain_pattern(md.get_dims().size())));
    reorder(md, out.get_desc()).execute(m, out);
    const float *p = static_cast<const float *>(out.get_data_handle());
    return std::vector<float>(p, p + out.get_desc().nelems_padded());
}

// m in layout want: m itself when it already is.
inline memory in_layout(const memory &m, const memory::desc &want) {
    if (m.get_desc() == want) return m;
    memory r(want);
    reorder(m.get_desc(), want).execute(m, r);
    return r;
}

// A fresh memory of layout want holding m's values: a dst to write, old values for a sum.
inline memory copy_in_layout(const memory &m, const memory::desc &want) {
    memory r = in_layout(m, want);
    if (r.get_data_handle() != m.get_data_handle()) return r;
    memory fresh(want);
    std::memcpy(fresh.get_data_handle(), m.get_data_handle(), want.get_size());
    return fresh;
}

inline std::vector<float> fill(std::mt19937 &gen, int64_t n, int lo, int hi) {
    std::vector<float> v(static_cast<size_t>(n));
    std::uniform_int_distribution<int> d(lo, hi);
    for (auto &x : v) x = static_cast<float>(d(gen));
    return v;
}

// The values a random fill of type t takes: the whole range of the 8-bit types.
inline std::pair<int, int> range_of(dt t) {
    switch (t) {
    case dt::u8: return {0, 255};
    case dt::s8: return {-128, 127};
    case dt::s32: return {-1000, 1000};
    default: return {-8, 8};
    }
}

// Inputs that drive the accumulator to both ends: src all 255 (u8) or -128 (s8); weights, plain
// (output channels outermost, groups counting as more of them), +127 for even output channels
// and -127 for odd ones.
inline std::vector<float> saturating_src(dt src, int64_t n) {
    return std::vector<float>(static_cast<size_t>(n), src == dt::u8 ? 255.f : -128.f);
}
inline std::vector<float> saturating_weights(int64_t n, int64_t oc) {
    std::vector<float> w(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) w[static_cast<size_t>(i)] = (i / (n / oc)) % 2 ? -127.f : 127.f;
    return w;
}

// Which quantization an attribute carries; -1 = not set. Masks as the attribute takes them.
struct quant_masks {
    int oscale = -1, wei_scale = -1, src_zp = -1, dst_zp = -1;
    bool src_scale = false, dst_scale = false;

    // Anything between the accumulator and an s32 dst (else it must be bit-exact).
    bool transforms_acc() const {
        return oscale >= 0 || wei_scale >= 0 || src_scale || dst_scale || dst_zp >= 0;
    }
    std::string str() const {
        return " oscale" + std::to_string(oscale) + " wscale" + std::to_string(wei_scale)
               + (src_scale ? " sscale" : "") + (dst_scale ? " dscale" : "") + " szp"
               + std::to_string(src_zp) + " dzp" + std::to_string(dst_zp);
    }
};

// The values behind quant_masks, per output channel (src zero points: per input channel).
struct quant_values {
    std::vector<float> oscale, wscale;
    std::vector<int32_t> src_zp, dst_zp;
    float src_scale = 0.25f, dst_scale = 8.f;
};

// Random values; src zero points in [zp_lo, zp_hi].
inline quant_values random_quant_values(std::mt19937 &gen, int64_t oc, int64_t ic, int zp_lo,
                                        int zp_hi) {
    quant_values v;
    for (int64_t i = 0; i < oc; ++i) {
        v.oscale.push_back(1.f / static_cast<float>(std::uniform_int_distribution<int>(64, 4096)(gen)));
        v.wscale.push_back(static_cast<float>(std::uniform_int_distribution<int>(1, 16)(gen)) / 64.f);
        v.dst_zp.push_back(std::uniform_int_distribution<int>(-3, 9)(gen));
    }
    for (int64_t i = 0; i < ic; ++i)
        v.src_zp.push_back(std::uniform_int_distribution<int>(zp_lo, zp_hi)(gen));
    return v;
}

// Sets m's quantization on attr and its values (given at execute) in args; a mask above 0 is
// per channel: oc values (src zero points: ic).
inline void set_quantization(const quant_masks &m, const quant_values &v, int64_t oc, int64_t ic,
                             primitive_attr &attr, exec_args &args) {
    const auto values = [&](int id, dt t, int64_t count, const void *data) {
        memory mem(memory::desc({count}, t, tag::x));
        std::memcpy(mem.get_data_handle(), data, static_cast<size_t>(count) * 4);
        args[id] = mem;
    };
    if (m.oscale >= 0) {
        attr.set_output_scales(m.oscale, {PRIM_RUNTIME_F32_VAL});
        values(PRIM_ARG_ATTR_OUTPUT_SCALES, dt::f32, m.oscale ? oc : 1, v.oscale.data());
    }
    if (m.src_scale) {
        attr.set_scales_mask(PRIM_ARG_SRC, 0);
        values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC, dt::f32, 1, &v.src_scale);
    }
    if (m.wei_scale >= 0) {
        attr.set_scales_mask(PRIM_ARG_WEIGHTS, m.wei_scale);
        values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_WEIGHTS, dt::f32, m.wei_scale ? oc : 1, v.wscale.data());
    }
    if (m.dst_scale) {
        attr.set_scales_mask(PRIM_ARG_DST, 0);
        values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST, dt::f32, 1, &v.dst_scale);
    }
    if (m.src_zp >= 0) {
        attr.set_zero_points_mask(PRIM_ARG_SRC, m.src_zp);
        values(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, dt::s32, m.src_zp ? ic : 1, v.src_zp.data());
    }
    if (m.dst_zp >= 0) {
        attr.set_zero_points_mask(PRIM_ARG_DST, m.dst_zp);
        values(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, dt::s32, m.dst_zp ? oc : 1, v.dst_zp.data());
    }
}

// The quantizations every int8 test runs, per src and dst type: v3 scales (weights' common or
// per oc: mask 1) with no, common or per-channel zero points, and the same with 2.x output
// scales instead.
struct quant_combination {
    dt src, dst;
    quant_masks q;
};
inline std::vector<quant_combination> quant_combinations() {
    std::vector<quant_combination> out;
    for (dt src : {dt::u8, dt::s8})
        for (dt dst : {dt::u8, dt::s8, dt::f32})
            for (int wmask : {0, 1})
                for (int zp : {-1, 0, 2}) {
                    quant_masks v3;
                    v3.src_scale = true;
                    v3.wei_scale = wmask;
                    v3.dst_scale = dst != dt::f32;
                    v3.src_zp = zp;
                    v3.dst_zp = dst == dt::f32 ? -1 : zp;
                    out.push_back({src, dst, v3});
                    quant_masks v2 = v3;
                    v2.src_scale = v2.dst_scale = false;
                    v2.wei_scale = -1;
                    v2.oscale = wmask ? 2 : 0;
                    out.push_back({src, dst, v2});
                }
    return out;
}

// Post-op chains of every entry kind (eltwise, sums with scale, zero point and type, binary
// operands of each type and policy), each with every dst type it allows: a sum with a zero
// point or a type needs an integer dst.
inline std::vector<std::pair<std::string, dt>> chain_combinations() {
    const char *chains[] = {"relu", "gelu_erf", "sum", "sum:0.5", "sum:0.5:3", "sum:1:0:s8",
                            "sum:2:-1:u8+relu", "linear:0.5:1+sum:0.25:2+gelu_erf", "relu+sum+tanh",
                            "add:f32:per_oc+relu", "mul:f32:per_tensor+sum:0.5", "add:f32:per_mb_spatial",
                            "add:f32:common+relu", "add:s8:per_oc+relu", "mul:u8:per_tensor",
                            "add:s32:per_mb_spatial+sum:0.5", "sub:u8:common", "max:s8:per_tensor+gelu_erf"};
    std::vector<std::pair<std::string, dt>> out;
    for (const std::string chain : chains)
        for (dt dst : {dt::u8, dt::s8, dt::s32, dt::f32}) {
            const bool needs_int_dst = chain.find("sum:0.5:3") != std::string::npos
                    || chain.find("sum:1:0:s8") != std::string::npos
                    || chain.find("sum:2:-1:u8") != std::string::npos
                    || chain.find("sum:0.25:2") != std::string::npos;
            if (!needs_int_dst || dst == dt::u8 || dst == dt::s8) out.emplace_back(chain, dst);
        }
    return out;
}

// Random operand values (-8..8) for each binary entry of chain, plain, as many as the entry's
// policy selects of dst's dims; keyed by the entry's index.
inline std::map<int, std::vector<float>> random_operands(std::mt19937 &gen, const post_ops &chain,
                                                         const dims &dst_dims) {
    std::map<int, std::vector<float>> out;
    for (int i = 0; i < chain.len(); ++i) {
        const post_ops::entry &e = chain.entries()[i];
        if (e.kind != post_ops::kind::binary) continue;
        int64_t n = 1;
        for (size_t d = 0; d < dst_dims.size(); ++d)
            if ((e.mask >> d) & 1) n *= dst_dims[d];
        out[i] = fill(gen, n, -8, 8);
    }
    return out;
}

// The operands in args, each of the type and layout pd asks for.
inline void add_operands(const primitive_desc_base &pd, const std::map<int, std::vector<float>> &operands,
                         exec_args &args) {
    for (const auto &[i, v] : operands) {
        const int id = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1;
        const memory::desc want = pd.query_md(id);
        args[id] = in_layout(typed_memory(want.get_dims(), want.get_data_type(), v), want);
    }
}

// A case's inputs, made once and run under two ISA caps: plain memories, the quantization's
// values and the binary operands' (per entry, plain).
struct int8_inputs {
    memory src, wei, bias, dst_old;
    quant_values quant;
    std::map<int, std::vector<float>> operands;
};

// What make_inputs makes: dims of each argument, the types, the chain whose operands to fill.
struct int8_input_spec {
    dims src, wei, dst;
    dt src_dt = dt::u8, dst_dt = dt::u8, bias_dt = dt::f32; // bias undef: none
    std::string chain;
    bool saturating = false;  // saturating_src and saturating_weights instead of random values
    int zp_lo = -5, zp_hi = 130; // the src zero points' range
    uint32_t seed = 1;
};

inline int8_inputs make_inputs(const int8_input_spec &s) {
    std::mt19937 gen(s.seed);
    const int64_t ic = s.src[1], oc = s.dst[1];
    int8_inputs in;
    const auto [lo, hi] = range_of(s.src_dt);
    in.src = typed_memory(s.src, s.src_dt, s.saturating ? saturating_src(s.src_dt, count(s.src))
                                                        : fill(gen, count(s.src), lo, hi));
    in.wei = typed_memory(s.wei, dt::s8, s.saturating ? saturating_weights(count(s.wei), oc)
                                                      : fill(gen, count(s.wei), -128, 127));
    if (s.bias_dt != dt::undef) in.bias = typed_memory({oc}, s.bias_dt, fill(gen, oc, -3000, 3000));
    const auto [dlo, dhi] = range_of(s.dst_dt);
    in.dst_old = typed_memory(s.dst, s.dst_dt, fill(gen, count(s.dst), dlo, dhi));
    in.quant = random_quant_values(gen, oc, ic, s.zp_lo, s.zp_hi);
    in.operands = random_operands(gen, parse_post_ops(s.chain), s.dst);
    return in;
}

// The implementation's name and the dst's values after a run.
struct outcome_of_run {
    std::string impl;
    std::vector<float> dst;
};

// got against want, plain dst values [mb][channels][pixels]: bit-exact when exact, else an
// integer dst within 1, an f32 dst within 1e-6 of the largest magnitude (at least 1).
inline void compare_with_reference(const std::vector<float> &got, const std::vector<float> &want,
                                   dt dst, bool exact, int64_t channels, int64_t pixels = 1) {
    REQUIRE(got.size() == want.size());
    float largest = 1.f;
    for (float v : want) largest = std::max(largest, std::fabs(v));
    const float tol = exact ? 0.f : dst == dt::f32 ? 1e-6f * largest : 1.f;
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= tol) && bad++ < 5)
            FAIL_CHECK("mb " << static_cast<int64_t>(i) / (channels * pixels) << " channel "
                             << static_cast<int64_t>(i) / pixels % channels << " pixel "
                             << static_cast<int64_t>(i) % pixels << ": jit " << got[i] << " ref "
                             << want[i]);
    CHECK(bad == 0);
}

// The primitives on int8 data (binary, concat, softmax, eltwise, pooling): memories of
// integers in a type's range, an element read back as a number, what an integer dst holds.
// A plain memory of type t holding integers in [lo, hi], and those values as f32.
inline memory ints(const dims &d, dt t, int lo, int hi, std::vector<float> &values,
                             uint32_t seed) {
    std::string p;
    for (size_t i = 0; i < d.size(); ++i) p += static_cast<char>('a' + i);
    memory m(memory::desc(d, t, p));
    std::mt19937 gen(seed);
    const size_t n = static_cast<size_t>(m.get_desc().nelems_padded());
    values.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const int v = std::uniform_int_distribution<int>(lo, hi)(gen);
        values[i] = static_cast<float>(v);
        if (t == dt::u8) static_cast<uint8_t *>(m.get_data_handle())[i] = static_cast<uint8_t>(v);
        else if (t == dt::s8) static_cast<int8_t *>(m.get_data_handle())[i] = static_cast<int8_t>(v);
        else if (t == dt::s32) static_cast<int32_t *>(m.get_data_handle())[i] = v;
        else static_cast<float *>(m.get_data_handle())[i] = static_cast<float>(v);
    }
    return m;
}

// The whole range of an integer type as ints() takes it (s32 and f32: [-300, 300], beyond s8's
// and u8's bounds, so that a narrower dst saturates).
inline std::pair<int, int> full_range(dt t) {
    if (t == dt::u8) return {0, 255};
    if (t == dt::s8) return {-128, 127};
    return {-300, 300};
}

inline double at(const memory &m, size_t i) {
    const void *h = m.get_data_handle();
    switch (m.get_desc().get_data_type()) {
    case dt::u8: return static_cast<const uint8_t *>(h)[i];
    case dt::s8: return static_cast<const int8_t *>(h)[i];
    case dt::s32: return static_cast<const int32_t *>(h)[i];
    default: return static_cast<const float *>(h)[i];
    }
}

// x stored as t: f32 rounded to float; an integer type rounded half to even and saturated.
inline double quantized(double x, dt t) {
    if (t == dt::f32) return static_cast<float>(x);
    if (std::isnan(x)) return 0;
    const double lo = t == dt::u8 ? 0 : t == dt::s8 ? -128 : -2147483648.0;
    const double hi = t == dt::u8 ? 255 : t == dt::s8 ? 127 : 2147483520.0;
    return std::nearbyint(std::min(std::max(x, lo), hi));
}

// A {1} f32 memory holding v: a scale given at execute.
inline memory scale_value(float v) {
    memory m(memory::desc({1}, dt::f32, tag::x));
    *static_cast<float *>(m.get_data_handle()) = v;
    return m;
}

} // namespace
