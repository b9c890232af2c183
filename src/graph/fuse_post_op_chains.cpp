// The reverse sweep (grappler's remapper): chains of ops merged into their first op's post-ops.
// What each op accepts after it is decided by append_tail(); doc/graph.md lists the patterns.
#include <algorithm>

#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"
#include "graph/op_registry.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

bool is_binary(const op &o) {
    return o.type == "Add" || o.type == "Sub" || o.type == "Mul" || o.type == "Div";
}
bool is_activation(const graph_ir &g, const op &o) {
    eltwise_fn fn;
    return o.type != "Erf" && activation_of(*g.m, o, fn);
}
bool has_weights(const op &o) { return o.type == "Conv" || o.type == "Gemm" || o.type == "MatMul"; }

// An op that may be merged into the op before it.
bool can_follow(const graph_ir &g, const op &o) {
    return is_activation(g, o) || o.type == "BatchNormalization" || is_binary(o);
}

// An entry a Conv's weights and bias may absorb (when its operand is constant).
bool per_channel_linear(const post_entry &e) {
    return e.k == post_entry::kind::bias_add || e.k == post_entry::kind::scale;
}

std::string tail_name(const op &o) {
    return o.type == "Eltwise" ? std::string(algorithm_name(o.fn.alg)) : o.type;
}

// The host with the entries merged so far (a trial: nothing in the graph changes).
struct trial {
    const op *host;
    std::vector<post_entry> post;
    std::string pattern;
    bool has_sum = false;
};

bool all_initializers(const graph_ir &g, const node &n, size_t from) {
    for (size_t i = from; i < n.inputs.size(); ++i)
        if (has_input(n, i) && !g.is_initializer(n.inputs[i])) return false;
    return true;
}

// Appends tail (reading data_in, the chain's running result) to the trial; false with why when
// the tail cannot follow.
bool append_tail(const graph_ir &g, trial &t, const op &tail, const std::string &data_in,
                 std::string &why) {
    const op &h = *t.host;
    const std::string hname = h.n->name;
    eltwise_fn fn;
    if (tail.type != "Erf" && activation_of(*g.m, tail, fn)) {
        post_entry e;
        e.fn = fn;
        t.post.push_back(e);
        t.pattern += "+" + tail_name(tail);
        return true;
    }
    if (h.type == "LayerNormalization") {
        why = "layer normalization takes only eltwise entries after it";
        return false;
    }
    if (tail.type == "BatchNormalization") {
        // y = x * a + c per channel: folded into a Conv's constant weights and bias when nothing
        // but constant bias adds came before it, else two per-channel entries (after anything).
        bool folded = h.type == "Conv" && all_initializers(g, *tail.n, 1) && all_initializers(g, *h.n, 1);
        for (const auto &e : t.post)
            folded = folded && per_channel_linear(e) && g.is_initializer(e.operand);
        post_entry e;
        e.k = post_entry::kind::bnorm;
        e.bn = tail.n;
        t.post.push_back(e);
        t.pattern += folded ? "+BatchNormalization(folded)" : "+BatchNormalization(per-channel)";
        return true;
    }
    if (!is_binary(tail)) {
        why = tail.type + " cannot follow " + h.type;
        return false;
    }
    const bool data_left = tail.inputs[0] == data_in;
    const std::string &other = data_left ? tail.inputs[1] : tail.inputs[0];
    const memory::dims &out = g.dims_of(data_in);
    if (other == data_in) {
        why = "both operands are " + hname + "'s result";
        return false;
    }
    if (g.dims_of(tail.outputs[0]) != out) {
        why = "the other operand (" + dims_text(g.dims_of(other)) + ") broadcasts the result (" +
              dims_text(out) + ") to a larger shape";
        return false;
    }
    if (!data_left && (tail.type == "Sub" || tail.type == "Div")) {
        why = hname + "'s result is the right operand of " + tail.type;
        return false;
    }
    post_entry e;
    e.operand = other;
    memory::dims od = g.dims_of(other);
    od.insert(od.begin(), out.size() - od.size(), 1);
    bool per_channel = out.size() >= 2;
    for (size_t i = 0; i < od.size(); ++i)
        if (i != 1 && od[i] != 1) per_channel = false;
    // Per-channel Add and Mul right after the weights (or other such entries) may fold into them.
    bool after_weights = has_weights(h);
    for (const auto &p : t.post) after_weights = after_weights && per_channel_linear(p);
    if (tail.type == "Add" && after_weights && per_channel) {
        e.k = post_entry::kind::bias_add;
        t.pattern += "+Add(bias)";
    } else if (tail.type == "Mul" && after_weights && per_channel) {
        e.k = post_entry::kind::scale;
        t.pattern += "+Mul(scale)";
    } else if (tail.type == "Add" && od == out && g.producer(other) >= 0 && !t.has_sum &&
               buffer_free_after(g, other, static_cast<size_t>(t.host - g.ops.data()), h.inputs, &tail)) {
        // Every other reader of the residual runs before the host (a ResNet block's shortcut is
        // read by its first convolution too), and the host does not read it: its buffer may
        // take the sum.
        e.k = post_entry::kind::sum;
        t.has_sum = true;
        t.pattern += "+Add(sum)";
    } else {
        e.k = post_entry::kind::binary;
        e.alg = tail.type == "Add" ? algorithm::binary_add
              : tail.type == "Sub" ? algorithm::binary_sub
              : tail.type == "Mul" ? algorithm::binary_mul : algorithm::binary_div;
        t.pattern += "+" + tail.type + "(binary)";
    }
    t.post.push_back(e);
    return true;
}

