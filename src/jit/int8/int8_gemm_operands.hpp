// What the int8 GEMM (int8_gemm.hpp) prepares for its kernel besides the src rows
// (int8_src_form.hpp): the weights packed by panel when the user did not give them so, and the
// per-oc compensation of the s8 src shift and of the src zero points.
#pragma once
#include <cstdint>
#include <vector>

#include "prim/memory.hpp"

namespace prim {
namespace jit {

// The GEMM's shape as the kernel sees it, per group: kp K values per row, in groups of `group`
// (4 for vpdpbusd, 2 for vpmaddwd); oc in panels of `panel`.
struct int8_gemm_shape {
    int64_t mb = 0, oc = 0, kp = 0; // mb: rows; oc: per group
    int64_t groups = 1;
    int64_t group = 4, panel = 48, panels = 1;
    int64_t ocp() const { return panels * panel; }          // oc padded to whole panels
    int64_t packed_bytes() const { return ocp() * kp; }     // one group's packed weights
};

// Where each of a row's kp K values comes from: its offset in an output channel's plain
// weights (icg · taps values, oihw order) and its src channel within the group; -1 for the
// zeros that pad K to the K group. The src form (int8_src_form.hpp) follows the same order.
struct int8_k_map {
    int64_t wei_row = 0;          // plain weights per output channel: icg · taps
    int64_t channels = 0;         // src channels per group
    std::vector<int64_t> wei;     // per k
    std::vector<int32_t> channel; // per k
    bool depthwise = false;       // the src channel is the output channel itself (K: the taps)
};
// A convolution's K order: per tap, the group's icg channels padded to cp.
int8_k_map conv_k_map(int64_t taps, int64_t icg, int64_t cp);
// An inner product's: its src rows as they are (ic · spatial values, ic outermost), padded to kp.
int8_k_map ip_k_map(int64_t ic, int64_t spatial, int64_t kp);
// A depthwise convolution's in the kernel's depthwise mode: K is the taps of each channel.
int8_k_map depthwise_k_map(int64_t taps);

// The packed weights' layout, per group [oc/panel][taps][ic/group][panel][group] s8: weights
// dims [oc][ic][spatial...] ("AcdB48a4b"), or [g][oc][ic][spatial...] when grouped
// ("aBdeC48b4c"). It is the K order of conv_k_map, and of ip_k_map without spatial dims.
memory::desc packed_int8_weights_desc(const memory::dims &dims, bool grouped, int64_t panel,
                                      int64_t group);
// A depthwise convolution's, [g/panel][spatial...][panel] s8 for weights dims [g][1][1][spatial...]
// ("Abcde16a").
memory::desc packed_depthwise_weights_desc(const memory::dims &dims, int64_t panel);

// packed = the weights of desc md at w (s8, any layout), in the kernel's layout, group after group.
void pack_int8_weights(const memory::desc &md, const void *w, const int8_gemm_shape &s,
                       const int8_k_map &km, int8_t *packed);

// comp[g·ocp + oc] = -Σ_k w[oc][k] · (shift + zp[channel of k]), the s32 the kernel adds to its
// accumulator: shift 128 for an s8 src read as u8 (vpdpbusd), zp the src zero points (null:
// none; one value unless per_channel, then indexed over all groups' channels). Exact in s32
// while |K · 128 · (255 + zp)| fits, as the accumulator itself. Padding lanes hold 0.
void int8_compensation(const int8_t *packed, const int8_gemm_shape &s, const int8_k_map &km,
                       int32_t shift, const int32_t *zp, bool per_channel, int32_t *comp);

} // namespace jit
} // namespace prim
