// What the convolution primitives' threading loops share to build their kernel calls: the valid
// taps of an output row, byte-offset pointers, and the per-call repacking of an argument.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>

#include "common/internal_reorder.hpp"
#include "jit/conv/conv_conf.hpp"

namespace prim {
namespace jit {

// The valid taps of one output position along one dim: [lo, lo + count).
struct tap_range {
    int64_t lo = 0, count = 0, first_in = 0; // first_in: input index of tap lo
};
inline tap_range taps(const conv_kernel_conf &c, int sp, int64_t out) {
    const int64_t i0 = out * c.s[sp] - c.p[sp], dil = c.dil[sp];
    const int64_t lo = i0 >= 0 ? 0 : (-i0 + dil - 1) / dil;
    const int64_t last_in = c.i[sp] - 1 - i0;
    const int64_t hi = last_in < 0 ? -1 : std::min(c.k[sp] - 1, last_in / dil);
    tap_range r;
    r.lo = lo;
    r.count = hi >= lo ? hi - lo + 1 : 0;
    r.first_in = i0 + lo * dil;
    return r;
}

// Pointer arithmetic in bytes, done on integers so that a pointer into the padding (never
// dereferenced, e.g. when a row has no valid tap) is well defined.
template <typename T>
T *offset_ptr(T *p, int64_t bytes) {
    return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(bytes));
}

// A reorder between two layouts, or null when they are the same.
inline std::unique_ptr<impl::internal_reorder> reorder_if_differ(const memory::desc &from,
                                                                 const memory::desc &to) {
    return from == to ? nullptr : std::make_unique<impl::internal_reorder>(from, to);
}

} // namespace jit
} // namespace prim
