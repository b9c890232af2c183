// The reference int8 convolution and inner product (ref_int8_weighted.cpp), and the steps on
// plain f32 buffers they share.
#pragma once
#include <cstdint>
#include <memory>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

std::unique_ptr<primitive_impl> create_ref_int8_conv(const conv_request &req);
std::unique_ptr<primitive_impl> create_ref_int8_ip(const ip_request &req);

// data, plain row-major of dims (dim 1 the channels): each element += sign * zp[c] (zp[0] when
// not per channel).
void shift_channels(float *data, const memory::dims &dims, const int32_t *zp, bool per_channel,
                    float sign);
// data *= factor, every element.
void scale_all(float *data, const memory::dims &dims, float factor);

} // namespace impl
} // namespace prim
