// A graph::tensor of an integer type (u8, s8, s32) holds its values as f32: each must be an
// integer of the type's range. The checks, and the copy into a buffer of the type.
#pragma once
#include <cstdint>
#include <string>

#include "prim/error.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace graph {
namespace detail {

// Whether an f32 value is an integer of dt's range (u8, s8, s32).
struct integer_range {
    double lo = -2147483648.0, hi = 2147483647.0;
    explicit integer_range(memory::data_type dt) {
        if (dt == memory::data_type::u8) lo = 0, hi = 255;
        if (dt == memory::data_type::s8) lo = -128, hi = 127;
    }
    // (Within the range, the value converts to int32 exactly when it is an integer.)
    bool holds(float v) const { return v >= lo && v <= hi && static_cast<float>(static_cast<int32_t>(v)) == v; }
};

// The error for value v at index i of `what` ("initializer 'W'"), of type dt.
[[noreturn]] inline void not_integer(const std::string &what, memory::data_type dt, float v, size_t i) {
    throw error(status::invalid_arguments, "graph: " + what + " is " + data_type_name(dt) + " but holds " +
                                               std::to_string(v) + " at index " + std::to_string(i));
}

// Throws unless the n values are integers of dt's range (naming the first that is not).
inline void check_integers(const float *v, size_t n, memory::data_type dt, const std::string &what) {
    const integer_range r(dt);
    for (size_t i = 0; i < n; ++i)
        if (!r.holds(v[i])) not_integer(what, dt, v[i], i);
}

// n values given as f32 into an integer buffer of type dt, checked on the way.
inline void store_integers(const float *v, size_t n, memory::data_type dt, void *dst, const std::string &what) {
    const integer_range r(dt);
    for (size_t i = 0; i < n; ++i) {
        if (!r.holds(v[i])) not_integer(what, dt, v[i], i);
        if (dt == memory::data_type::u8) static_cast<uint8_t *>(dst)[i] = static_cast<uint8_t>(v[i]);
        else if (dt == memory::data_type::s8) static_cast<int8_t *>(dst)[i] = static_cast<int8_t>(v[i]);
        else static_cast<int32_t *>(dst)[i] = static_cast<int32_t>(v[i]);
    }
}

} // namespace detail
} // namespace graph
} // namespace prim
