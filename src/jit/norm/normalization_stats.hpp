// The statistics of the JIT normalizations, when they are not given: plain C++ loops (OpenMP
// simd, compiled for the primitive's ISA), accumulated in double, so the mean and variance are
// those of the data to about 1e-15 relative whatever the number of elements. One pass each: the
// sums of d = x - K and d^2, K one value of the channel or row (so that the variance
// E[d^2] - E[d]^2 does not cancel when the mean is large against the spread).
#pragma once
#include <cstdint>

#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// How a dense layout holds the channels (dim 1) for batch normalization: element (o, cb, s, l)
// at ((o * c_blocks + cb) * inner + s) * block + l, channel cb * block + l; lanes of channels
// beyond C are padding.
//   nchw (abcd):          outer N, c_blocks C, inner H*W, block 1
//   nhwc (acdb), or spatial 1: outer 1, c_blocks 1, inner N*H*W, block C
//   nChw16c (aBcd16b):    outer N, c_blocks ceil(C/16), inner H*W, block 16 (8 for aBcd8b)
struct channel_view {
    int64_t outer = 0, c_blocks = 0, inner = 0, block = 0; // block 0: not one of these layouts
    bool valid() const { return block > 0; }
};
channel_view make_channel_view(const memory::desc &md);

// Per channel mean and biased variance over everything but dim 1 of src laid out as view,
// for channels [0, channels). Threads itself (OpenMP), one thread inside a parallel region.
void channel_moments(cpu_isa isa, const channel_view &view, int64_t channels, const float *src,
                     double *mean, double *variance);

// The mean and biased variance of n contiguous values, on the calling thread.
void row_moments(cpu_isa isa, const float *x, int64_t n, double &mean, double &variance);

} // namespace jit
} // namespace prim
