// Reference kernels: simple and obviously right, the oracle for every test. They work on the
// canonical plain layouts below; src/ref/ref_*.cpp wraps them as primitives for any layout.
#pragma once
#include <cstdint>

#include "common/problem.hpp"
#include "prim/attr.hpp"
#include "ref/ref_chain.hpp"

namespace prim {
namespace impl {

// Convolution on plain layouts, every spatial dim always present (size 1 when unused):
//   src  [mb][ic][id][ih][iw]
//   wei  [g][oc/g][ic/g][kd][kh][kw]
//   bias [oc] or null
//   dst  [mb][oc][od][oh][ow]: holds dst_old on entry (read by sum), the result on exit.
// Accumulates in double, rounds acc + bias to f32, then applies the chain.
void ref_conv_fwd(const conv_problem &prb, const float *src, const float *wei, const float *bias,
                  const ref_chain &po, float *dst);

// Inner product on plain layouts: src [mb][ic][id][ih][iw], wei [oc][ic][id][ih][iw],
// bias [oc] or null, dst [mb][oc] (dst_old on entry).
void ref_ip_fwd(const ip_problem &prb, const float *src, const float *wei, const float *bias,
                const ref_chain &po, float *dst);

// dst[i] = chain(f_alg(src[i]), dst_old = dst[i]) for n elements; src may equal dst.
void ref_eltwise_fwd(algorithm alg, float alpha, float beta, const ref_chain &po,
                     const float *src, float *dst, int64_t n);

} // namespace impl
} // namespace prim
