// The JIT convolution primitive (fp32 forward, AVX-512 and AVX2): the configuration of
// conv_conf.hpp (layouts, blocking, depthwise, row merging), then threading loops and execution
// around the kernels of conv_kernel.hpp (and the depthwise kernel of conv_dw_kernel.hpp).
// Design notes: doc/convolution.md.
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"
#include "jit/uarch.hpp"

namespace prim {
namespace impl {

// Builds the JIT implementation for the request, or returns null with the reason in why_not.
// isa: the highest ISA the request may use (avx2 or avx512; anything lower declines).
std::unique_ptr<primitive_impl> create_jit_conv(const conv_request &req, cpu_isa isa,
                                                std::string &why_not);
// The same with the decisions made for the CPU u describes (tests check other CPUs' paths).
std::unique_ptr<primitive_impl> create_jit_conv_for(const jit::uarch &u, const conv_request &req,
                                                    cpu_isa isa, std::string &why_not);

} // namespace impl
} // namespace prim
