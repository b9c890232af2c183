// Small groups merged into vector-wide ones with block-diagonal weights.
//
// A grouped convolution with fewer channels per group than a vector holds (ResNeXt: 32 groups
// of 8 channels, AVX-512: 16 lanes) fills part of each vector, needs masked tails, and keeps
// its groups side by side in nhwc. Merging r = W / channels-per-group neighbouring groups into
// one group of W channels whose weights are zero off the r diagonal blocks makes the layer an
// ordinary grouped convolution on the blocked layout (nChw16c): r times the FMAs, but on full
// vectors at the kernel's usual efficiency. Measured (mb2, two threads, alternating with
// oneDNN): ResNeXt-50's 32-group 3x3 56x56 layer (8 channels per group) 0.81x -> 1.05x, 64
// groups of 4 1.07x, 128 groups of 2 20 -> 51 GFLOP/s (oneDNN 3.6: its GEMM path). Where the
// FMA units are 256 bits wide, the zero blocks cost FLOPs that 16 lanes do not pay back, and
// such layers run on the 8-lane kernels instead (conv_kernel_isa(), conv_conf.cpp).
//
// The weights are expanded on every call (they are small: 32 groups of 8x8x3x3 here): the
// user's layout, or plain goihw for 'any', becomes the block-diagonal packed layout.
#pragma once
#include <cstdint>
#include <memory>

#include "common/problem.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

class merged_groups {
public:
    // True when prb has g > 1 groups of icg == ocg channels, icg < simd_w dividing it, and g a
    // multiple of r = simd_w / icg (r at most max_r: the zero blocks cost r times the FMAs).
    // Then prb is rewritten to g / r groups of simd_w channels, and user_wei (or plain goihw
    // for 'any') is the layout execute() expands from.
    bool init(impl::conv_problem &prb, int simd_w, const memory::desc &user_wei);
    // The r init() would merge for prb on simd_w lanes: 1 when it would not merge.
    static int factor(const impl::conv_problem &prb, int simd_w);
    bool enabled() const { return r_ > 1; }
    // The weights desc the user passes at execution.
    const memory::desc &user_wei_md() const { return user_wei_md_; }
    // The kernel's weights: the merged groups' block-diagonal weights in the packed layout.
    const memory::desc &packed_md() const { return packed_md_; }

    // packed (packed_md) = the block-diagonal weights built from the user's (user_wei_md).
    void expand(const float *user_wei, float *packed) const;

    static constexpr int max_r = 8; // 2 channels per group on AVX-512: still 2.5x unmerged

private:
    // Element (merged group mg, oc o, ic i, tap) of packed_md_.
    int64_t packed_offset(int64_t mg, int64_t o, int64_t i, int64_t tap) const;

    int r_ = 1;
    int64_t g_ = 0, cg_ = 0, taps_ = 0; // the user's groups, channels per group, k elements
    memory::desc user_wei_md_, plain_md_, packed_md_;
};

} // namespace jit
} // namespace prim
