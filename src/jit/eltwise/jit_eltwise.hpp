// The JIT eltwise primitive's entry point, for the implementation list (src/common/impl_list.cpp).
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// Eltwise on avx2 or avx512 (isa: the highest the primitive may use): src and dst in the same
// dense layout ('any' resolved to the other one's layout, or plain), each of f32, s32, s8 or u8,
// any algorithm and chain (binary operands of any of the four types, sums with a zero point).
std::unique_ptr<primitive_impl> create_jit_eltwise(const eltwise_request &req, cpu_isa isa,
                                                   std::string &why_not);

} // namespace impl
} // namespace prim
