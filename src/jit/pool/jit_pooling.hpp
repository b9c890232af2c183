// The JIT pooling primitive's entry point, for the implementation list (src/common/impl_list.cpp).
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// Pooling on avx2 or avx512: src and dst channels-last (nwc, nhwc, ndhwc, any strides between
// pixels) or both channel-blocked by 8 or 16 (nCw16c, nChw8c, ...; a block of 8 runs on avx2).
// 'any' is channels-last. Other layouts (plain ncw/nchw/ncdhw) are repacked into channels-last
// per call ("jit:avx512+repack").
std::unique_ptr<primitive_impl> create_jit_pool(const pool_request &req, cpu_isa isa,
                                                std::string &why_not);
// Pooling on avx2 or avx512 over plain src and dst (ncw, nchw, ncdhw, any strides but a unit
// one along w): vectors of pixels along ow (jit_pooling_nchw.cpp). Listed first: it declines
// every other layout.
std::unique_ptr<primitive_impl> create_jit_pool_nchw(const pool_request &req, cpu_isa isa,
                                                     std::string &why_not);

} // namespace impl
} // namespace prim
