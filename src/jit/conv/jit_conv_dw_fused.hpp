// The fused dw pass: a 1x1 convolution with a dw post-op (common/dw_post_op.hpp) as one JIT pass
// that keeps the 1x1's output rows in a per-thread ring (fp32, AVX-512 and AVX2; design notes in
// jit_conv_dw_fused.cpp and doc/dw_post_op.md).
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"
#include "jit/gen/uarch.hpp"

namespace prim {
namespace impl {

// Builds the fused pass for a request whose chain has a dw entry, or returns null with the reason
// in why_not. isa: the highest ISA the request may use.
std::unique_ptr<primitive_impl> create_jit_conv_dw(const conv_request &req, cpu_isa isa,
                                                   std::string &why_not);
// The same with the decisions made for the CPU u describes.
std::unique_ptr<primitive_impl> create_jit_conv_dw_for(const jit::uarch &u, const conv_request &req,
                                                       cpu_isa isa, std::string &why_not);

} // namespace impl
} // namespace prim
