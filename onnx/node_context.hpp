// One node being converted: its proto, the graph::node being filled, and what the loader knows
// around it (opset, constants, shapes). The op rules read attributes through it, so every
// attribute is either taken (with its default filled in), dropped on purpose, or refused.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "prim/graph_model.hpp"
#include "tensor_proto.hpp"

namespace prim {
namespace onnx_impl {

// Dims by tensor name, where known (-1 for a dim known only at run time).
using shape_map = std::map<std::string, memory::dims>;
using constant_map = std::map<std::string, constant_tensor>;

class node_context {
public:
    node_context(const ::onnx::NodeProto &proto, graph::node &node, int64_t opset,
            const constant_map &constants, const shape_map &shapes);

    int64_t opset() const { return opset_; }
    const std::string &op() const { return node_.op_type; }

    // Errors naming the node and its op: refuse() for what prim does not support
    // (unimplemented), invalid() for what ONNX itself does not allow (invalid_arguments).
    [[noreturn]] void refuse(const std::string &what) const;
    [[noreturn]] void invalid(const std::string &what) const;

    // Attributes: present in the proto or not, taken with a default (written to the node), or
    // required (refused when absent).
    bool has(const std::string &name) const { return attrs_.count(name) != 0; }
    float take_f(const std::string &name, float def);
    int64_t take_i(const std::string &name, int64_t def);
    std::string take_s(const std::string &name, const std::string &def);
    std::optional<std::vector<int64_t>> take_ints(const std::string &name);
    std::vector<int64_t> take_ints(const std::string &name, const std::vector<int64_t> &def);
    void set_ints(const std::string &name, const std::vector<int64_t> &v);
    void set_f(const std::string &name, float v);
    void set_i(const std::string &name, int64_t v);
    void set_s(const std::string &name, const std::string &v);
    // A legacy attribute with no effect on inference, checked by the caller, left out.
    void drop(const std::string &name) { handled_.insert(name); }
    // The attribute's int value, for checks before taking it.
    std::optional<int64_t> peek_i(const std::string &name) const;
    // Refuses every attribute of the proto that was neither taken nor dropped.
    void refuse_unhandled() const;

    // Inputs and outputs ("" for an optional one left out).
    std::string input(size_t k) const;
    size_t used_outputs() const;  // outputs with a name
    std::optional<memory::dims> shape_of(const std::string &tensor) const;
    // Rank and dims of input k, refused when not known.
    memory::dims known_shape(size_t k, const char *why) const;
    const constant_tensor *constant(const std::string &tensor) const;
    // Input k (when present) must be a constant; its values become attribute `attr`.
    std::optional<std::vector<int64_t>> constant_input_ints(size_t k, const char *input_name) const;
    std::optional<float> constant_input_scalar(size_t k, const char *input_name) const;
    // Keeps only the first `n` inputs (the others became attributes).
    void keep_inputs(size_t n);
    // Input k became an attribute: the node keeps "" in its place (an input left out).
    void clear_input(size_t k);

private:
    const ::onnx::AttributeProto &attr(const std::string &name, int type, const char *type_name);

    const ::onnx::NodeProto &proto_;
    graph::node &node_;
    int64_t opset_;
    const constant_map &constants_;
    const shape_map &shapes_;
    std::map<std::string, const ::onnx::AttributeProto *> attrs_;
    std::set<std::string> handled_;
};

} // namespace onnx_impl
} // namespace prim
