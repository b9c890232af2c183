// The JIT inner product (fp32 forward, AVX-512 and AVX2): a register-tiled GEMM micro-kernel
// with the bias and the post-ops chain applied in registers before its single store.
// Design, layouts and blocking: doc/inner_product.md.
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// Builds the implementation for avx512 when isa allows it, else avx2; returns null with the
// reason in why_not when it cannot take the request (isa none, chain or sizes out of reach).
std::unique_ptr<primitive_impl> create_jit_ip(const ip_request &req, cpu_isa isa,
                                              std::string &why_not);

} // namespace impl
} // namespace prim
