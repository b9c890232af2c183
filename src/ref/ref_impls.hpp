// The reference implementations as primitives: they take every valid request, in any layout,
// by copying arguments that are not plain row-major into plain temporaries (plain_layout.hpp)
// around the kernels of ref_kernels.hpp.
#pragma once
#include <memory>
#include <string>

#include "common/plain_layout.hpp"
#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// A convolution's or inner product's src, weights and bias for one execution, in plain f32
// (plain_buffer: the user's own when already so).
struct plain_weighted_inputs {
    plain_weighted_inputs(const primitive_impl &impl, const exec_ptrs &args)
        : src(impl.src_md(), args.src, true), wei(impl.wei_md(), args.wei, true),
          bias(impl.bias_md(), args.bias, true) {}
    const plain_buffer src, wei, bias;
};

std::unique_ptr<primitive_impl> create_ref_conv(const conv_request &req, cpu_isa isa,
                                                std::string &why_not);
// A convolution whose chain has a dw post-op (ref_conv_dw.cpp).
std::unique_ptr<primitive_impl> create_ref_conv_dw(const conv_request &req);
std::unique_ptr<primitive_impl> create_ref_ip(const ip_request &req, cpu_isa isa,
                                              std::string &why_not);
std::unique_ptr<primitive_impl> create_ref_binary(const binary_request &req, cpu_isa isa,
                                                  std::string &why_not);
std::unique_ptr<primitive_impl> create_ref_eltwise(const eltwise_request &req, cpu_isa isa,
                                                   std::string &why_not);

} // namespace impl
} // namespace prim
