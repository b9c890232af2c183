// The JIT int8 convolution, every shape (groups, depthwise, 1D/2D/3D, strides, dilation,
// padding): per group, the int8 GEMM (int8_gemm.hpp) on rows of the src's taps, one per output
// pixel, made per chunk in the thread that uses them (int8_src_rows.hpp); a 1x1 stride-1
// unpadded convolution's rows are its src pixels themselves. Channels-last dst; any src
// layout (others are copied channels-last first). Design: doc/int8.md.
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

std::unique_ptr<primitive_impl> create_jit_conv_int8(const conv_request &req, cpu_isa isa,
                                                     std::string &why_not);

} // namespace impl
} // namespace prim
