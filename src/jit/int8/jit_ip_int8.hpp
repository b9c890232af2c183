// The JIT int8 inner product (u8/s8 src, s8 weights; AVX2, AVX-512, AVX512-VNNI): the int8
// GEMM (int8_gemm.hpp) on its src rows. Design: doc/inner_product.md, doc/int8.md.
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// Builds the implementation for the best of avx512_vnni, avx512, avx2 that isa allows; returns
// null with the reason in why_not when it cannot take the request.
std::unique_ptr<primitive_impl> create_jit_ip_int8(const ip_request &req, cpu_isa isa,
                                                   std::string &why_not);

} // namespace impl
} // namespace prim
