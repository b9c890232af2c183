// Code generation of the int8 inner product's micro-kernel (the layouts of the data and of the
// registers, and the order of the finalize steps, are in ip_int8_kernel.hpp).
#include <type_traits>

#include "jit/int8/ip_int8_kernel.hpp"
#include "common/post_op_operands.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "jit/inject/operand_access.hpp"
#include "jit/gen/tail_mask.hpp"
#include "jit/inject/tile_chain.hpp"
#include "prim/error.hpp"

namespace prim {
namespace jit {

namespace {
using dt = memory::data_type;
} // namespace

template <cpu_isa isa>
ip_int8_kernel<isa>::ip_int8_kernel(const ip_int8_conf &conf, const post_ops &chain)
    : gemm_kernel_base(kernel_name(conf), vlen), conf_(conf), chain_(chain) {
    read_runtime_table(chain.has_runtime_params());
}

template <cpu_isa isa>
std::string ip_int8_kernel<isa>::kernel_name(const ip_int8_conf &conf) {
    std::string name = "ip_int8_" + std::to_string(conf.mr) + "x" + std::to_string(conf.nr) + "_"
                       + isa_traits<isa>::name + (conf.vnni ? "_vnni_" : "_")
                       + data_type_name(static_cast<dt>(conf.dst_dt));
    if (conf.tail) name += "_tail" + std::to_string(conf.tail);
    if (conf.with_taps) name += "_taps";
    if (conf.row_split) name += "_split" + std::to_string(conf.row_split);
    for (int kw = 0; kw < conf.kw_unroll; ++kw)
        if (conf.kw_rows[kw][0] != 0 || conf.kw_rows[kw][1] != conf.mr) {
            name += "_edge"; // some tap skipped by some rows
            break;
        }
    if (conf.depthwise) name += conf.src_s8 ? "_dw_s8" : "_dw_u8";
    return name;
}

template <cpu_isa isa>
std::string ip_int8_kernel<isa>::cache_key(const ip_int8_conf &conf, const post_ops &chain) {
    return kernel_key((std::string("ip_int8_") + isa_traits<isa>::name).c_str(), conf, chain);
}

template <cpu_isa isa>
void ip_int8_kernel<isa>::generate() {
    if (conf_.vnni && isa != cpu_isa::avx512)
        throw error(status::runtime_error, "ip_int8_kernel: vpdpbusd needs AVX-512 here");
    preamble();
    load_table_address(reg_table, ptr[reg_param + offsetof(ip_int8_args, table)]);
    mov(reg_src, ptr[reg_param + offsetof(ip_int8_args, src)]);
    mov(reg_wei, ptr[reg_param + offsetof(ip_int8_args, wei)]);
    for (int i = 0; i < n_acc(); ++i) vxorps(Vmm(i), Vmm(i), Vmm(i)); // vpxor has no zmm form
    if (conf_.row_split > 0) {
        mov(reg_src2, ptr[reg_param + offsetof(ip_int8_args, src2)]);
        k_loop_moves_src2_ = true;
    }
    if (conf_.with_taps) tap_rows_loop();
    else tap_products(0, static_cast<int>(conf_.mr));
    finalize();
    postamble();
}

template <cpu_isa isa>
void ip_int8_kernel<isa>::tap_products(int m0, int m1) {
    if (conf_.depthwise) return depthwise_tap(m0, m1);
    if (conf_.tap_k_groups > 0) { // unrolled: no loop for a tap of a few K groups
        for (int u = 0; u < conf_.tap_k_groups; ++u) k_step(u, m0, m1);
        return;
    }
    mov(reg_k, ptr[reg_param + offsetof(ip_int8_args, k_groups)]);
    k_loop(k_unroll, conf_.wei_k_step, [this, m0, m1](int u) { k_step(u, m0, m1); });
}

// Each tap row of the args, its taps unrolled: a tap's src at the row's offset plus kw_bytes a
// tap, its weights at its index times tap_wei_bytes; a tap no tile row reads inside is skipped.
template <cpu_isa isa>
void ip_int8_kernel<isa>::tap_rows_loop() {
    Xbyak::Label next_row, done;
    mov(reg_src_base, reg_src);
    mov(reg_wei_base, reg_wei);
    mov(reg_tap, ptr[reg_param + offsetof(ip_int8_args, tap_rows)]);
    mov(reg_taps_left, ptr[reg_param + offsetof(ip_int8_args, n_tap_rows)]);
    test(reg_taps_left, reg_taps_left);
    jz(done, T_NEAR);
    L(next_row);
    for (int kw = 0; kw < conf_.kw_unroll; ++kw) {
        const int m0 = static_cast<int>(conf_.kw_rows[kw][0]), m1 = static_cast<int>(conf_.kw_rows[kw][1]);
        if (m0 >= m1) continue;
        mov(reg_src, ptr[reg_tap + offsetof(int8_tap_row, src)]);
        add(reg_src, reg_src_base);
        if (kw > 0) add(reg_src, static_cast<int>(conf_.kw_bytes * kw));
        mov(reg_wei, ptr[reg_tap + offsetof(int8_tap_row, tap)]);
        if (kw > 0) add(reg_wei, kw);
        imul(reg_wei, reg_wei, static_cast<int>(conf_.tap_wei_bytes));
        add(reg_wei, reg_wei_base);
        tap_products(m0, m1);
    }
    add(reg_tap, static_cast<int>(sizeof(int8_tap_row)));
    dec(reg_taps_left);
    jnz(next_row, T_NEAR);
    L(done);
}

template <cpu_isa isa>
Xbyak::Address ip_int8_kernel<isa>::src_at(int m, int u) const {
    if (conf_.row_split > 0 && m >= conf_.row_split)
        return ptr[reg_src2 + conf_.lda * (m - conf_.row_split) + 4 * u];
    return ptr[reg_src + conf_.lda * m + 4 * u];
}

template <cpu_isa isa>
void ip_int8_kernel<isa>::k_step(int u, int m0, int m1) {
    const int nr = static_cast<int>(conf_.nr);
    const int w0 = n_acc(), b0 = w0 + nr;
    const int64_t w_off = conf_.wei_k_step * u;
    if (conf_.vnni) {
        // Two broadcast registers, so consecutive rows do not wait for one.
        for (int j = 0; j < nr; ++j) vmovdqu32(Vmm(w0 + j), ptr[reg_wei + w_off + vlen * j]);
        for (int m = m0; m < m1; ++m) {
            const Vmm b(b0 + m % 2);
            vpbroadcastd(b, src_at(m, u));
            for (int j = 0; j < nr; ++j) vpdpbusd(acc(m, j), b, Vmm(w0 + j));
        }
        return;
    }
    // s8 pairs sign-extended to s16 by the load: simd_w pairs are 2·simd_w bytes.
    for (int j = 0; j < nr; ++j) vpmovsxbw(Vmm(w0 + j), ptr[reg_wei + w_off + vlen / 2 * j]);
    const Vmm b(b0);
    for (int m = m0; m < m1; ++m) {
        vpbroadcastd(b, src_at(m, u));
        for (int j = 0; j < nr; ++j) {
            const Vmm t(b0 + 1 + (m * nr + j) % 2);
            vpmaddwd(t, b, Vmm(w0 + j));
            vpaddd(acc(m, j), acc(m, j), t);
        }
    }
}

template <cpu_isa isa>
void ip_int8_kernel<isa>::depthwise_tap(int m0, int m1) {
    // Half a vector: the simd_w s16 weights before their widening to s32 lanes.
    using Half = typename std::conditional<isa == cpu_isa::avx512, Xbyak::Ymm, Xbyak::Xmm>::type;
    const int nr = static_cast<int>(conf_.nr);
    const int w0 = n_acc(), t0 = w0 + nr;
    // The weights: s8 -> s16 -> s32 lanes whose high half is 0.
    for (int j = 0; j < nr; ++j) {
        const Vmm w(w0 + j);
        vpmovsxbw(Half(w.getIdx()), ptr[reg_wei + simd_w * j]);
        vpmovzxwd(w, Half(w.getIdx()));
    }
    for (int m = m0; m < m1; ++m)
        for (int j = 0; j < nr; ++j) {
            const Vmm t(t0 + (m * nr + j) % 2);
            const Xbyak::Address src = ptr[reg_src + conf_.lda * m + simd_w * j];
            if (conf_.src_s8) vpmovsxbd(t, src);
            else vpmovzxbd(t, src);
            if (conf_.vnni) {
                vpdpwssd(acc(m, j), t, Vmm(w0 + j));
            } else {
                vpmaddwd(t, t, Vmm(w0 + j));
                vpaddd(acc(m, j), acc(m, j), t);
            }
        }
}

template <cpu_isa isa>
template <typename op_t>
void ip_int8_kernel<isa>::per_oc_step(size_t field, op_t op) {
    mov(reg_oc, ptr[reg_param + field]);
    for (int j = 0; j < conf_.nr; ++j)
        for (int m = 0; m < conf_.mr; ++m) op(acc(m, j), ptr[reg_oc + vlen * j]);
}

template <cpu_isa isa>
void ip_int8_kernel<isa>::finalize() {
    mov(reg_dst, ptr[reg_param + offsetof(ip_int8_args, dst)]);
    if constexpr (isa == cpu_isa::avx512) {
        if (conf_.tail) tail_mask<isa>(*this, conf_.tail, host_tail_opmask).prepare(reg_table, reg_tmp);
    }
    // The steps in the contract's order; vmulps then vaddps (no FMA), rounded as the reference,
    // unless folded (no chain): one FMA.
    if (conf_.with_comp)
        per_oc_step(offsetof(ip_int8_args, comp),
                    [this](const Vmm &a, const Xbyak::Address &x) { vpaddd(a, a, x); });
    for (int i = 0; i < n_acc(); ++i) vcvtdq2ps(Vmm(i), Vmm(i));
    if (conf_.folded) { // x · scale + shift, the scales in pre and the shifts in bias
        mov(reg_oc, ptr[reg_param + offsetof(ip_int8_args, pre)]);
        mov(reg_tmp, ptr[reg_param + offsetof(ip_int8_args, bias)]);
        const Vmm shift(n_acc()); // a weight register, free after the K loop
        for (int j = 0; j < conf_.nr; ++j) {
            vmovups(shift, ptr[reg_tmp + vlen * j]);
            for (int m = 0; m < conf_.mr; ++m) vfmadd132ps(acc(m, j), shift, ptr[reg_oc + vlen * j]);
        }
        return store_dst();
    }
    const auto mul = [this](const Vmm &a, const Xbyak::Address &x) { vmulps(a, a, x); };
    const auto add = [this](const Vmm &a, const Xbyak::Address &x) { vaddps(a, a, x); };
    if (conf_.with_pre) per_oc_step(offsetof(ip_int8_args, pre), mul);
    if (conf_.with_bias) per_oc_step(offsetof(ip_int8_args, bias), add);
    if (conf_.with_post) per_oc_step(offsetof(ip_int8_args, post), mul);

    if (chain_.len() > 0) {
        tile_chain_regs r;
        r.n_acc = n_acc();
        r.nr = static_cast<int>(conf_.nr);
        r.tail = conf_.tail;
        r.reg_table = reg_table;
        r.reg_tmp = reg_tmp;
        r.reg_op_values = reg_op_values;
        r.reg_param = reg_param;
        r.op_values_offset = offsetof(ip_int8_args, post_op);
        emit_tile_chain<isa>(*this, chain_, r, [this](const sum_args &s) { sum_dst_old(s); },
                             [this](const operand_args &o) { load_operand(o); }, operand_mask_);
    }

    if (conf_.with_dst_mul) {
        mov(reg_oc, ptr[reg_param + offsetof(ip_int8_args, dst_mul)]);
        const Vmm s(n_acc());
        vbroadcastss(s, ptr[reg_oc]);
        for (int i = 0; i < n_acc(); ++i) vmulps(Vmm(i), Vmm(i), s);
    }
    if (conf_.with_dst_zp) per_oc_step(offsetof(ip_int8_args, dst_zp), add);
    store_dst();
}

template <cpu_isa isa>
void ip_int8_kernel<isa>::load_as_f32(const Vmm &v, const Xbyak::Reg64 &base, int64_t disp, dt t,
                                      bool tail, int mask_idx, bool prepare_mask) {
    const int mask = isa == cpu_isa::avx512 ? host_tail_opmask : mask_idx;
    if (isa == cpu_isa::avx2 && tail && prepare_mask && (t == dt::f32 || t == dt::s32))
        tail_mask<isa>(*this, static_cast<int>(conf_.tail), mask).prepare(reg_table, reg_tmp);
    typed_vectors<isa>(*this, mask).load_f32(v, base + disp, t, lanes(tail));
}

// The injector's sum callback: acc += scale · (dst_old as the sum's type − zero point).
template <cpu_isa isa>
void ip_int8_kernel<isa>::sum_dst_old(const sum_args &s) {
    const int m = s.acc_idx / static_cast<int>(conf_.nr), j = s.acc_idx % static_cast<int>(conf_.nr);
    const post_ops::entry &e = chain_.entries()[s.entry];
    const dt t = e.dt == dt::undef ? dst_dt() : e.dt;
    const Vmm old(s.aux_idx);
    // AVX2: a mask goes to a spare other than aux_idx (spares are free between entries).
    const int spare = s.aux_idx == n_acc() ? n_acc() + 1 : n_acc();
    load_as_f32(old, reg_dst, dst_disp(m, j), t, is_tail_vec(j), spare, true);
    if (e.zero_point != 0)
        vsubps(old, old, table_at(reg_table, static_cast<float>(e.zero_point)));
    if (s.scale == 1.f)
        vaddps(Vmm(s.acc_idx), Vmm(s.acc_idx), old);
    else
        vfmadd231ps(Vmm(s.acc_idx), old, s.scale_vec);
}

// The injector's operand callback: the operand's values for one accumulator, converted to f32
// from the entry's type (binary entries: f32, s32, s8, u8; prelu: f32).
template <cpu_isa isa>
void ip_int8_kernel<isa>::load_operand(const operand_args &o) {
    using policy = post_ops::policy;
    const post_ops::entry &e = chain_.entries()[o.entry];
    const int m = o.acc_idx / static_cast<int>(conf_.nr), j = o.acc_idx % static_cast<int>(conf_.nr);
    const Vmm v(o.aux_idx);
    const dt t = impl::operand_type(e);
    const int64_t size = static_cast<int64_t>(data_type_size(t));
    if (o.first) mov(reg_op, ptr[reg_op_values + static_cast<int>(o.entry * sizeof(int64_t))]);
    const auto vector_at = [&](int64_t disp) {
        load_as_f32(v, reg_op, disp, t, is_tail_vec(j), operand_mask_, false);
    };
    // One value for every lane.
    const auto broadcast_at = [&](int64_t disp) {
        typed_vectors<isa>(*this, isa == cpu_isa::avx512 ? host_tail_opmask : operand_mask_)
                .broadcast_f32(v, reg_op + disp, t, reg_tmp);
    };
    switch (e.mask) {
    case policy::common: broadcast_at(0); break;
    case policy::per_oc: vector_at(simd_w * size * j); break;
    case policy::per_mb_spatial: broadcast_at(size * m); break;
    case policy::per_tensor: vector_at(conf_.ld_op * size * m + simd_w * size * j); break;
    default: throw error(status::runtime_error, "ip_int8_kernel: unknown operand access");
    }
}

template <cpu_isa isa>
void ip_int8_kernel<isa>::store_dst() {
    const dt t = dst_dt();
    // After the chain every register outside the accumulators is free again.
    const int tmp = n_acc(), mask_idx = n_acc() + 1;
    const int mask = isa == cpu_isa::avx512 ? host_tail_opmask : mask_idx;
    if (isa == cpu_isa::avx2 && conf_.tail && (t == dt::f32 || t == dt::s32))
        tail_mask<isa>(*this, static_cast<int>(conf_.tail), mask).prepare(reg_table, reg_tmp);
    typed_vectors<isa> io(*this, mask);
    if (t != dt::f32)
        for (int i = 0; i < n_acc(); ++i)
            io.to_int(Vmm(i), t, reg_table, isa == cpu_isa::avx512 ? injector_first_opmask : tmp);
    for (int m = 0; m < conf_.mr; ++m)
        for (int j = 0; j < conf_.nr; ++j)
            io.store(reg_dst + dst_disp(m, j), acc(m, j), t, lanes(is_tail_vec(j)), tmp);
}

template class ip_int8_kernel<cpu_isa::avx2>;
template class ip_int8_kernel<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
