// Model checks and topological sort.
#include "graph/graph_check.hpp"

#include <algorithm>
#include <set>

#include "graph/op_registry.hpp"

namespace prim {
namespace graph {
namespace detail {

std::vector<size_t> check_and_sort(const model &m) {
    std::map<std::string, size_t> writer;  // tensor -> node index
    std::set<std::string> names, sources;  // sources: graph inputs and initializers
    for (const auto &in : m.inputs) {
        if (in.name.empty()) throw error(status::invalid_arguments, "graph: a graph input has no name");
        for (auto d : in.dims) {
            if (d < -1)
                throw error(status::invalid_arguments, "graph: input " + in.name + " has a bad dim " +
                                                           std::to_string(d) + " (dims " + dims_text(in.dims) + ")");
            // ONNX allows empty tensors; prim's primitives do not take them.
            if (d == 0)
                throw error(status::unimplemented, "graph: input " + in.name + " has a dim of 0 (dims " +
                                                       dims_text(in.dims) + "): empty tensors are not supported");
        }
        memory::dims known = in.dims; // a -1 (set at compile time) is checked then
        std::replace(known.begin(), known.end(), int64_t(-1), int64_t(1));
        const std::string beyond = dims_beyond_limits(known);
        if (!beyond.empty())
            throw error(status::unimplemented, "graph: input " + in.name + " (dims " + dims_text(in.dims) +
                                                   "): " + beyond);
        sources.insert(in.name);
    }
    for (const auto &kv : m.initializers) {
        const std::string beyond = dims_beyond_limits(kv.second.dims);
        if (!beyond.empty())
            throw error(beyond == "a negative dim" ? status::invalid_arguments : status::unimplemented,
                        "graph: initializer " + kv.first + " (dims " + dims_text(kv.second.dims) + "): " + beyond);
        if (std::count(kv.second.dims.begin(), kv.second.dims.end(), int64_t(0)))
            throw error(status::unimplemented, "graph: initializer " + kv.first + " has a dim of 0 (dims " +
                                                   dims_text(kv.second.dims) + "): empty tensors are not supported");
        if (static_cast<int64_t>(kv.second.data.size()) != product(kv.second.dims))
            throw error(status::invalid_arguments,
                        "graph: initializer " + kv.first + " holds " + std::to_string(kv.second.data.size()) +
                            " values for dims " + dims_text(kv.second.dims));
        sources.insert(kv.first);
    }
    for (size_t i = 0; i < m.nodes.size(); ++i) {
        const node &n = m.nodes[i];
        if (n.name.empty())
            throw error(status::invalid_arguments, "graph: node #" + std::to_string(i) + " (" + n.op_type + ") has no name");
        if (!names.insert(n.name).second) fail(n, "another node has the same name");
        const op_def *d = find_op_def(n.op_type);
        if (!d) fail(n, "unknown op " + n.op_type, status::unimplemented);
        const int given = static_cast<int>(n.inputs.size());
        if (given < d->min_inputs || given > d->max_inputs)
            fail(n, "takes " + std::to_string(d->min_inputs) +
                        (d->min_inputs == d->max_inputs ? "" : " to " + std::to_string(d->max_inputs)) +
                        " inputs, not " + std::to_string(given));
        for (int k = 0; k < d->min_inputs; ++k)
            if (n.inputs[k].empty()) fail(n, "missing input: input " + std::to_string(k) + " is required");
        if (n.outputs.empty() || n.outputs[0].empty()) fail(n, "has no output");
        if (static_cast<int>(n.outputs.size()) > d->max_outputs)
            fail(n, "has " + std::to_string(n.outputs.size()) + " outputs; " + n.op_type + " has " +
                        std::to_string(d->max_outputs));
        for (const auto &o : n.outputs) {
            if (o.empty()) continue;
            if (sources.count(o)) fail(n, "writes " + o + ", which is a graph input or an initializer");
            if (!writer.emplace(o, i).second)
                fail(n, "writes " + o + ", which " + m.nodes[writer[o]].name + " writes too");
        }
        if (d->check) d->check(m, n);
    }
    for (const auto &n : m.nodes)
        for (const auto &t : n.inputs)
            if (!t.empty() && !sources.count(t) && !writer.count(t))
                fail(n, "missing input " + t + ": no node, graph input or initializer provides it");
    for (const auto &o : m.outputs)
        if (!sources.count(o.name) && !writer.count(o.name))
            throw error(status::invalid_arguments, "graph: output " + o.name + " is not computed by any node");

    // Kahn's algorithm.
    std::vector<int> pending(m.nodes.size(), 0);
    std::map<std::string, std::vector<size_t>> readers;
    for (size_t i = 0; i < m.nodes.size(); ++i)
        for (const auto &t : m.nodes[i].inputs)
            if (!t.empty() && writer.count(t)) {
                ++pending[i];
                readers[t].push_back(i);
            }
    // The ready node that comes first in the model runs first: a model listed in a valid order
    // keeps it.
    std::set<size_t> ready;
    for (size_t i = 0; i < m.nodes.size(); ++i)
        if (!pending[i]) ready.insert(i);
    std::vector<size_t> order;
    while (!ready.empty()) {
        const size_t i = *ready.begin();
        ready.erase(ready.begin());
        order.push_back(i);
        for (const auto &o : m.nodes[i].outputs)
            for (size_t r : readers[o])
                if (--pending[r] == 0) ready.insert(r);
    }
    if (order.size() != m.nodes.size()) {
        std::string cyc;
        for (size_t i = 0; i < m.nodes.size(); ++i)
            if (pending[i]) cyc += (cyc.empty() ? "" : ", ") + m.nodes[i].name + " (" + m.nodes[i].op_type + ")";
        throw error(status::invalid_arguments, "graph: the nodes form a cycle: " + cyc);
    }
    return order;
}

} // namespace detail
} // namespace graph
} // namespace prim
