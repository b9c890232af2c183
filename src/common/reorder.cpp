// The public reorder: the shared checks and copy (internal_reorder.hpp), the attribute's scales
// and zero points (convert_types.hpp's value_map) and, like every other primitive, one
// PRIM_VERBOSE exec line per execution.
#include "prim/reorder.hpp"

#include "prim/attr.hpp"

#include <cmath>
#include <vector>

#include "common/internal_reorder.hpp"
#include "common/verbose.hpp"
#include "prim/error.hpp"

namespace prim {

namespace {

[[noreturn]] void invalid(const std::string &msg) {
    throw error(status::invalid_arguments, "reorder: " + msg);
}

bool runtime_output_scales(const quantization &q) {
    return q.has_output_scales && q.output_scales.size() == 1 && is_runtime_f32(q.output_scales[0]);
}

// The count of values a mask asks for over dims.
memory::dim count_of(int mask, const memory::dims &dims) {
    memory::dim n = 1;
    for (size_t d = 0; d < dims.size(); ++d)
        if ((mask >> d) & 1) n *= dims[d];
    return n;
}

bool needs_values(const quantization &q) {
    return runtime_output_scales(q) || q.src_scale_mask >= 0 || q.dst_scale_mask >= 0
            || q.src_zp_mask >= 0 || q.dst_zp_mask >= 0;
}

// The data of a value argument: present, of the desc {count} and type dt.
const void *value_arg(const exec_args &args, int id, const char *what, memory::dim count,
                      memory::data_type dt) {
    const auto it = args.find(id);
    if (it == args.end() || it->second.is_empty()) invalid(std::string(what) + " argument is missing");
    const memory::desc want({count}, dt, memory::format_tag::x);
    if (it->second.get_desc() != want)
        invalid(std::string(what) + " memory desc " + impl::md_str(it->second.get_desc())
                + " differs from " + impl::md_str(want));
    if (!it->second.get_data_handle()) invalid(std::string(what) + " memory has no data");
    return it->second.get_data_handle();
}

void run(const memory::desc &src_, const memory::desc &dst_, const memory &src, const memory &dst,
         const impl::value_map &map) {
    const bool verbose = impl::verbose_level() >= 1;
    const double start = verbose ? impl::now_ms() : 0.0;
    impl::reorder_data(src_, dst_, src, dst, map);
    // DESC: "abcd:2x16x5x5->aBcd16b", the source as other lines print a desc, then dst's layout
    // (and its type, when it is not f32). One generic implementation, named "ref" as the
    // reference kernels are; no post-ops.
    const memory::data_type ddt = dst_.get_data_type();
    if (verbose)
        impl::verbose_print_exec("reorder", "ref", impl::md_str(src_) + "->" + dst_.layout()
                                 + (ddt == memory::data_type::f32 ? "" : std::string(":") + data_type_name(ddt)),
                                 "", start);
}

} // namespace

reorder::reorder(const memory::desc &src, const memory::desc &dst)
    : reorder(src, dst, primitive_attr()) {}

reorder::reorder(const memory::desc &src, const memory::desc &dst, const primitive_attr &attr)
    : src_(src), dst_(dst), attr_(std::make_shared<const primitive_attr>(attr)) {
    impl::check_reorder_descs(src, dst);
    const quantization &q = attr.get_quantization();
    if (attr.get_post_ops().len() > 0) invalid("post-ops are not supported");
    const bool v3 = q.src_scale_mask >= 0 || q.dst_scale_mask >= 0;
    if (q.has_output_scales && v3)
        invalid("output scales (oneDNN 2.x) and per-argument scales (oneDNN v3) cannot be mixed");
    if (q.wei_scale_mask >= 0 || q.wei_zp_mask >= 0 || q.src1_scale_mask >= 0)
        invalid("scales and zero points are for PRIM_ARG_SRC and PRIM_ARG_DST");
    for (int mask : {q.src_scale_mask, q.dst_scale_mask, q.src_zp_mask, q.dst_zp_mask})
        if (mask > 0) invalid("mask " + std::to_string(mask) + " of src or dst scales or zero "
                              "points must be 0 (one value; per-dim factors: output scales)");
    if (q.has_output_scales && q.output_scales_mask >= (1 << src.ndims()))
        invalid("output scales mask " + std::to_string(q.output_scales_mask) + " names dims beyond rank "
                + std::to_string(src.ndims()));
    if (q.has_output_scales && !runtime_output_scales(q)
            && static_cast<memory::dim>(q.output_scales.size()) != count_of(q.output_scales_mask, src.get_dims()))
        invalid("output scales have " + std::to_string(q.output_scales.size()) + " values, mask "
                + std::to_string(q.output_scales_mask) + " needs "
                + std::to_string(count_of(q.output_scales_mask, src.get_dims())));
}

void reorder::execute(const exec_args &args) const {
    auto src = args.find(PRIM_ARG_FROM), dst = args.find(PRIM_ARG_TO);
    if (src == args.end() || dst == args.end())
        throw error(status::invalid_arguments,
                    "reorder: PRIM_ARG_FROM and PRIM_ARG_TO are both required");
    const quantization &q = attr_->get_quantization();
    impl::value_map map;
    std::vector<float> factor;
    if (q.has_output_scales) {
        map.scales_mask = q.output_scales_mask;
        map.scales = runtime_output_scales(q)
                ? static_cast<const float *>(value_arg(args, PRIM_ARG_ATTR_OUTPUT_SCALES, "output scales",
                          count_of(q.output_scales_mask, src_.get_dims()), memory::data_type::f32))
                : q.output_scales.data();
    } else if (q.src_scale_mask >= 0 || q.dst_scale_mask >= 0) {
        const auto scale = [&](int mask, int arg, const char *what) {
            return mask < 0 ? 1.f : *static_cast<const float *>(value_arg(args, PRIM_ARG_ATTR_SCALES | arg,
                                                             what, 1, memory::data_type::f32));
        };
        const float dst_scale = scale(q.dst_scale_mask, PRIM_ARG_DST, "dst scales");
        factor.assign(1, scale(q.src_scale_mask, PRIM_ARG_SRC, "src scales") / dst_scale);
        map.scales = factor.data();
    }
    const auto zp = [&](int mask, int arg, const char *what) {
        return mask < 0 ? 0 : *static_cast<const int32_t *>(value_arg(args, PRIM_ARG_ATTR_ZERO_POINTS | arg,
                                                          what, 1, memory::data_type::s32));
    };
    map.src_zp = zp(q.src_zp_mask, PRIM_ARG_SRC, "src zero points");
    map.dst_zp = zp(q.dst_zp_mask, PRIM_ARG_DST, "dst zero points");
    run(src_, dst_, src->second, dst->second, map);
}

void reorder::execute(const memory &src, const memory &dst) const {
    if (needs_values(attr_->get_quantization()))
        invalid("the attribute's scales or zero points are given at execute: use execute(args)");
    execute({{PRIM_ARG_FROM, src}, {PRIM_ARG_TO, dst}});
}

} // namespace prim
