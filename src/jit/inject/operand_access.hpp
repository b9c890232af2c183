// How the convolution and inner product kernels read a binary or prelu operand (the eltwise pass
// has its own walk, eltwise_rows.hpp). For one destination shape every supported
// operand amounts to one of four policies, and the kernels see only that: creation rewrites the
// chain so that each operand entry's mask is its access (plan_kernel_chain(),
// kernel_chain_plan.hpp, which also drops src1 descs, read only by the creation-time layout
// checks). The rewritten chain is part of the kernel's cache key.
//   common          one value, broadcast to every lane
//   per_oc          varies along the channels only
//   per_mb_spatial  varies along every dim but the channels
//   per_tensor      the destination's shape
#pragma once
#include "prim/attr.hpp"

namespace prim {
namespace jit {

// Which accumulators read the same values of an operand with this access (the injector's
// operand_key_callback): the same channel block for per_oc, the same pixel for per_mb_spatial,
// all for common, none for per_tensor.
inline int shared_operand_key(int access, int channel_block, int pixel) {
    switch (access) {
    case post_ops::policy::common: return 0;
    case post_ops::policy::per_oc: return channel_block;
    case post_ops::policy::per_mb_spatial: return pixel;
    default: return -1;
    }
}

} // namespace jit
} // namespace prim
