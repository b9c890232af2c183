// An f32 op's result quantized and dequantized straight back (Q -> DQ with the same parameters,
// nothing else reading the integers): the round trip becomes entries of the op's own chain,
//   x / s + zp  (linear),  round half to even,  clip to the type's range,  s * x - s * zp (linear)
// which compute what the two reorders compute (the quantizing reorder multiplies by 1 / s too),
// up to the f32 rounding of the last step; a NaN stays NaN where the reorder gives the zero
// point's value. The host writes one f32 tensor instead of an integer one read back at once.
#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"
#include "graph/integer_values.hpp"
#include "graph/qdq_match.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

using dt = memory::data_type;

post_entry eltwise_entry(algorithm alg, float alpha, float beta) {
    post_entry e;
    e.fn = eltwise_fn(alg, alpha, beta);
    return e;
}

void fuse_round_trip_at(graph_ir &g, op &q) {
    if (!per_tensor(g, q)) return;
    op *host = g.producer(q.inputs[0]) >= 0 ? &g.ops[g.producer(q.inputs[0])] : nullptr;
    op *dq = only_reader(g, q.outputs[0]);
    if (!host || !dq || dq->type != "DequantizeLinear" || dq->inputs[0] != q.outputs[0]) return;
    if (!can_host(g, *host) || only_reader(g, host->outputs[0]) != &q || g.type_of(q.inputs[0]) != dt::f32) return;
    const dt t = g.type_of(q.outputs[0]);
    if ((t != dt::u8 && t != dt::s8) || !same_quantization(g, q, *dq)) return;
    const float s = scale_of(g, q), zp = static_cast<float>(zero_point_of(g, q));
    host->post.push_back(eltwise_entry(algorithm::eltwise_linear, 1.f / s, zp));
    host->post.push_back(eltwise_entry(algorithm::eltwise_round, 0.f, 0.f));
    const integer_range range(t);
    host->post.push_back(eltwise_entry(algorithm::eltwise_clip, static_cast<float>(range.lo), static_cast<float>(range.hi)));
    host->post.push_back(eltwise_entry(algorithm::eltwise_linear, s, zp == 0.f ? 0.f : -s * zp));
    if (host->pattern.empty()) host->pattern = activation_name(*host);
    host->pattern += "+QuantizeLinear+DequantizeLinear(f32 round trip)";
    host->merged.push_back(q.n->name);
    host->merged.push_back(dq->n->name);
    host->outputs = dq->outputs;
    q.alive = false;
    dq->alive = false;
    log_fused(g.log, host->pattern, host->merged);
}

} // namespace

void fuse_qdq_round_trips(graph_ir &g) {
    for (auto &o : g.ops)
        if (o.alive && o.type == "QuantizeLinear") fuse_round_trip_at(g, o);
}

} // namespace detail
} // namespace graph
} // namespace prim
