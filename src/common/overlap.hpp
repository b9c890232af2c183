// Whether two arguments of one call share memory: the test behind the refusals of aliased
// arguments at execute (doc/design.md, "Arguments that share memory").
#pragma once
#include <cstddef>
#include <cstdint>

namespace prim {
namespace impl {

// True when the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a byte. Ranges that
// only touch do not; an empty range overlaps nothing. Compared as integers (pointers into
// different objects may not be ordered) and by differences, so that no sum can wrap.
inline bool bytes_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes) {
    const uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    if (a_bytes == 0 || b_bytes == 0) return false;
    return x >= y ? x - y < b_bytes : y - x < a_bytes;
}

} // namespace impl
} // namespace prim
