// What the int8 inner product prepares per call for its kernel (ip_int8_kernel.hpp): the src
// rows in the kernel's form, the weights packed by panel when the user did not give them so, and
// the per-oc compensation of the s8 src shift and of the src zero points.
#pragma once
#include <cstdint>

#include "prim/memory.hpp"

namespace prim {
namespace jit {

// The GEMM's shape as the kernel sees it: K = ic · spatial values per row, in groups of
// `group` (4 for vpdpbusd, 2 for vpmaddwd) padded with zeros to kp; oc in panels of `panel`.
struct int8_gemm_shape {
    int64_t mb = 0, oc = 0, k = 0, kp = 0;
    int64_t group = 4, panel = 48, panels = 1;
    int64_t spatial = 1; // K values per input channel (for per-channel src zero points)
    int64_t packed_bytes() const { return panels * panel * kp; }
};

// The packed weights' layout, [oc/panel][ic/group][panel][group] s8 ("AB48a4b"), for weights
// whose other dims are 1 (2D, or a 1x1 convolution's "ABcd48a4b"); weights with real spatial
// dims have no such desc (their K dims would not stay contiguous) and are packed per call.
memory::desc packed_int8_weights_desc(const memory::dims &dims, int64_t panel, int64_t group);

// packed = the weights of desc md at w (s8, any layout), in the kernel's layout.
void pack_int8_weights(const memory::desc &md, const void *w, const int8_gemm_shape &s,
                       int8_t *packed);

// comp[oc] = -Σ_k w[oc][k] · (shift + zp[ic of k]), the s32 the kernel adds to its accumulator:
// shift 128 for an s8 src read as u8 (vpdpbusd), zp the src zero points (null: none; one value
// unless per_ic). Exact in s32 while |K · 128 · (255 + zp)| fits, as the accumulator itself.
// comp holds panels · panel values (padding lanes 0).
void int8_compensation(const int8_t *packed, const int8_gemm_shape &s, int32_t shift,
                       const int32_t *zp, bool per_ic, int32_t *comp);

// The src rows in the kernel's form, kp values each: u8 (an s8 src shifted by +128) for
// vpdpbusd, s16 (zero- or sign-extended) for vpmaddwd; padding K values zero. md: the src
// layout (non-plain layouts are read through a plain copy).
void prepare_int8_src(const memory::desc &md, const void *src, const int8_gemm_shape &s, bool vnni,
                      void *out);

} // namespace jit
} // namespace prim
