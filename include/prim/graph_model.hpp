// prim::graph::model: a model graph with ONNX's op types and semantics, as data. The ONNX front
// end (an optional library) fills one from a .onnx file; a program may also build one by hand.
// The fuser and the executor (prim/graph.hpp) take it from there.
//
// Every tensor is named and has a data type: f32, or u8/s8/s32 for the quantized ops (a
// QuantizeLinear's output, a QLinearConv's weights); a node names the tensors it reads and writes. Attributes are
// kept as given: an attribute the node leaves out takes ONNX's default for that op and opset.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "prim/memory.hpp"

namespace prim {
namespace graph {

// The sizes a model may have: a dim, stride, pad or dilation up to max_extent, a tensor up to
// max_elements values and max_rank dims. Larger ones are refused naming the tensor or node
// (within them, no shape arithmetic overflows).
constexpr int64_t max_extent = 0x7fffffff;
constexpr int64_t max_elements = int64_t(1) << 40;
constexpr size_t max_rank = 6;

// One attribute of a node, typed as ONNX types them (the kinds prim's ops use).
struct attribute {
    enum class type { f, i, s, floats, ints };
    type kind = type::i;
    float f = 0.f;
    int64_t i = 0;
    std::string s;
    std::vector<float> floats;
    std::vector<int64_t> ints;
};

// A tensor's value: dims (row-major, ONNX's order), its data type and dense data held as f32.
// An integer tensor (u8, s8, s32) holds its values exactly (an s32 value beyond 2^24 in
// magnitude is refused where it is read, as not exact in f32).
struct tensor {
    memory::dims dims;
    std::vector<float> data;
    memory::data_type dt = memory::data_type::f32;
};

struct node {
    std::string name;                       // unique; the front end generates "Conv_3" when absent
    std::string op_type;                    // ONNX op type: "Conv", "Relu", "BatchNormalization"...
    std::vector<std::string> inputs;        // tensor names; "" is an optional input left out
    std::vector<std::string> outputs;
    std::map<std::string, attribute> attrs;
};

// A graph input or output: its name, dims (a dim of -1 is not known until run time) and type.
struct value_info {
    std::string name;
    memory::dims dims;
    memory::data_type dt = memory::data_type::f32;
};

struct model {
    std::string name;
    int64_t opset = 17;                          // the default ("" / ai.onnx) domain's version
    std::vector<value_info> inputs;              // graph inputs that are not initializers
    std::vector<value_info> outputs;
    std::map<std::string, tensor> initializers;  // constants: weights, biases, statistics
    std::vector<node> nodes;                     // any order: the fuser sorts them
};

} // namespace graph
} // namespace prim
