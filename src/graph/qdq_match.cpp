// The QDQ passes' questions about the graph (qdq_match.hpp).
#include "graph/qdq_match.hpp"

#include <algorithm>
#include <cmath>

#include "graph/integer_values.hpp"
#include "graph/op_registry.hpp"

namespace prim {
namespace graph {
namespace detail {

op *producer_of(graph_ir &g, const std::string &t, const char *type) {
    const int p = g.producer(t);
    return p >= 0 && g.ops[p].alive && g.ops[p].type == type ? &g.ops[p] : nullptr;
}

const tensor *initializer(const graph_ir &g, const std::string &t) {
    auto it = g.m->initializers.find(t);
    return it == g.m->initializers.end() ? nullptr : &it->second;
}

namespace {
bool one_value(const graph_ir &g, const std::string &t) {
    const tensor *v = initializer(g, t);
    return v && v->data.size() == 1;
}
} // namespace

bool per_tensor(const graph_ir &g, const op &q) {
    return one_value(g, q.inputs[1]) && (input_at(q, 2).empty() || one_value(g, q.inputs[2]));
}

std::string input_at(const op &o, size_t k) { return k < o.inputs.size() ? o.inputs[k] : std::string(); }

float scale_of(const graph_ir &g, const op &q) { return initializer(g, q.inputs[1])->data[0]; }

int32_t zero_point_of(const graph_ir &g, const op &q) {
    return input_at(q, 2).empty() ? 0 : static_cast<int32_t>(initializer(g, q.inputs[2])->data[0]);
}

bool same_quantization(const graph_ir &g, const op &a, const op &b) {
    return per_tensor(g, a) && per_tensor(g, b) && scale_of(g, a) == scale_of(g, b) &&
           zero_point_of(g, a) == zero_point_of(g, b);
}

bool activation_in_saturation(const graph_ir &g, const eltwise_fn &fn, const op &q) {
    if (fn.has_runtime_params() || !per_tensor(g, q)) return false;
    double lo, hi;
    if (fn.alg == algorithm::eltwise_relu && fn.alpha == 0.f) {
        lo = 0.0;
        hi = INFINITY;
    } else if (fn.alg == algorithm::eltwise_clip) {
        lo = fn.alpha;
        hi = fn.beta;
    } else {
        return false;
    }
    const memory::data_type t = g.type_of(q.outputs[0]);
    if (t != memory::data_type::u8 && t != memory::data_type::s8) return false;
    const double s = scale_of(g, q);
    const real_range sat = saturation_range(t, s, zero_point_of(g, q));
    const double slack = 1e-6 * std::max(std::fabs(sat.lo), std::fabs(sat.hi));
    return s > 0 && lo <= sat.lo + slack && hi >= sat.hi - slack;
}

real_range saturation_range(memory::data_type t, double scale, double zp) {
    const integer_range q(t);
    return {(q.lo - zp) * scale, (q.hi - zp) * scale};
}

void drop_if_unread(graph_ir &g, op *o) {
    if (o && g.readers(o->outputs[0]) == 0 && !g.is_graph_output(o->outputs[0])) o->alive = false;
}

op *only_reader(graph_ir &g, const std::string &t) {
    if (g.readers(t) != 1 || g.is_graph_output(t)) return nullptr;
    for (auto &o : g.ops)
        if (o.alive && std::count(o.inputs.begin(), o.inputs.end(), t)) return &o;
    return nullptr;
}

op *quantize_of(graph_ir &g, const std::string &t) {
    op *q = only_reader(g, t);
    return q && q->type == "QuantizeLinear" && q->inputs[0] == t ? q : nullptr;
}

bool chain_activation(const graph_ir &g, const op &a, eltwise_fn &fn) {
    return a.alive && activation_of(*g.m, a, fn) && !fn.has_runtime_params();
}

op *activation_writing(graph_ir &g, const std::string &t, eltwise_fn &fn) {
    const int p = g.producer(t);
    return p >= 0 && chain_activation(g, g.ops[p], fn) ? &g.ops[p] : nullptr;
}

std::string activation_name(const op &a) { return a.type == "Eltwise" ? algorithm_name(a.fn.alg) : a.type; }

std::string weights_problem(const graph_ir &g, const op &dq, int out_axis) {
    if (!initializer(g, dq.inputs[0])) return "the weights are not an initializer";
    if (!initializer(g, dq.inputs[1])) return "the weights' scale is not an initializer";
    if (dq.inputs.size() > 2 && !dq.inputs[2].empty() && !initializer(g, dq.inputs[2]))
        return "the weights' zero point is not an initializer";
    const size_t scales = initializer(g, dq.inputs[1])->data.size();
    const auto &d = g.dims_of(dq.inputs[0]);
    int64_t axis = attr_int(*dq.n, "axis", 1);
    if (axis < 0) axis += static_cast<int64_t>(d.size());
    if (scales != 1 && !(static_cast<size_t>(out_axis) < d.size() && axis == out_axis && static_cast<int64_t>(scales) == d[out_axis]))
        return "the weights' scales are not per tensor or per output channel (axis " + std::to_string(out_axis) + ")";
    return "";
}

std::string bias_problem(const graph_ir &g, const op &dq, const op &dqx, const op &dqw) {
    const tensor *b = initializer(g, dq.inputs[0]), *sb = initializer(g, dq.inputs[1]);
    if (!b || g.type_of(dq.inputs[0]) != memory::data_type::s32 || !sb) return "the bias is not a constant int32";
    if (dq.inputs.size() > 2 && !dq.inputs[2].empty()) {
        const tensor *zb = initializer(g, dq.inputs[2]);
        if (!zb) return "the bias's zero point is not an initializer";
        for (float z : zb->data)
            if (z != 0.f) return "the bias's zero point is not 0";
    }
    const float sx = initializer(g, dqx.inputs[1])->data[0];
    const auto &sw = initializer(g, dqw.inputs[1])->data;
    for (size_t count : {sw.size(), sb->data.size()})
        if (count != 1 && count != b->data.size()) return "the bias's and the weights' scales disagree on the channels";
    for (size_t c = 0; c < b->data.size(); ++c) {
        const double want = double(sx) * sw[sw.size() == 1 ? 0 : c];
        const double have = sb->data[sb->data.size() == 1 ? 0 : c];
        if (std::fabs(have - want) > 1e-6 * std::fabs(want)) return "the bias's scale is not x_scale * w_scale";
    }
    return "";
}

} // namespace detail
} // namespace graph
} // namespace prim
