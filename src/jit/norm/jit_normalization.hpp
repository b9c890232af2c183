// The JIT normalizations' entry points, for the implementation lists (src/common/impl_list.cpp).
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// Batch normalization on avx2 or avx512: src and dst in one dense layout; computed statistics
// need nchw-like, channels-last or channel-blocked (8, 16) layouts (doc/normalization.md).
std::unique_ptr<primitive_impl> create_jit_bnorm(const bnorm_request &req, cpu_isa isa,
                                                 std::string &why_not);
// Layer normalization on avx2 or avx512: src and dst in one dense unblocked layout whose last
// dim is innermost, the last dim at least a vector long.
std::unique_ptr<primitive_impl> create_jit_lnorm(const lnorm_request &req, cpu_isa isa,
                                                 std::string &why_not);

} // namespace impl
} // namespace prim
