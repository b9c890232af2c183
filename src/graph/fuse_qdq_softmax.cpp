// A Softmax whose result only a QuantizeLinear reads (per tensor, zero point 0: probabilities in
// [0, 1] calibrate to it, as a QDQ attention's do) becomes one softmax with an int8 dst and the
// QuantizeLinear's scale as its dst scale (oneDNN's int8 softmax, doc/int8.md): the probabilities
// are written once, as u8, instead of f32 then quantized. Runs after the round trips (a Q -> DQ
// straight back stays in the f32 chain) and before the reverse sweep.
#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"
#include "graph/qdq_match.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

using dt = memory::data_type;

void fuse_at(graph_ir &g, op &softmax) {
    op *q = quantize_of(g, softmax.outputs[0]);
    if (!q || !per_tensor(g, *q)) return;
    const dt t = g.type_of(q->outputs[0]);
    if (t != dt::u8 && t != dt::s8) return;
    if (zero_point_of(g, *q) != 0)
        return log_refused(g.log, q->n->name, softmax.n->name,
                           "its zero point is not 0 (prim's int8 softmax has a dst scale only, as oneDNN)");
    softmax.inputs.push_back(q->inputs[1]); // the dst scale (lower_softmax)
    softmax.outputs = q->outputs;
    softmax.merged = {softmax.n->name, q->n->name};
    softmax.pattern = "Softmax+QuantizeLinear(int8 dst)";
    q->alive = false;
    log_fused(g.log, softmax.pattern, softmax.merged);
}

} // namespace

void fuse_qdq_softmaxes(graph_ir &g) {
    for (auto &o : g.ops)
        if (o.alive && o.type == "Softmax" && o.post.empty()) fuse_at(g, o);
}

} // namespace detail
} // namespace graph
} // namespace prim
