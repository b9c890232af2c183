// What the QDQ passes (fuse_qdq*.cpp) ask of the graph: the Q / DQ around a tensor, their
// constant parameters, and whether two of them quantize alike.
#pragma once
#include <string>

#include "graph/graph_ir.hpp"

namespace prim {
namespace graph {
namespace detail {

// The live op writing t when it has type `type`, else nullptr.
op *producer_of(graph_ir &g, const std::string &t, const char *type);
// The initializer named t, else nullptr.
const tensor *initializer(const graph_ir &g, const std::string &t);
// A Q or DQ whose scale and zero point are one constant value each (or no zero point).
bool per_tensor(const graph_ir &g, const op &q);
// Input k of o, "" when left out.
std::string input_at(const op &o, size_t k);
// The scale and zero point of a per-tensor Q or DQ (zero point 0 when left out).
float scale_of(const graph_ir &g, const op &q);
int32_t zero_point_of(const graph_ir &g, const op &q);
// Two per-tensor Q / DQ with the same scale and zero point values.
bool same_quantization(const graph_ir &g, const op &a, const op &b);
// Marks o dead when nothing reads its output any more.
void drop_if_unread(graph_ir &g, op *o);
// The only live op reading t (as an input), or nullptr when t has another reader or is a graph output.
op *only_reader(graph_ir &g, const std::string &t);
// The QuantizeLinear quantizing t (its data input) that is t's only reader, else nullptr.
op *quantize_of(graph_ir &g, const std::string &t);
// An activation between an int8 primitive's result and its QuantizeLinear, as one chain entry:
// a single-op activation or a recognised form (fuse_activation_forms: GELU, swish), its
// parameters constant (the int8 chain computes every entry in f32, CONTRACT §6).
bool chain_activation(const graph_ir &g, const op &a, eltwise_fn &fn);
// The op writing t when it is such an activation, else nullptr.
op *activation_writing(graph_ir &g, const std::string &t, eltwise_fn &fn);
// The real values a u8 or s8 tensor of scale s and zero point zp saturates at: (qmin - zp)·s and
// (qmax - zp)·s.
struct real_range {
    double lo, hi;
};
real_range saturation_range(memory::data_type t, double scale, double zp);
// Whether the activation fn before the per-tensor QuantizeLinear q changes nothing that q's
// saturation leaves: a Relu or Clip whose bounds lie at or beyond the real values q saturates
// at, (qmin - zp)·s and (qmax - zp)·s (within 1e-6 of them: far below a quantum; 6 against
// 255·f32(6/255)). The int8 primitive then needs no chain entry for it: clipping there and then
// saturating is saturating.
bool activation_in_saturation(const graph_ir &g, const eltwise_fn &fn, const op &q);
// The name an activation goes by in a fused pattern: "Relu", "gelu_erf" (a recognised form).
std::string activation_name(const op &a);
// Why DQ(w) cannot give an int8 primitive its weights ("" when it can): s8 or u8 constants with
// a scale per tensor or per output channel (along out_axis), zero points constant.
std::string weights_problem(const graph_ir &g, const op &dq, int out_axis);
// Why DQ(b) cannot be the int8 primitive's bias: an int32 constant with zero point 0 and scale
// x_scale * w_scale (QLinearConv's bias), per tensor or per channel.
std::string bias_problem(const graph_ir &g, const op &dq, const op &dqx, const op &dqw);

} // namespace detail
} // namespace graph
} // namespace prim
