// Code generation of the inner product's micro-kernel (see ip_gemm_kernel.hpp for the layout of
// the data and of the registers).
#include <vector>

#include "jit/ip/ip_gemm_kernel.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "jit/inject/operand_access.hpp"
#include "jit/gen/tail_mask.hpp"
#include "jit/inject/tile_chain.hpp"
#include "prim/error.hpp"

namespace prim {
namespace jit {

template <cpu_isa isa>
ip_gemm_kernel<isa>::ip_gemm_kernel(const ip_gemm_conf &conf, const post_ops &chain)
    : gemm_kernel_base(kernel_name(conf), vlen), conf_(conf), chain_(chain) {
    read_runtime_table(chain.has_runtime_params());
}

template <cpu_isa isa>
std::string ip_gemm_kernel<isa>::kernel_name(const ip_gemm_conf &conf) {
    std::string name = "ip_gemm_" + std::to_string(conf.mr) + "x" + std::to_string(conf.nr) + "_"
                       + isa_traits<isa>::name;
    if (conf.tail) name += "_tail" + std::to_string(conf.tail);
    return name;
}

template <cpu_isa isa>
std::string ip_gemm_kernel<isa>::cache_key(const ip_gemm_conf &conf, const post_ops &chain) {
    return kernel_key((std::string("ip_gemm_") + isa_traits<isa>::name).c_str(), conf, chain);
}

template <cpu_isa isa>
void ip_gemm_kernel<isa>::generate() {
    preamble();
    load_table_address(reg_table, ptr[reg_param + offsetof(ip_gemm_args, table)]);
    mov(reg_src, ptr[reg_param + offsetof(ip_gemm_args, src)]);
    mov(reg_wei, ptr[reg_param + offsetof(ip_gemm_args, wei)]);
    mov(reg_k, ptr[reg_param + offsetof(ip_gemm_args, k)]);
    mov(reg_partial, ptr[reg_param + offsetof(ip_gemm_args, partial)]);
    mov(reg_flags, ptr[reg_param + offsetof(ip_gemm_args, flags)]);

    // Start from zero, or from the sums of the earlier K blocks.
    Xbyak::Label from_partial, accumulate, to_partial, done;
    test(reg_flags, ip_load_partial);
    jnz(from_partial, T_NEAR);
    for (int i = 0; i < n_acc(); ++i) vxorps(Vmm(i), Vmm(i), Vmm(i));
    jmp(accumulate, T_NEAR);
    L(from_partial);
    for (int m = 0; m < conf_.mr; ++m)
        for (int j = 0; j < conf_.nr; ++j) vmovups(acc(m, j), partial_at(m, j));
    L(accumulate);

    k_loop(k_unroll, conf_.wei_k_step, [this](int u) { k_step(u); });

    test(reg_flags, ip_finalize);
    jz(to_partial, T_NEAR);
    finalize();
    jmp(done, T_NEAR);
    L(to_partial);
    for (int m = 0; m < conf_.mr; ++m)
        for (int j = 0; j < conf_.nr; ++j) vmovups(partial_at(m, j), acc(m, j));
    L(done);
    postamble();
}

template <cpu_isa isa>
void ip_gemm_kernel<isa>::k_step(int u) {
    const int w0 = n_acc();
    const int bcast = w0 + conf_.nr;
    // Two broadcast registers when they fit, so consecutive rows do not share one.
    const int n_bcast = bcast + 1 < isa_traits<isa>::n_vregs ? 2 : 1;
    for (int j = 0; j < conf_.nr; ++j) vmovups(Vmm(w0 + j), wei_at(j, u));
    for (int m = 0; m < conf_.mr; ++m) {
        const Vmm b(bcast + m % n_bcast);
        vbroadcastss(b, src_at(m, u));
        for (int j = 0; j < conf_.nr; ++j) vfmadd231ps(acc(m, j), Vmm(w0 + j), b);
    }
}

template <cpu_isa isa>
void ip_gemm_kernel<isa>::finalize() {
    mov(reg_dst, ptr[reg_param + offsetof(ip_gemm_args, dst)]);
    if (conf_.with_bias) {
        mov(reg_bias, ptr[reg_param + offsetof(ip_gemm_args, bias)]);
        add_bias();
    }
    if constexpr (isa == cpu_isa::avx512) {
        if (conf_.tail) tail_mask<isa>(*this, conf_.tail, host_tail_opmask).prepare(reg_table, reg_tmp);
    }
    if (chain_.len() > 0) {
        tile_chain_regs r;
        r.n_acc = n_acc();
        r.nr = static_cast<int>(conf_.nr);
        r.tail = conf_.tail;
        r.reg_table = reg_table;
        r.reg_tmp = reg_tmp;
        r.reg_op_values = reg_op_values;
        r.reg_param = reg_param;
        r.op_values_offset = offsetof(ip_gemm_args, post_op);
        emit_tile_chain<isa>(
                *this, chain_, r,
                [this](const sum_args &s) { sum_dst_old(s.acc_idx, s.aux_idx, s.scale, s.scale_vec); },
                [this](const operand_args &o) { load_operand(o); }, operand_mask_);
    }
    store_dst();
}

template <cpu_isa isa>
void ip_gemm_kernel<isa>::add_bias() {
    // After the FMAs the weight and broadcast registers are free: one holds the bias vector,
    // on AVX2 the next one holds the tail mask.
    const Vmm b(n_acc());
    for (int j = 0; j < conf_.nr; ++j) {
        const Xbyak::Address at = ptr[reg_bias + vlen * j];
        if (is_tail_vec(j)) {
            const int mask_idx = isa == cpu_isa::avx512 ? host_tail_opmask : n_acc() + 1;
            tail_mask<isa> mask(*this, conf_.tail, mask_idx);
            mask.prepare(reg_table, reg_tmp);
            mask.load(b, at);
        } else {
            vmovups(b, at);
        }
        for (int m = 0; m < conf_.mr; ++m) vaddps(acc(m, j), acc(m, j), b);
    }
}

// The injector's sum callback: acc += scale * dst_old, dst_old read with the store's mask.
template <cpu_isa isa>
void ip_gemm_kernel<isa>::sum_dst_old(int acc_idx, int aux_idx, float scale,
                                      const Xbyak::Address &scale_vec) {
    const int m = acc_idx / conf_.nr, j = acc_idx % conf_.nr;
    const Vmm old(aux_idx);
    if (is_tail_vec(j)) {
        // AVX2: the mask goes to a spare other than aux_idx; spares are free between entries,
        // so it is reloaded here rather than kept live across the chain.
        int mask_idx = host_tail_opmask;
        if constexpr (isa == cpu_isa::avx2) mask_idx = aux_idx == n_acc() ? n_acc() + 1 : n_acc();
        tail_mask<isa> mask(*this, conf_.tail, mask_idx);
        if constexpr (isa == cpu_isa::avx2) mask.prepare(reg_table, reg_tmp);
        mask.load(old, dst_at(m, j));
    } else {
        vmovups(old, dst_at(m, j));
    }
    if (scale == 1.f)
        vaddps(Vmm(acc_idx), Vmm(acc_idx), old);
    else
        vfmadd231ps(Vmm(acc_idx), old, scale_vec);
}

// The injector's operand callback (ip_gemm_args::post_op says what each value is).
template <cpu_isa isa>
void ip_gemm_kernel<isa>::load_operand(const operand_args &o) {
    using policy = post_ops::policy;
    const int m = o.acc_idx / static_cast<int>(conf_.nr), j = o.acc_idx % static_cast<int>(conf_.nr);
    const Vmm v(o.aux_idx);
    if (o.first) mov(reg_op, ptr[reg_op_values + static_cast<int>(o.entry * sizeof(int64_t))]);
    const auto load = [&](const Xbyak::Address &a) {
        if (!is_tail_vec(j)) return vmovups(v, a);
        tail_mask<isa>(*this, conf_.tail, isa == cpu_isa::avx512 ? host_tail_opmask : operand_mask_)
                .load(v, a);
    };
    switch (chain_.entries()[o.entry].mask) {
    case policy::common: vbroadcastss(v, ptr[reg_op]); break;
    case policy::per_oc: load(ptr[reg_op + vlen * j]); break;
    case policy::per_mb_spatial: vbroadcastss(v, ptr[reg_op + 4 * m]); break;
    case policy::per_tensor: load(ptr[reg_dst + reg_op + conf_.ldc * m + vlen * j]); break;
    default: throw error(status::runtime_error, "ip_gemm_kernel: unknown operand access");
    }
}

template <cpu_isa isa>
void ip_gemm_kernel<isa>::store_dst() {
    const int mask_idx = isa == cpu_isa::avx512 ? host_tail_opmask : n_acc();
    tail_mask<isa> mask(*this, conf_.tail ? conf_.tail : simd_w, mask_idx);
    if (isa == cpu_isa::avx2 && conf_.tail) mask.prepare(reg_table, reg_tmp);
    for (int m = 0; m < conf_.mr; ++m)
        for (int j = 0; j < conf_.nr; ++j) {
            if (is_tail_vec(j))
                mask.store(dst_at(m, j), acc(m, j));
            else
                vmovups(dst_at(m, j), acc(m, j));
        }
}

template class ip_gemm_kernel<cpu_isa::avx2>;
template class ip_gemm_kernel<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
