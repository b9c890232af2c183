// The ops the front end claims, one rule each: a rule checks a node's attributes and inputs as
// ONNX defines them in the node's opset, fills in the defaults, turns constant inputs that other
// opsets give as attributes into attributes, and refuses what prim cannot run exactly.
#pragma once
#include <string>
#include <vector>

#include "node_context.hpp"

namespace prim {
namespace onnx_impl {

using op_rule = void (*)(node_context &);

// The rule of an op type, or nullptr when the op is not claimed. Constant has no rule: the
// loader folds it (constant_node_value).
op_rule find_op_rule(const std::string &op_type);
const std::vector<std::string> &claimed_op_types();
// The quantized ops (QuantizeLinear, QLinearConv...): they read and write u8/s8/s32 tensors,
// whose types the graph checks; every other op takes f32 only.
bool takes_integer_tensors(const std::string &op_type);

// The value of a Constant node (any of its value attributes, opsets 1 to 17).
constant_tensor constant_node_value(node_context &c, const ::onnx::NodeProto &proto);

} // namespace onnx_impl
} // namespace prim
