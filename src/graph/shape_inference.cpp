// Shape and type inference: every tensor's dims and data type, from the inputs' through each op
// family's infer() and types().
#include "graph/graph_check.hpp"
#include "graph/op_registry.hpp"

namespace prim {
namespace graph {
namespace detail {

void infer_shapes(graph_ir &g, const std::vector<size_t> &order,
                  const std::map<std::string, memory::dims> &input_dims) {
    const model &m = *g.m;
    for (const auto &kv : m.initializers) {
        g.shapes[kv.first] = kv.second.dims;
        g.types[kv.first] = kv.second.dt;
    }
    for (const auto &kv : input_dims) g.shapes[kv.first] = kv.second;
    for (const auto &in : m.inputs) g.types[in.name] = in.dt;
    for (size_t i : order) {
        const node &n = m.nodes[i];
        const op_def *def = find_op_def(n.op_type);
        std::vector<memory::data_type> in_types;
        for (const auto &t : n.inputs) in_types.push_back(t.empty() ? memory::data_type::f32 : g.type_of(t));
        std::vector<memory::data_type> out_types(n.outputs.size(), memory::data_type::f32);
        if (def->types) {
            out_types = def->types(m, n, in_types);
        } else {
            for (size_t k = 0; k < in_types.size(); ++k)
                if (in_types[k] != memory::data_type::f32)
                    fail(n, "input " + n.inputs[k] + " is " + data_type_name(in_types[k]) + "; " + n.op_type +
                                " runs on f32 tensors only (put a DequantizeLinear before it)",
                         status::unimplemented);
        }
        for (size_t k = 0; k < out_types.size() && k < n.outputs.size(); ++k)
            if (!n.outputs[k].empty()) g.types[n.outputs[k]] = out_types[k];
        std::vector<memory::dims> in;
        for (const auto &t : n.inputs) in.push_back(t.empty() ? memory::dims() : g.dims_of(t));
        const auto out = def->infer(m, n, in);
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
        if (o.dt != g.type_of(o.name))
            throw error(status::invalid_arguments, "graph: output " + o.name + " is declared " +
                                                       data_type_name(o.dt) + " but computes " +
                                                       data_type_name(g.type_of(o.name)));
    }
}

} // namespace detail
} // namespace graph
} // namespace prim
