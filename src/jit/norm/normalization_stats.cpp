// The normalizations' statistics: normalization_stats.hpp.
#include "jit/norm/normalization_stats.hpp"

#include <omp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "jit/gen/work_threads.hpp"

namespace prim {
namespace jit {

namespace {

// A dims' layout pattern: plain "abcd", channels last "acdb", channels blocked "aBcd16b".
std::string pattern(int rank, bool channels_last, int block) {
    std::string p = "a";
    if (!channels_last) p += block > 1 ? 'B' : 'b';
    for (int d = 2; d < rank; ++d) p += static_cast<char>('a' + d);
    if (channels_last) p += 'b';
    if (block > 1) p += std::to_string(block) + "b";
    return p;
}

// Vectors of the generic GCC/Clang kind, of the width of each ISA's registers (16 floats for
// AVX-512, 8 for AVX2: wider ones would be split through the stack), compiled by the
// ISA-specific functions below. The helpers taking or returning them are always inlined into
// those functions: no vector crosses a call, whatever -Wpsabi says of the baseline ABI.
#pragma GCC diagnostic ignored "-Wpsabi"
template <int w>
struct vecs;
template <>
struct vecs<16> {
    typedef float f32 __attribute__((vector_size(64)));
    typedef double f64 __attribute__((vector_size(64)));
    __attribute__((always_inline)) static f64 low(f32 v) {
        return __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7), f64);
    }
    __attribute__((always_inline)) static f64 high(f32 v) {
        return __builtin_convertvector(
                __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15), f64);
    }
};
template <>
struct vecs<8> {
    typedef float f32 __attribute__((vector_size(32)));
    typedef double f64 __attribute__((vector_size(32)));
    __attribute__((always_inline)) static f64 low(f32 v) {
        return __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3), f64);
    }
    __attribute__((always_inline)) static f64 high(f32 v) {
        return __builtin_convertvector(__builtin_shufflevector(v, v, 4, 5, 6, 7), f64);
    }
};

