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

// The same down the columns of a len x stride block (element k of column i at x[k * stride + i]),
// for columns [first, last): max[i - first] and sum[i - first]. For an axis that is not
// innermost, each column is one softmax row.
void softmax_column_max(cpu_isa isa, const float *x, int64_t len, int64_t stride, int64_t first,
                        int64_t last, float *max);
void softmax_column_sum(cpu_isa isa, const float *x, int64_t len, int64_t stride, int64_t first,
                        int64_t last, double *sum);

} // namespace jit
} // namespace prim
