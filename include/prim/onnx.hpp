// prim's ONNX front end (library prim_onnx, built only where libonnx-dev and libprotobuf-dev are
// installed; libprim itself never depends on them): reads a .onnx file, checks it with ONNX's
// checker, and fills a prim::graph::model. doc/onnx.md lists the ops, attributes, opsets and
// refusals.
//
// What the model holds after loading, whatever the file's opset (1 to 17):
//  - every attribute an op defines is present, defaults filled in (LeakyRelu's alpha 0.01,
//    Softmax's axis, Conv's kernel_shape from the weights...), in the latest opset's form;
//  - inputs that some opsets give as attributes and others as constant inputs are attributes:
//    Clip "min"/"max" (f), Squeeze/Unsqueeze "axes" (ints), Reshape and Expand "shape" (ints); the node
//    keeps only its data input. The exception: a Clip bound given as a graph input (not a
//    constant) stays an input (the other one, when constant, is an attribute and its input ""),
//    and the compiled model reads its value at every run;
//  - auto_pad SAME_UPPER/SAME_LOWER/VALID becomes explicit "pads" (auto_pad "NOTSET") when the
//    input's spatial dims are known, and is kept as given otherwise;
//  - legacy attributes without effect on inference (consumed_inputs, is_test, momentum, Gemm's
//    and the binary ops' broadcast) are dropped once checked;
//  - Constant nodes are initializers; nodes without a name are named "<op>_<index>".
// Anything it cannot represent exactly is refused: prim::error(unimplemented) naming the node,
// the op and the attribute or input. A file that is not a valid model: prim::error
// (invalid_arguments).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "prim/api.hpp"
#include "prim/graph_model.hpp"

namespace prim {

struct onnx_options {
    // Values for symbolic dims of the graph inputs, by name: {{"N", 8}} fixes the batch. A
    // symbolic dim left without a value is -1 in the model.
    std::map<std::string, int64_t> dim_values;
    // Graph inputs given a fixed value, folded into initializers before anything else (ONNX's
    // node tests give Reshape's shape or Clip's bounds as graph inputs). Their dims must match.
    std::map<std::string, graph::tensor> fixed_inputs;
};

// Loads, checks and converts the model in `path`.
PRIM_API graph::model load_onnx(const std::string &path, const onnx_options &options = {});

// Reads one serialized TensorProto (the input_K.pb / output_K.pb files of ONNX's test-data
// folders). f32 is read as is; integer tensors (int64 shapes, int32) are converted to f32 when
// every value is exact in f32 (|v| <= 2^24), and refused otherwise.
PRIM_API graph::tensor read_tensor_pb(const std::string &path);

// The ONNX op types load_onnx accepts, in alphabetical order.
PRIM_API const std::vector<std::string> &onnx_claimed_ops();

} // namespace prim
