// The list of op families; one line per family.
#include "graph/op_registry.hpp"

#include <algorithm>
#include <map>

namespace prim {
namespace graph {
namespace detail {

const op_def *find_op_def(const std::string &type) {
    static const std::map<std::string, op_def> table = [] {
        std::map<std::string, op_def> t;
        for (auto family : {conv_ops, gemm_ops, eltwise_ops, binary_ops, norm_ops, shape_ops,
                            pool_ops, softmax_concat_ops, expand_ops, quant_ops})
            for (auto &d : family()) t[d.type] = d;
        return t;
    }();
    auto it = table.find(type);
    return it == table.end() ? nullptr : &it->second;
}

std::vector<std::string> buffer_sharers(const graph_ir &g, const std::string &t) {
    const auto is_view = [](const op &o) {
        const op_def *d = find_op_def(o.type);
        return o.alive && d && d->views_input && !o.inputs.empty() && !o.outputs.empty();
    };
    std::vector<std::string> out = {t};
    const auto add = [&](const std::string &x) {
        if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
    };
    for (size_t i = 0; i < out.size(); ++i) {
        const std::string s = out[i]; // out grows while it is walked
        const int p = g.producer(s);
        if (p >= 0 && is_view(g.ops[static_cast<size_t>(p)])) add(g.ops[static_cast<size_t>(p)].inputs[0]);
        for (const op &o : g.ops)
            if (is_view(o) && o.inputs[0] == s) add(o.outputs[0]);
    }
    return out;
}

bool buffer_free_after(const graph_ir &g, const std::string &t, size_t at,
                       const std::vector<std::string> &reads, const op *except) {
    for (const std::string &s : buffer_sharers(g, t))
        if (g.is_graph_input(s) || g.is_graph_output(s) || std::count(reads.begin(), reads.end(), s)
            || g.read_after(s, at, except))
            return false;
    return true;
}


} // namespace detail
} // namespace graph
} // namespace prim
