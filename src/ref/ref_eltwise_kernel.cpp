// Reference eltwise kernel on a flat array: dst[i] = chain(f_alg(src[i])), dst_old = dst[i].
#include "attr/eltwise_math.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {

void ref_eltwise_fwd(algorithm alg, float alpha, float beta, const ref_chain &po,
                     const float *src, float *dst, int64_t n) {
    // Fail on an unknown algorithm before the parallel region (no exception may leave it).
    if (n > 0) (void)eltwise_fwd(alg, 0.0, alpha, beta);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        // Read both before writing: in place, src and dst are the same element.
        const float s = src[i];
        const float dst_old = dst[i];
        const float y = static_cast<float>(eltwise_fwd(alg, s, alpha, beta));
        dst[i] = po.apply(y, dst_old, i);
    }
}

} // namespace impl
} // namespace prim
