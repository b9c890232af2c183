// What the two inner-product GEMM kernels share (ip_gemm_kernel: f32; ip_int8_kernel: int8):
// the registers of their K loop and of the chain that follows it, and the K loop itself.
#pragma once
#include <cstdint>
#include <string>

#include "jit/gen/jit_generator.hpp"

namespace prim {
namespace jit {

class gemm_kernel_base : public jit_generator {
protected:
    using jit_generator::jit_generator;

    // reg_k K steps: k_step(u) for u = 0 .. unroll - 1 per iteration, then the rest one at a
    // time; each step advances the src 4 bytes (a K group in every form) and the weights
    // wei_step bytes.
    template <typename step_t>
    void k_loop(int unroll, int64_t wei_step, step_t k_step) {
        Xbyak::Label unrolled, remainder, end;
        cmp(reg_k, unroll);
        jl(remainder, T_NEAR);
        L(unrolled);
        for (int u = 0; u < unroll; ++u) k_step(u);
        add(reg_src, 4 * unroll);
        if (k_loop_moves_src2_) add(reg_src2, 4 * unroll);
        add(reg_wei, wei_step * unroll);
        sub(reg_k, unroll);
        cmp(reg_k, unroll);
        jge(unrolled, T_NEAR);
        L(remainder);
        test(reg_k, reg_k);
        jz(end, T_NEAR);
        k_step(0);
        add(reg_src, 4);
        if (k_loop_moves_src2_) add(reg_src2, 4);
        add(reg_wei, wei_step);
        dec(reg_k);
        jmp(remainder, T_NEAR);
        L(end);
    }

    const Xbyak::Reg64 reg_param = abi_param(0);
    const Xbyak::Reg64 reg_src = Xbyak::util::r8;
    // A second src base the K loop advances with reg_src when k_loop_moves_src2_ (a tile whose
    // rows lie in two places).
    const Xbyak::Reg64 reg_src2 = Xbyak::util::rsi;
    bool k_loop_moves_src2_ = false;
    const Xbyak::Reg64 reg_wei = Xbyak::util::r9;
    const Xbyak::Reg64 reg_k = Xbyak::util::r10;
    const Xbyak::Reg64 reg_dst = Xbyak::util::r11;
    const Xbyak::Reg64 reg_table = Xbyak::util::r14;
    const Xbyak::Reg64 reg_tmp = Xbyak::util::rax;
    // While the chain runs (the K loop is done): the operand values and one entry's value.
    const Xbyak::Reg64 reg_op_values = Xbyak::util::r10; // reg_k's
    const Xbyak::Reg64 reg_op = Xbyak::util::r8;         // reg_src's
    int operand_mask_ = -1; // AVX2 with a tail: the vector holding the tail mask for operand loads
};

} // namespace jit
} // namespace prim
