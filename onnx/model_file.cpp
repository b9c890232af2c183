// model_file: the mapping, and a walk over protobuf's wire format that rewrites the file without
// the large f32 raw_data initializers of the main graph (ModelProto.graph = field 7,
// GraphProto.initializer = field 5, TensorProto: dims 1, data_type 2, name 8, raw_data 9). Any
// structure the walk does not understand makes it give up: protobuf then parses the whole file,
// as it would without the walk, and reports what is wrong with it.
#include "model_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <optional>

#include "prim/error.hpp"

namespace prim {
namespace onnx_impl {

namespace {

[[noreturn]] void invalid(const std::string &msg) { throw error(status::invalid_arguments, msg); }

// One field of a message: its number, wire type and where its bytes are.
struct field {
    uint32_t number = 0;
    int wire = 0;
    uint64_t value = 0;                // wire type 0 (varint)
    const uint8_t *payload = nullptr;  // wire type 2 (length-delimited)
    size_t len = 0;
    const uint8_t *begin = nullptr, *end = nullptr;  // the whole field, tag included
};

bool read_varint(const uint8_t *&p, const uint8_t *end, uint64_t &v) {
    v = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
        const uint8_t byte = *p++;
        v |= static_cast<uint64_t>(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

// Reads the field at p (advancing p past it); false when the bytes are not a well-formed field
// of the wire types proto2 messages use here (groups are not).
bool next_field(const uint8_t *&p, const uint8_t *end, field &f) {
    f.begin = p;
    uint64_t tag = 0;
    if (!read_varint(p, end, tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX) return false;
    f.number = static_cast<uint32_t>(tag >> 3);
    f.wire = static_cast<int>(tag & 7);
    switch (f.wire) {
    case 0: if (!read_varint(p, end, f.value)) return false; break;
    case 1: if (end - p < 8) return false; p += 8; break;
    case 5: if (end - p < 4) return false; p += 4; break;
    case 2: {
        uint64_t len = 0;
        if (!read_varint(p, end, len) || len > static_cast<uint64_t>(end - p)) return false;
        f.payload = p;
        f.len = static_cast<size_t>(len);
        p += len;
        break;
    }
    default: return false;
    }
    f.end = p;
    return true;
}

void write_varint(std::string &out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

void append(std::string &out, const uint8_t *begin, const uint8_t *end) {
    out.append(reinterpret_cast<const char *>(begin), static_cast<size_t>(end - begin));
}

// The tensor, when it is one to detach: f32, int8 or uint8, named, dims >= 0, raw_data of the dims' size and
// at least min_bytes, no other field that carries data or says where it lives. Each of those
// fields at most once (protobuf would keep the last: the walk does not guess).
std::optional<detached_tensor> detachable(const uint8_t *p, const uint8_t *end, size_t min_bytes) {
    detached_tensor t;
    bool have_type = false, have_name = false, have_raw = false;
    field f;
    while (p < end) {
        if (!next_field(p, end, f)) return std::nullopt;
        if (f.number == 1 && f.wire == 0) {
            t.dims.push_back(static_cast<int64_t>(f.value));
        } else if (f.number == 1 && f.wire == 2) { // packed dims
            const uint8_t *q = f.payload, *q_end = f.payload + f.len;
            uint64_t v = 0;
            while (q < q_end) {
                if (!read_varint(q, q_end, v)) return std::nullopt;
                t.dims.push_back(static_cast<int64_t>(v));
            }
        } else if (f.number == 2 && f.wire == 0 && !have_type) {
            if (f.value != ::onnx::TensorProto::FLOAT && f.value != ::onnx::TensorProto::INT8
                    && f.value != ::onnx::TensorProto::UINT8)
                return std::nullopt;
            t.elem_type = static_cast<int>(f.value);
            have_type = true;
        } else if (f.number == 8 && f.wire == 2 && !have_name) {
            t.name.assign(reinterpret_cast<const char *>(f.payload), f.len);
            have_name = true;
        } else if (f.number == 9 && f.wire == 2 && !have_raw) {
            t.bytes = reinterpret_cast<const char *>(f.payload);
            t.size = f.len;
            have_raw = true;
        } else if (f.number != 12) { // doc_string is the only other field allowed
            return std::nullopt;
        }
    }
    if (!have_type || !have_name || !have_raw || t.name.empty() || t.size < min_bytes) return std::nullopt;
    uint64_t count = 1;
    for (int64_t d : t.dims) {
        if (d < 0 || (d > 0 && count > UINT64_MAX / 4 / static_cast<uint64_t>(d))) return std::nullopt;
        count *= static_cast<uint64_t>(d);
    }
    const uint64_t element_bytes = t.elem_type == ::onnx::TensorProto::FLOAT ? 4 : 1;
    if (count * element_bytes != t.size) return std::nullopt; // read_constant names the mismatch
    return t;
}

// The message's bytes with the detachable items of the repeated field `number` left out
// (recorded in `out`); nested: how to rewrite a field of this message that holds one.
template <typename Nested>
bool rewrite(const uint8_t *p, const uint8_t *end, uint32_t number, Nested nested, std::string &bytes) {
    field f;
    while (p < end) {
        if (!next_field(p, end, f)) return false;
        if (f.number != number || f.wire != 2) {
            append(bytes, f.begin, f.end);
            continue;
        }
        std::string inner;
        const int kept = nested(f.payload, f.payload + f.len, inner);
        if (kept < 0) return false;
        if (kept == 0) continue; // the whole field was detached
        write_varint(bytes, (uint64_t(number) << 3) | 2);
        write_varint(bytes, inner.size());
        bytes += inner;
    }
    return true;
}

} // namespace

model_file::model_file(const std::string &path) : path_(path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) invalid("cannot open '" + path + "'");
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        invalid("cannot read '" + path + "'");
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {
        // Pages are mapped as they are read: the walk reads only the messages' headers, and the
        // weights' copies, spread over the threads, fault their own pages in (MAP_POPULATE,
        // mapping all of it up front in one thread, made the load a median 7 ms slower).
        void *p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            ::close(fd);
            invalid("cannot read '" + path + "'");
        }
        data_ = static_cast<const char *>(p);
    }
    ::close(fd);
}

model_file::~model_file() {
    if (data_) ::munmap(const_cast<char *>(data_), size_);
}

::onnx::ModelProto model_file::parse() {
    detached_.clear();
    const auto *begin = reinterpret_cast<const uint8_t *>(data_), *end = begin + size_;
    // The main graph's initializers: each kept as is (1), left out (0), or the walk gives up (-1).
    const auto initializer = [this](const uint8_t *p, const uint8_t *e, std::string &bytes) {
        if (auto t = detachable(p, e, min_detached_bytes)) {
            detached_.push_back(std::move(*t));
            return 0;
        }
        append(bytes, p, e);
        return 1;
    };
    const auto graph = [&](const uint8_t *p, const uint8_t *e, std::string &bytes) {
        return rewrite(p, e, 5, initializer, bytes) ? 1 : -1;
    };
    std::string rest;
    if (!rewrite(begin, end, 7, graph, rest)) detached_.clear();
    const bool whole = detached_.empty();
    const char *bytes = whole ? data_ : rest.data();
    const size_t size = whole ? size_ : rest.size();
    ::onnx::ModelProto m;
    if (size > static_cast<size_t>(INT_MAX))
        invalid("'" + path_ + "' is too large to parse (" + std::to_string(size) + " bytes"
                + (whole ? ")" : " besides its weights)"));
    if (!m.ParseFromArray(bytes, static_cast<int>(size)))
        invalid("'" + path_ + "' is not an ONNX model (it does not parse as a ModelProto)");
    return m;
}

} // namespace onnx_impl
} // namespace prim