// An output past the first that something reads (LayerNormalization's Mean or InvStdDev): the
// fused op would take the chain's last op's outputs and place, so such a host is not fused.
std::string read_extra_output(const graph_ir &g, const op &p) {
    for (size_t k = 1; k < p.outputs.size(); ++k)
        if (!p.outputs[k].empty() && g.readers(p.outputs[k]) > 0) return p.outputs[k];
    return "";
}

std::string other_reader_reason(const graph_ir &g, const op &p, const std::string &t) {
    if (g.is_graph_output(t)) return p.n->name + "'s output is a graph output";
    return p.n->name + "'s output has another consumer";
}

} // namespace

bool can_host(const graph_ir &g, const op &o) {
    return has_weights(o) || o.type == "BatchNormalization" || o.type == "LayerNormalization" ||
           o.type == "MaxPool" || o.type == "AveragePool" || o.type == "GlobalAveragePool" ||
           o.type == "GlobalMaxPool" || o.type == "Softmax" || is_binary(o) || is_activation(g, o);
}

void fuse_post_op_chains(graph_ir &g) {
    for (int i = static_cast<int>(g.ops.size()) - 1; i >= 0; --i) {
        if (!g.ops[i].alive || !can_follow(g, g.ops[i])) continue;
        // Walk back from the op at i while each result has this chain as its only reader.
        std::vector<int> chain = {i};
        std::vector<std::string> data_in; // data_in[k]: what chain[k + 1] reads from chain[k]
        for (int cur = i;;) {
            const op &c = g.ops[cur];
            std::vector<std::string> cands = {c.inputs[0]};
            if (is_binary(c) && c.inputs[1] != c.inputs[0]) cands.push_back(c.inputs[1]);
            int chosen = -1;
            std::string via, why, refused_by;
            for (const auto &t : cands) {
                const int p = g.producer(t);
                if (p < 0 || !can_host(g, g.ops[p])) continue;
                const std::string extra = read_extra_output(g, g.ops[p]);
                if (!extra.empty()) {
                    if (why.empty()) {
                        why = g.ops[p].n->name + " also writes " + extra + ", which is read";
                        refused_by = g.ops[p].n->name;
                    }
                    continue;
                }
                if (g.readers(t) != 1) {
                    if (why.empty()) {
                        why = other_reader_reason(g, g.ops[p], t);
                        refused_by = g.ops[p].n->name;
                    }
                    continue;
                }
                chosen = p;
                via = t;
                break;
            }
            if (chosen < 0) {
                if (!why.empty()) log_refused(g.log, c.n->name, refused_by, why);
                break;
            }
            chain.insert(chain.begin(), chosen);
            data_in.insert(data_in.begin(), via);
            if (!can_follow(g, g.ops[chosen])) break;
            cur = chosen;
        }
        // The farthest host whose every follower fits.
        for (size_t h = 0; h + 1 < chain.size(); ++h) {
            trial t{&g.ops[chain[h]], g.ops[chain[h]].post, g.ops[chain[h]].pattern, false};
            if (t.pattern.empty()) t.pattern = tail_name(*t.host);
            bool ok = true;
            for (size_t k = h + 1; k < chain.size() && ok; ++k) {
                std::string why;
                if (!append_tail(g, t, g.ops[chain[k]], data_in[k - 1], why)) {
                    log_refused(g.log, g.ops[chain[k]].n->name, t.host->n->name, why);
                    ok = false;
                }
            }
            if (!ok) continue;
            op fused = g.ops[chain[h]];
            fused.post = t.post;
            fused.pattern = t.pattern;
            for (size_t k = h + 1; k < chain.size(); ++k) {
                op &tail = g.ops[chain[k]];
                fused.merged.insert(fused.merged.end(), tail.merged.begin(), tail.merged.end());
                tail.alive = false;
            }
            fused.outputs = g.ops[i].outputs;
            g.ops[chain[h]].alive = false;
            g.ops[i] = fused; // at the last op's place: every operand is computed by then
            log_fused(g.log, fused.pattern, fused.merged);
            break;
        }
    }
}

} // namespace detail
} // namespace graph
} // namespace prim
