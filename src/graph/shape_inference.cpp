// Shape inference: every tensor's dims, from the inputs' through each op family's infer().
#include "graph/graph_check.hpp"
#include "graph/op_registry.hpp"

namespace prim {
namespace graph {
namespace detail {

void infer_shapes(graph_ir &g, const std::vector<size_t> &order,
                  const std::map<std::string, memory::dims> &input_dims) {
    const model &m = *g.m;
    for (const auto &kv : m.initializers) g.shapes[kv.first] = kv.second.dims;
    for (const auto &kv : input_dims) g.shapes[kv.first] = kv.second;
    for (size_t i : order) {
        const node &n = m.nodes[i];
        std::vector<memory::dims> in;
        for (const auto &t : n.inputs) in.push_back(t.empty() ? memory::dims() : g.dims_of(t));
        const auto out = find_op_def(n.op_type)->infer(m, n, in);
        for (size_t k = 0; k < out.size() && k < n.outputs.size(); ++k) {
            const std::string beyond = dims_beyond_limits(out[k]);
            if (!beyond.empty() && !n.outputs[k].empty())
                fail(n, "output " + n.outputs[k] + " would have dims " + dims_text(out[k]) + ": " + beyond,
                     status::unimplemented);
            g.shapes[n.outputs[k]] = out[k];
        }
    }
    for (const auto &o : m.outputs) {
        const memory::dims &d = g.dims_of(o.name);
        bool ok = o.dims.empty() || o.dims.size() == d.size();
        for (size_t k = 0; ok && k < o.dims.size(); ++k) ok = o.dims[k] == -1 || o.dims[k] == d[k];
        if (!ok)
            throw error(status::invalid_arguments, "graph: output " + o.name + " is declared " +
                                                       dims_text(o.dims) + " but computes " + dims_text(d));
    }
}

} // namespace detail
} // namespace graph
} // namespace prim
