// The int8 steps of the reference convolution and inner product: ref_int8.hpp.
#include "ref/ref_int8.hpp"

namespace prim {
namespace impl {
namespace {

// data, plain row-major of dims (dim 1 the channels): each element += sign * zp[c] (zp[0] when
// not per channel).
void shift_channels(float *data, const memory::dims &dims, const int32_t *zp, bool per_channel,
                    float sign) {
    int64_t inner = 1;
    for (size_t d = 2; d < dims.size(); ++d) inner *= dims[d];
    const int64_t channels = dims[1], outer = dims[0];
    for (int64_t n = 0; n < outer; ++n)
        for (int64_t c = 0; c < channels; ++c) {
            const float v = sign * static_cast<float>(zp[per_channel ? c : 0]);
            float *p = data + (n * channels + c) * inner;
            for (int64_t i = 0; i < inner; ++i) p[i] += v;
        }
}

} // namespace

ref_int8_steps::ref_int8_steps(const quantization &q, const exec_ptrs::quant_values &values,
                               int64_t oc)
    : q_(q), v_(values), pre_(static_cast<size_t>(oc), 1.f), post_(static_cast<size_t>(oc), 1.f) {
    const float src = v_.src_scales ? v_.src_scales[0] : 1.f;
    const float *output = v_.output_scales ? v_.output_scales : q_.output_scales.data();
    for (int64_t c = 0; c < oc; ++c) {
        pre_[c] = src * (v_.wei_scales ? v_.wei_scales[q_.wei_scale_mask > 0 ? c : 0] : 1.f);
        if (q_.has_output_scales) post_[c] = output[q_.output_scales_mask != 0 ? c : 0];
    }
    stage_ = {pre_.data(), post_.data()};
}

void ref_int8_steps::before(float *src, const memory::dims &src_dims) const {
    if (v_.src_zero_points) shift_channels(src, src_dims, v_.src_zero_points, q_.src_zp_mask > 0, -1.f);
}

void ref_int8_steps::after(float *dst, const memory::dims &dst_dims) const {
    if (v_.dst_scales) {
        const float inv = 1.f / v_.dst_scales[0];
        int64_t n = 1;
        for (auto d : dst_dims) n *= d;
        for (int64_t i = 0; i < n; ++i) dst[i] *= inv;
    }
    if (v_.dst_zero_points) shift_channels(dst, dst_dims, v_.dst_zero_points, q_.dst_zp_mask > 0, 1.f);
}

} // namespace impl
} // namespace prim
