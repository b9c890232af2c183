// The JIT binary primitive's entry point, for the implementation list (src/common/impl_list.cpp).
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// Binary on avx2 or avx512: src0 and dst in one dense layout, src1 any layout the eltwise pass
// reads row by row (eltwise_rows.hpp), any algorithm and chain.
std::unique_ptr<primitive_impl> create_jit_binary(const binary_request &req, cpu_isa isa,
                                                  std::string &why_not);

} // namespace impl
} // namespace prim
