// ONNX TensorProto <-> the front end's constants: dims and values, with the element type kept so
// a shape tensor (int64) and a weight (f32) are told apart.
#pragma once
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "prim/graph_model.hpp"

namespace prim {
namespace onnx_impl {

// A constant as the loader sees it. Integers are held in double: exact for the integers a shape
// or an axis list can hold; but the large int8 and uint8 initializers the file's walk detaches
// (a QDQ model's weights, model_file.hpp) go straight into f32, where they are exact, as the
// graph holds them (a double of each would be 8 bytes of fresh memory per weight for nothing).
struct constant_tensor {
    memory::dims dims;
    int elem_type = ::onnx::TensorProto::FLOAT;
    std::vector<float> f32;      // FLOAT data, as stored (weights: no conversion on the way)
    std::vector<double> values;  // INT64 / INT32 / UINT8 / INT8 data, exact in a double
    // True when the values are in f32: FLOAT, or an integer type given in f32 (values empty).
    bool in_f32() const { return elem_type == ::onnx::TensorProto::FLOAT || values.empty(); }
    size_t size() const { return in_f32() ? f32.size() : values.size(); }
    double at(size_t i) const { return in_f32() ? f32[i] : values[i]; }
};

// Name of an ONNX element type for messages ("int64", "uint8"...).
std::string elem_type_name(int elem_type);

// count little-endian values of elem_type (FLOAT, INT8 or UINT8) from bytes (any alignment) as
// f32, written once into a vector's storage without zero-filling it first.
std::vector<float> f32_from_bytes(const char *bytes, size_t count, int elem_type = ::onnx::TensorProto::FLOAT);

// The number of values t's dims give, after checking them (non-negative, within the sizes a
// graph model may have: prim/graph_model.hpp); `what` names the tensor in messages.
int64_t element_count(const ::onnx::TensorProto &t, const std::string &what);
// Checks that t's raw_data, if any, holds exactly its dims' values of its element type (any
// type of fixed size): ONNX's own readers trust it.
void check_raw_size(const ::onnx::TensorProto &t, const std::string &what);

// Reads f32, int64, int32, uint8 and int8 tensors (raw_data or the typed fields); refuses external data,
// segments, other types and a data size that does not match the dims. `what` names the tensor
// in messages ("initializer 'W'").
constant_tensor read_constant(const ::onnx::TensorProto &t, const std::string &what);

// The f32 view of a constant (exact for f32; integers must be exact in f32); uint8, int8 and
// int32 keep their type in the tensor's dt (int64: f32, for shapes and axes).
// (c's f32 values move into the tensor.)
graph::tensor to_f32_tensor(constant_tensor &&c, const std::string &what);

// A constant's values as integers (axes, shapes): each must be integral.
std::vector<int64_t> to_ints(const constant_tensor &c, const std::string &what);

} // namespace onnx_impl
} // namespace prim
