// The reference normalization kernels: ref_normalization.hpp. Statistics in two passes (the mean,
// then the mean of squared differences), everything in double.
#include <cmath>
#include <vector>

#include "ref/ref_normalization.hpp"

namespace prim {
namespace impl {

namespace {

struct moments {
    double mean = 0.0, variance = 0.0;
};

// The mean and biased variance of n values, value k being at(k).
template <typename at_fn>
moments compute_moments(int64_t n, at_fn at) {
    moments m;
    if (n == 0) return m;
    double sum = 0.0;
    for (int64_t k = 0; k < n; ++k) sum += at(k);
    m.mean = sum / static_cast<double>(n);
    double sq = 0.0;
    for (int64_t k = 0; k < n; ++k) {
        const double d = at(k) - m.mean;
        sq += d * d;
    }
    m.variance = sq / static_cast<double>(n);
    return m;
}

} // namespace

void ref_bnorm_fwd(const bnorm_problem &prb, const float *src, const float *mean,
                   const float *variance, const float *scale, const float *shift,
                   const ref_chain &po, float *dst) {
    const int64_t mb = prb.mb, ic = prb.ic, sp = prb.spatial();
    const auto index = [=](int64_t n, int64_t c, int64_t s) { return (n * ic + c) * sp + s; };
    // Every channel's statistics first: in place, normalizing writes over src.
    std::vector<moments> stats(static_cast<size_t>(ic));
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < ic; ++c) {
        if (mean) {
            stats[c] = {mean[c], variance[c]};
            continue;
        }
        stats[c] = compute_moments(mb * sp, [&](int64_t k) {
            return static_cast<double>(src[index(k / sp, c, k % sp)]);
        });
    }
#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t n = 0; n < mb; ++n)
        for (int64_t c = 0; c < ic; ++c) {
            const double inv = 1.0 / std::sqrt(stats[c].variance + static_cast<double>(prb.eps));
            const double sc = scale ? scale[c] : 1.0, sh = shift ? shift[c] : 0.0;
            for (int64_t s = 0; s < sp; ++s) {
                const int64_t e = index(n, c, s);
                // Read both before writing: in place, src and dst are the same element.
                const double x = src[e];
                const float dst_old = dst[e];
                const float y = static_cast<float>((x - stats[c].mean) * inv * sc + sh);
                dst[e] = po.apply(y, dst_old, e);
            }
        }
}

void ref_lnorm_fwd(const lnorm_problem &prb, const float *src, const float *mean,
                   const float *variance, const float *scale, const float *shift,
                   const ref_chain &po, float *dst) {
    const int64_t rows = prb.rows(), len = prb.norm_len();
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float *x = src + r * len;
        const moments m = mean ? moments {mean[r], variance[r]}
                               : compute_moments(len, [&](int64_t k) {
                                     return static_cast<double>(x[k]);
                                 });
        const double inv = 1.0 / std::sqrt(m.variance + static_cast<double>(prb.eps));
        for (int64_t c = 0; c < len; ++c) {
            const int64_t e = r * len + c;
            const double v = src[e];
            const float dst_old = dst[e];
            const double sc = scale ? scale[c] : 1.0, sh = shift ? shift[c] : 0.0;
            const float y = static_cast<float>((v - m.mean) * inv * sc + sh);
            dst[e] = po.apply(y, dst_old, e);
        }
    }
}

} // namespace impl
} // namespace prim
