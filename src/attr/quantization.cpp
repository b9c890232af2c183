// primitive_attr's quantization settings (doc/int8.md): what can be checked without a primitive.
// What depends on the primitive (which arguments and masks it takes, the count of values) is
// checked at its creation (common/quantization_checks.hpp).
#include <cmath>
#include <string>

#include "prim/attr.hpp"
#include "prim/error.hpp"

namespace prim {

namespace {

[[noreturn]] void invalid(const std::string &msg) { throw error(status::invalid_arguments, msg); }

void check_mask(const char *who, int mask) {
    if (mask < 0) invalid(std::string("primitive_attr: ") + who + " mask " + std::to_string(mask)
                          + " is negative");
}

// Sets the mask of arg (PRIM_ARG_SRC, PRIM_ARG_WEIGHTS or PRIM_ARG_DST) among src, wei, dst.
void set_arg_mask(const char *what, int arg, int mask, int &src, int &wei, int &dst) {
    int *field = arg == PRIM_ARG_SRC ? &src : arg == PRIM_ARG_WEIGHTS ? &wei : arg == PRIM_ARG_DST ? &dst : nullptr;
    if (!field)
        invalid(std::string("primitive_attr: ") + what + " are set for PRIM_ARG_SRC, "
                + (std::string(what) == "scales" ? "PRIM_ARG_SRC_1, " : "")
                + "PRIM_ARG_WEIGHTS or PRIM_ARG_DST"
                + (std::string(what) == "scales" ? " (or PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS / | PRIM_ARG_DST)" : "")
                + ", not argument " + std::to_string(arg));
    check_mask(what, mask);
    *field = mask;
}

} // namespace

bool quantization::any() const {
    return has_output_scales || src_scale_mask >= 0 || wei_scale_mask >= 0 || dst_scale_mask >= 0
            || src1_scale_mask >= 0 || src_zp_mask >= 0 || wei_zp_mask >= 0 || dst_zp_mask >= 0
            || dw_wei_scale_mask >= 0 || dw_dst_scale_mask >= 0;
}

void primitive_attr::set_output_scales(int mask, const std::vector<float> &scales) {
    check_mask("output scales", mask);
    if (scales.empty()) invalid("primitive_attr: output scales need at least one value");
    const bool runtime = scales.size() == 1 && is_runtime_f32(scales[0]);
    for (float v : scales)
        if (!runtime && std::isnan(v)) invalid("primitive_attr: an output scale is NaN");
    quant_.has_output_scales = true;
    quant_.output_scales_mask = mask;
    quant_.output_scales = scales;
}

void primitive_attr::get_output_scales(int &mask, std::vector<float> &scales) const {
    mask = quant_.output_scales_mask;
    scales = quant_.has_output_scales ? quant_.output_scales : std::vector<float>();
}

void primitive_attr::set_scales_mask(int arg, int mask) {
    if (arg == PRIM_ARG_SRC_1) {
        check_mask("scales", mask);
        quant_.src1_scale_mask = mask;
        return;
    }
    if (arg == (PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS) || arg == (PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST)) {
        check_mask("scales", mask);
        (arg == (PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS) ? quant_.dw_wei_scale_mask
                                                               : quant_.dw_dst_scale_mask) = mask;
        return;
    }
    set_arg_mask("scales", arg, mask, quant_.src_scale_mask, quant_.wei_scale_mask, quant_.dst_scale_mask);
}

void primitive_attr::set_zero_points_mask(int arg, int mask) {
    set_arg_mask("zero points", arg, mask, quant_.src_zp_mask, quant_.wei_zp_mask, quant_.dst_zp_mask);
}

} // namespace prim
