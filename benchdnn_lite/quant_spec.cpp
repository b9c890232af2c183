#include "quant_spec.hpp"

#include <cstdlib>

#include "attr_syntax.hpp"

namespace bdl {

bool type_of(const std::string &name, dt &t) {
    for (dt x : {dt::f32, dt::s32, dt::s8, dt::u8})
        if (name == prim::data_type_name(x)) {
            t = x;
            return true;
        }
    return false;
}

// "u8s8u8" -> {"u8", "s8", "u8"}: the longest type names first (none is a prefix of another
// in this list but f32/f16).
std::vector<std::string> split_cfg(const std::string &cfg) {
    static const char *const names[] = {"bf16", "f16", "f32", "f64", "s32", "s8", "u8", "s4", "u4", "tf32"};
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos < cfg.size()) {
        size_t len = 0;
        for (const char *n : names) {
            const std::string name(n);
            if (cfg.compare(pos, name.size(), name) == 0 && name.size() > len) len = name.size();
        }
        if (len == 0) return {cfg};
        out.push_back(cfg.substr(pos, len));
        pos += len;
    }
    return out;
}

std::string read_quant_param(const std::string &what, const std::vector<std::string> &f, size_t at,
                             bool channel_ok, quant_param &p) {
    p.given = true;
    const std::string &policy = f[at];
    if (policy == "common") p.per_channel = false;
    else if (channel_ok && (policy == "per_oc" || policy == "per_dim_1" || policy == "per_dim_0"
                            || policy == "per_dim_01"))
        p.per_channel = true;
    else return what + " policy " + policy + " is not supported";
    if (f.size() > at + 1 && !f[at + 1].empty()) {
        std::string v = f[at + 1];
        if (!v.empty() && v.back() == '*') v.pop_back(); // runtime: prim's values always are
        char *end = nullptr;
        p.value = std::strtof(v.c_str(), &end);
        if (v.empty() || *end) return what + " value '" + f[at + 1] + "' is not a number";
    }
    return "";
}

std::string weighted_types::str() const {
    return std::string(prim::data_type_name(src)) + ":" + prim::data_type_name(wei) + ":"
            + prim::data_type_name(dst);
}

bool quant_spec::any() const {
    return oscale.given || src_scale.given || wei_scale.given || dst_scale.given || src_zp.given
            || dst_zp.given || dw_wei_scale.given || dw_dst_scale.given;
}

std::string parse_quant_spec(const settings &s, quant_spec &q) {
    if (s.dt.size() > 5 && s.dt.compare(s.dt.size() - 5, 5, "_wino") == 0)
        return "Winograd convolution is not implemented";
    std::vector<std::string> names = s.dt.find(':') != std::string::npos ? split(s.dt, ':') : split_cfg(s.dt);
    if (names.size() == 1) names.assign(3, names[0]);
    if (names.size() != 3) return "data type " + s.dt + " does not name src, weights and dst";
    dt *fields[] = {&q.types.src, &q.types.wei, &q.types.dst};
    for (size_t i = 0; i < 3; ++i)
        if (!type_of(names[i], *fields[i]))
            return "data type " + names[i] + " is not supported (f32, s32, s8, u8)";
    if (s.bia_dt == "undef") q.types.bias = dt::undef;
    else if (!type_of(s.bia_dt, q.types.bias))
        return "bias data type " + s.bia_dt + " is not supported (f32, s32)";
    if (!s.oscale.empty()) {
        const std::vector<std::string> f = split(s.oscale, ':');
        const std::string why = read_quant_param("output scales", f, 0, true, q.oscale);
        if (!why.empty()) return why;
    }
    for (const std::string &item : s.scales.empty() ? std::vector<std::string>() : split(s.scales, '+')) {
        const std::vector<std::string> f = split(item, ':');
        quant_param *p = f[0] == "src" ? &q.src_scale : f[0] == "wei" ? &q.wei_scale
                : f[0] == "dst" ? &q.dst_scale : f[0] == "attr_post_op_dw_wei" ? &q.dw_wei_scale
                : f[0] == "attr_post_op_dw_dst" ? &q.dw_dst_scale : nullptr;
        if (f[0] == "attr_post_op_dw_src")
            return "scales of attr_post_op_dw_src are not supported (the depthwise convolution's "
                   "src scale is the convolution's dst scale, as oneDNN)";
        if (!p) return "scales of " + f[0] + " are not supported";
        const bool per_channel_ok = f[0] == "wei" || f[0] == "attr_post_op_dw_wei";
        const std::string why = read_quant_param(f[0] + " scales", f, 1, per_channel_ok, *p);
        if (!why.empty()) return why;
    }
    for (const std::string &item : s.zero_points.empty() ? std::vector<std::string>() : split(s.zero_points, '+')) {
        const std::vector<std::string> f = split(item, ':');
        quant_param *p = f[0] == "src" ? &q.src_zp : f[0] == "dst" ? &q.dst_zp : nullptr;
        if (!p) return "zero points of " + f[0] + " are not supported";
        const std::string why = read_quant_param(f[0] + " zero points", f, 1, true, *p);
        if (!why.empty()) return why;
        if (f.size() > 3 && f[3] != "s32" && f[3] != "s8" && f[3] != "u8")
            return "zero points of type " + f[3] + " are not supported";
    }
    return "";
}

std::vector<float> quant_values(const quant_param &p, int64_t channels, bool zero_point) {
    static const float factors[] = {1.f, 0.5f, 2.f, 0.25f};
    std::vector<float> v(static_cast<size_t>(p.per_channel ? channels : 1), p.value);
    if (p.per_channel)
        for (size_t c = 0; c < v.size(); ++c)
            v[c] = zero_point ? p.value + static_cast<float>(c % 3) : p.value * factors[c % 4];
    return v;
}

void add_quantization(const quant_spec &q, bool grouped, prim::primitive_attr &attr) {
    if (q.oscale.given) attr.set_output_scales(q.oscale.per_channel ? 1 << 1 : 0, {PRIM_RUNTIME_F32_VAL});
    if (q.src_scale.given) attr.set_scales_mask(prim::PRIM_ARG_SRC, 0);
    if (q.wei_scale.given)
        attr.set_scales_mask(prim::PRIM_ARG_WEIGHTS, q.wei_scale.per_channel ? (grouped ? 3 : 1) : 0);
    if (q.dst_scale.given) attr.set_scales_mask(prim::PRIM_ARG_DST, 0);
    // The depthwise weights {C, 1, 1, K, K} are grouped: per channel is mask 3, as benchdnn sets.
    if (q.dw_wei_scale.given)
        attr.set_scales_mask(prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_WEIGHTS,
                             q.dw_wei_scale.per_channel ? 3 : 0);
    if (q.dw_dst_scale.given) attr.set_scales_mask(prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_DST, 0);
    if (q.src_zp.given) attr.set_zero_points_mask(prim::PRIM_ARG_SRC, q.src_zp.per_channel ? 1 << 1 : 0);
    if (q.dst_zp.given) attr.set_zero_points_mask(prim::PRIM_ARG_DST, q.dst_zp.per_channel ? 1 << 1 : 0);
}

} // namespace bdl
