// prim: concatenation of several tensors along one axis (oneDNN's concat).
#pragma once
#include <vector>

#include "prim/primitive.hpp"

namespace prim {

// dst = the srcs one after the other along axis. Every src has the same rank (1 to 5) and the
// same dims except along axis; each may have its own layout (plain, channels last, blocked,
// strided). dst: a zero desc or 'any' (dims deduced, the first src's layout), or a layout of the
// concatenated dims. Execute args: PRIM_ARG_MULTIPLE_SRC + i for src i, PRIM_ARG_DST. No
// post-ops. dst may not overlap any src.
struct PRIM_API concat : public primitive {
    struct PRIM_API primitive_desc : public primitive_desc_base {
        primitive_desc(const memory::desc &dst, int axis, const std::vector<memory::desc> &srcs,
                       const primitive_attr &attr = primitive_attr());
        // oneDNN's form without dst: deduced as for a zero dst desc.
        primitive_desc(int axis, const std::vector<memory::desc> &srcs,
                       const primitive_attr &attr = primitive_attr());
        // src i's desc (a zero desc when i is out of range).
        memory::desc src_desc(int i) const { return query_md(PRIM_ARG_MULTIPLE_SRC + i); }
        memory::desc src_desc() const { return src_desc(0); }
    };

    explicit concat(const primitive_desc &pd) : primitive(pd) {}
};

} // namespace prim
