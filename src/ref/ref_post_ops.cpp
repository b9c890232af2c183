// The reference post-ops chain on one value (doc/reference.md §1). Each entry is computed in
// double and rounded to f32 right after it (an eltwise's f before its scale), as the JIT kernels do, so that both take the same
// branch at discontinuities (round, shrink, clip).
#include "attr/eltwise_math.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {

float ref_apply_post_ops(const post_ops &po, float x, float dst_old) {
    for (const post_ops::entry &e : po.entries()) {
        if (e.kind == post_ops::kind::sum) {
            // Every sum reads the same dst_old: the value before the primitive ran.
            x = static_cast<float>(static_cast<double>(x) + e.scale * static_cast<double>(dst_old));
        } else {
            // f rounded to f32, then one rounded product: an extreme scale (1e-42, FLT_MAX, inf)
            // scales the f32 value, as every kernel does, so exp(89) * 1e-42 is inf * 1e-42.
            const float f = static_cast<float>(eltwise_fwd(e.alg, x, e.alpha, e.beta));
            x = static_cast<float>(static_cast<double>(e.scale) * f);
        }
    }
    return x;
}

} // namespace impl
} // namespace prim
