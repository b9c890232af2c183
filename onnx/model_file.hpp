// A .onnx file as the loader reads it: mapped into memory rather than copied, and with the
// payloads of its large f32, int8 and uint8 initializers (the weights) detached before protobuf parses the rest.
// Protobuf copies every byte of a raw_data field into a string of its own (100 MB of fresh memory
// for a ResNet-50, half the load time); detached, the weights are copied once, from the mapping
// straight into the model's tensors.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "prim/memory.hpp"

namespace prim {
namespace onnx_impl {

// An initializer of the main graph left out of the parsed ModelProto: a dense f32, int8 or uint8
// tensor (a QDQ model's weights are int8) given by raw_data and nothing else (no other data
// field, no external data, no segment).
struct detached_tensor {
    std::string name;
    memory::dims dims;
    int elem_type = ::onnx::TensorProto::FLOAT;  // FLOAT, INT8 or UINT8
    const char *bytes = nullptr;  // the raw_data payload, inside the mapping (little-endian)
    size_t size = 0;              // bytes: the element's size x the product of dims
};

class model_file {
public:
    // Maps the file (read-only, private: a file cut short by another process while it is
    // loaded ends the process with SIGBUS, as with any mapped file); throws
    // prim::error(invalid_arguments) when it cannot be opened or read.
    explicit model_file(const std::string &path);
    ~model_file();
    model_file(const model_file &) = delete;
    model_file &operator=(const model_file &) = delete;

    // The ModelProto without the detached initializers (every other byte as in the file).
    // Throws invalid_arguments when the file does not parse as a ModelProto.
    ::onnx::ModelProto parse();
    // Filled by parse(); the payloads stay valid while this object lives.
    const std::vector<detached_tensor> &detached() const { return detached_; }

    // Payloads at least this large are detached: shape inference reads only small constants
    // (shapes, axes, Resize's scales), and those stay in the ModelProto.
    static constexpr size_t min_detached_bytes = 4096;

private:
    std::string path_;
    const char *data_ = nullptr;
    size_t size_ = 0;
    std::vector<detached_tensor> detached_;
};

} // namespace onnx_impl
} // namespace prim
