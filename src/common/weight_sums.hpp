// The weight sums of an int8 weights desc (memory::desc::weight_sums_dims: oneDNN's
// compensation "extra"), written after a reorder has written the elements.
#pragma once
#include "prim/memory.hpp"

namespace prim {
namespace impl {

// Per index of dst's leading weight_sums_dims() dims, the s32 sum of dst's s8 values over the
// other dims, stored after the elements. src_same_values: src holds the very values dst got (an
// s8 copy with no scale or zero point), so a plain src is summed in its own order.
void write_weight_sums(const memory::desc &src_md, const void *src, const memory::desc &dst_md,
                       void *dst, bool src_same_values);

// The sums of a desc with weight_sums_dims() > 0 in buf: after its elements.
inline const int32_t *weight_sums(const memory::desc &md, const void *buf) {
    return reinterpret_cast<const int32_t *>(static_cast<const char *>(buf) + md.nelems_padded());
}

} // namespace impl
} // namespace prim
