// The int8 steps around a reference convolution or inner product (doc/int8.md), on the plain f32
// copies of its arguments: src less its zero points before the kernel, the scales in the
// kernel's accumulator stage, dst scale and zero point after it (the copy back to dst's type
// rounds half to even and saturates).
#pragma once
#include <cstdint>
#include <vector>

#include "common/primitive_impl.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {

class ref_int8_steps {
public:
    ref_int8_steps(const quantization &q, const exec_ptrs::quant_values &values, int64_t oc);
    // src (plain, dims (mb, ic, spatial...)) less its zero points: padding stays the real 0.
    void before(float *src, const memory::dims &src_dims) const;
    // x = (f32(acc) * pre[oc] + bias) * post[oc]: v3 scales in pre, 2.x output scales in post.
    const ref_acc_stage *stage() const { return &stage_; }
    // x / dst_scale + zp_dst[oc], on the chain's results (plain, dims (mb, oc, spatial...)).
    void after(float *dst, const memory::dims &dst_dims) const;

private:
    const quantization &q_;
    const exec_ptrs::quant_values &v_;
    std::vector<float> pre_, post_;
    ref_acc_stage stage_;
};

} // namespace impl
} // namespace prim
