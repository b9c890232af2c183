// The QDQ residual: QuantizeLinear(DequantizeLinear(a) + DequantizeLinear(b)) becomes a sum
// post-op of the int8 convolution or inner product (a fused QLinearConv or QLinearMatMul: the
// host) that writes a (or b): it adds scale_b * (b - zp_b) to its f32 result before quantizing
// with the Add's QuantizeLinear's scale and zero point (the dst scale divides both terms: the
// sum's share is scale_b / scale_add, the ratio of the scales). The sum is computed in b's
// buffer when nothing reads b afterwards, else the Add stays as it is (run in f32 between its
// DequantizeLinear and QuantizeLinear) and the log says why. Then a DequantizeLinear ->
// activation -> QuantizeLinear after such a host (ResNet's Relu after the Add, BERT's GELU after
// its first FFN MatMul) folds into its chain. Both skip the rounding of the host's result to the
// quantized type it had (its own QuantizeLinear, the Add's): the result is more precise than the
// graph's (the saturation to that type's range is kept, as a Clip entry); the log says so.
#include <algorithm>

#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"
#include "graph/op_registry.hpp"
#include "graph/qdq_match.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

size_t index_of(const graph_ir &g, const op &o) { return static_cast<size_t>(&o - g.ops.data()); }

// The int8 convolution or inner product whose output t is, when its only reader is dq: it may
// take a sum or a folded activation.
op *int8_host_writing(graph_ir &g, const std::string &t, const op &dq) {
    op *host = producer_of(g, t, "QLinearConv");
    if (!host) host = producer_of(g, t, "QLinearMatMul");
    if (!host || only_reader(g, t) != &dq) return nullptr;
    // Its dst's scale and zero point constant (saturation_of reads them).
    if (host->inputs.size() < 8 || !initializer(g, host->inputs[6]) ||
        (!host->inputs[7].empty() && !initializer(g, host->inputs[7])))
        return nullptr;
    return host;
}

// Why host cannot take the sum of the other operand (the DequantizeLinear dq_other) ("" when it
// can).
std::string sum_problem(graph_ir &g, const op &host, const op &dq_other, const op &q) {
    const std::string &b = dq_other.inputs[0];
    if (!per_tensor(g, dq_other)) return "the other operand is not dequantized per tensor";
    if (g.type_of(b) != g.type_of(q.outputs[0]))
        return "the other operand is " + std::string(data_type_name(g.type_of(b))) + ", the sum's result " +
               data_type_name(g.type_of(q.outputs[0]));
    if (g.dims_of(b) != g.dims_of(host.outputs[0])) return "the operands' dims differ";
    const int p = g.producer(b);
    if (p < 0) return "the other operand is not computed by the graph";
    if (static_cast<size_t>(p) > index_of(g, host)) return "the other operand is computed after " + host.n->name;
    const tensor *zw = initializer(g, input_at(host, 5));
    if (zw)
        for (float z : zw->data)
            if (z != 0.f) return host.n->name + "'s weights have a zero point";
    for (const auto &e : host.post)
        if (e.k == post_entry::kind::sum) return host.n->name + " already has a sum";
    if (std::count(host.inputs.begin(), host.inputs.end(), b))
        return host.n->name + " reads the other operand (" + b + ") itself: its buffer cannot take the sum";
    if (!buffer_free_after(g, b, index_of(g, host), host.inputs, &dq_other))
        return "the other operand (" + b + ") is read after " + host.n->name + ": its buffer cannot take the sum";
    return "";
}

// The saturation of host's result to its quantized type (its dst's scale, zero point and type),
// as a Clip entry in f32: the fused chain goes on past that QuantizeLinear, whose rounding it
// skips, but a value beyond the type's range is clamped as the graph does (a tensor past its
// calibrated range saturates in ONNX Runtime's QLinearConv too).
post_entry saturation_of(const graph_ir &g, const op &host) {
    const float s = initializer(g, host.inputs[6])->data[0];
    const tensor *z = initializer(g, input_at(host, 7));
    const real_range r = saturation_range(g.type_of(host.outputs[0]), s, z ? z->data[0] : 0.f);
    post_entry e;
    e.fn = eltwise_fn(algorithm::eltwise_clip, static_cast<float>(r.lo), static_cast<float>(r.hi));
    return e;
}

void skipped_rounding_note(const op &host, const std::string &q_name) {
    verbose_info(host.n->name + ": the rounding of its output to " + q_name +
                 "'s quantized type is skipped (the fused chain goes on in f32, clamped to that type's range: more "
                 "precise than the graph)");
}

