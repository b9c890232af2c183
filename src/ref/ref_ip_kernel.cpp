// Reference inner product on plain layouts: each output is one dot product, summed in double.
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {

void ref_ip_fwd(const ip_problem &prb, const float *src, const float *wei, const float *bias,
                const ref_chain &po, float *dst, const ref_acc_stage *stage) {
    const int64_t MB = prb.mb, OC = prb.oc;
    // src [mb][ic][spatial] and wei [oc][ic][spatial] flatten to rows of the same length K.
    const int64_t K = prb.ic * prb.spatial();
    if (MB <= 0 || OC <= 0) return; // mb0: nothing to compute

#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t n = 0; n < MB; ++n) {
        for (int64_t oc = 0; oc < OC; ++oc) {
            const float *s = src + n * K;
            const float *w = wei + oc * K;
            double acc = 0.0;
            for (int64_t k = 0; k < K; ++k)
                acc += static_cast<double>(s[k]) * static_cast<double>(w[k]);
            const float b = bias ? bias[oc] : 0.f;
            const float x = stage ? stage->apply(acc, oc, b)
                                  : static_cast<float>(acc + static_cast<double>(b));
            float &out = dst[n * OC + oc];
            out = po.apply(x, out, n * OC + oc); // out holds dst_old
        }
    }
}

} // namespace impl
} // namespace prim
