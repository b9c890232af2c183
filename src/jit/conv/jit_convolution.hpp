// The JIT convolution primitive (fp32 forward, AVX-512 and AVX2): the configuration of
// conv_conf.hpp (layouts, blocking, depthwise, row merging), then threading loops and execution
// around the kernels of conv_kernel.hpp (and the depthwise kernel of conv_dw_kernel.hpp).
// Design notes: doc/convolution.md.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"
#include "jit/conv/conv_conf.hpp"
#include "jit/gen/jit_generator.hpp"
#include "jit/gen/uarch.hpp"

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

// The pieces the fused dw pass (jit_conv_dw_fused.cpp) shares with the convolution primitive.
namespace jit {

// The setup of a JIT convolution for req on kernel_isa (isa: the request's cap): its kernel
// chain (plan_kernel_chain()) and init_conv_conf(). Fields of setup set before the call
// (rows_apart) are read. "" or the reason it cannot be done; the caller sets and checks
// setup.operands.
std::string make_conv_setup(conv_setup &setup, const impl::conv_request &req, cpu_isa kernel_isa,
                            cpu_isa isa, const uarch &u);

// The kernel of s for nb oc blocks (channel blocks for depthwise), the last with oc_tail valid
// lanes (0: full), from the process-wide cache or generated.
std::shared_ptr<const jit_generator> make_conv_kernel(cpu_isa isa, const conv_setup &s, int nb,
                                                      int oc_tail);

// make()'s primitive, or null with why_not when code generation failed (Xbyak's errors); other
// errors propagate.
std::unique_ptr<impl::primitive_impl> generating(
        const std::function<std::unique_ptr<impl::primitive_impl>()> &make, std::string &why_not);

} // namespace jit
} // namespace prim
