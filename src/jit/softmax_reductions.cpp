// The JIT softmax's row reductions: softmax_reductions.hpp.
#include "jit/softmax_reductions.hpp"

#include <limits>

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

} // namespace

float softmax_row_max(cpu_isa isa, const float *x, int64_t n) {
    return isa >= cpu_isa::avx512 ? row_max_avx512(x, n) : row_max_avx2(x, n);
}

double softmax_row_sum(cpu_isa isa, const float *x, int64_t n) {
    return isa >= cpu_isa::avx512 ? row_sum_avx512(x, n) : row_sum_avx2(x, n);
}

} // namespace jit
} // namespace prim
