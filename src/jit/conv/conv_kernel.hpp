// The direct convolution kernel (fp32 forward), in the style of the SC'18 "Anatomy of
// high-performance deep learning convolutions" paper: one call computes one full output row of
// nb oc blocks; the row is cut into blocks of ur_w pixels, and each block keeps ur_w x nb
// accumulators in vector registers while it walks every input channel and every valid tap:
//
//   for each block of ur pixels along the row          (edge blocks unrolled, middle ones a loop)
//     acc[ur][nb] = bias (or 0)
//     for icb in ic blocks                             (runtime loop; a partial block apart)
//       for kd in valid kd, kh in valid kh             (runtime loops; counts from the call args)
//         for kw, ic in the block                      (unrolled)
//           w[k] = weights(kw, ic, oc block k)
//           for each pixel j whose tap kw is inside the input (decided at generation time):
//             b = broadcast(src(pixel j, kw, ic))      (one register shared by the nb FMAs)
//             acc[j][k] += b * w[k]
//           (and a prefetch of the next block's src pixels in this ic block)
//         -- or, with one oc block (conv_kernel_conf::share_taps): every src pixel the kw taps
//            of this ic read is broadcast once into its own register, then for each kw
//            w = weights(kw, ic) and acc[j] += b[pixel j * sw + kw * dw] * w
//     the post-ops chain on every accumulator (sum loads dst_old with the store's mask)
//     store acc (the last oc block masked when oc is not a multiple of W)
//
// So there is no padded copy of the input: taps that fall in the left/right padding are skipped
// when the code is generated, kd/kh taps in the padding are cut by the caller (kd_count,
// kh_count and the starting pointers), and a partial ic block just runs fewer channels.
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
class conv_kernel : public jit_generator {
public:
    using Vmm = typename isa_traits<isa>::Vmm;

    // nb: oc blocks this kernel computes (conf.nb_oc, or fewer for the last oc block group);
    // oc_tail: valid lanes of its last block, 0 when full.
    conv_kernel(const conv_kernel_conf &conf, const post_ops &chain, int nb, int oc_tail);

private:
    void generate() override;
    void emit_row();
    // One block of ur pixels starting at output column ow0. interior: every tap of every pixel
    // is inside the input, so no tap is skipped and the code does not depend on ow0 (the
    // middle-block loop reuses it); src offsets are relative to the block's first pixel.
    void emit_block(int ur, int64_t ow0, bool interior, const row_block *loop);
    void emit_init(int ur);
    void emit_taps(int ur, int64_t ow0, bool interior, int n_ic);
    void emit_ic_block(int ur, int64_t ow0, bool interior, int n_ic);
    void emit_ic_step(int ur, int64_t ow0, bool interior);
    void emit_ic_step_shared(int ur, int64_t ow0, bool interior);
    bool tap_inside(int64_t ow0, bool interior, int j, int64_t kw) const;
    void emit_post_ops_and_store(int ur);

    int acc(int j, int k) const { return j * nb_ + k; }
    // Register idx as the FMAs of oc block k use it: a full vector, or 8 lanes (ymm) for a
    // narrow tail block (conv_kernel_conf::narrow_tail); the upper lanes are then zero.
    Xbyak::Xmm vec(int idx, int k) const {
        if (narrow_tail_ && k == nb_ - 1) return Xbyak::Ymm(idx);
        return Vmm(idx);
    }
    // Accumulator (j, k) as an FMA's destination: with opmasks, within a merged group's loop,
    // merge-masked to the group's lanes (conv_kernel_conf::merged_cg).
    Xbyak::Xmm acc_vec(int j, int k) const {
        const Xbyak::Xmm a = vec(acc(j, k), k);
        return opmasks_ && cur_group_ >= 0 ? a | group_opmask : a;
    }
    // A broadcast of src; without opmasks, within a merged group's loop, zero outside the
    // group's lanes.
    void broadcast(const Vmm &b, const Xbyak::Address &src);
    // The table entry of merged group grp's lanes: its opmask word (AVX-512) or lane mask (AVX2).
    Xbyak::Address group_lanes(int grp);
    int64_t dst_disp(int j, int k) const { return j * c_.dst_sp[2] + k * c_.dst_ocb; }
    Xbyak::Address dst_addr(int j, int k) const { return ptr[reg_dst_blk + dst_disp(j, k)]; }
    void load_operand(const operand_args &o);
    // rax and rbx count kd / kh taps: free before the taps and after them.
    conv_operand_regs operand_regs() const {
        return {reg_param, reg_dst_blk, reg_ow_cnt, reg_kd_cnt, reg_kh_cnt};
    }

    conv_kernel_conf c_;
    post_ops chain_;
    int nb_;
    int oc_tail_;
    bool narrow_tail_;   // the last oc block's FMAs on 8 lanes (conv_kernel_conf::narrow_tail)
    // AVX-512, or AVX2 kernels on a CPU with it (conv_kernel_conf::evex): opmasks and embedded
    // broadcasts.
    bool opmasks_;
    int cur_group_ = -1; // the merged group whose channels are being emitted, -1 outside
    int lane_mask_vreg_ = -1; // without opmasks: the register holding cur_group_'s lane mask
    // With opmasks: the merged group's lanes during the FMAs (the injector's k2..k7 are free
    // until its compute(); k1 is the AVX-512 tail mask).
    const Xbyak::Opmask group_opmask = Xbyak::util::k2;
    int mask_vreg_ = -1; // AVX2: the register holding the tail mask while post-ops run
    int64_t cur_ow0_ = 0;                 // the block being emitted (for operand loads)
    const row_block *cur_loop_ = nullptr; // its counted run, if any
    std::unique_ptr<post_ops_injector<isa>> injector_;

    // General registers.
    const Xbyak::Reg64 reg_param = abi_param(0);    // rdi
    const Xbyak::Reg64 reg_src_blk = Xbyak::util::r8;
    const Xbyak::Reg64 reg_dst_blk = Xbyak::util::r9;
    const Xbyak::Reg64 reg_src_kd = Xbyak::util::r10;
    const Xbyak::Reg64 reg_wei_kd = Xbyak::util::r11;
    const Xbyak::Reg64 reg_src_kh = Xbyak::util::r12;
    const Xbyak::Reg64 reg_wei_kh = Xbyak::util::r13;
    const Xbyak::Reg64 reg_src_ic = Xbyak::util::r14;
    const Xbyak::Reg64 reg_wei_ic = Xbyak::util::r15;
    const Xbyak::Reg64 reg_kd_cnt = Xbyak::util::rax;
    const Xbyak::Reg64 reg_kh_cnt = Xbyak::util::rbx;
    const Xbyak::Reg64 reg_icb_cnt = Xbyak::util::rcx;
    const Xbyak::Reg64 reg_table = Xbyak::util::rdx;
    const Xbyak::Reg64 reg_ow_cnt = Xbyak::util::rsi;
    const Xbyak::Reg64 reg_tmp = Xbyak::util::rbp;
};

extern template class conv_kernel<cpu_isa::avx2>;
extern template class conv_kernel<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
