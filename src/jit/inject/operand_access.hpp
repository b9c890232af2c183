// How the convolution and inner product kernels read a binary or prelu operand (the eltwise pass
// has its own walk, eltwise_rows.hpp). For one destination shape every supported
// operand amounts to one of four policies, and the kernels see only that: creation rewrites the
// chain so that each operand entry's mask is its access (and drops src1 descs, which only the
// creation-time layout checks read). The rewritten chain is part of the kernel's cache key.
//   common          one value, broadcast to every lane
//   per_oc          varies along the channels only
//   per_mb_spatial  varies along every dim but the channels
//   per_tensor      the destination's shape
#pragma once
#include <string>

#include "prim/attr.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// Sets out to chain with each operand entry's mask replaced by its access for a destination of
// dst_dims. batch_per_call: every kernel call covers one image (the convolution), so an operand
// may vary along dim 0 or not whatever its access: the call's value absorbs it (per_dim_0 is
// common there, per_dim_01 per_oc). Returns "" or, for an operand that is none of the four, the
// reason ("post-op 1 (add) src1 varies along dims {3}: no JIT kernel reads that ...").
std::string kernel_chain(const post_ops &chain, const memory::dims &dst_dims, bool batch_per_call,
                         post_ops &out);

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