template <typename vec>
__attribute__((always_inline)) inline vec load(const float *p) {
    vec v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

// Batch normalization's statistics read src from memory once; in double, the arithmetic keeps up.

// The sums of d = x - k and d^2 over n contiguous values.
struct sums {
    double s = 0.0, q = 0.0;
};

__attribute__((always_inline)) inline sums run_sums(const float *x, int64_t n, float k) {
    double s = 0.0, q = 0.0;
    const double kd = k;
#pragma omp simd reduction(+ : s, q)
    for (int64_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(x[i]) - kd;
        s += d;
        q += d * d;
    }
    return {s, q};
}

// Per lane over rows of `block` values: s[l], q[l] add lane l of every row. `groups` vectors of
// w lanes at a time over all the rows, in registers (4 x 16 lanes: 16 zmm accumulators; 2 x 8
// on AVX2), so that nothing is stored per row; each cache line is read once. Returns the first
// lane not done.
template <int w, int groups>
__attribute__((always_inline)) inline int64_t lane_group_sums(const float *x, int64_t rows,
        int64_t block, int64_t l, const float *k, double *s, double *q) {
    using v = vecs<w>;
    constexpr int h = w / 2;
    for (; l + w * groups <= block; l += w * groups) {
        typename v::f64 k_lo[groups], k_hi[groups];
        typename v::f64 s_lo[groups] = {}, s_hi[groups] = {}, q_lo[groups] = {}, q_hi[groups] = {};
        for (int g = 0; g < groups; ++g) {
            const typename v::f32 kv = load<typename v::f32>(k + l + w * g);
            k_lo[g] = v::low(kv);
            k_hi[g] = v::high(kv);
        }
        for (int64_t r = 0; r < rows; ++r) {
            const float *row = x + r * block + l;
            for (int g = 0; g < groups; ++g) {
                const typename v::f32 xv = load<typename v::f32>(row + w * g);
                const typename v::f64 d_lo = v::low(xv) - k_lo[g], d_hi = v::high(xv) - k_hi[g];
                s_lo[g] += d_lo;
                s_hi[g] += d_hi;
                q_lo[g] += d_lo * d_lo;
                q_hi[g] += d_hi * d_hi;
            }
        }
        for (int g = 0; g < groups; ++g)
            for (int j = 0; j < h; ++j) {
                s[l + w * g + j] += s_lo[g][j];
                s[l + w * g + h + j] += s_hi[g][j];
                q[l + w * g + j] += q_lo[g][j];
                q[l + w * g + h + j] += q_hi[g][j];
            }
    }
    return l;
}

template <int w, int groups>
__attribute__((always_inline)) inline void block_sums(const float *x, int64_t rows, int64_t block,
                                                      const float *k, double *s, double *q) {
    int64_t l = lane_group_sums<w, groups>(x, rows, block, 0, k, s, q);
    if (groups > 1) l = lane_group_sums<w, 1>(x, rows, block, l, k, s, q);
    for (; l < block; ++l) { // the lanes beyond a multiple of w (channels-last, C = 19)
        const double kd = k[l];
        double sl = 0.0, ql = 0.0;
        for (int64_t r = 0; r < rows; ++r) {
            const double d = static_cast<double>(x[r * block + l]) - kd;
            sl += d;
            ql += d * d;
        }
        s[l] += sl;
        q[l] += ql;
    }
}

// Layer normalization's rows are in the cache when their statistics are computed, so there the
// arithmetic is the cost: f32 partial sums in 4 vectors of lanes (each lane adds at most 16
// terms, then the lanes are added into doubles), 2 vector operations per vector of values and
// pass instead of 4 in double.

// The sum of d = x - k (square: of d^2) over n contiguous values.
template <int w, bool square>
__attribute__((always_inline)) inline double lane_sum(const float *x, int64_t n, float k) {
    using v = vecs<w>;
    constexpr int64_t step = 4 * w, flush = 16 * step;
    const typename v::f32 kv = typename v::f32 {} + k;
    typename v::f64 total = {};
    int64_t i = 0;
    while (n - i >= step) {
        typename v::f32 a0 = {}, a1 = {}, a2 = {}, a3 = {};
        const int64_t end = i + std::min(flush, (n - i) / step * step);
        for (; i < end; i += step) {
            const typename v::f32 d0 = load<typename v::f32>(x + i) - kv,
                                  d1 = load<typename v::f32>(x + i + w) - kv,
                                  d2 = load<typename v::f32>(x + i + 2 * w) - kv,
                                  d3 = load<typename v::f32>(x + i + 3 * w) - kv;
            a0 += square ? d0 * d0 : d0;
            a1 += square ? d1 * d1 : d1;
            a2 += square ? d2 * d2 : d2;
            a3 += square ? d3 * d3 : d3;
        }
        const typename v::f32 a = (a0 + a1) + (a2 + a3);
        total += v::low(a) + v::high(a);
    }
    double sum = 0.0;
    for (int l = 0; l < w / 2; ++l) sum += total[l];
    for (; i < n; ++i) {
        const double d = static_cast<double>(x[i]) - static_cast<double>(k);
        sum += square ? d * d : d;
    }
    return sum;
}

// Two passes over the row (in the cache): the mean of x - x[0], then the mean of (x - m)^2 with
// m the mean rounded to f32 (what the normalization subtracts), less the (mean - m)^2 that adds.
template <int w>
__attribute__((always_inline)) inline void two_pass_moments(const float *x, int64_t n,
                                                           double &mean, double &variance) {
    const double dn = static_cast<double>(n);
    mean = static_cast<double>(x[0]) + lane_sum<w, false>(x, n, x[0]) / dn;
    const float m = static_cast<float>(mean);
    const double bias = mean - static_cast<double>(m);
    variance = std::max(0.0, lane_sum<w, true>(x, n, m) / dn - bias * bias);
}

// The loops compiled for each ISA: the library is built for the baseline x86-64, and these run
// only under a JIT primitive, on a machine that has the ISA.
__attribute__((target("avx512f"))) sums run_sums_avx512(const float *x, int64_t n, float k) {
    return run_sums(x, n, k);
}
__attribute__((target("avx2,fma"))) sums run_sums_avx2(const float *x, int64_t n, float k) {
    return run_sums(x, n, k);
}
__attribute__((target("avx512f"))) void block_sums_avx512(const float *x, int64_t rows,
        int64_t block, const float *k, double *s, double *q) {
    block_sums<16, 4>(x, rows, block, k, s, q);
}
__attribute__((target("avx2,fma"))) void block_sums_avx2(const float *x, int64_t rows,
        int64_t block, const float *k, double *s, double *q) {
    block_sums<8, 2>(x, rows, block, k, s, q);
}
__attribute__((target("avx512f"))) void two_pass_moments_avx512(const float *x, int64_t n,
                                                              double &mean, double &variance) {
    two_pass_moments<16>(x, n, mean, variance);
}
__attribute__((target("avx2,fma"))) void two_pass_moments_avx2(const float *x, int64_t n,
                                                             double &mean, double &variance) {
    two_pass_moments<8>(x, n, mean, variance);
}

sums isa_run_sums(cpu_isa isa, const float *x, int64_t n, float k) {
    return isa == cpu_isa::avx512 ? run_sums_avx512(x, n, k) : run_sums_avx2(x, n, k);
}

// Moments from the sums of n values shifted by k.
void finish(double s, double q, int64_t n, double k, double &mean, double &variance) {
    const double m = s / static_cast<double>(n);
    mean = k + m;
    variance = std::max(0.0, q / static_cast<double>(n) - m * m);
}

// Elements a work item of channel_moments covers, about: small enough to spread the work over
// the threads, large enough that an item's bookkeeping does not count.
const int64_t item_elems = 16 * 1024;
const int64_t min_elems_per_thread = 32 * 1024;
// Slices of the work items, summed apart: the most threads that can share the statistics.
const int64_t max_slices = 64;

} // namespace

