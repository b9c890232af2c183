// Multi-node activations recognised as one eltwise function (doc/graph.md, "Activation forms").
#include <algorithm>
#include <cmath>
#include <functional>

#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

class matcher {
public:
    explicit matcher(graph_ir &gr) : g(gr) {}
    graph_ir &g;
    std::vector<int> matched; // ops of the pattern, besides the last

    // The live op writing t when t is read by nothing else, or nullptr.
    op *inner(const std::string &t, const char *type) {
        const int p = g.producer(t);
        if (p < 0 || g.ops[p].type != type || g.readers(t) != 1) return nullptr;
        matched.push_back(p);
        return &g.ops[p];
    }
    // t is a constant scalar equal to v as exporters write it: to 1e-5 relative, which takes
    // sqrt(2/pi) written with six digits (0.797885) and leaves the fused result within that of
    // the unfused one; 0.999 for 1 (1e-3) is another function, not rounding.
    bool constant(const std::string &t, double v) const {
        auto it = g.m->initializers.find(t);
        if (it == g.m->initializers.end() || it->second.data.size() != 1) return false;
        return std::fabs(it->second.data[0] - v) <= 1e-5 * std::fabs(v);
    }
    // A binary op with operands {x, a constant close to v} in any order (Div: x / v only).
    bool with_constant(const op &o, const std::string &x, double v) const {
        if (o.inputs[0] == x && constant(o.inputs[1], v)) return true;
        return o.type != "Div" && o.type != "Sub" && o.inputs[1] == x && constant(o.inputs[0], v);
    }
    // The other operand of a two-input op, given one.
    static const std::string *other(const op &o, const std::string &t) {
        if (o.inputs[0] == t) return &o.inputs[1];
        if (o.inputs[1] == t) return &o.inputs[0];
        return nullptr;
    }
    void reset(size_t keep) { matched.resize(keep); }
};

// erf(x / sqrt(2)) with x found.
bool erf_inner(matcher &mt, const op &e, const std::string &x) {
    const size_t keep = mt.matched.size();
    const op *u = mt.inner(e.inputs[0], "Div");
    if (u && mt.with_constant(*u, x, std::sqrt(2.0))) return true;
    mt.reset(keep);
    u = mt.inner(e.inputs[0], "Mul");
    if (u && mt.with_constant(*u, x, 1.0 / std::sqrt(2.0))) return true;
    mt.reset(keep);
    return false;
}

// x^3 as Pow(x, 3), x * (x * x) or (x * x) * x.
bool cube(matcher &mt, const std::string &t, const std::string &x) {
    const size_t keep = mt.matched.size();
    const op *p = mt.inner(t, "Pow");
    if (p && p->inputs[0] == x && mt.constant(p->inputs[1], 3.0)) return true;
    mt.reset(keep);
    const op *m = mt.inner(t, "Mul");
    if (!m) return false;
    for (int side = 0; side < 2; ++side) {
        if (m->inputs[side] != x) continue;
        const size_t k2 = mt.matched.size();
        const op *sq = mt.inner(m->inputs[1 - side], "Mul");
        if (sq && sq->inputs[0] == x && sq->inputs[1] == x) return true;
        mt.reset(k2);
    }
    mt.reset(keep);
    return false;
}

// tanh(sqrt(2/pi) * (x + 0.044715 * x^3)).
bool tanh_inner(matcher &mt, const op &e, const std::string &x) {
    const size_t keep = mt.matched.size();
    const op *v = mt.inner(e.inputs[0], "Mul");
    const double c = std::sqrt(2.0 / M_PI);
    const std::string *w_name = nullptr;
    if (v) {
        if (mt.constant(v->inputs[1], c)) w_name = &v->inputs[0];
        else if (mt.constant(v->inputs[0], c)) w_name = &v->inputs[1];
    }
    const op *w = w_name ? mt.inner(*w_name, "Add") : nullptr;
    const std::string *p_name = w ? matcher::other(*w, x) : nullptr;
    const op *p = p_name ? mt.inner(*p_name, "Mul") : nullptr;
    if (p) {
        for (int side = 0; side < 2; ++side)
            if (mt.constant(p->inputs[1 - side], 0.044715) && cube(mt, p->inputs[side], x)) return true;
    }
    mt.reset(keep);
    return false;
}

