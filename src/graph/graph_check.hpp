// Checks of a model before anything is built, its topological sort and shape inference.
#pragma once
#include <vector>

#include "graph/graph_ir.hpp"

namespace prim {
namespace graph {
namespace detail {

// Every op known, its attributes and constant inputs valid, every tensor read present, written
// once, initializers holding as many values as their dims say; then the nodes' indices in an
// order where each runs after the nodes writing its inputs (Kahn's algorithm, ties in the
// model's order). Throws invalid_arguments (unimplemented for an unknown op) naming the node.
std::vector<size_t> check_and_sort(const model &m);

// Every tensor's dims: initializers', the inputs' (given), then each node's in order; the
// declared output dims checked (shape_inference.cpp).
void infer_shapes(graph_ir &g, const std::vector<size_t> &order,
                  const std::map<std::string, memory::dims> &input_dims);

} // namespace detail
} // namespace graph
} // namespace prim
