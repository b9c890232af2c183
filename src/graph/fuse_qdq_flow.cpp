// int8 tensors between the int8 primitives: an op that only moves or selects values
// (MaxPool, GlobalMaxPool, GlobalAveragePool and the shape ops) between a
// DequantizeLinear and a QuantizeLinear with the same scale and zero point runs on the integers
// (pooling on u8/s8 rounds its average as QuantizeLinear would; the others are exact), so no
// dequantize / quantize pass runs between two int8 ops. Then every op left between a
// DequantizeLinear and a QuantizeLinear runs in f32 there, and the log says so.
#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"
#include "graph/qdq_match.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

using dt = memory::data_type;

bool moves_values(const op &o) {
    for (const char *t : {"MaxPool", "GlobalMaxPool", "GlobalAveragePool", "Flatten", "Reshape",
                          "Squeeze", "Unsqueeze", "Identity", "Transpose"})
        if (o.type == t) return true;
    return false;
}

// The QuantizeLinear that is the only reader of o's output, else nullptr.
op *quantize_after(graph_ir &g, const op &o) { return o.outputs.empty() ? nullptr : quantize_of(g, o.outputs[0]); }

void run_on_integers(graph_ir &g, op &o) {
    if (!o.post.empty() || o.outputs.size() != 1) return;
    op *dq = producer_of(g, o.inputs[0], "DequantizeLinear");
    op *q = dq ? quantize_after(g, o) : nullptr;
    if (!q) return;
    const dt t = g.type_of(dq->inputs[0]);
    if ((t != dt::u8 && t != dt::s8) || g.type_of(q->outputs[0]) != t) return;
    if (!same_quantization(g, *dq, *q))
        return log_refused(g.log, o.n->name, "int8", "its QuantizeLinear " + q->n->name +
                                                          " has other parameters than its DequantizeLinear " +
                                                          dq->n->name + " (it runs in f32 between them)");
    std::vector<std::string> nodes = {dq->n->name, o.n->name, q->n->name};
    o.inputs[0] = dq->inputs[0];
    o.outputs = q->outputs;
    o.merged = nodes;
    o.pattern = "DequantizeLinear+" + o.type + "+QuantizeLinear(" + data_type_name(t) + ")";
    q->alive = false;
    drop_if_unread(g, dq);
    log_fused(g.log, o.pattern, nodes);
}

// A refusal already logged for o's node says more than the line below would.
bool refusal_logged(const graph_ir &g, const op &o) {
    for (const auto &r : g.log)
        if (!r.fused && !r.nodes.empty() && r.nodes[0] == o.n->name) return true;
    return false;
}

bool reads_dequantized(graph_ir &g, const op &o) {
    for (const auto &t : o.inputs)
        if (!t.empty() && producer_of(g, t, "DequantizeLinear")) return true;
    return false;
}

} // namespace

void fuse_qdq_flow(graph_ir &g) {
    for (auto &o : g.ops)
        if (o.alive && moves_values(o)) run_on_integers(g, o);
    // What stays in f32 between a DequantizeLinear and a QuantizeLinear.
    for (auto &o : g.ops) {
        if (!o.alive || o.type == "QuantizeLinear" || o.type == "DequantizeLinear" || o.outputs.empty()) continue;
        if (o.type.rfind("QLinear", 0) == 0) continue;
        if (quantize_after(g, o) && reads_dequantized(g, o) && !refusal_logged(g, o))
            log_refused(g.log, o.n->name, "int8",
                        activation_name(o) +
                                " runs in f32 between DequantizeLinear and QuantizeLinear: prim has no int8 form of it here");
    }
}

} // namespace detail
} // namespace graph
} // namespace prim
