// Reference kernels: simple and obviously right, the oracle for every test. They work on the
// canonical plain layouts below; src/ref/ref_*.cpp wraps them as primitives for any layout.
#pragma once
#include <cstdint>

#include "common/problem.hpp"
#include "prim/attr.hpp"
#include "ref/ref_chain.hpp"

namespace prim {
namespace impl {

// How an int8 kernel turns its exact accumulator into the chain's input (doc/int8.md):
//   x = (f32(acc) * pre[oc] + bias[oc]) * post[oc]
// pre holds src_scale * wei_scale[oc] (oneDNN v3 scales), post the 2.x output scale; the one
// not in use is 1. Without a stage (f32), x = f32(acc + bias).
struct ref_acc_stage {
    const float *pre = nullptr;  // OC values
    const float *post = nullptr; // OC values
    float apply(double acc, int64_t oc, float bias) const {
        return (static_cast<float>(acc) * pre[oc] + bias) * post[oc];
    }
};

// Convolution on plain layouts, every spatial dim always present (size 1 when unused):
//   src  [mb][ic][id][ih][iw]
//   wei  [g][oc/g][ic/g][kd][kh][kw]
//   bias [oc] or null
//   dst  [mb][oc][od][oh][ow]: holds dst_old on entry (read by sum), the result on exit.
// Accumulates in double, rounds acc + bias to f32, then applies the chain.
// With a stage (int8: src and wei hold integers, src less its zero point), x comes from it.
void ref_conv_fwd(const conv_problem &prb, const float *src, const float *wei, const float *bias,
                  const ref_chain &po, float *dst, const ref_acc_stage *stage = nullptr);

// Inner product on plain layouts: src [mb][ic][id][ih][iw], wei [oc][ic][id][ih][iw],
// bias [oc] or null, dst [mb][oc] (dst_old on entry).
void ref_ip_fwd(const ip_problem &prb, const float *src, const float *wei, const float *bias,
                const ref_chain &po, float *dst, const ref_acc_stage *stage = nullptr);

// dst[i] = chain(f_alg(src[i]), dst_old = dst[i]) for n elements; src may equal dst.
void ref_eltwise_fwd(algorithm alg, float alpha, float beta, const ref_chain &po,
                     const float *src, float *dst, int64_t n);

} // namespace impl
} // namespace prim