// 0.5 * x * (1 + inner(x)) ending at Mul op `last`: the three factors in any grouping.
bool gelu(matcher &mt, const op &last, std::string &x, algorithm &alg) {
    // Factors of the product: the last Mul's operands, one of which may be an inner Mul.
    for (int split = 0; split < 3; ++split) {
        mt.reset(0);
        std::vector<std::string> f;
        if (split == 0) f = {last.inputs[0], last.inputs[1]};
        else {
            const op *m = mt.inner(last.inputs[split - 1], "Mul");
            if (!m) continue;
            f = {last.inputs[2 - split], m->inputs[0], m->inputs[1]};
        }
        if (f.size() != 3) continue;
        for (int half = 0; half < 3; ++half) {
            if (!mt.constant(f[half], 0.5)) continue;
            for (int t = 0; t < 3; ++t) {
                if (t == half) continue;
                const std::string &cand_x = f[3 - half - t];
                const size_t keep = mt.matched.size();
                const op *add = mt.inner(f[t], "Add");
                const std::string *e_name = nullptr;
                if (add) {
                    if (mt.constant(add->inputs[1], 1.0)) e_name = &add->inputs[0];
                    else if (mt.constant(add->inputs[0], 1.0)) e_name = &add->inputs[1];
                }
                if (e_name) {
                    const size_t k2 = mt.matched.size();
                    const op *e = mt.inner(*e_name, "Erf");
                    if (e && erf_inner(mt, *e, cand_x)) {
                        x = cand_x;
                        alg = algorithm::eltwise_gelu_erf;
                        return true;
                    }
                    mt.reset(k2);
                    e = mt.inner(*e_name, "Tanh");
                    if (e && tanh_inner(mt, *e, cand_x)) {
                        x = cand_x;
                        alg = algorithm::eltwise_gelu_tanh;
                        return true;
                    }
                }
                mt.reset(keep);
            }
        }
    }
    return false;
}

// x * sigmoid(x) -> swish, x * HardSigmoid(x) -> hardswish with HardSigmoid's alpha, beta.
bool gated(matcher &mt, const op &last, std::string &x, eltwise_fn &fn) {
    for (int side = 0; side < 2; ++side) {
        mt.reset(0);
        for (const char *type : {"Sigmoid", "HardSigmoid"}) {
            const op *s = mt.inner(last.inputs[side], type);
            if (s && s->inputs[0] == last.inputs[1 - side]) {
                x = s->inputs[0];
                if (s->type == "Sigmoid") fn = {algorithm::eltwise_swish, 1.f, 0.f};
                else
                    fn = {algorithm::eltwise_hardswish, attr_float(*s->n, "alpha", 0.2f),
                          attr_float(*s->n, "beta", 0.5f)};
                return true;
            }
            mt.reset(0);
        }
    }
    return false;
}

} // namespace

void fuse_activation_forms(graph_ir &g) {
    for (int i = static_cast<int>(g.ops.size()) - 1; i >= 0; --i) {
        op &last = g.ops[i];
        if (!last.alive || last.type != "Mul") continue;
        matcher mt(g);
        std::string x;
        eltwise_fn fn;
        algorithm gelu_alg = algorithm::undef;
        if (gelu(mt, last, x, gelu_alg)) fn = {gelu_alg, 0.f, 0.f};
        else if (!gated(mt, last, x, fn)) continue;
        // The form must keep x's dims (no broadcasting hidden in it).
        if (g.dims_of(x) != g.dims_of(last.outputs[0])) continue;
        std::sort(mt.matched.begin(), mt.matched.end());
        std::vector<std::string> names;
        for (int p : mt.matched) {
            names.push_back(g.ops[p].n->name);
            g.ops[p].alive = false;
        }
        names.push_back(last.n->name);
        last.type = "Eltwise";
        last.fn = fn;
        last.inputs = {x};
        last.merged = names;
        last.pattern = algorithm_name(fn.alg);
        log_fused(g.log, last.pattern, names);
    }
}

} // namespace detail
} // namespace graph
} // namespace prim
