// The JIT pooling kernel: output pixels along ow, every channel of each, the channels in vector
// registers (channels-last nwc/nhwc/ndhwc or channel-blocked nCw8c/nChw16c/... layouts), the
// window's real taps in three counted loops, then the post-ops chain and the store.
// The primitive (jit_pooling.cpp) cuts each output row into segments whose pixels share their
// real taps (the borders one pixel each, the interior in one call) and gives each call the tap
// counts, so the kernel never tests a position against the padding. src and dst are each f32,
// s8 or u8 (dst also s32), converted in registers (typed_vectors.hpp): the window's max or sum is
// taken in f32, exact for 8-bit values.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "jit/gen/jit_generator.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// One call: `pixels` output pixels from dst, whose first real tap is src; each pixel moves src
// and dst by the configuration's pixel steps.
struct pool_call_args {
    const void *src = nullptr;
    void *dst = nullptr;
    int64_t pixels = 0;
    int64_t taps[3] = {1, 1, 1}; // real taps along d, h, w (each >= 1)
    float divisor = 1.f;         // average: what the sum is divided by
    int64_t channels = 1;        // plain-layout kernel: consecutive channels, one row each
    const void *table = nullptr; // the constant table with runtime parameters (runtime_table.hpp)
    // Two per chain entry: the entry's value (operand_access.hpp: an address for common, per_oc
    // and per_mb_spatial, operand - dst in bytes for per_tensor) and what it moves by per pixel
    // (bytes; per_mb_spatial only). The kernel advances the values, so the array is the call's.
    int64_t *post_op = nullptr;
};

// Everything that shapes the code (the kernel cache key): integers only.
struct pool_kernel_conf {
    int64_t avg = 0;         // 0: max, 1: average
    int64_t src_dt = static_cast<int64_t>(memory::data_type::f32); // memory::data_type values
    int64_t dst_dt = static_cast<int64_t>(memory::data_type::f32);
    int64_t channels = 0;    // C
    int64_t block = 0;       // channel block of the layout (8, 16), 0 for channels-last
    int64_t src_cblk = 0;    // bytes between channel blocks (blocked layouts)
    int64_t dst_cblk = 0;
    int64_t tap_stride[3] = {0, 0, 0}; // bytes between taps along d, h, w (dilation included)
    int64_t src_px_step = 0; // bytes from one output pixel's taps to the next one's
    int64_t dst_px_step = 0;

    // Vectors of simd_w channels per pixel: the blocks' padded channels included.
    int64_t vectors(int simd_w) const;
};

// Why the chain's aux_vecs spares (plan_kernel_chain()) or a displacement do not fit: "" when
// the kernel can be generated on isa.
std::string pool_kernel_why_not(cpu_isa isa, const pool_kernel_conf &conf, int aux_vecs);

// The cached kernel for isa (avx2 or avx512), conf and a kernel chain (operand_access.hpp).
std::shared_ptr<const jit_generator> get_pool_kernel(cpu_isa isa, const pool_kernel_conf &conf,
                                                     const post_ops &chain);

} // namespace jit
} // namespace prim
