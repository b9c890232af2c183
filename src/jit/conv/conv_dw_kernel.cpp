// Code generation of the depthwise kernel; the loop structure is described in conv_dw_kernel.hpp.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "jit/conv/conv_dw_kernel.hpp"
#include "jit/conv/conv_emit.hpp"
#include "jit/conv/conv_operand.hpp"
#include "jit/inject/operand_access.hpp"
#include "jit/gen/tail_mask.hpp"

namespace prim {
namespace jit {

using namespace Xbyak;

#define ARG(field) ptr[reg_param + offsetof(conv_call_args, field)]

template <cpu_isa isa>
conv_dw_kernel<isa>::conv_dw_kernel(const conv_kernel_conf &conf, const post_ops &chain, int nb,
                                    int oc_tail)
    : jit_generator(std::string("conv_dw_") + isa_traits<isa>::name, isa_traits<isa>::vlen),
      c_(conf), chain_(chain), nb_(nb), oc_tail_(oc_tail) {
    read_runtime_table(chain.has_runtime_params());
}

// AVX-512: the opmask; AVX2: the last vector register, reserved for the whole kernel.
template <cpu_isa isa>
int conv_dw_kernel<isa>::mask_idx() const {
    return isa == cpu_isa::avx512 ? host_tail_opmask : isa_traits<isa>::n_vregs - 1;
}

template <cpu_isa isa>
void conv_dw_kernel<isa>::load_operand(const operand_args &o) {
    const int b = o.acc_idx / cur_ur_, j = o.acc_idx % cur_ur_;
    load_conv_operand<isa>(*this, c_, chain_, operand_regs(), o,
                           {cur_ow0_, cur_loop_, j, b, is_tail(b), dst_disp(b, j)}, oc_tail_,
                           mask_idx());
}

template <cpu_isa isa>
void conv_dw_kernel<isa>::generate() {
    preamble();
    load_table_address(reg_table, ARG(table));
    if (oc_tail_) tail_mask<isa>(*this, oc_tail_, mask_idx()).prepare(reg_table, reg_tmp);

    auto sum = [this](const sum_args &s) {
        const Vmm acc(s.acc_idx), old(s.aux_idx);
        const int b = s.acc_idx / cur_ur_, j = s.acc_idx % cur_ur_;
        if (is_tail(b))
            tail_mask<isa>(*this, oc_tail_, mask_idx()).load(old, dst_addr(b, j));
        else
            vmovups(old, dst_addr(b, j));
        if (s.scale == 1.f)
            vaddps(acc, acc, old);
        else
            vfmadd231ps(acc, old, s.scale_vec);
    };
    injector_ = std::make_unique<post_ops_injector<isa>>(
            *this, chain_, sum, [this](const operand_args &o) { load_operand(o); },
            [this](int entry, int acc_idx) {
                return shared_operand_key(chain_.entries()[entry].mask, acc_idx / cur_ur_,
                                          acc_idx % cur_ur_);
            });

    emit_row_walk(*this, c_, {reg_param, reg_src_blk, reg_dst_blk, reg_ow_cnt, reg_tmp},
                  [this](int ur, int64_t ow0, bool interior, const row_block *loop) {
                      emit_block(ur, ow0, interior, loop);
                  });
    postamble();
}

template <cpu_isa isa>
void conv_dw_kernel<isa>::emit_block(int ur, int64_t ow0, bool interior, const row_block *loop) {
    cur_ur_ = ur;
    cur_ow0_ = ow0;
    cur_loop_ = loop;
    // Depthwise does little arithmetic per byte, and one block is too short to hide a miss:
    // ask for the dst_old (read by a sum) of this block and of the same block one row down.
    // The src rows are left to the hardware prefetcher: they are sequential streams (a channel
    // block's rows follow each other), and prefetching the next output row's src pixels in
    // every kh row cost 5-13% on one thread and up to 24% on two (MobileNet v2's ten depthwise
    // layers at mb1, Zen 5; no difference measurable at mb8, where the data comes from memory).
    if (chain_.has_sum())
        for (int b = 0; b < nb_; ++b)
            for (int j = 0; j < ur; ++j) {
                prefetcht0(dst_addr(b, j));
                prefetcht0(ptr[reg_dst_blk + b * c_.dst_ocb + j * c_.dst_sp[2] + c_.dst_sp[1]]);
            }
    if (chain_.has_operands()) {
        std::vector<int64_t> disps;
        for (int b = 0; b < nb_; ++b)
            for (int j = 0; j < ur; ++j) disps.push_back(dst_disp(b, j));
        prefetch_conv_operands(*this, chain_, operand_regs(), disps);
    }
    // acc = bias (or 0).
    if (c_.with_bias) mov(reg_tmp, ARG(bias));
    for (int b = 0; b < nb_; ++b) {
        const Vmm first(acc(b, 0, ur));
        if (!c_.with_bias)
            vxorps(first, first, first);
        else if (is_tail(b))
            tail_mask<isa>(*this, oc_tail_, mask_idx()).load(first, ptr[reg_tmp + b * c_.simd_w * 4]);
        else
            vmovups(first, ptr[reg_tmp + b * c_.simd_w * 4]);
        for (int j = 1; j < ur; ++j) vmovaps(Vmm(acc(b, j, ur)), first);
    }

    mov(reg_src_kd, reg_src_blk);
    mov(reg_wei_kd, ARG(wei));
    mov(reg_kd_cnt, ARG(kd_count));
    Label kd_loop, kd_done;
    L(kd_loop);
    test(reg_kd_cnt, reg_kd_cnt);
    jz(kd_done, T_NEAR);
    {
        // With a row table (conv_kernel_conf::src_rows, 2D only) reg_src_kd holds the block's
        // byte offset within a row, and each kh tap's row comes from the table.
        if (c_.src_rows) mov(reg_row, ARG(src_rows));
        else mov(reg_src_kh, reg_src_kd);
        mov(reg_wei_kh, reg_wei_kd);
        mov(reg_kh_cnt, ARG(kh_count));
        Label kh_loop, kh_done;
        L(kh_loop);
        test(reg_kh_cnt, reg_kh_cnt);
        jz(kh_done, T_NEAR);
        if (c_.src_rows) {
            mov(reg_src_kh, ptr[reg_row]);
            add(reg_src_kh, reg_src_kd);
        }
        emit_kw_taps(ur, ow0, interior);
        if (c_.src_rows)
            add(reg_row, static_cast<int>(sizeof(void *)));
        else
            add_offset(*this, reg_src_kh, c_.src_sp[1] * c_.dil[1], reg_tmp);
        add_offset(*this, reg_wei_kh, c_.wei_sp[1], reg_tmp);
        dec(reg_kh_cnt);
        jmp(kh_loop, T_NEAR);
        L(kh_done);
    }
    add_offset(*this, reg_src_kd, c_.src_sp[0] * c_.dil[0], reg_tmp);
    add_offset(*this, reg_wei_kd, c_.wei_sp[0], reg_tmp);
    dec(reg_kd_cnt);
    jmp(kd_loop, T_NEAR);
    L(kd_done);

    emit_post_ops_and_store(ur);
}

template <cpu_isa isa>
void conv_dw_kernel<isa>::emit_kw_taps(int ur, int64_t ow0, bool interior) {
    const int64_t IW = c_.i[2], sw = c_.s[2], pw = c_.p[2], dw = c_.dil[2];
    const Vmm wv(nb_ * ur), tmp(nb_ * ur + 1);
    for (int64_t kw = 0; kw < c_.k[2]; ++kw)
        for (int b = 0; b < nb_; ++b) {
            bool loaded = false;
            for (int j = 0; j < ur; ++j) {
                const int64_t iw = (ow0 + j) * sw - pw + kw * dw;
                if (!interior && (iw < 0 || iw >= IW)) continue;
                if (!loaded) vmovups(wv, ptr[reg_wei_kh + b * c_.wei_ocb + kw * c_.wei_sp[2]]);
                loaded = true;
                const Address src
                        = ptr[reg_src_kh + b * c_.src_ocb + (j * sw - pw + kw * dw) * c_.src_sp[2]];
                const Vmm a(acc(b, j, ur));
                // A partial channel block reads only its valid lanes: with nhwc the lanes past
                // the last channel belong to the next pixel, or lie past the buffer's end.
                if (!is_tail(b)) {
                    vfmadd231ps(a, wv, src);
                } else if (isa == cpu_isa::avx512) {
                    vfmadd231ps(a | Opmask(host_tail_opmask), wv, src);
                } else {
                    tail_mask<isa>(*this, oc_tail_, mask_idx()).load(tmp, src);
                    vfmadd231ps(a, wv, tmp);
                }
            }
        }
}

template <cpu_isa isa>
void conv_dw_kernel<isa>::emit_post_ops_and_store(int ur) {
    injector_regs regs;
    regs.reg_table = reg_table;
    for (int i = 0; i < nb_ * ur; ++i) regs.acc.push_back(i);
    for (int v = nb_ * ur; v < isa_traits<isa>::n_vregs; ++v)
        if (!(isa != cpu_isa::avx512 && oc_tail_ && v == mask_idx())) regs.aux.push_back(v);
    regs.opmasks = post_ops_injector<isa>::opmasks();
    if (chain_.len() > 0) injector_->compute(regs);
    for (int b = 0; b < nb_; ++b)
        for (int j = 0; j < ur; ++j) {
            if (is_tail(b))
                tail_mask<isa>(*this, oc_tail_, mask_idx()).store(dst_addr(b, j), Vmm(acc(b, j, ur)));
            else
                vmovups(dst_addr(b, j), Vmm(acc(b, j, ur)));
        }
}

#undef ARG

template class conv_dw_kernel<cpu_isa::avx2>;
template class conv_dw_kernel<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
