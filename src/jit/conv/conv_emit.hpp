// Small code-emission helpers shared by the convolution kernels.
#pragma once
#include <cstddef>
#include <cstdint>

#include <xbyak/xbyak.h>

#include "jit/conv/conv_conf.hpp"

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

// The general registers a walk along an output row uses.
struct row_walk_regs {
    Xbyak::Reg64 param;   // holds the conv_call_args pointer
    Xbyak::Reg64 src_blk; // src of the current block
    Xbyak::Reg64 dst_blk; // dst of the current block
    Xbyak::Reg64 ow_cnt;  // blocks left in a counted run
    Xbyak::Reg64 tmp;     // for offsets beyond 32 bits
};

// Emits one output row, block by block as plan_row(c) splits it: points src_blk and dst_blk at
// each block, then calls emit_block(ur, ow0, interior, loop). A run of equal interior blocks
// becomes one counted loop, so code size does not grow with the row's width; there loop is the
// run (ow0 its first block's), and its block index is loop->count - ow_cnt; else loop is null.
template <typename emit_block_fn>
void emit_row_walk(Xbyak::CodeGenerator &g, const conv_kernel_conf &c, const row_walk_regs &r,
                   emit_block_fn emit_block) {
    const int64_t sw = c.s[2];
    for (const row_block &rb : plan_row(c)) {
        g.mov(r.src_blk, g.ptr[r.param + offsetof(conv_call_args, src)]);
        add_offset(g, r.src_blk, rb.ow0 * sw * c.src_sp[2], r.tmp);
        g.mov(r.dst_blk, g.ptr[r.param + offsetof(conv_call_args, dst)]);
        add_offset(g, r.dst_blk, rb.ow0 * c.dst_sp[2], r.tmp);
        if (rb.count == 1) {
            emit_block(rb.ur, rb.ow0, rb.interior, nullptr);
            continue;
        }
        g.mov(r.ow_cnt, rb.count);
        Xbyak::Label loop;
        g.L(loop);
        emit_block(rb.ur, rb.ow0, true, &rb);
        add_offset(g, r.src_blk, rb.ur * sw * c.src_sp[2], r.tmp);
        add_offset(g, r.dst_blk, rb.ur * c.dst_sp[2], r.tmp);
        g.dec(r.ow_cnt);
        g.jnz(loop, g.T_NEAR);
    }
}

} // namespace jit
} // namespace prim