channel_view make_channel_view(const memory::desc &md) {
    if (md.is_zero() || md.is_any()) return {};
    const memory::dims &d = md.get_dims();
    const int rank = md.ndims();
    if (rank < 2) return {};
    int64_t spatial = 1;
    for (int j = 2; j < rank; ++j) spatial *= d[j];
    const auto is = [&](bool channels_last, int block) {
        return md == memory::desc(d, memory::data_type::f32, pattern(rank, channels_last, block));
    };
    channel_view v;
    if (is(false, 1) && spatial > 1) v = {d[0], d[1], spatial, 1};
    else if (is(false, 1) || (rank > 2 && is(true, 1))) v = {1, 1, d[0] * spatial, d[1]};
    else if (is(false, 16)) v = {d[0], (d[1] + 15) / 16, spatial, 16};
    else if (is(false, 8)) v = {d[0], (d[1] + 7) / 8, spatial, 8};
    // One block of channels: the pixels of every image follow each other.
    if (v.valid() && v.c_blocks == 1) v = {1, 1, v.outer * v.inner, v.block};
    return v;
}

void channel_moments(cpu_isa isa, const channel_view &v, int64_t channels, const float *src,
                     double *mean, double *variance) {
    const int64_t padded = v.c_blocks * v.block;
    const int64_t elems = v.outer * padded * v.inner;
    // K per channel: its value at (o = 0, s = 0).
    std::vector<float> k(static_cast<size_t>(padded));
    for (int64_t cb = 0; cb < v.c_blocks; ++cb)
        for (int64_t l = 0; l < v.block; ++l) k[cb * v.block + l] = src[cb * v.inner * v.block + l];
    // Work items: a run of rows of one (o, cb). They are summed in a fixed number of slices of
    // consecutive items, whatever the threads, then the slices in order: the result does not
    // depend on the number of threads.
    const int64_t rows_per_item = std::max<int64_t>(1, item_elems / v.block);
    const int64_t chunks = (v.inner + rows_per_item - 1) / rows_per_item;
    const int64_t items = v.outer * v.c_blocks * chunks;
    const int64_t slices = std::min(items, max_slices);
    const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
    const int nthr = static_cast<int>(std::max<int64_t>(
            1, std::min<int64_t>({max_threads, slices, elems / min_elems_per_thread})));
    // Per slice: the sums of every channel, then of their squares.
    std::vector<double> part(static_cast<size_t>(slices * 2 * padded), 0.0);
    const auto run = [&](int t) {
        for (int64_t sl = slices * t / nthr; sl < slices * (t + 1) / nthr; ++sl) {
            double *s = &part[static_cast<size_t>(sl * 2 * padded)], *q = s + padded;
            for (int64_t it = items * sl / slices; it < items * (sl + 1) / slices; ++it) {
                const int64_t chunk = it % chunks, ocb = it / chunks, cb = ocb % v.c_blocks;
                const int64_t s0 = chunk * rows_per_item;
                const int64_t rows = std::min(rows_per_item, v.inner - s0);
                const float *x = src + (ocb * v.inner + s0) * v.block;
                if (v.block == 1) {
                    const sums r = isa_run_sums(isa, x, rows, k[cb]);
                    s[cb] += r.s;
                    q[cb] += r.q;
                } else if (isa == cpu_isa::avx512) {
                    block_sums_avx512(x, rows, v.block, &k[cb * v.block], s + cb * v.block,
                                      q + cb * v.block);
                } else {
                    block_sums_avx2(x, rows, v.block, &k[cb * v.block], s + cb * v.block,
                                    q + cb * v.block);
                }
            }
        }
    };
    run_parts(nthr, run);
    const int64_t n = v.outer * v.inner;
    for (int64_t c = 0; c < channels; ++c) {
        double s = 0.0, q = 0.0;
        for (int64_t sl = 0; sl < slices; ++sl) {
            s += part[static_cast<size_t>(sl * 2 * padded + c)];
            q += part[static_cast<size_t>(sl * 2 * padded + padded + c)];
        }
        finish(s, q, n, k[c], mean[c], variance[c]);
    }
}

void row_moments(cpu_isa isa, const float *x, int64_t n, double &mean, double &variance) {
    if (isa == cpu_isa::avx512)
        two_pass_moments_avx512(x, n, mean, variance);
    else
        two_pass_moments_avx2(x, n, mean, variance);
}

} // namespace jit
} // namespace prim
