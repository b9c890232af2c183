// The depthwise convolution kernel (one input and one output channel per group): channels on
// the vector lanes, so one call computes one full output row of nb blocks of W channels (the
// last block of the last call masked). Per block of ur output pixels:
//
//   acc[b][ur] = bias (or 0)                       for each of the nb channel blocks b
//   for kd, kh in the valid taps                   (runtime loops; counts from the call args)
//     for kw                                       (unrolled)
//       for b: w = weights(b, kh, kw)
//         for each pixel j whose tap kw is inside the input (decided at generation time):
//           acc[b][j] += src(b, pixel j, kw) * w   (the src vector is the FMA's memory operand)
//   post-ops chain on every accumulator, then one store (masked for the channel tail)
//
// nb > 1 is for short rows (7, 14 pixels): one block of ur pixels would leave most registers
// idle and too few independent FMA chains, and each call would do little work.
// Layouts: src and dst with channels contiguous in blocks of W (nChw16c / nChw8c, or nhwc), or
// src rows from a table of row pointers (conv_kernel_conf::src_rows, the fused dw pass's ring);
// weights packed as [channel block][kd][kh][kw][W channels] ("Abcde16a" for dims g,1,1,kh,kw).
// conv_conf's oc fields describe the channel blocks (n_ocb, oc_tail, dst_ocb, wei_ocb, src_ocb).
#pragma once
#include <memory>

#include "jit/conv/conv_conf.hpp"
#include "jit/conv/conv_operand.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/gen/jit_generator.hpp"
#include "jit/inject/post_ops_injector.hpp"

namespace prim {
namespace jit {

template <cpu_isa isa>
class conv_dw_kernel : public jit_generator {
public:
    using Vmm = typename isa_traits<isa>::Vmm;

    // nb: channel blocks per call; oc_tail: valid channels of the last one, 0 when full. The
    // blocking in conf leaves room for the registers the kernel needs (conv_conf.cpp, dw_max_acc).
    conv_dw_kernel(const conv_kernel_conf &conf, const post_ops &chain, int nb, int oc_tail);

private:
    void generate() override;
    void emit_block(int ur, int64_t ow0, bool interior, const row_block *loop);
    void load_operand(const operand_args &o);
    // rax and rbx count kd / kh taps: free before the taps and after them.
    conv_operand_regs operand_regs() const {
        return {reg_param, reg_dst_blk, reg_ow_cnt, reg_kd_cnt, reg_kh_cnt};
    }
    void emit_kw_taps(int ur, int64_t ow0, bool interior);
    void emit_post_ops_and_store(int ur);
    int64_t dst_disp(int b, int j) const { return b * c_.dst_ocb + j * c_.dst_sp[2]; }
    Xbyak::Address dst_addr(int b, int j) const { return ptr[reg_dst_blk + dst_disp(b, j)]; }
    int mask_idx() const;
    bool is_tail(int b) const { return oc_tail_ && b == nb_ - 1; }
    // Accumulator of channel block b, pixel j, in a block of ur pixels.
    static int acc(int b, int j, int ur) { return b * ur + j; }

    conv_kernel_conf c_;
    post_ops chain_;
    int nb_, oc_tail_;
    int cur_ur_ = 0; // the pixels of the block being emitted (for the sum and operand callbacks)
    int64_t cur_ow0_ = 0;
    const row_block *cur_loop_ = nullptr; // its counted run, if any
    std::unique_ptr<post_ops_injector<isa>> injector_;

    const Xbyak::Reg64 reg_param = abi_param(0);
    const Xbyak::Reg64 reg_src_blk = Xbyak::util::r8;
    const Xbyak::Reg64 reg_dst_blk = Xbyak::util::r9;
    const Xbyak::Reg64 reg_src_kd = Xbyak::util::r10;
    const Xbyak::Reg64 reg_wei_kd = Xbyak::util::r11;
    const Xbyak::Reg64 reg_src_kh = Xbyak::util::r12;
    const Xbyak::Reg64 reg_wei_kh = Xbyak::util::r13;
    const Xbyak::Reg64 reg_kd_cnt = Xbyak::util::rax;
    const Xbyak::Reg64 reg_kh_cnt = Xbyak::util::rbx;
    const Xbyak::Reg64 reg_table = Xbyak::util::rdx;
    const Xbyak::Reg64 reg_ow_cnt = Xbyak::util::rsi;
    const Xbyak::Reg64 reg_tmp = Xbyak::util::rbp;
    const Xbyak::Reg64 reg_row = Xbyak::util::r14; // the row table's entry (src_rows)
};

extern template class conv_dw_kernel<cpu_isa::avx2>;
extern template class conv_dw_kernel<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
