// The QDQ convolution: DequantizeLinear(x) -> Conv (weights and bias each behind a
// DequantizeLinear of a constant) -> [an activation: Relu, Clip, a GELU form...] ->
// QuantizeLinear becomes one QLinearConv op (ops_quant.cpp lowers it: prim's int8 convolution
// with src/weights/dst scales and zero points, the activation in its chain, applied in f32
// before the dst is quantized: the unfused order).
#include <cmath>

#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"
#include "graph/qdq_match.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

// Fuses the pattern ending at the QuantizeLinear q, or logs why not once the Conv is found.
void fuse_at(graph_ir &g, op &q) {
    if (!per_tensor(g, q)) return;
    eltwise_fn fn;
    op *act = activation_writing(g, q.inputs[0], fn); // Relu, Clip, a GELU...
    op *conv = producer_of(g, act ? act->inputs[0] : q.inputs[0], "Conv");
    if (!conv || !conv->post.empty()) return;
    const auto refuse = [&](const std::string &why) {
        log_refused(g.log, q.n->name, conv->n->name, why);
    };
    if (act && (g.readers(act->outputs[0]) != 1 || g.is_graph_output(act->outputs[0])))
        return refuse(act->n->name + "'s output has another reader");
    if (g.readers(conv->outputs[0]) != 1 || g.is_graph_output(conv->outputs[0]))
        return refuse(conv->n->name + "'s output has another reader");
    op *dqx = producer_of(g, conv->inputs[0], "DequantizeLinear");
    if (!dqx || !per_tensor(g, *dqx)) return refuse("its input is not a DequantizeLinear per tensor");
    if (g.type_of(dqx->inputs[0]) != memory::data_type::u8 && g.type_of(dqx->inputs[0]) != memory::data_type::s8)
        return refuse("its input is not dequantized from u8 or s8");
    op *dqw = producer_of(g, conv->inputs[1], "DequantizeLinear");
    if (!dqw) return refuse("its weights are not a DequantizeLinear");
    const std::string wp = weights_problem(g, *dqw, 0);
    if (!wp.empty()) return refuse(wp);
    op *dqb = nullptr;
    if (conv->inputs.size() > 2 && !conv->inputs[2].empty()) {
        dqb = producer_of(g, conv->inputs[2], "DequantizeLinear");
        if (!dqb) return refuse("its bias is not a DequantizeLinear");
        const std::string bp = bias_problem(g, *dqb, *dqx, *dqw);
        if (!bp.empty()) return refuse(bp);
    }
    // QLinearConv's inputs: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B ("" for a zero
    // point left out).
    const auto at = input_at;
    conv->type = "QLinearConv";
    conv->inputs = {at(*dqx, 0), at(*dqx, 1), at(*dqx, 2), at(*dqw, 0), at(*dqw, 1), at(*dqw, 2),
                    at(q, 1),    at(q, 2)};
    if (dqb) conv->inputs.push_back(dqb->inputs[0]);
    // An activation that the dst's saturation already makes (Relu, Clip(0, 6) before a u8 Q of
    // zero point 0) needs no entry.
    if (act && activation_in_saturation(g, fn, q)) {
        verbose_info(act->n->name + " is " + q.n->name + "'s saturation: no chain entry (clipping there "
                     "and then saturating is saturating)");
    } else if (act) {
        post_entry e;
        e.fn = fn;
        conv->post.push_back(e);
    }
    conv->outputs = q.outputs;
    std::vector<std::string> nodes = {dqx->n->name, conv->n->name};
    if (act) nodes.insert(nodes.end(), act->merged.begin(), act->merged.end());
    nodes.push_back(q.n->name);
    conv->merged = nodes;
    conv->pattern =
            "DequantizeLinear+Conv+" + (act ? activation_name(*act) + "+" : std::string()) + "QuantizeLinear(int8)";
    q.alive = false;
    if (act) act->alive = false;
    // The dequantized input, weights and bias stay when something else reads them.
    for (op *dq : {dqx, dqw, dqb}) drop_if_unread(g, dq);
    log_fused(g.log, conv->pattern, nodes);
}

} // namespace

void fuse_qdq_convolutions(graph_ir &g) {
    for (size_t i = g.ops.size(); i-- > 0;)
        if (g.ops[i].alive && g.ops[i].type == "QuantizeLinear") fuse_at(g, g.ops[i]);
}

} // namespace detail
} // namespace graph
} // namespace prim
