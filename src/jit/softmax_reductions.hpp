// The row reductions of the JIT softmax: plain C++ loops (OpenMP simd) compiled for the
// primitive's ISA, on the calling thread.
#pragma once
#include <cstdint>

#include "prim/cpu_isa.hpp"

namespace prim {
namespace jit {

// The largest of n contiguous values; NaN when any of them is NaN (max instructions would
// drop it, and softmax must propagate it).
float softmax_row_max(cpu_isa isa, const float *x, int64_t n);
// The sum of n contiguous values, accumulated in double.
double softmax_row_sum(cpu_isa isa, const float *x, int64_t n);

} // namespace jit
} // namespace prim
