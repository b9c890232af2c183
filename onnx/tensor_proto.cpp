#include "tensor_proto.hpp"

#include <cmath>
#include <cstring>
#include <iterator>
#include <type_traits>


#include "prim/error.hpp"

namespace prim {
namespace onnx_impl {

using ::onnx::TensorProto;

std::string elem_type_name(int elem_type) {
    switch (elem_type) {
        case TensorProto::FLOAT: return "f32";
        case TensorProto::UINT8: return "uint8";
        case TensorProto::INT8: return "int8";
        case TensorProto::UINT16: return "uint16";
        case TensorProto::INT16: return "int16";
        case TensorProto::INT32: return "int32";
        case TensorProto::INT64: return "int64";
        case TensorProto::STRING: return "string";
        case TensorProto::BOOL: return "bool";
        case TensorProto::FLOAT16: return "f16";
        case TensorProto::DOUBLE: return "f64";
        case TensorProto::UINT32: return "uint32";
        case TensorProto::UINT64: return "uint64";
        case TensorProto::BFLOAT16: return "bf16";
        case TensorProto::UNDEFINED: return "undefined";
        default: return "type " + std::to_string(elem_type);
    }
}

namespace {

// Reads the value of type T at a byte position, as f32: lets a vector be built from unaligned
// bytes, which it does into uninitialised storage (resize() would write zeros first, an extra
// pass over memory that is touched for the first time, for nothing).
template <typename T>
struct f32_bytes_iterator {
    using iterator_category = std::random_access_iterator_tag;
    using value_type = float;
    using difference_type = std::ptrdiff_t;
    using pointer = const float *;
    using reference = float;
    const char *p;
    float operator*() const {
        T v;
        std::memcpy(&v, p, sizeof v);
        return static_cast<float>(v);
    }
    float operator[](difference_type i) const { return *(*this + i); }
    f32_bytes_iterator &operator++() { p += sizeof(T); return *this; }
    f32_bytes_iterator operator++(int) { auto t = *this; ++*this; return t; }
    f32_bytes_iterator &operator--() { p -= sizeof(T); return *this; }
    f32_bytes_iterator operator--(int) { auto t = *this; --*this; return t; }
    f32_bytes_iterator &operator+=(difference_type n) { p += n * difference_type(sizeof(T)); return *this; }
    f32_bytes_iterator &operator-=(difference_type n) { return *this += -n; }
    f32_bytes_iterator operator+(difference_type n) const { auto t = *this; return t += n; }
    f32_bytes_iterator operator-(difference_type n) const { auto t = *this; return t -= n; }
    difference_type operator-(const f32_bytes_iterator &o) const { return (p - o.p) / difference_type(sizeof(T)); }
    bool operator==(const f32_bytes_iterator &o) const { return p == o.p; }
    bool operator!=(const f32_bytes_iterator &o) const { return p != o.p; }
    bool operator<(const f32_bytes_iterator &o) const { return p < o.p; }
    bool operator>(const f32_bytes_iterator &o) const { return p > o.p; }
    bool operator<=(const f32_bytes_iterator &o) const { return p <= o.p; }
    bool operator>=(const f32_bytes_iterator &o) const { return p >= o.p; }
};

template <typename T>
std::vector<float> f32_vector(const char *bytes, size_t count) {
    const f32_bytes_iterator<T> first{bytes};
    return std::vector<float>(first, first + static_cast<std::ptrdiff_t>(count));
}

[[noreturn]] void bad(const std::string &what, const std::string &why) {
    throw error(status::invalid_arguments, what + ": " + why);
}

// Copies `count` little-endian values of type T from raw bytes (x86 is little-endian).
template <typename T, typename Out>
void read_raw(const std::string &raw, int64_t count, std::vector<Out> &out,
        const std::string &what) {
    if (static_cast<int64_t>(raw.size()) != count * static_cast<int64_t>(sizeof(T)))
        bad(what, "raw_data holds " + std::to_string(raw.size()) + " bytes, the dims need "
                + std::to_string(count * sizeof(T)));
    if constexpr (std::is_same_v<T, float> && std::is_same_v<Out, float>) {
        out = f32_from_bytes(raw.data(), static_cast<size_t>(count));
    } else {
        out.resize(count);
        for (int64_t k = 0; k < count; ++k) {
            T v;
            std::memcpy(&v, raw.data() + k * sizeof(T), sizeof(T));
            out[k] = static_cast<Out>(v);
        }
    }
}

template <typename Field, typename Out>
void read_field(const Field &field, int64_t count, std::vector<Out> &out,
        const std::string &what, const char *field_name) {
    if (field.size() != count)
        bad(what, std::string(field_name) + " holds " + std::to_string(field.size())
                + " values, the dims need " + std::to_string(count));
    out.assign(field.begin(), field.end());
}

} // namespace

int64_t element_count(const TensorProto &t, const std::string &what) {
    int64_t count = 1;
    for (int64_t d : t.dims()) {
        if (d < 0) bad(what, "negative dim " + std::to_string(d));
        if (d > graph::max_extent)
            throw error(status::unimplemented, what + ": dim " + std::to_string(d) + " is above " +
                                                   std::to_string(graph::max_extent));
        if (d > 0 && count > graph::max_elements / d)
            throw error(status::unimplemented, what + ": more than 2^40 elements");
        count *= d;
    }
    return count;
}

void check_raw_size(const TensorProto &t, const std::string &what) {
    const int64_t count = element_count(t, what);
    if (!t.has_raw_data()) return;
    int64_t bytes = 0;
    switch (t.data_type()) {
        case TensorProto::UINT8: case TensorProto::INT8: case TensorProto::BOOL: bytes = 1; break;
        case TensorProto::UINT16: case TensorProto::INT16: case TensorProto::FLOAT16:
        case TensorProto::BFLOAT16: bytes = 2; break;
        case TensorProto::FLOAT: case TensorProto::INT32: case TensorProto::UINT32: bytes = 4; break;
        case TensorProto::DOUBLE: case TensorProto::INT64: case TensorProto::UINT64:
        case TensorProto::COMPLEX64: bytes = 8; break;
        case TensorProto::COMPLEX128: bytes = 16; break;
        default: return; // strings and unknown types: no fixed size (refused when read)
    }
    if (static_cast<int64_t>(t.raw_data().size()) != count * bytes)
        bad(what, "raw_data holds " + std::to_string(t.raw_data().size()) + " bytes, the dims need " +
                          std::to_string(count * bytes));
}

std::vector<float> f32_from_bytes(const char *bytes, size_t count, int elem_type) {
    switch (elem_type) {
        case TensorProto::FLOAT: return f32_vector<float>(bytes, count);
        case TensorProto::INT8: return f32_vector<int8_t>(bytes, count);
        case TensorProto::UINT8: return f32_vector<uint8_t>(bytes, count);
        default:
            throw error(status::unimplemented, "f32_from_bytes: element type " + elem_type_name(elem_type));
    }
}

constant_tensor read_constant(const TensorProto &t, const std::string &what) {
    if (t.data_location() == TensorProto::EXTERNAL || t.external_data_size() > 0)
        throw error(status::unimplemented, what + ": external data is not supported");
    if (t.has_segment()) throw error(status::unimplemented, what + ": segmented tensors are not supported");
    constant_tensor c;
    c.elem_type = t.data_type();
    const int64_t count = element_count(t, what);
    c.dims.assign(t.dims().begin(), t.dims().end());
    const bool raw = t.has_raw_data();
    switch (c.elem_type) {
        case TensorProto::FLOAT:
            if (raw) read_raw<float>(t.raw_data(), count, c.f32, what);
            else read_field(t.float_data(), count, c.f32, what, "float_data");
            break;
        case TensorProto::INT64:
            if (raw) read_raw<int64_t>(t.raw_data(), count, c.values, what);
            else read_field(t.int64_data(), count, c.values, what, "int64_data");
            break;
        case TensorProto::INT32:
            if (raw) read_raw<int32_t>(t.raw_data(), count, c.values, what);
            else read_field(t.int32_data(), count, c.values, what, "int32_data");
            break;
        case TensorProto::UINT8:
            if (raw) read_raw<uint8_t>(t.raw_data(), count, c.values, what);
            else read_field(t.int32_data(), count, c.values, what, "int32_data");
            break;
        case TensorProto::INT8:
            if (raw) read_raw<int8_t>(t.raw_data(), count, c.values, what);
            else read_field(t.int32_data(), count, c.values, what, "int32_data");
            break;
        default:
            throw error(status::unimplemented, what + ": element type "
                    + elem_type_name(c.elem_type) + " is not supported (f32, uint8, int8, int32, or int64 for shapes)");
    }
    return c;
}

graph::tensor to_f32_tensor(constant_tensor &&c, const std::string &what) {
    graph::tensor t;
    t.dims = c.dims;
    if (c.elem_type == TensorProto::UINT8) t.dt = memory::data_type::u8;
    if (c.elem_type == TensorProto::INT8) t.dt = memory::data_type::s8;
    if (c.elem_type == TensorProto::INT32) t.dt = memory::data_type::s32;
    if (c.in_f32()) { // f32, or integers already exact in f32 (f32_from_bytes)
        t.data = std::move(c.f32);
        return t;
    }
    t.data.resize(c.values.size());
    for (size_t k = 0; k < c.values.size(); ++k) {
        const double v = c.values[k];
        if (c.elem_type != TensorProto::FLOAT && !(std::fabs(v) <= 16777216.0))
            throw error(status::unimplemented, what + ": " + elem_type_name(c.elem_type)
                    + " value " + std::to_string(static_cast<int64_t>(v)) + " is not exact in f32");
        t.data[k] = static_cast<float>(v);
    }
    return t;
}

std::vector<int64_t> to_ints(const constant_tensor &c, const std::string &what) {
    std::vector<int64_t> out;
    for (size_t i = 0; i < c.size(); ++i) {
        const double v = c.at(i);
        if (!(std::nearbyint(v) == v) || std::fabs(v) > 9.0e15)
            bad(what, "value " + std::to_string(v) + " is not an integer");
        out.push_back(static_cast<int64_t>(v));
    }
    return out;
}

} // namespace onnx_impl
} // namespace prim

#include <fstream>
#include <sstream>

#include "prim/onnx.hpp"

namespace prim {

graph::tensor read_tensor_pb(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw error(status::invalid_arguments, "cannot open '" + path + "'");
    std::stringstream bytes;
    bytes << in.rdbuf();
    ::onnx::TensorProto t;
    if (!t.ParseFromString(bytes.str()))
        throw error(status::invalid_arguments, "'" + path + "' is not a serialized ONNX TensorProto");
    const std::string what = "tensor '" + t.name() + "' in '" + path + "'";
    return onnx_impl::to_f32_tensor(onnx_impl::read_constant(t, what), what);
}

} // namespace prim
