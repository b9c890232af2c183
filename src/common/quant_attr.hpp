// What creation checks of data types and quantization (doc/int8.md), and the quantization
// values a primitive reads at execute: one place for the rules every primitive shares.
#pragma once
#include <string>
#include <vector>

#include "prim/attr.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

// The data types of a convolution or inner product: all f32, or src u8|s8, weights s8, bias
// f32|s32 (or none), dst u8|s8|s32|f32. "" when valid, else the message.
std::string check_weighted_types(const memory::desc &src, const memory::desc &wei,
                                 const memory::desc &bias, const memory::desc &dst);

// The quantization attribute of a convolution or inner product whose src is int8 (int8) or f32,
// with grouped weights or not, oc output channels. "" when valid, else the message.
std::string check_weighted_quantization(const quantization &q, bool int8, bool grouped,
                                        memory::dim oc);

// The chain's type rules against a destination of type dst_dt: a sum's zero point needs an
// integer dst, its data type dst's size; "" when valid.
std::string check_chain_types(const post_ops &chain, memory::data_type dst_dt);

// Binary's quantization: src0 (PRIM_ARG_SRC) and src1 scales, mask 0, as oneDNN; "" when valid.
std::string check_binary_quantization(const quantization &q);
// Softmax's: src and dst scales (v3) or output scales (2.x), mask 0, when src or dst is int8.
std::string check_softmax_quantization(const quantization &q, memory::data_type src_dt,
                                       memory::data_type dst_dt);

// True when the chain needs more than f32 kernels: a sum with a zero point or its own type, an
// operand that is not f32.
bool chain_is_quantized(const post_ops &chain);

// One quantization value list a primitive reads at execute: its argument id, its name for
// messages, its desc (f32 or s32, {count}).
enum class quant_slot {
    output_scales, src_scales, wei_scales, dst_scales, src1_scales, src_zero_points, dst_zero_points,
    dw_wei_scales, dw_dst_scales
};
struct quant_arg {
    quant_slot slot;
    int id;
    std::string name;
    memory::desc md;
};
// The lists the attribute asks for, their counts from the layouts' dims and the masks (the
// values of the dims a mask names, multiplied). Constant output scales are not an argument.
// dw_wei: the dw post-op's weights (its scales' count), zero without one.
std::vector<quant_arg> quant_args(const quantization &q, const memory::desc &src,
                                  const memory::desc &wei, const memory::desc &dst,
                                  const memory::desc &dw_wei = memory::desc());

} // namespace impl
} // namespace prim
