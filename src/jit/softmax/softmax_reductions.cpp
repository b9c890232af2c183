// The JIT softmax's row reductions: softmax_reductions.hpp.
#include "jit/softmax/softmax_reductions.hpp"

#include <cstddef>
#include <limits>
#include <vector>

namespace prim {
namespace jit {
namespace {

// NaN is tracked apart from the maximum: x > m is false for a NaN x, so the max ignores it.
__attribute__((always_inline)) inline float row_max(const float *x, int64_t n) {
    float m = -std::numeric_limits<float>::infinity();
    int nan = 0;
#pragma omp simd reduction(max : m) reduction(| : nan)
    for (int64_t i = 0; i < n; ++i) {
        m = x[i] > m ? x[i] : m;
        nan |= x[i] != x[i];
    }
    return nan ? std::numeric_limits<float>::quiet_NaN() : m;
}

__attribute__((always_inline)) inline double row_sum(const float *x, int64_t n) {
    double s = 0.0;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += static_cast<double>(x[i]);
    return s;
}

// Columns: the same reductions, each lane its own column, rows walked outermost so that every
// load is contiguous. NaN is tracked per column as above.
__attribute__((always_inline)) inline void column_max(const float *x, int64_t len, int64_t stride,
                                                      int64_t first, int64_t last, float *max) {
    const int64_t n = last - first;
    std::vector<int> nan(static_cast<std::size_t>(n), 0);
    int *has_nan = nan.data();
    const float *row = x + first;
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) {
        max[i] = row[i];
        has_nan[i] = row[i] != row[i];
    }
    for (int64_t k = 1; k < len; ++k) {
        row = x + k * stride + first;
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) {
            max[i] = row[i] > max[i] ? row[i] : max[i];
            has_nan[i] |= row[i] != row[i];
        }
    }
    for (int64_t i = 0; i < n; ++i)
        if (has_nan[i]) max[i] = std::numeric_limits<float>::quiet_NaN();
}

__attribute__((always_inline)) inline void column_sum(const float *x, int64_t len, int64_t stride,
                                                      int64_t first, int64_t last, double *sum) {
    const int64_t n = last - first;
    for (int64_t i = 0; i < n; ++i) sum[i] = 0.0;
    for (int64_t k = 0; k < len; ++k) {
        const float *row = x + k * stride + first;
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) sum[i] += static_cast<double>(row[i]);
    }
}

__attribute__((target("avx512f"))) float row_max_avx512(const float *x, int64_t n) {
    return row_max(x, n);
}
__attribute__((target("avx2,fma"))) float row_max_avx2(const float *x, int64_t n) {
    return row_max(x, n);
}
__attribute__((target("avx512f"))) double row_sum_avx512(const float *x, int64_t n) {
    return row_sum(x, n);
}
__attribute__((target("avx2,fma"))) double row_sum_avx2(const float *x, int64_t n) {
    return row_sum(x, n);
}

__attribute__((target("avx512f"))) void column_max_avx512(const float *x, int64_t len,
        int64_t stride, int64_t first, int64_t last, float *max) {
    column_max(x, len, stride, first, last, max);
}
__attribute__((target("avx2,fma"))) void column_max_avx2(const float *x, int64_t len,
        int64_t stride, int64_t first, int64_t last, float *max) {
    column_max(x, len, stride, first, last, max);
}
__attribute__((target("avx512f"))) void column_sum_avx512(const float *x, int64_t len,
        int64_t stride, int64_t first, int64_t last, double *sum) {
    column_sum(x, len, stride, first, last, sum);
}
__attribute__((target("avx2,fma"))) void column_sum_avx2(const float *x, int64_t len,
        int64_t stride, int64_t first, int64_t last, double *sum) {
    column_sum(x, len, stride, first, last, sum);
}

} // namespace

void softmax_column_max(cpu_isa isa, const float *x, int64_t len, int64_t stride, int64_t first,
                        int64_t last, float *max) {
    if (isa >= cpu_isa::avx512)
        column_max_avx512(x, len, stride, first, last, max);
    else
        column_max_avx2(x, len, stride, first, last, max);
}

void softmax_column_sum(cpu_isa isa, const float *x, int64_t len, int64_t stride, int64_t first,
                        int64_t last, double *sum) {
    if (isa >= cpu_isa::avx512)
        column_sum_avx512(x, len, stride, first, last, sum);
    else
        column_sum_avx2(x, len, stride, first, last, sum);
}

float softmax_row_max(cpu_isa isa, const float *x, int64_t n) {
    return isa >= cpu_isa::avx512 ? row_max_avx512(x, n) : row_max_avx2(x, n);
}

double softmax_row_sum(cpu_isa isa, const float *x, int64_t n) {
    return isa >= cpu_isa::avx512 ? row_sum_avx512(x, n) : row_sum_avx2(x, n);
}

} // namespace jit
} // namespace prim
