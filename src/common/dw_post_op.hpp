// The dw post-op (post_ops::append_dw): where a chain may hold it, the convolution it may follow,
// the depthwise convolution it describes and its arguments' descs. One place for the rules that
// creation, the reference and benchdnn_lite share (doc/dw_post_op.md).
#pragma once
#include <string>

#include "common/primitive_impl.hpp"
#include "common/problem.hpp"
#include "prim/attr.hpp"
#include "prim/convolution.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

// "" when the chain's dw entries may stand where they are on a primitive of this kind (a
// convolution or not): at most one, and no sum in a chain that has one (as oneDNN 2.6).
std::string check_dw_chain(const post_ops &chain, bool convolution);

// The depthwise convolution of dw entry e applied to the output of the 1x1 convolution prb:
// g = ic = oc = prb.oc, input the 1x1's output, a KxK window, output ceil(i / stride) per
// spatial dim (oneDNN's definition), the end padding that output implies.
conv_problem dw_problem(const conv_problem &prb, const post_ops::entry &e);

// The data types through the pair: the 1x1's output (`mid`, the depthwise's input: the
// convolution desc's dst type, as oneDNN), the depthwise's weights, bias (undef: none) and dst,
// the entry's undef ones resolved (weights: s8 after an int8 1x1, else f32; dst: mid's type).
struct dw_types {
    bool int8 = false; // an int8 1x1 (u8/s8 src) and an int8 depthwise after it
    memory::data_type mid = memory::data_type::f32, wei = memory::data_type::f32,
                      bias = memory::data_type::undef, dst = memory::data_type::f32;
};
dw_types dw_types_of(const post_ops::entry &e, memory::data_type src, memory::data_type mid);

// A convolution desc whose attribute's chain has a dw entry (index dw): checks that it is one
// the dw post-op follows (2D, 1x1 kernel, stride 1, no padding, f32 throughout or an int8 pair
// with the scales above, the given operands before the dw broadcasting against the 1x1's output)
// and gives back in `one_by_one` the desc with dst carrying the 1x1's output dims (the user may
// give those, as oneDNN takes them, or the depthwise output's) and in `final_dst` the
// primitive's dst: the depthwise output's dims, the given layout, the dw entry's type (dw_types).
// "" when admitted, else the reason.
std::string admit_dw_convolution(const convolution_forward::desc &d, const primitive_attr &attr,
                                 int dw, convolution_forward::desc &one_by_one,
                                 memory::desc &final_dst);

// The descs of the depthwise weights ({oc, 1, 1, k, k}, grouped goihw) and bias ({oc}), in the
// plain layouts the reference reads; the bias desc is zero when the entry has no bias.
memory::desc dw_weights_desc(const conv_problem &dw, const dw_types &t);
memory::desc dw_bias_desc(const conv_problem &dw, const dw_types &t);

// The quantization of each half of an int8 pair: the 1x1 takes the attribute's own (its dst
// scale gives the integers of its output), the depthwise its src scale from the 1x1's dst scale,
// its weights' and dst scales from the dw arguments (oneDNN v3), or the entry's output scales
// (oneDNN 2.x); likewise the values at execute.
quantization one_by_one_quantization(const quantization &q);
quantization dw_quantization(const quantization &q, const post_ops::entry &e);
exec_ptrs::quant_values dw_quant_values(const exec_ptrs::quant_values &v);

// The entries [begin, end) of chain, as a chain of their own (runtime slots keep their numbers).
post_ops chain_slice(const post_ops &chain, int begin, int end);

} // namespace impl
} // namespace prim
