// Code generation of the direct convolution kernel; the loop structure is described in
// conv_kernel.hpp.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "jit/conv/conv_kernel.hpp"
#include "jit/conv/conv_emit.hpp"
#include "jit/conv/conv_operand.hpp"
#include "jit/inject/operand_access.hpp"
#include "jit/gen/tail_mask.hpp"

namespace prim {
namespace jit {

using namespace Xbyak;

#define ARG(field) ptr[reg_param + offsetof(conv_call_args, field)]

template <cpu_isa isa>
conv_kernel<isa>::conv_kernel(const conv_kernel_conf &conf, const post_ops &chain, int nb, int oc_tail)
    : jit_generator(std::string("conv_") + isa_traits<isa>::name, isa_traits<isa>::vlen),
      c_(conf), chain_(chain), nb_(nb), oc_tail_(oc_tail),
      narrow_tail_(isa == cpu_isa::avx512 && conf.narrow_tail && oc_tail > 0),
      opmasks_(isa == cpu_isa::avx512 || conf.evex) {
    read_runtime_table(chain.has_runtime_params());
}

template <cpu_isa isa>
void conv_kernel<isa>::load_operand(const operand_args &o) {
    const int j = o.acc_idx / nb_, k = o.acc_idx % nb_;
    const bool tail = oc_tail_ && k == nb_ - 1;
    load_conv_operand<isa>(*this, c_, chain_, operand_regs(), o,
                           {cur_ow0_, cur_loop_, j, k, tail, dst_disp(j, k)}, oc_tail_,
                           isa == cpu_isa::avx512 ? host_tail_opmask : mask_vreg_);
}

template <cpu_isa isa>
void conv_kernel<isa>::generate() {
    preamble();
    load_table_address(reg_table, ARG(table));
    if (isa == cpu_isa::avx512 && oc_tail_)
        tail_mask<isa>(*this, oc_tail_, host_tail_opmask).prepare(reg_table, reg_tmp);

    // sum: acc += scale * dst_old, dst_old read with the same mask as the store.
    auto sum = [this](const sum_args &s) {
        const int j = s.acc_idx / nb_, k = s.acc_idx % nb_;
        const Vmm acc_v(s.acc_idx), old(s.aux_idx);
        if (oc_tail_ && k == nb_ - 1)
            tail_mask<isa>(*this, oc_tail_, isa == cpu_isa::avx512 ? host_tail_opmask : mask_vreg_)
                    .load(old, dst_addr(j, k));
        else
            vmovups(old, dst_addr(j, k));
        if (s.scale == 1.f)
            vaddps(acc_v, acc_v, old);
        else
            vfmadd231ps(acc_v, old, s.scale_vec);
    };
    injector_ = std::make_unique<post_ops_injector<isa>>(
            *this, chain_, sum, [this](const operand_args &o) { load_operand(o); },
            [this](int entry, int acc_idx) {
                return shared_operand_key(chain_.entries()[entry].mask, acc_idx % nb_, acc_idx / nb_);
            });

    emit_row();
    postamble();
}


template <cpu_isa isa>
void conv_kernel<isa>::emit_row() {
    emit_row_walk(*this, c_, {reg_param, reg_src_blk, reg_dst_blk, reg_ow_cnt, reg_tmp},
                  [this](int ur, int64_t ow0, bool interior, const row_block *loop) {
                      emit_block(ur, ow0, interior, loop);
                  });
}

template <cpu_isa isa>
void conv_kernel<isa>::emit_block(int ur, int64_t ow0, bool interior, const row_block *loop) {
    cur_ow0_ = ow0;
    cur_loop_ = loop;
    emit_init(ur);
    // ic blocks outermost: the weights of one ic block ([kd][kh][kw][ic][oc]) are then read in
    // memory order, and the src rows of one block stay in one channel plane.
    mov(reg_src_ic, reg_src_blk);
    mov(reg_wei_ic, ARG(wei));
    const int64_t n_full = c_.nb_ic - (c_.ic_tail ? 1 : 0);
    if (n_full > 0) {
        mov(reg_icb_cnt, n_full);
        Label icb_loop;
        L(icb_loop);
        emit_taps(ur, ow0, interior, c_.simd_w);
        add_offset(*this, reg_src_ic, c_.src_icb, reg_tmp);
        add_offset(*this, reg_wei_ic, c_.wei_icb, reg_tmp);
        dec(reg_icb_cnt);
        jnz(icb_loop, T_NEAR);
    }
    if (c_.ic_tail) emit_taps(ur, ow0, interior, c_.ic_tail);
    emit_post_ops_and_store(ur);
}

// The valid kd x kh taps (runtime loops) of one ic block of n_ic channels.
template <cpu_isa isa>
void conv_kernel<isa>::emit_taps(int ur, int64_t ow0, bool interior, int n_ic) {
    const bool has_kd = c_.k[0] > 1, has_kh = c_.k[1] > 1;
    mov(reg_src_kd, reg_src_ic);
    mov(reg_wei_kd, reg_wei_ic);
    Label kd_loop, kd_done;
    if (has_kd) {
        mov(reg_kd_cnt, ARG(kd_count));
        L(kd_loop);
        test(reg_kd_cnt, reg_kd_cnt);
        jz(kd_done, T_NEAR);
    } else {
        // kd_count is 0 or 1: a row without any valid tap skips the FMAs.
        cmp(qword[reg_param + offsetof(conv_call_args, kd_count)], 0);
        je(kd_done, T_NEAR);
    }
    mov(reg_src_kh, reg_src_kd);
    mov(reg_wei_kh, reg_wei_kd);
    Label kh_loop, kh_done;
    if (has_kh) {
        mov(reg_kh_cnt, ARG(kh_count));
        L(kh_loop);
        test(reg_kh_cnt, reg_kh_cnt);
        jz(kh_done, T_NEAR);
    } else {
        cmp(qword[reg_param + offsetof(conv_call_args, kh_count)], 0);
        je(kh_done, T_NEAR);
    }
    emit_ic_block(ur, ow0, interior, n_ic);
    if (has_kh) {
        add_offset(*this, reg_src_kh, c_.src_sp[1] * c_.dil[1], reg_tmp);
        add_offset(*this, reg_wei_kh, c_.wei_sp[1], reg_tmp);
        dec(reg_kh_cnt);
        jmp(kh_loop, T_NEAR);
    }
    L(kh_done);
    if (has_kd) {
        add_offset(*this, reg_src_kd, c_.src_sp[0] * c_.dil[0], reg_tmp);
        add_offset(*this, reg_wei_kd, c_.wei_sp[0], reg_tmp);
        dec(reg_kd_cnt);
        jmp(kd_loop, T_NEAR);
    }
    L(kd_done);
}

template <cpu_isa isa>
void conv_kernel<isa>::emit_init(int ur) {
    // The sum reads dst_old only after every FMA of the block: ask for it now.
    if (chain_.has_sum())
        for (int j = 0; j < ur; ++j)
            for (int k = 0; k < nb_; ++k) prefetcht0(dst_addr(j, k));
    if (chain_.has_operands()) {
        std::vector<int64_t> disps;
        for (int j = 0; j < ur; ++j)
            for (int k = 0; k < nb_; ++k) disps.push_back(dst_disp(j, k));
        prefetch_conv_operands(*this, chain_, operand_regs(), disps);
    }
    if (!c_.with_bias) {
        for (int j = 0; j < ur; ++j)
            for (int k = 0; k < nb_; ++k) vxorps(Vmm(acc(j, k)), Vmm(acc(j, k)), Vmm(acc(j, k)));
        return;
    }
    mov(reg_tmp, ARG(bias));
    for (int k = 0; k < nb_; ++k) {
        const Address b = ptr[reg_tmp + k * c_.simd_w * static_cast<int>(sizeof(float))];
        if (oc_tail_ && k == nb_ - 1) {
            // AVX2: the mask goes to the first free register (the FMAs overwrite it later).
            const int m = isa == cpu_isa::avx512 ? host_tail_opmask : ur * nb_;
            tail_mask<isa> mask(*this, oc_tail_, m);
            if (isa != cpu_isa::avx512) mask.prepare(reg_table, reg_tmp); // reads reg_table only
            mask.load(Vmm(acc(0, k)), b);
        } else {
            vmovups(Vmm(acc(0, k)), b);
        }
    }
    for (int j = 1; j < ur; ++j)
        for (int k = 0; k < nb_; ++k) vmovaps(Vmm(acc(j, k)), Vmm(acc(0, k)));
}

template <cpu_isa isa>
void conv_kernel<isa>::emit_ic_block(int ur, int64_t ow0, bool interior, int n_ic) {
    const int64_t sw = c_.s[2], pw = c_.p[2];
    // Prefetch the src pixels of the next block (same ic block and row), so the streams of a
    // large input do not stall the broadcasts.
    for (int j = 0; j < ur; ++j) prefetcht0(ptr[reg_src_kh + ((ur + j) * sw - pw) * c_.src_sp[2]]);
    if (n_ic < 2) {
        if (n_ic == 1) emit_ic_step(ur, ow0, interior);
        return;
    }
    // A runtime loop over the channels, one per iteration: the code of a block stays small
    // enough for the op cache (fully unrolled, a 3x3 block is ~10 KiB per variant, and measured
    // 5-15% slower on the 14- and 7-wide layers of ResNet-50). The pointers come back to the
    // block's first channel afterwards: by subtracting the n_ic steps, or, when they exceed a
    // 32-bit immediate (planar src with planes over 2^31 / W bytes), from the stack.
    const bool restore_from_stack
            = n_ic * std::max(c_.src_ic, c_.wei_ic) > std::numeric_limits<int32_t>::max();
    if (restore_from_stack) {
        push(reg_src_kh);
        push(reg_wei_kh);
    }
    // Merged groups: one loop per user group, whose channels add into its lanes only
    // (group_lanes()); a block of merged groups is always whole (n_ic == W). The code of the
    // channel step is emitted once per group: with 2-channel groups on AVX-512, 8 times (a 3x3
    // kernel of 16 KB against 4 unmerged; measured only where 256-bit units run 8 lanes).
    const int groups = c_.merged_cg > 0 ? n_ic / static_cast<int>(c_.merged_cg) : 1;
    // AVX2: the lane mask in the register after the FMAs' (conv_conf.cpp counts it).
    lane_mask_vreg_ = ur * nb_
            + (c_.share_taps ? static_cast<int>(held_pixels(c_, ur).size()) + 1
               : c_.hold_bcast ? ur + 1 : nb_ + 1);
    for (int grp = 0; grp < groups; ++grp) {
        cur_group_ = c_.merged_cg > 0 ? grp : -1;
        if (cur_group_ >= 0) {
            if (opmasks_) kmovw(group_opmask, group_lanes(grp));
            else vmovups(Vmm(lane_mask_vreg_), group_lanes(grp));
        }
        mov(reg_tmp, n_ic / groups);
        Label loop;
        L(loop);
        emit_ic_step(ur, ow0, interior);
        add(reg_src_kh, static_cast<int>(c_.src_ic)); // fits: set_strides checks it
        add(reg_wei_kh, static_cast<int>(c_.wei_ic));
        dec(reg_tmp);
        jnz(loop, T_NEAR);
    }
    cur_group_ = -1;
    if (restore_from_stack) {
        pop(reg_wei_kh);
        pop(reg_src_kh);
    } else {
        sub(reg_src_kh, static_cast<int>(n_ic * c_.src_ic));
        sub(reg_wei_kh, static_cast<int>(n_ic * c_.wei_ic));
    }
}

template <cpu_isa isa>
Xbyak::Address conv_kernel<isa>::group_lanes(int grp) {
    const int cg = static_cast<int>(c_.merged_cg), W = c_.simd_w;
    if (opmasks_) { // a row of opmask words, one per group
        std::vector<uint32_t> masks(static_cast<size_t>(W / cg));
        for (int g = 0; g < W / cg; ++g) masks[g] = ((1u << cg) - 1u) << (g * cg);
        return ptr[reg_table + table().offset_of_row(masks) + grp * 4];
    }
    std::vector<uint32_t> lanes(static_cast<size_t>(W), 0u); // -1 in the group's lanes
    for (int i = grp * cg; i < (grp + 1) * cg; ++i) lanes[i] = 0xffffffffu;
    return ptr[reg_table + table().offset_of_row(lanes)];
}

template <cpu_isa isa>
void conv_kernel<isa>::broadcast(const Vmm &b, const Xbyak::Address &src) {
    vbroadcastss(b, src);
    if (!opmasks_ && cur_group_ >= 0) vandps(b, b, Vmm(lane_mask_vreg_));
}

// Whether pixel j's tap kw reads inside the input row (always in an interior block).
template <cpu_isa isa>
bool conv_kernel<isa>::tap_inside(int64_t ow0, bool interior, int j, int64_t kw) const {
    const int64_t iw = (ow0 + j) * c_.s[2] - c_.p[2] + kw * c_.dil[2];
    return interior || (iw >= 0 && iw < c_.i[2]);
}

// The FMAs of the input channel at reg_src_kh / reg_wei_kh over every kw tap.
template <cpu_isa isa>
void conv_kernel<isa>::emit_ic_step(int ur, int64_t ow0, bool interior) {
    if (c_.share_taps) return emit_ic_step_shared(ur, ow0, interior);
    const int64_t sw = c_.s[2], pw = c_.p[2], dw = c_.dil[2];
    const int free0 = ur * nb_; // first register after the accumulators
    std::vector<int> valid;
    for (int64_t kw = 0; kw < c_.k[2]; ++kw) {
        valid.clear();
        for (int j = 0; j < ur; ++j)
            if (tap_inside(ow0, interior, j, kw)) valid.push_back(j);
        if (valid.empty()) continue;
        const int64_t woff = kw * c_.wei_sp[2];
        auto wei = [&](int k) { return ptr[reg_wei_kh + woff + k * c_.wei_ocb]; };
        auto src = [&](int j) {
            return ptr[reg_src_kh + (j * sw - pw + kw * dw) * c_.src_sp[2]];
        };
        if (c_.hold_bcast) {
            // ur broadcasts held, one weight vector at a time (for few registers and many oc
            // blocks: AVX2's 4 x 3).
            for (int j : valid) broadcast(Vmm(free0 + j), src(j));
            for (int k = 0; k < nb_; ++k) {
                const Xmm w = vec(free0 + ur, k);
                vmovups(w, wei(k));
                for (int j : valid) vfmadd231ps(acc_vec(j, k), w, vec(free0 + j, k));
            }
        } else if (opmasks_ && nb_ == 1) {
            // One oc block: each broadcast would feed a single FMA, so the FMA reads it as an
            // embedded {1to16} ({1to8}) operand instead of a vbroadcastss of its own (on Zen 4
            // that broadcast competes with the FMAs: MobileNet v2's 32 -> 16 1x1 layer at mb1
            // ran at 73% of oneDNN on one thread; 8-lane groups of ResNeXt, see
            // doc/performance.md).
            const Xmm w = vec(free0, 0);
            vmovups(w, wei(0));
            for (int j : valid) vfmadd231ps(acc_vec(j, 0), w, ptr_b[src(j).getRegExp()]);
        } else {
            // nb weight vectors held, one broadcast at a time.
            for (int k = 0; k < nb_; ++k) vmovups(vec(free0 + k, k), wei(k));
            const Vmm b(free0 + nb_);
            for (int j : valid) {
                broadcast(b, src(j));
                for (int k = 0; k < nb_; ++k)
                    vfmadd231ps(acc_vec(j, k), vec(free0 + k, k), vec(free0 + nb_, k));
            }
        }
    }
}

// share_taps (one oc block): the held pixels the taps read, each broadcast once into its
// register (held_pixels(): registers free0 + i, beyond the 16 of AVX2 with AVX-512VL), then
// each tap's weight vector and its FMAs, from those registers or from the one-tap pixels as
// embedded broadcasts.
template <cpu_isa isa>
void conv_kernel<isa>::emit_ic_step_shared(int ur, int64_t ow0, bool interior) {
    const int64_t sw = c_.s[2], dw = c_.dil[2];
    const std::vector<int64_t> held = held_pixels(c_, ur);
    const int free0 = ur * nb_;
    const auto held_index = [&](int64_t q) {
        const auto it = std::lower_bound(held.begin(), held.end(), q);
        return it != held.end() && *it == q ? static_cast<int>(it - held.begin()) : -1;
    };
    const auto src = [&](int64_t q) { return ptr[reg_src_kh + (q - c_.p[2]) * c_.src_sp[2]]; };
    std::vector<bool> read(held.size(), false);
    for (int64_t kw = 0; kw < c_.k[2]; ++kw)
        for (int j = 0; j < ur; ++j) {
            const int i = held_index(j * sw + kw * dw);
            if (i >= 0 && tap_inside(ow0, interior, j, kw)) read[i] = true;
        }
    for (size_t i = 0; i < held.size(); ++i)
        if (read[i]) broadcast(Vmm(free0 + static_cast<int>(i)), src(held[i]));
    const Xmm w = vec(free0 + static_cast<int>(held.size()), 0);
    for (int64_t kw = 0; kw < c_.k[2]; ++kw) {
        bool loaded = false;
        for (int j = 0; j < ur; ++j) {
            if (!tap_inside(ow0, interior, j, kw)) continue;
            if (!loaded) vmovups(w, ptr[reg_wei_kh + kw * c_.wei_sp[2]]);
            loaded = true;
            const int64_t q = j * sw + kw * dw;
            const int i = held_index(q);
            if (i >= 0)
                vfmadd231ps(acc_vec(j, 0), w, vec(free0 + i, 0));
            else
                vfmadd231ps(acc_vec(j, 0), w, ptr_b[src(q).getRegExp()]);
        }
    }
}

template <cpu_isa isa>
void conv_kernel<isa>::emit_post_ops_and_store(int ur) {
    injector_regs regs;
    regs.reg_table = reg_table;
    for (int j = 0; j < ur; ++j)
        for (int k = 0; k < nb_; ++k) regs.acc.push_back(acc(j, k));
    for (int v = ur * nb_; v < c_.n_vregs; ++v) regs.aux.push_back(v);
    mask_vreg_ = -1;
    if (isa != cpu_isa::avx512 && oc_tail_) {
        mask_vreg_ = regs.aux.back();
        regs.aux.pop_back();
        tail_mask<isa>(*this, oc_tail_, mask_vreg_).prepare(reg_table, reg_tmp);
    }
    regs.opmasks = post_ops_injector<isa>::opmasks();
    if (chain_.len() > 0) injector_->compute(regs);

    for (int j = 0; j < ur; ++j)
        for (int k = 0; k < nb_; ++k) {
            if (oc_tail_ && k == nb_ - 1)
                tail_mask<isa>(*this, oc_tail_, isa == cpu_isa::avx512 ? host_tail_opmask : mask_vreg_)
                        .store(dst_addr(j, k), Vmm(acc(j, k)));
            else
                vmovups(dst_addr(j, k), Vmm(acc(j, k)));
        }
}

#undef ARG

template class conv_kernel<cpu_isa::avx2>;
template class conv_kernel<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
