// Small code-emission helpers shared by the convolution kernels.
#pragma once
#include <cstdint>

#include <xbyak/xbyak.h>

namespace prim {
namespace jit {

// reg += bytes; through tmp when the offset does not fit a 32-bit immediate.
inline void add_offset(Xbyak::CodeGenerator &g, const Xbyak::Reg64 &reg, int64_t bytes,
                       const Xbyak::Reg64 &tmp) {
    if (bytes == 0) return;
    if (bytes >= INT32_MIN && bytes <= INT32_MAX) {
        g.add(reg, static_cast<int>(bytes));
    } else {
        g.mov(tmp, bytes);
        g.add(reg, tmp);
    }
}

} // namespace jit
} // namespace prim