void fuse_residual_at(graph_ir &g, op &q) {
    op *add = producer_of(g, q.inputs[0], "Add");
    if (!add || !per_tensor(g, q) || add->inputs.size() != 2 || only_reader(g, add->outputs[0]) != &q) return;
    op *dqa = producer_of(g, add->inputs[0], "DequantizeLinear");
    op *dqb = producer_of(g, add->inputs[1], "DequantizeLinear");
    if (!dqa || !dqb || dqa == dqb) return;
    std::string why;
    op *host = nullptr, *other = nullptr;
    for (auto pair : {std::make_pair(dqa, dqb), std::make_pair(dqb, dqa)}) {
        const bool only_add = only_reader(g, pair.first->outputs[0]) == add;
        op *c = only_add && per_tensor(g, *pair.first) ? int8_host_writing(g, pair.first->inputs[0], *pair.first)
                                                       : nullptr;
        if (!c) continue;
        const std::string p = sum_problem(g, *c, *pair.second, q);
        if (p.empty()) {
            host = c;
            other = pair.second;
            break;
        }
        if (why.empty()) why = p;
    }
    if (!host) {
        if (!why.empty())
            log_refused(g.log, add->n->name, "an int8 convolution or inner product", why + " (the Add runs in f32)");
        return;
    }
    host->post.push_back(saturation_of(g, *host));
    post_entry e;
    e.k = post_entry::kind::sum;
    e.operand = other->inputs[0];
    e.sum_scale = scale_of(g, *other);
    e.sum_zero_point = zero_point_of(g, *other);
    host->post.push_back(e);
    const std::string own_q = host->merged.back();
    host->inputs[6] = q.inputs[1];
    host->inputs[7] = input_at(q, 2);
    host->outputs = q.outputs;
    op *dq_host = other == dqa ? dqb : dqa;
    for (op *o : {dq_host, add, &q}) {
        host->merged.push_back(o->n->name);
        o->alive = false;
    }
    drop_if_unread(g, other);
    host->pattern += "+Add(int8 sum)";
    log_fused(g.log, host->pattern, host->merged);
    skipped_rounding_note(*host, own_q);
}

// DequantizeLinear -> activation -> QuantizeLinear after an int8 host (convolution or inner
// product): the activation in its chain, the QuantizeLinear's parameters its dst's.
void fold_activation_after(graph_ir &g, op &host) {
    op *dq = only_reader(g, host.outputs[0]);
    if (!dq || dq->type != "DequantizeLinear" || !per_tensor(g, *dq) ||
        int8_host_writing(g, host.outputs[0], *dq) != &host)
        return;
    op *act = only_reader(g, dq->outputs[0]);
    eltwise_fn fn;
    if (!act || act->inputs[0] != dq->outputs[0] || !chain_activation(g, *act, fn)) return;
    op *q = quantize_of(g, act->outputs[0]);
    if (!q || !per_tensor(g, *q)) return;
    bool has_sum = false;
    for (const auto &p : host.post) has_sum = has_sum || p.k == post_entry::kind::sum;
    if (has_sum && g.type_of(q->outputs[0]) != g.type_of(host.outputs[0]))
        return log_refused(g.log, act->n->name, host.n->name, "its QuantizeLinear changes the sum's data type");
    host.post.push_back(saturation_of(g, host));
    post_entry e;
    e.fn = fn;
    host.post.push_back(e);
    const std::string own_q = host.merged.back();
    host.inputs[6] = q->inputs[1];
    host.inputs[7] = input_at(*q, 2);
    host.outputs = q->outputs;
    host.merged.push_back(dq->n->name);
    host.merged.insert(host.merged.end(), act->merged.begin(), act->merged.end());
    host.merged.push_back(q->n->name);
    for (op *o : {dq, act, q}) o->alive = false;
    host.pattern += "+" + activation_name(*act) + "(requantized)";
    log_fused(g.log, host.pattern, host.merged);
    skipped_rounding_note(host, own_q);
}

} // namespace

void fuse_qdq_residuals(graph_ir &g) {
    for (size_t i = 0; i < g.ops.size(); ++i)
        if (g.ops[i].alive && g.ops[i].type == "QuantizeLinear") fuse_residual_at(g, g.ops[i]);
    for (auto &o : g.ops)
        if (o.alive && (o.type == "QLinearConv" || o.type == "QLinearMatMul")) fold_activation_after(g, o);
}

} // namespace detail
} // namespace graph
} // namespace prim
