// The JIT pooling kernel for plain layouts (ncw, nchw, ncdhw): vectors of output pixels along
// ow of one (n, c, od, oh) row, each lane's taps loaded contiguously (stride 1 along w) or
// gathered (larger strides), the window's real taps in three counted loops, then the post-ops
// chain and the store. Calls and segments as pool_kernel.hpp's: a call covers pixels of one row
// that share their real taps, and takes pool_call_args.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "jit/gen/jit_generator.hpp"
#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"

namespace prim {
namespace jit {

// The code's shape (the kernel cache key): integers only. A call covers
// pool_call_args::channels rows, one per channel. Operand values (pool_call_args::post_op, two
// per entry): common and per_oc entries an address read as one value; per_mb_spatial and
// per_tensor entries the address of the call's first pixel in the operand, whose pixels along ow
// are contiguous, moved by the kernel as it goes; then the bytes each value moves by per channel.
struct pool_nchw_kernel_conf {
    int64_t avg = 0;                   // 0: max, 1: average
    int64_t sw = 1;                    // src elements between neighbouring output pixels' taps
    int64_t tap_stride[3] = {0, 0, 0}; // bytes between taps along d, h, w
    int64_t src_c_stride = 0;          // bytes between channels
    int64_t dst_c_stride = 0;
    // Global pooling (one output per channel, no padding, a dense plane): the plane's elements,
    // reduced as one contiguous run; 0 otherwise.
    int64_t plane = 0;
};

// Why the chain's aux_vecs spares (plan_kernel_chain()) or a displacement do not fit: "" when
// the kernel can be generated on isa.
std::string pool_nchw_kernel_why_not(cpu_isa isa, const pool_nchw_kernel_conf &conf, int aux_vecs);
std::shared_ptr<const jit_generator> get_pool_nchw_kernel(cpu_isa isa,
                                                          const pool_nchw_kernel_conf &conf,
                                                          const post_ops &chain);

} // namespace jit
} // namespace prim
