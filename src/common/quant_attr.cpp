// Data types and quantization at creation, and the value lists of execute: quant_attr.hpp.
#include "common/quant_attr.hpp"

namespace prim {
namespace impl {

namespace {

using dt = memory::data_type;

bool is_int(dt t) { return t == dt::s32 || t == dt::s8 || t == dt::u8; }
bool is_int8(dt t) { return t == dt::s8 || t == dt::u8; }

std::string name(dt t) { return data_type_name(t); }

const char *const dw_scales_without_dw
        = "scales of PRIM_ARG_ATTR_POST_OP_DW arguments belong to a convolution with a dw post-op";

// The mask's dims' sizes multiplied (mask 0: one value).
memory::dim count_of(int mask, const memory::dims &dims) {
    memory::dim n = 1;
    for (size_t d = 0; d < dims.size(); ++d)
        if ((mask >> d) & 1) n *= dims[d];
    return n;
}

} // namespace

std::string check_weighted_types(const memory::desc &src, const memory::desc &wei,
                                 const memory::desc &bias, const memory::desc &dst) {
    for (const auto &[md, what] : {std::pair<const memory::desc &, const char *>(src, "src"),
                                   {wei, "weights"}, {dst, "dst"}})
        if (md.is_zero()) return std::string(what) + " desc is empty";
    const dt s = src.get_data_type(), w = wei.get_data_type(), d = dst.get_data_type();
    const bool with_bias = !bias.is_zero();
    const dt b = with_bias ? bias.get_data_type() : dt::undef;
    if (s == dt::f32) {
        if (w != dt::f32 || d != dt::f32)
            return "with an f32 src, weights and dst must be f32 too (src:weights:dst "
                   + name(s) + ":" + name(w) + ":" + name(d) + ")";
        if (with_bias && b != dt::f32) return "bias data type must be f32 (it is " + name(b) + ")";
        return "";
    }
    if (!is_int8(s)) return "src data type " + name(s) + " is not one of f32, u8, s8";
    if (w != dt::s8) return "weights data type " + name(w) + " must be s8 with a " + name(s) + " src";
    if (d == dt::undef) return "dst data type is undef";
    if (with_bias && b != dt::f32 && b != dt::s32)
        return "bias data type " + name(b) + " must be f32 or s32 with an int8 src";
    return "";
}

std::string check_weighted_quantization(const quantization &q, bool int8, bool grouped,
                                        memory::dim oc) {
    if (!q.any()) return "";
    if (!int8)
        return "scales and zero points are supported in int8 inference only (src is f32)";
    const bool v3 = q.src_scale_mask >= 0 || q.wei_scale_mask >= 0 || q.dst_scale_mask >= 0;
    if (q.has_output_scales && v3)
        return "output scales (oneDNN 2.x) and per-argument scales (oneDNN v3) cannot be mixed "
               "in one attribute";
    const int per_oc = 1 << 1;
    if (q.has_output_scales && q.output_scales_mask != 0 && q.output_scales_mask != per_oc)
        return "output scales mask " + std::to_string(q.output_scales_mask)
               + " is not 0 (common) or 2 (per output channel)";
    if (q.has_output_scales && !(q.output_scales.size() == 1 && is_runtime_f32(q.output_scales[0]))) {
        const size_t want = q.output_scales_mask == 0 ? 1 : static_cast<size_t>(oc);
        if (q.output_scales.size() != want)
            return "output scales have " + std::to_string(q.output_scales.size())
                   + " values, mask " + std::to_string(q.output_scales_mask) + " needs "
                   + std::to_string(want);
    }
    if (q.src_scale_mask > 0)
        return "src scales mask " + std::to_string(q.src_scale_mask) + " must be 0 (one value)";
    const int wei_per_oc = grouped ? 3 : 1; // the weights' oc dims: (g, oc/g) or oc
    if (q.wei_scale_mask > 0 && q.wei_scale_mask != wei_per_oc)
        return "weights scales mask " + std::to_string(q.wei_scale_mask) + " is not 0 (common) or "
               + std::to_string(wei_per_oc) + " (per output channel)";
    if (q.dst_scale_mask > 0)
        return "dst scales mask " + std::to_string(q.dst_scale_mask) + " must be 0 (one value)";
    if (q.wei_zp_mask >= 0) return "weights zero points are not supported (as oneDNN)";
    if (q.src1_scale_mask >= 0) return "src1 scales are binary's (PRIM_ARG_SRC_1)";
    if (q.dw_wei_scale_mask >= 0 || q.dw_dst_scale_mask >= 0) return dw_scales_without_dw;
    for (const auto &[mask, what] : {std::pair<int, const char *>(q.src_zp_mask, "src"),
                                     {q.dst_zp_mask, "dst"}})
        if (mask > 0 && mask != per_oc)
            return std::string(what) + " zero points mask " + std::to_string(mask)
                   + " is not 0 (common) or 2 (per channel)";
    return "";
}

std::string check_chain_types(const post_ops &chain, memory::data_type dst_dt) {
    for (int i = 0; i < chain.len(); ++i) {
        const post_ops::entry &e = chain.entries()[i];
        if (e.kind != post_ops::kind::sum) continue;
        const std::string who = "post-op " + std::to_string(i) + " (sum): ";
        if (e.zero_point != 0 && !is_int(dst_dt))
            return who + "a zero point needs an integer dst, dst is " + name(dst_dt);
        if (e.dt != dt::undef && data_type_size(e.dt) != data_type_size(dst_dt))
            return who + "data type " + name(e.dt) + " must have the size of dst's " + name(dst_dt);
        if (e.dt != dt::undef && e.dt != dst_dt && !(is_int8(e.dt) && is_int8(dst_dt)))
            return who + "reading a " + name(dst_dt) + " dst as " + name(e.dt)
                   + " is not supported (only s8 and u8 may stand for each other)";
    }
    return "";
}

std::string check_binary_quantization(const quantization &q) {
    if (!q.any()) return "";
    if (q.has_output_scales) return "output scales are not supported: give src0 and src1 scales";
    if (q.wei_scale_mask >= 0 || q.dst_scale_mask >= 0)
        return std::string(q.dst_scale_mask >= 0 ? "dst" : "weights")
               + " scales are not supported (as oneDNN: scales of src0 and src1 only)";
    if (q.src_zp_mask >= 0 || q.wei_zp_mask >= 0 || q.dst_zp_mask >= 0)
        return "zero points are not supported (as oneDNN)";
    if (q.dw_wei_scale_mask >= 0 || q.dw_dst_scale_mask >= 0) return dw_scales_without_dw;
    for (const auto &[mask, what] : {std::pair<int, const char *>(q.src_scale_mask, "src0"),
                                     {q.src1_scale_mask, "src1"}})
        if (mask > 0)
            return std::string(what) + " scales mask " + std::to_string(mask) + " must be 0 (one value)";
    return "";
}

std::string check_softmax_quantization(const quantization &q, memory::data_type src_dt,
                                       memory::data_type dst_dt) {
    if (!q.any()) return "";
    if (src_dt == dt::f32 && dst_dt == dt::f32)
        return "scales are supported in int8 softmax only (src and dst are f32)";
    const bool v3 = q.src_scale_mask >= 0 || q.dst_scale_mask >= 0;
    if (q.has_output_scales && v3)
        return "output scales (oneDNN 2.x) and per-argument scales (oneDNN v3) cannot be mixed "
               "in one attribute";
    if (q.wei_scale_mask >= 0 || q.src1_scale_mask >= 0)
        return std::string(q.wei_scale_mask >= 0 ? "weights" : "src1")
               + " scales are not supported (softmax takes src and dst scales)";
    if (q.src_zp_mask >= 0 || q.wei_zp_mask >= 0 || q.dst_zp_mask >= 0)
        return "zero points are not supported (as oneDNN)";
    if (q.dw_wei_scale_mask >= 0 || q.dw_dst_scale_mask >= 0) return dw_scales_without_dw;
    for (const auto &[mask, what] : {std::pair<int, const char *>(q.src_scale_mask, "src scales"),
                                     {q.dst_scale_mask, "dst scales"},
                                     {q.has_output_scales ? q.output_scales_mask : -1, "output scales"}})
        if (mask > 0) return std::string(what) + " mask " + std::to_string(mask) + " must be 0 (one value)";
    if (q.has_output_scales && q.output_scales.size() != 1)
        return "output scales have " + std::to_string(q.output_scales.size()) + " values, mask 0 needs 1";
    return "";
}

bool chain_is_quantized(const post_ops &chain) {
    for (const post_ops::entry &e : chain.entries()) {
        if (e.kind == post_ops::kind::sum && (e.zero_point != 0 || e.dt != dt::undef)) return true;
        if (e.kind == post_ops::kind::binary && e.dt != dt::undef && e.dt != dt::f32) return true;
        if (e.kind == post_ops::kind::binary && !e.src1.is_zero() && e.src1.get_data_type() != dt::f32)
            return true;
    }
    return false;
}

std::vector<quant_arg> quant_args(const quantization &q, const memory::desc &src,
                                  const memory::desc &wei, const memory::desc &dst,
                                  const memory::desc &dw_wei) {
    std::vector<quant_arg> args;
    const auto add = [&](quant_slot slot, int id, const char *what, int mask,
                         const memory::dims &dims, dt type) {
        if (mask < 0) return;
        args.push_back({slot, id, what,
                        memory::desc({count_of(mask, dims)}, type, memory::format_tag::x)});
    };
    if (q.has_output_scales && q.output_scales.size() == 1 && is_runtime_f32(q.output_scales[0]))
        add(quant_slot::output_scales, PRIM_ARG_ATTR_OUTPUT_SCALES, "output scales",
            q.output_scales_mask, dst.get_dims(), dt::f32);
    add(quant_slot::src_scales, PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC, "src scales",
        q.src_scale_mask, src.get_dims(), dt::f32);
    add(quant_slot::wei_scales, PRIM_ARG_ATTR_SCALES | PRIM_ARG_WEIGHTS, "weights scales",
        q.wei_scale_mask, wei.get_dims(), dt::f32);
    add(quant_slot::src1_scales, PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC_1, "src1 scales",
        q.src1_scale_mask, dst.get_dims(), dt::f32);
    add(quant_slot::dst_scales, PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST, "dst scales",
        q.dst_scale_mask, dst.get_dims(), dt::f32);
    add(quant_slot::src_zero_points, PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, "src zero points",
        q.src_zp_mask, src.get_dims(), dt::s32);
    add(quant_slot::dst_zero_points, PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, "dst zero points",
        q.dst_zp_mask, dst.get_dims(), dt::s32);
    add(quant_slot::dw_wei_scales, PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS,
        "dw post-op weights scales", q.dw_wei_scale_mask, dw_wei.get_dims(), dt::f32);
    add(quant_slot::dw_dst_scales, PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST,
        "dw post-op dst scales", q.dw_dst_scale_mask, dst.get_dims(), dt::f32);
    return args;
}

} // namespace impl
} // namespace prim
