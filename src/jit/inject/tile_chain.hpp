// The post-ops chain on an inner-product GEMM's register tile: the step the f32 kernel
// (ip_gemm_kernel) and the int8 one (ip_int8_kernel) share after their accumulation.
// Accumulator (m, j) is vector m·nr + j and every other vector a spare for the injector; an
// operand is shared by the tile's rows or oc blocks as its mask allows (shared_operand_key); on
// AVX2 with an oc tail and an operand entry, the last spare holds the operand loads' mask.
#pragma once
#include "jit/inject/operand_access.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "jit/gen/tail_mask.hpp"

namespace prim {
namespace jit {

// The tile and the host's registers the chain's code uses.
struct tile_chain_regs {
    int n_acc = 0, nr = 1;      // accumulators (mr · nr) and oc blocks
    int64_t tail = 0;           // valid lanes of the last oc block; 0: all
    Xbyak::Reg64 reg_table, reg_tmp;
    Xbyak::Reg64 reg_op_values; // receives the operands' addresses (ip_*_args::post_op)
    Xbyak::Reg64 reg_param;     // the kernel's argument, whose field at op_values_offset holds them
    size_t op_values_offset = 0;
};

// Emits `chain` on the tile. operand_mask: set, before any code of the chain is emitted, to the
// vector holding AVX2's tail mask for operand loads (the `operand` callback reads it), or left.
template <cpu_isa isa>
void emit_tile_chain(jit_generator &host, const post_ops &chain, const tile_chain_regs &r,
                     const sum_callback &sum, const operand_callback &operand, int &operand_mask) {
    const int nr = r.nr;
    post_ops_injector<isa> injector(host, chain, sum, operand, [&chain, nr](int entry, int acc_idx) {
        return shared_operand_key(chain.entries()[entry].mask, acc_idx % nr, acc_idx / nr);
    });
    injector_regs regs;
    for (int i = 0; i < r.n_acc; ++i) regs.acc.push_back(i);
    for (int i = r.n_acc; i < isa_traits<isa>::n_vregs; ++i) regs.aux.push_back(i);
    if (isa == cpu_isa::avx2 && r.tail && chain.has_operands()) {
        operand_mask = regs.aux.back();
        regs.aux.pop_back();
        tail_mask<isa>(host, r.tail, operand_mask).prepare(r.reg_table, r.reg_tmp);
    }
    host.mov(r.reg_op_values, host.ptr[r.reg_param + r.op_values_offset]);
    regs.opmasks = post_ops_injector<isa>::opmasks();
    regs.reg_table = r.reg_table;
    injector.compute(regs);
}

} // namespace jit
} // namespace prim
