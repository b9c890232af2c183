// The JIT int8 convolution, every shape (groups, depthwise, 1D/2D/3D, strides, dilation,
// padding): per group, the int8 GEMM (int8_gemm.hpp) over the output pixels, its K the taps
// times the group's channels, each tap read where it lies in the src (int8_src_form.hpp: the
// user's src itself, or a copy holding the padding and the kernel's value form). Channels-last
// dst; any src layout (others are copied channels-last first). Design: doc/int8.md.
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"
#include "jit/int8/int8_gemm.hpp"

namespace prim {
namespace impl {

std::unique_ptr<primitive_impl> create_jit_conv_int8(const conv_request &req, cpu_isa isa,
                                                     std::string &why_not);

// The int8 GEMM request of a convolution (dst channels-last): its geometry, layouts, attribute.
int8_gemm_request int8_gemm_request_of(const conv_request &req);

// A dst in another layout than channels-last: impl (writing channels-last) into a copy moved
// into dst after it, filled from dst first when reads_dst (a sum). Refused ("" if not) when an
// operand of the chain follows dst's layout: it would be read in the copy's.
std::string dst_repack_refusal(const post_ops &chain);
std::unique_ptr<primitive_impl> with_repacked_dst(std::unique_ptr<primitive_impl> impl,
                                                  const memory::desc &dst, bool reads_dst);

} // namespace impl
} // namespace prim
