// prim: reorder, the primitive that copies data between two layouts of the same shape.
#pragma once
#include "prim/api.hpp"
#include "prim/memory.hpp"

namespace prim {

// Copies data between any two layouts of the same shape. Padding of the destination is zeroed.
class PRIM_API reorder {
public:
    reorder(const memory::desc &src, const memory::desc &dst);
    reorder(const memory &src, const memory &dst)
        : reorder(src.get_desc(), dst.get_desc()) {}
    void execute(const memory &src, const memory &dst) const;
    void execute(const exec_args &args) const; // PRIM_ARG_FROM, PRIM_ARG_TO

private:
    memory::desc src_, dst_;
};

} // namespace prim
