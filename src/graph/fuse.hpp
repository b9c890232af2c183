// The fuser's passes over a graph_ir, each logging what it merged and what it refused.
#pragma once
#include "graph/graph_ir.hpp"

namespace prim {
namespace graph {
namespace detail {

// DequantizeLinear(x) -> Conv (weights and bias behind DequantizeLinear of constants) ->
// [activation] -> QuantizeLinear becomes one QLinearConv op (prim's int8 convolution), the
// activation in its chain.
void fuse_qdq_convolutions(graph_ir &g);

// DequantizeLinear(x) -> Gemm | MatMul (weights, bias constant behind DequantizeLinear; a MatMul's
// constant f32 bias Add) -> [activation] -> [QuantizeLinear] becomes one QLinearMatMul op (prim's
// int8 inner product, the activation in its chain; an f32 dst without the QuantizeLinear).
void fuse_qdq_matmuls(graph_ir &g);

// Q(DQ(a) + DQ(b)) becomes a sum post-op of the int8 convolution or inner product writing a or
// b, in b's buffer; then DQ -> activation -> Q after such an op folds into its chain.
void fuse_qdq_residuals(graph_ir &g);

// Pooling and shape ops between a DQ and a Q with the same parameters run on the integers; what
// stays in f32 between a DQ and a Q is logged.
void fuse_qdq_flow(graph_ir &g);

// Activations written as several ONNX ops become one "Eltwise" op: x * sigmoid(x) -> swish,
// x * HardSigmoid(x) -> hardswish, the Erf and the tanh forms of GELU -> gelu_erf, gelu_tanh.
void fuse_activation_forms(graph_ir &g);

// A QuantizeLinear -> DequantizeLinear round trip (the same scale and zero point) on the f32
// result of an op with a chain becomes four eltwise entries of that chain (x / s + zp, round,
// clip to the type's range, back to f32), so no integer tensor is written and read back between
// two f32 ops (a transformer's attention scores and probabilities). Runs before the sweep below,
// which then goes on past it (the scores' scaling Div).
void fuse_qdq_round_trips(graph_ir &g);

// A Softmax read only by a QuantizeLinear with a zero point of 0 becomes a softmax with an int8
// dst and the QuantizeLinear's scale as its dst scale.
void fuse_qdq_softmaxes(graph_ir &g);

// An op whose lowering takes post-op entries (o.post): every primitive with a chain.
bool can_host(const graph_ir &g, const op &o);

// grappler's remapper: a reverse sweep over the sorted ops; at each op that can end a pattern,
// the longest chain ending there whose intermediate results have no other reader is merged into
// its first op as post-op entries (activations, bias, batch norm, sum, binary).
void fuse_post_op_chains(graph_ir &g);

// A 1x1 convolution (with its chain) whose output only a depthwise convolution reads (with its
// chain) becomes one convolution with a dw post-op entry (post_entry::kind::dw) where prim's dw
// post-op expresses the depthwise exactly and creates it on its fused pass; f32 pairs, and int8
// pairs of QLinearConv ops whose intermediate tensor has no zero point. Runs after the sweep
// above (each convolution carries its batch norm and activation by then). Off under
// PRIM_GRAPH_DW_FUSION=0 (read at each plan).
void fuse_dw_pairs(graph_ir &g, const options &opt);

} // namespace detail
} // namespace graph
} // namespace prim
