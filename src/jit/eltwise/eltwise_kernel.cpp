// The JIT eltwise kernel (see eltwise_kernel.hpp).
#include <algorithm>
#include <cstddef>

#include "jit/eltwise/eltwise_kernel.hpp"
#include "common/post_op_operands.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "jit/inject/operand_access.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "jit/gen/tail_mask.hpp"
#include "jit/gen/typed_vectors.hpp"

namespace prim {
namespace jit {

template <cpu_isa isa>
eltwise_kernel<isa>::eltwise_kernel(const eltwise_kernel_conf &conf, const post_ops &chain)
    : jit_generator(std::string("eltwise_") + isa_traits<isa>::name, isa_traits<isa>::vlen)
    , conf_(conf), chain_(chain) {
    using namespace Xbyak::util;
    read_runtime_table(chain.has_runtime_params());
    reg_param = abi_param(0);
    reg_i = r8;
    reg_n = r10;
    reg_table = r11;
    reg_tmp = rax;
    reg_rows = r12;
    reg_src_row = r13;
    reg_dst_row = r14;
    reg_values = r15;
    reg_op = rbx;
    for (int i = 0; i < chain_.len() && first_operand_entry_ < 0; ++i)
        if (impl::has_operand(chain_.entries()[i])) first_operand_entry_ = i;
    n_aux_ = post_ops_injector<isa>::aux_vecs_count(chain_);
    // Vector registers: accumulators 0..unroll-1, then the spares, then (AVX2) the tail mask.
    // Every register outside the accumulators is lent, so that the injector can interleave two
    // or more vectors' code: the unroll (at most 8) leaves room for two sets of the chain's
    // spares when at least 4 vectors remain (AVX2: gelu_erf runs 7 vectors with 8 spares), else
    // for one set. On AVX-512 it stays 8, with 24 spares.
    const int mask_vecs = isa_traits<isa>::has_opmask ? 0 : 1;
    const int free_vecs = isa_traits<isa>::n_vregs - mask_vecs;
    unroll_ = std::min(8, free_vecs - 2 * n_aux_ >= 4 ? free_vecs - 2 * n_aux_ : free_vecs - n_aux_);
    n_aux_ = free_vecs - unroll_;
    tail_mask_idx_ = isa_traits<isa>::has_opmask ? host_tail_opmask : isa_traits<isa>::n_vregs - 1;
}

template <cpu_isa isa>
void eltwise_kernel<isa>::process_block(int n_vecs, bool tail) {
    tail_block_ = tail;
    typed_vectors<isa> io(*this, tail_mask_idx_);
    for (int j = 0; j < n_vecs; ++j) {
        io.load_f32(Vmm(j), at(reg_src_row, src_dt(), j), src_dt(), lanes());
        if (conf_.scale_src) vmulps(Vmm(j), Vmm(j), ptr[reg_param + offsetof(eltwise_call_args, src_scale)]);
    }
    injector_regs regs;
    for (int j = 0; j < n_vecs; ++j) regs.acc.push_back(j);
    for (int j = 0; j < n_aux_; ++j) regs.aux.push_back(unroll_ + j);
    regs.opmasks = post_ops_injector<isa>::opmasks();
    regs.reg_table = reg_table;
    injector_->compute(regs);
    // After the chain the spares and the injector's opmasks are free again.
    const int tmp_vec = unroll_;
    for (int j = 0; j < n_vecs; ++j) {
        if (dst_dt() != memory::data_type::f32)
            io.to_int(Vmm(j), dst_dt(), reg_table, isa_traits<isa>::has_opmask ? injector_first_opmask : tmp_vec);
        io.store(at(reg_dst_row, dst_dt(), j), Vmm(j), dst_dt(), lanes(), tmp_vec, conf_.stream_stores);
    }
}

// The injector's sum callback: acc += scale · (dst's old value as the sum's type − zero point),
// read with the lanes the store writes.
template <cpu_isa isa>
void eltwise_kernel<isa>::sum_dst_old(const sum_args &s) {
    const post_ops::entry &e = chain_.entries()[s.entry];
    const memory::data_type t = e.dt == memory::data_type::undef ? dst_dt() : e.dt;
    const Vmm acc(s.acc_idx), old(s.aux_idx);
    typed_vectors<isa>(*this, tail_mask_idx_).load_f32(old, at(reg_dst_row, dst_dt(), s.acc_idx), t, lanes());
    if (e.zero_point != 0) vsubps(old, old, table_at(reg_table, static_cast<float>(e.zero_point)));
    if (s.scale == 1.f)
        vaddps(acc, acc, old);
    else
        vfmadd231ps(acc, old, s.scale_vec);
}

// The injector's operand callback: eltwise_call_args::post_op holds the operand's row address;
// a binary entry's values are of its data type, prelu's are f32.
template <cpu_isa isa>
void eltwise_kernel<isa>::load_operand(const operand_args &o) {
    const post_ops::entry &e = chain_.entries()[o.entry];
    const memory::data_type t = impl::operand_type(e);
    const Vmm v(o.aux_idx);
    typed_vectors<isa> io(*this, tail_mask_idx_);
    if (o.first) mov(reg_op, ptr[reg_values + static_cast<int>(o.entry * 2 * sizeof(int64_t))]);
    switch (e.mask) {
    case post_ops::policy::common: io.broadcast_f32(v, reg_op, t, reg_tmp); break;
    // The one vector every vector of the row reads.
    case post_ops::policy::per_oc: io.load_f32(v, reg_op, t, lanes()); break;
    default: io.load_f32(v, at(reg_op, t, o.acc_idx), t, lanes()); break; // per_tensor
    }
    if (conf_.scale_first_operand && o.entry == first_operand_entry_)
        vmulps(v, v, ptr[reg_param + offsetof(eltwise_call_args, first_operand_scale)]);
}

template <cpu_isa isa>
void eltwise_kernel<isa>::emit_row() {
    constexpr int simd_w = isa_traits<isa>::simd_w;
    Xbyak::Label l_block, l_single, l_tail, l_end;
    xor_(reg_i, reg_i);
    mov(reg_n, ptr[reg_param + offsetof(eltwise_call_args, row_len)]);
    L(l_block);
    cmp(reg_n, unroll_ * simd_w);
    jl(l_single, T_NEAR);
    process_block(unroll_, false);
    add(reg_i, unroll_ * simd_w);
    sub(reg_n, unroll_ * simd_w);
    jmp(l_block, T_NEAR);

    L(l_single);
    cmp(reg_n, simd_w);
    jl(l_tail, T_NEAR);
    process_block(1, false);
    add(reg_i, simd_w);
    sub(reg_n, simd_w);
    jmp(l_single, T_NEAR);

    L(l_tail);
    test(reg_n, reg_n);
    jle(l_end, T_NEAR);
    tail_mask<isa>(*this, 0, tail_mask_idx_).prepare_runtime(reg_table, reg_n, reg_tmp);
    process_block(1, true);
    L(l_end);
}

template <cpu_isa isa>
void eltwise_kernel<isa>::generate() {
    post_ops_injector<isa> injector(*this, chain_, [this](const sum_args &s) { sum_dst_old(s); },
    [this](const operand_args &o) { load_operand(o); },
    [this](int entry, int) { return shared_operand_key(chain_.entries()[entry].mask, 0, -1); });
    injector_ = &injector;

    preamble();
    load_table_address(reg_table, ptr[reg_param + offsetof(eltwise_call_args, table)]);
    mov(reg_src_row, ptr[reg_param + offsetof(eltwise_call_args, src)]);
    mov(reg_dst_row, ptr[reg_param + offsetof(eltwise_call_args, dst)]);
    mov(reg_rows, ptr[reg_param + offsetof(eltwise_call_args, rows)]);
    mov(reg_values, ptr[reg_param + offsetof(eltwise_call_args, post_op)]);

    Xbyak::Label l_row, l_done;
    L(l_row);
    test(reg_rows, reg_rows);
    jle(l_done, T_NEAR);
    emit_row();
    // Next row: src and dst move by the row's bytes, each operand's row address by its step.
    mov(reg_tmp, ptr[reg_param + offsetof(eltwise_call_args, row_len)]);
    lea(reg_src_row, ptr[reg_src_row + reg_tmp * static_cast<int>(data_type_size(src_dt()))]);
    lea(reg_dst_row, ptr[reg_dst_row + reg_tmp * static_cast<int>(data_type_size(dst_dt()))]);
    for (int i = 0; i < chain_.len(); ++i) {
        if (chain_.entries()[i].kind != post_ops::kind::binary
                && chain_.entries()[i].kind != post_ops::kind::prelu)
            continue;
        const int at = static_cast<int>(i * 2 * sizeof(int64_t));
        mov(reg_tmp, ptr[reg_values + at + static_cast<int>(sizeof(int64_t))]);
        add(ptr[reg_values + at], reg_tmp);
    }
    dec(reg_rows);
    jmp(l_row, T_NEAR);
    L(l_done);
    if (conf_.stream_stores) sfence();
    postamble();
    injector_ = nullptr;
}

template <cpu_isa isa>
std::string eltwise_kernel<isa>::cache_key(const eltwise_kernel_conf &conf, const post_ops &chain) {
    return kernel_key((std::string("eltwise_") + isa_traits<isa>::name).c_str(), conf, chain);
}

template class eltwise_kernel<cpu_isa::avx2>;
template class eltwise_kernel<cpu_isa::avx512>;

namespace {
template <cpu_isa isa>
std::shared_ptr<const jit_generator> get_kernel(const eltwise_kernel_conf &conf, const post_ops &chain) {
    return kernel_cache::instance().get_or_create(eltwise_kernel<isa>::cache_key(conf, chain),
            [&] { return std::make_unique<eltwise_kernel<isa>>(conf, chain); });
}
} // namespace

std::shared_ptr<const jit_generator> get_eltwise_kernel(cpu_isa isa, const eltwise_kernel_conf &conf,
                                                        const post_ops &chain) {
    return isa == cpu_isa::avx512 ? get_kernel<cpu_isa::avx512>(conf, chain)
                                  : get_kernel<cpu_isa::avx2>(conf, chain);
}

} // namespace jit
} // namespace prim
