// Loading a binary or prelu operand for one accumulator inside the convolution kernels
// (conv_kernel, conv_dw_kernel), where the vector lanes run along the channels. The kernel
// chain's masks are accesses (operand_access.hpp); conv_call_args::post_op[i] holds, per call,
// entry i's (in the call's image, or the one image of an operand broadcast along the batch)
//   common          operand address
//   per_oc          address of the call's first channel (channels contiguous, like the bias)
//   per_mb_spatial  address of the call's row at ow = 0 (pixels contiguous, one value each)
//   per_tensor      operand - dst in bytes: an image of the operand is laid out as one of the
//                   kernel's dst, so it is read at the store's address plus this difference
// so the hot loop does no index arithmetic: one or two general-register loads per entry and
// block, then one vector load per accumulator.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "jit/conv/conv_conf.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "jit/gen/tail_mask.hpp"
#include "prim/error.hpp"

namespace prim {
namespace jit {

// The general registers the loader uses: param and dst_blk and ow_cnt as the row walk keeps
// them (conv_emit.hpp), tmp and tmp2 free while the chain runs.
struct conv_operand_regs {
    Xbyak::Reg64 param, dst_blk, ow_cnt, tmp, tmp2;
};

// Where an accumulator is: its block of pixels (ow0; loop: the run when the block is inside a
// counted loop, else null), its pixel j in the block, its channel block k in the call, whether
// that block is the partial last one, and its store's displacement from dst_blk.
struct conv_operand_site {
    int64_t ow0;
    const row_block *loop;
    int j, k;
    bool tail;
    int64_t dst_disp;
};

// Asks for the per_tensor operands of a block early, as the kernels do for a sum's dst_old: they
// are read only after every FMA of the block. disps: the block's store displacements.
inline void prefetch_conv_operands(jit_generator &g, const post_ops &chain,
                                   const conv_operand_regs &r, const std::vector<int64_t> &disps) {
    for (int i = 0; i < chain.len(); ++i) {
        if (chain.entries()[i].mask != post_ops::policy::per_tensor) continue;
        g.mov(r.tmp, g.ptr[r.param + offsetof(conv_call_args, post_op)]);
        g.mov(r.tmp, g.ptr[r.tmp + static_cast<int>(i * sizeof(int64_t))]);
        for (int64_t d : disps) g.prefetcht0(g.ptr[r.dst_blk + r.tmp + d]);
    }
}

template <cpu_isa isa>
void load_conv_operand(jit_generator &g, const conv_kernel_conf &c, const post_ops &chain,
                       const conv_operand_regs &r, const operand_args &o,
                       const conv_operand_site &at, int oc_tail, int mask_idx) {
    using Vmm = typename isa_traits<isa>::Vmm;
    using policy = post_ops::policy;
    const int access = chain.entries()[o.entry].mask;
    const Vmm v(o.aux_idx);
    const Xbyak::Address entry_value
            = g.ptr[r.tmp2 + static_cast<int>(o.entry * sizeof(int64_t))];
    // The per-call value, and for per_mb_spatial in a loop the pixel offset of the loop's block
    // (loop->count - ow_cnt blocks of ur pixels in), set up once per entry and block.
    if (o.first) {
        g.mov(r.tmp2, g.ptr[r.param + offsetof(conv_call_args, post_op)]);
        if (access == policy::per_mb_spatial && at.loop) {
            g.imul(r.tmp, r.ow_cnt, -static_cast<int>(at.loop->ur * sizeof(float)));
            g.add(r.tmp, entry_value);
        } else {
            g.mov(r.tmp, entry_value);
        }
    }
    const auto load = [&](const Xbyak::Address &a) {
        if (at.tail) tail_mask<isa>(g, oc_tail, mask_idx).load(v, a);
        else g.vmovups(v, a);
    };
    const int fsz = static_cast<int>(sizeof(float));
    switch (access) {
    case policy::common: g.vbroadcastss(v, g.ptr[r.tmp]); break;
    case policy::per_oc: load(g.ptr[r.tmp + at.k * c.simd_w * fsz]); break;
    case policy::per_tensor: load(g.ptr[r.dst_blk + r.tmp + at.dst_disp]); break;
    case policy::per_mb_spatial: {
        const int64_t ow = at.loop ? at.loop->ow0 + at.loop->count * at.loop->ur + at.j
                                   : at.ow0 + at.j;
        g.vbroadcastss(v, g.ptr[r.tmp + ow * fsz]);
        break;
    }
    default: throw error(status::runtime_error, "load_conv_operand: unknown operand access");
    }
}

} // namespace jit
} // namespace prim
