// The fused dw pass in int8: a 1x1 int8 convolution with a dw post-op (common/dw_post_op.hpp) as
// one JIT pass on the int8 GEMM (int8_gemm.hpp), the 1x1's u8/s8 output rows kept in a per-thread
// window that the depthwise convolution reads in place (design in jit_conv_dw_int8.cpp and
// doc/dw_post_op.md).
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// Builds the pass for a request whose chain has a dw entry and whose data are int8, or returns
// null with the reason in why_not. isa: the highest ISA the request may use.
std::unique_ptr<primitive_impl> create_jit_conv_dw_int8(const conv_request &req, cpu_isa isa,
                                                        std::string &why_not);

} // namespace impl
} // namespace prim
