// Moving plain test data into a user layout and back, for tests of primitives on any layout.
#pragma once
#include <vector>

#include "prim/memory.hpp"
#include "common/plain_layout.hpp"
#include "ref/ref_impls.hpp"

namespace layout_util {

// A buffer in layout md holding the plain data (padding filled with -7, so that a kernel
// reading it shows).
inline std::vector<float> to_layout(const std::vector<float> &plain, const prim::memory::desc &md) {
    std::vector<float> out(static_cast<size_t>(md.nelems_padded()), -7.f);
    const prim::memory::desc pl = prim::impl::plain_desc(md.get_dims());
    prim::reorder(pl, md).execute(prim::memory(pl, const_cast<float *>(plain.data())),
                                  prim::memory(md, out.data()));
    return out;
}

// The plain data of a buffer in layout md.
inline std::vector<float> from_layout(const std::vector<float> &buf, const prim::memory::desc &md) {
    const prim::memory::desc pl = prim::impl::plain_desc(md.get_dims());
    std::vector<float> out(static_cast<size_t>(pl.nelems_padded()));
    prim::reorder(md, pl).execute(prim::memory(md, const_cast<float *>(buf.data())),
                                  prim::memory(pl, out.data()));
    return out;
}

} // namespace layout_util
