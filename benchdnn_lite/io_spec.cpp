#include "io_spec.hpp"

#include <algorithm>
#include <cmath>

#include "attr_syntax.hpp"
#include "common/plain_layout.hpp"

namespace bdl {

namespace {

// An option's value in the case (--sdt, --ddt: the extras), its default when not given.
std::string extra_of(const settings &s, const char *key) {
    const auto it = s.extra.find(key);
    return it == s.extra.end() ? "f32" : it->second;
}

// names as types into out; "" or the reason.
std::string read_types(const std::vector<std::string> &names, std::vector<dt> &out) {
    out.clear();
    for (const std::string &n : names) {
        dt t = dt::f32;
        if (!type_of(lower(n), t)) return "data type " + n + " is not supported (f32, s32, s8, u8)";
        out.push_back(t);
    }
    return "";
}

// The types of the case: sources and dst, as driver d's options give them.
std::string read_io_types(driver_kind d, const settings &s, io_spec &q) {
    std::vector<dt> src, dst;
    std::string why;
    if (d == driver_kind::eltwise || d == driver_kind::pool) {
        // --dt=SRC[:DST] (one type: both), or 2.x's --cfg=SRCDST.
        std::vector<std::string> names = s.dt.find(':') != std::string::npos ? split(s.dt, ':') : split_cfg(s.dt);
        if (names.size() == 1) names.push_back(names[0]);
        if (names.size() != 2) return "data type " + s.dt + " does not name src and dst";
        if (d == driver_kind::eltwise && names[0] != names[1])
            return "data type " + s.dt + ": eltwise takes one type (--dt=TYPE)";
        if (!(why = read_types(names, src)).empty()) return why;
        q.src = {src[0]};
        q.dst = src[1];
        return "";
    }
    if (s.dt != "f32") return "--dt=" + s.dt + " is not an option of --" + driver_name(d) + ": use --sdt and --ddt";
    std::vector<std::string> names = split(extra_of(s, "--sdt"), ':');
    const size_t want = d == driver_kind::binary ? 2 : 1;
    if (names.size() == 1 && want == 2) names.push_back(names[0]);
    if (names.size() != want)
        return "--sdt=" + extra_of(s, "--sdt") + " names " + std::to_string(names.size())
               + " types, the driver has " + std::to_string(want) + " sources";
    if (!(why = read_types(names, src)).empty() || !(why = read_types({extra_of(s, "--ddt")}, dst)).empty())
        return why;
    q.src = src;
    q.dst = dst[0];
    if (d == driver_kind::concat && q.src[0] != q.dst)
        return std::string("concat does not convert data types (--sdt=") + prim::data_type_name(q.src[0])
               + " --ddt=" + prim::data_type_name(q.dst) + ")";
    if (d == driver_kind::softmax)
        for (dt t : {q.src[0], q.dst})
            if (t == dt::s32) return "oneDNN refuses: s32 softmax (f32, u8, s8)";
    return "";
}

// --attr-scales and --attr-oscale of driver d.
std::string read_io_scales(driver_kind d, const settings &s, io_spec &q) {
    const bool binary = d == driver_kind::binary, softmax = d == driver_kind::softmax;
    if (!s.zero_points.empty()) return "zero points are supported by convolution and inner product only";
    if (!s.oscale.empty()) {
        if (!softmax) return "output scales are supported by convolution, inner product and softmax only";
        const std::string why = read_quant_param("output scales", split(s.oscale, ':'), 0, false, q.oscale);
        if (!why.empty()) return why;
    }
    for (const std::string &item : s.scales.empty() ? std::vector<std::string>() : split(s.scales, '+')) {
        const std::vector<std::string> f = split(item, ':');
        quant_param *p = nullptr;
        if (binary && (f[0] == "src" || f[0] == "src0")) p = &q.src_scale;
        if (binary && f[0] == "src1") p = &q.src1_scale;
        if (softmax && f[0] == "src") p = &q.src_scale;
        if (softmax && f[0] == "dst") p = &q.dst_scale;
        if (!p) return "scales of " + f[0] + " are not supported by --" + driver_name(d);
        const std::string why = read_quant_param(f[0] + " scales", f, 1, false, *p);
        if (!why.empty()) return why;
    }
    if (softmax && q.any_scale() && !q.int8()) return "oneDNN refuses: scales need an int8 softmax";
    return "";
}

} // namespace

std::pair<int, int> int_range(dt t) {
    if (t == dt::u8) return {0, 255};
    if (t == dt::s8) return {-128, 127};
    return {-1000, 1000}; // s32
}

float stored_as(dt t, float v) {
    if (t == dt::f32) return v;
    if (std::isnan(v)) return 0.f;
    const float lo = t == dt::u8 ? 0.f : t == dt::s8 ? -128.f : -2147483648.f;
    const float hi = t == dt::u8 ? 255.f : t == dt::s8 ? 127.f : 2147483520.f;
    return std::nearbyint(std::min(std::max(v, lo), hi));
}

bool io_spec::int8() const {
    return dst != dt::f32 || std::any_of(src.begin(), src.end(), [](dt t) { return t != dt::f32; });
}

std::string io_spec::str() const {
    std::string r;
    for (dt t : src) r += std::string(prim::data_type_name(t)) + ":";
    return r + prim::data_type_name(dst);
}

std::string parse_io_spec(driver_kind d, const settings &s, io_spec &q) {
    const std::string why = read_io_types(d, s, q);
    return why.empty() ? read_io_scales(d, s, q) : why;
}

prim::memory::desc io_quant::src_typed(const prim::memory::desc &md, size_t which) const {
    return prim::impl::retyped(md, quant_.src[std::min(which, quant_.src.size() - 1)]);
}

prim::memory::desc io_quant::dst_typed(const prim::memory::desc &md) const {
    return prim::impl::retyped(md, quant_.dst);
}

void io_quant::fill_src(std::vector<float> &v, tensor_id id, size_t which) const {
    const dt t = quant_.src[std::min(which, quant_.src.size() - 1)];
    if (t != dt::f32) fill_int(v, id, int_range(t).first, int_range(t).second);
}

void io_quant::fill_dst_old(std::vector<float> &v) const {
    if (quant_.dst != dt::f32) fill_int(v, tensor_id::dst_old, int_range(quant_.dst).first, int_range(quant_.dst).second);
}

prim::primitive_attr io_quant::with_scales(const prim::primitive_attr &attr) const {
    prim::primitive_attr a = attr;
    if (quant_.oscale.given) a.set_output_scales(0, {PRIM_RUNTIME_F32_VAL});
    if (quant_.src_scale.given) a.set_scales_mask(prim::PRIM_ARG_SRC, 0);
    if (quant_.src1_scale.given) a.set_scales_mask(prim::PRIM_ARG_SRC_1, 0);
    if (quant_.dst_scale.given) a.set_scales_mask(prim::PRIM_ARG_DST, 0);
    return a;
}

void io_quant::bind_scales(prim::exec_args &args) const {
    const auto bind = [&](const quant_param &p, int arg) {
        if (!p.given) return;
        prim::memory m(prim::memory::desc({1}, dt::f32, prim::memory::format_tag::x));
        *static_cast<float *>(m.get_data_handle()) = p.value;
        args[arg] = m;
    };
    bind(quant_.oscale, prim::PRIM_ARG_ATTR_OUTPUT_SCALES);
    bind(quant_.src_scale, prim::PRIM_ARG_ATTR_SCALES | prim::PRIM_ARG_SRC);
    bind(quant_.src1_scale, prim::PRIM_ARG_ATTR_SCALES | prim::PRIM_ARG_SRC_1);
    bind(quant_.dst_scale, prim::PRIM_ARG_ATTR_SCALES | prim::PRIM_ARG_DST);
}

void io_quant::finish(std::vector<float> &ref) const {
    const float inv = quant_.dst_scale.given ? 1.f / quant_.dst_scale.value : 1.f;
    for (float &x : ref) x = stored_as(quant_.dst, quant_.dst_scale.given ? x * inv : x);
}

} // namespace bdl
