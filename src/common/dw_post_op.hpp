// The dw post-op (post_ops::append_dw): where a chain may hold it, the convolution it may follow,
// the depthwise convolution it describes and its arguments' descs. One place for the rules that
// creation, the reference and benchdnn_lite share (doc/dw_post_op.md).
#pragma once
#include <string>

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

// A convolution desc whose attribute's chain has a dw entry (index dw): checks that it is one
// the dw post-op follows (2D, 1x1 kernel, stride 1, no padding, f32 throughout, no scales, the
// given operands before the dw broadcasting against the 1x1's output) and gives back in
// `one_by_one` the desc with dst carrying the 1x1's output dims (the user may give those, as
// oneDNN takes them, or the depthwise output's) and in `final_dst` the primitive's dst: the
// depthwise output's dims, the given layout and type. "" when admitted, else the reason.
std::string admit_dw_convolution(const convolution_forward::desc &d, const post_ops &chain,
                                 int dw, convolution_forward::desc &one_by_one,
                                 memory::desc &final_dst);

// The descs of the depthwise weights ({oc, 1, 1, k, k}, grouped goihw) and bias ({oc}), f32 in
// the plain layouts the reference reads; the bias desc is zero when the entry has no bias.
memory::desc dw_weights_desc(const conv_problem &dw);
memory::desc dw_bias_desc(const conv_problem &dw, const post_ops::entry &e);

// The entries [begin, end) of chain, as a chain of their own (runtime slots keep their numbers).
post_ops chain_slice(const post_ops &chain, int begin, int end);

} // namespace impl
} // namespace prim
