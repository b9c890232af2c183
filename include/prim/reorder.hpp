// prim: reorder, the primitive that copies data between two layouts of the same shape, and
// between data types (quantize f32 to u8/s8, dequantize back: doc/int8.md).
#pragma once
#include <memory>

#include "prim/api.hpp"
#include "prim/memory.hpp"

namespace prim {

class primitive_attr; // prim/attr.hpp, which includes this header through prim/memory.hpp

// Copies data between any two layouts of the same shape, converting between data types (f32,
// s32, s8, u8: to an integer type by rounding half to even and saturating). Padding of the
// destination is zeroed. With an attribute, as oneDNN:
//   dst = (src - zp_src) * factor + zp_dst
// factor: the output scales (set_output_scales: mask over any dims, one value per index of the
// dims in the mask; PRIM_RUNTIME_F32_VAL: given at execute as PRIM_ARG_ATTR_OUTPUT_SCALES), or
// src_scale / dst_scale (set_scales_mask(PRIM_ARG_SRC or PRIM_ARG_DST, 0), values at execute as
// PRIM_ARG_ATTR_SCALES | arg). Zero points: set_zero_points_mask(PRIM_ARG_SRC or PRIM_ARG_DST,
// 0), values (s32) at execute as PRIM_ARG_ATTR_ZERO_POINTS | arg.
class PRIM_API reorder {
public:
    reorder(const memory::desc &src, const memory::desc &dst);
    reorder(const memory::desc &src, const memory::desc &dst, const primitive_attr &attr);
    reorder(const memory &src, const memory &dst) : reorder(src.get_desc(), dst.get_desc()) {}
    // Only for an attribute that needs no values at execute.
    void execute(const memory &src, const memory &dst) const;
    void execute(const exec_args &args) const; // PRIM_ARG_FROM, PRIM_ARG_TO, the values

private:
    memory::desc src_, dst_;
    std::shared_ptr<const primitive_attr> attr_; // never null
};

} // namespace prim
