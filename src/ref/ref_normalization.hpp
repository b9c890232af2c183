// The reference batch and layer normalizations: the kernels, on plain layouts, and the "ref"
// primitives around them (any layout, through plain copies).
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"
#include "ref/ref_chain.hpp"

namespace prim {
namespace impl {

// Batch normalization on plain layouts: src and dst [mb][ic][spatial] (dst holds dst_old on
// entry, the result on exit; it may be src), mean and variance [ic] or null (then computed from
// src: mean and biased variance over mb and spatial), scale and shift [ic] or null (1 and 0).
// In double: y = (x - mean) / sqrt(variance + eps) * scale + shift, rounded to f32, then the chain.
void ref_bnorm_fwd(const bnorm_problem &prb, const float *src, const float *mean,
                   const float *variance, const float *scale, const float *shift,
                   const ref_chain &po, float *dst);

// Layer normalization on plain layouts: src and dst [rows][c], mean and variance [rows] or null
// (computed per row), scale and shift [c] or null. Otherwise as ref_bnorm_fwd.
void ref_lnorm_fwd(const lnorm_problem &prb, const float *src, const float *mean,
                   const float *variance, const float *scale, const float *shift,
                   const ref_chain &po, float *dst);

std::unique_ptr<primitive_impl> create_ref_bnorm(const bnorm_request &req, cpu_isa isa,
                                                 std::string &why_not);
std::unique_ptr<primitive_impl> create_ref_lnorm(const lnorm_request &req, cpu_isa isa,
                                                 std::string &why_not);

} // namespace impl
} // namespace prim
