// The JIT pooling kernel (pool_kernel.hpp).
#include <algorithm>
#include <climits>
#include <cstddef>
#include <limits>

#include "jit/gen/kernel_cache.hpp"
#include "common/post_op_operands.hpp"
#include "jit/inject/operand_access.hpp"
#include "jit/pool/pool_kernel.hpp"
#include "jit/gen/tail_mask.hpp"
#include "jit/gen/typed_vectors.hpp"

namespace prim {
namespace jit {

int64_t pool_kernel_conf::vectors(int simd_w) const {
    const int64_t padded = block > 0 ? (channels + block - 1) / block * block : channels;
    return (padded + simd_w - 1) / simd_w;
}

namespace {

// Accumulators per chunk of channel vectors: each has a tap register beside it, and the chain's
// spares must fit in what is left (every register but the accumulators is lent).
template <cpu_isa isa>
int chunk_of(int aux, int usable) {
    int u = isa == cpu_isa::avx512 ? 8 : 4;
    while (u > 1 && usable - u < std::max(u + 1, aux)) --u;
    return usable - u >= std::max(u + 1, aux) ? u : 0;
}

template <cpu_isa isa>
class pool_kernel : public jit_generator {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    using dt = memory::data_type;
    static constexpr int simd_w = isa_traits<isa>::simd_w;

    pool_kernel(const pool_kernel_conf &c, const post_ops &chain)
        : jit_generator(std::string("pool_") + isa_traits<isa>::name, isa_traits<isa>::vlen),
          c_(c), chain_(chain) {
        read_runtime_table(chain.has_runtime_params());
        tail_ = static_cast<int>(c_.channels % simd_w);
        // AVX2 keeps the tail mask in the last vector register.
        mask_idx_ = isa_traits<isa>::has_opmask ? host_tail_opmask : isa_traits<isa>::n_vregs - 1;
        usable_ = isa_traits<isa>::n_vregs - (!isa_traits<isa>::has_opmask && tail_ ? 1 : 0);
        chunk_ = chunk_of<isa>(post_ops_injector<isa>::aux_vecs_count(chain_), usable_);
    }

protected:
    void generate() override;

private:
    // Lanes of vector j holding real channels (0 .. simd_w).
    int valid(int64_t j) const {
        return static_cast<int>(std::clamp<int64_t>(c_.channels - j * simd_w, 0, simd_w));
    }
    // Channels-last tail: loads and stores masked. Blocked layouts read and write whole vectors
    // (their padding lanes exist) and zero the padding lanes before the store.
    bool masked_io(int64_t j) const { return c_.block == 0 && valid(j) < simd_w; }
    vector_lanes lanes(int64_t j) const {
        return masked_io(j) ? vector_lanes::first(tail_) : vector_lanes::all();
    }
    dt src_dt() const { return static_cast<dt>(c_.src_dt); }
    dt dst_dt() const { return static_cast<dt>(c_.dst_dt); }
    // Vector j's byte offset in a tensor of `size`-byte elements and channel blocks cblk apart.
    int64_t disp(int64_t j, int64_t cblk, int64_t size) const {
        const int64_t c0 = j * simd_w;
        return c_.block == 0 ? c0 * size : c0 / c_.block * cblk + c0 % c_.block * size;
    }
    int src_disp(int64_t j) const {
        return static_cast<int>(disp(j, c_.src_cblk, static_cast<int64_t>(data_type_size(src_dt()))));
    }
    int dst_disp(int64_t j) const {
        return static_cast<int>(disp(j, c_.dst_cblk, static_cast<int64_t>(data_type_size(dst_dt()))));
    }
    // v = vector j's lanes of type t at `at`, as f32.
    void load(const Vmm &v, const Xbyak::RegExp &at, dt t, int64_t j) {
        typed_vectors<isa>(*this, mask_idx_).load_f32(v, at, t, lanes(j));
    }
    void emit_chunk(int64_t j0, int n);
    void accumulate(const Vmm &acc, const Vmm &x);
    void load_operand(const operand_args &o);

    pool_kernel_conf c_;
    post_ops chain_;
    int tail_ = 0, mask_idx_ = 0, usable_ = 0, chunk_ = 0;
    int64_t j0_ = 0; // first vector of the chunk being emitted (for the callbacks)
    post_ops_injector<isa> *injector_ = nullptr;

    const Xbyak::Reg64 reg_param = abi_param(0), reg_values = Xbyak::util::rsi;
    const Xbyak::Reg64 reg_src = Xbyak::util::r8, reg_dst = Xbyak::util::r9;
    const Xbyak::Reg64 reg_px = Xbyak::util::r10, reg_table = Xbyak::util::r11;
    const Xbyak::Reg64 reg_tap[3] = {Xbyak::util::r12, Xbyak::util::r13, Xbyak::util::r14};
    const Xbyak::Reg64 reg_cnt[3] = {Xbyak::util::r15, Xbyak::util::rbx, Xbyak::util::rbp};
    const Xbyak::Reg64 reg_op = Xbyak::util::rax, reg_tmp = Xbyak::util::rdx;
};

// acc = max(acc, x) with a NaN in x carried into acc (vmaxps alone returns its second operand
// when either is NaN, which keeps acc's NaN but would drop x's), or acc += x.
template <cpu_isa isa>
void pool_kernel<isa>::accumulate(const Vmm &acc, const Vmm &x) {
    if (c_.avg) {
        vaddps(acc, acc, x);
        return;
    }
    vmaxps(acc, x, acc);
    if constexpr (isa == cpu_isa::avx512) {
        const Xbyak::Opmask k(injector_first_opmask); // the injector's, free outside compute()
        vcmpps(k, x, x, 3); // _CMP_UNORD_Q
        vmovups(acc | k, x);
    } else {
        vcmpps(x, x, x, 3); // all-ones (a NaN) where x is NaN
        vorps(acc, acc, x);
    }
}

template <cpu_isa isa>
void pool_kernel<isa>::emit_chunk(int64_t j0, int n) {
    j0_ = j0;
    for (int u = 0; u < n; ++u) {
        const Vmm acc(u);
        if (c_.avg) vxorps(acc, acc, acc);
        else vmovups(acc, table_at(reg_table, -std::numeric_limits<float>::infinity()));
    }
    // The window: d, h, w taps, each loop restarting from the enclosing one's position.
    Xbyak::Label loop[3];
    mov(reg_tap[0], reg_src);
    for (int sp = 0; sp < 3; ++sp) {
        if (sp > 0) mov(reg_tap[sp], reg_tap[sp - 1]);
        mov(reg_cnt[sp], ptr[reg_param + offsetof(pool_call_args, taps) + sp * sizeof(int64_t)]);
        L(loop[sp]);
    }
    for (int u = 0; u < n; ++u) {
        const Vmm x(chunk_ + u);
        load(x, reg_tap[2] + src_disp(j0 + u), src_dt(), j0 + u);
        accumulate(Vmm(u), x);
    }
    for (int sp = 2; sp >= 0; --sp) {
        add(reg_tap[sp], static_cast<int>(c_.tap_stride[sp]));
        dec(reg_cnt[sp]);
        jnz(loop[sp], T_NEAR);
    }
    if (c_.avg) {
        const Vmm div(chunk_);
        vbroadcastss(div, ptr[reg_param + offsetof(pool_call_args, divisor)]);
        for (int u = 0; u < n; ++u) vdivps(Vmm(u), Vmm(u), div);
    }
    injector_regs regs;
    for (int u = 0; u < n; ++u) regs.acc.push_back(u);
    for (int r = chunk_; r < usable_; ++r) regs.aux.push_back(r);
    regs.opmasks = post_ops_injector<isa>::opmasks();
    regs.reg_table = reg_table;
    injector_->compute(regs);
    // After the chain the tap registers are free: chunk_ is the store's spare.
    typed_vectors<isa> io(*this, mask_idx_);
    for (int u = 0; u < n; ++u) {
        const int64_t j = j0 + u;
        const Vmm acc(u);
        if (dst_dt() != dt::f32)
            io.to_int(acc, dst_dt(), reg_table, isa == cpu_isa::avx512 ? injector_first_opmask : chunk_);
        if (valid(j) == 0) {
            vxorps(acc, acc, acc);
        } else if (!masked_io(j) && valid(j) < simd_w) { // a block's padding lanes stay zero
            if constexpr (isa == cpu_isa::avx512) vmovups(acc | Xbyak::Opmask(mask_idx_) | T_z, acc);
            else vandps(acc, acc, Vmm(mask_idx_));
        }
        io.store(reg_dst + dst_disp(j), acc, dst_dt(), lanes(j), chunk_);
    }
}

// The injector's operand callback: pool_call_args::post_op holds each entry's value; a binary
// entry's values are of its data type (a per_tensor one has dst's size: creation checks it).
template <cpu_isa isa>
void pool_kernel<isa>::load_operand(const operand_args &o) {
    const Vmm v(o.aux_idx);
    const post_ops::entry &e = chain_.entries()[o.entry];
    const dt t = impl::operand_type(e);
    if (o.first) mov(reg_op, ptr[reg_values + static_cast<int>(o.entry * 2 * sizeof(int64_t))]);
    const int64_t j = j0_ + o.acc_idx;
    switch (e.mask) {
    case post_ops::policy::common:
    case post_ops::policy::per_mb_spatial:
        typed_vectors<isa>(*this, mask_idx_).broadcast_f32(v, reg_op, t, reg_tmp);
        break;
    case post_ops::policy::per_oc:
        load(v, reg_op + static_cast<int>(j * simd_w * static_cast<int64_t>(data_type_size(t))), t, j);
        break;
    default: load(v, reg_dst + reg_op + dst_disp(j), t, j); break; // per_tensor
    }
}

template <cpu_isa isa>
void pool_kernel<isa>::generate() {
    // A sum reads dst's old value as its type (dst's when undef), less its zero point.
    post_ops_injector<isa> injector(*this, chain_, [this](const sum_args &s) {
        const Vmm acc(s.acc_idx), old(s.aux_idx);
        const int64_t j = j0_ + s.acc_idx;
        const post_ops::entry &e = chain_.entries()[s.entry];
        load(old, reg_dst + dst_disp(j), e.dt == dt::undef ? dst_dt() : e.dt, j);
        if (e.zero_point != 0) vsubps(old, old, table_at(reg_table, static_cast<float>(e.zero_point)));
        if (s.scale == 1.f) vaddps(acc, acc, old);
        else vfmadd231ps(acc, old, s.scale_vec);
    }, [this](const operand_args &o) { load_operand(o); },
    [this](int entry, int acc) {
        return shared_operand_key(chain_.entries()[entry].mask, static_cast<int>(j0_) + acc, 0);
    });
    injector_ = &injector;

    preamble();
    load_table_address(reg_table, ptr[reg_param + offsetof(pool_call_args, table)]);
    if (tail_) tail_mask<isa>(*this, tail_, mask_idx_).prepare(reg_table, reg_tmp);
    mov(reg_src, ptr[reg_param + offsetof(pool_call_args, src)]);
    mov(reg_dst, ptr[reg_param + offsetof(pool_call_args, dst)]);
    mov(reg_px, ptr[reg_param + offsetof(pool_call_args, pixels)]);
    mov(reg_values, ptr[reg_param + offsetof(pool_call_args, post_op)]);

    const int64_t n_vecs = c_.vectors(simd_w);
    Xbyak::Label l_pixel, l_done;
    test(reg_px, reg_px);
    jle(l_done, T_NEAR);
    L(l_pixel);
    for (int64_t j0 = 0; j0 < n_vecs; j0 += chunk_)
        emit_chunk(j0, static_cast<int>(std::min<int64_t>(chunk_, n_vecs - j0)));
    add(reg_src, static_cast<int>(c_.src_px_step));
    add(reg_dst, static_cast<int>(c_.dst_px_step));
    for (int i = 0; i < chain_.len(); ++i) {
        if (chain_.entries()[i].mask != post_ops::policy::per_mb_spatial
                || (chain_.entries()[i].kind != post_ops::kind::binary
                    && chain_.entries()[i].kind != post_ops::kind::prelu))
            continue;
        const int at = static_cast<int>(i * 2 * sizeof(int64_t));
        mov(reg_tmp, ptr[reg_values + at + static_cast<int>(sizeof(int64_t))]);
        add(ptr[reg_values + at], reg_tmp);
    }
    dec(reg_px);
    jnz(l_pixel, T_NEAR);
    L(l_done);
    postamble();
    injector_ = nullptr;
}

template <cpu_isa isa>
std::string why_not_on(const pool_kernel_conf &c, int aux_vecs) {
    const int simd_w = isa_traits<isa>::simd_w;
    if (c.block > 0 && c.block % simd_w != 0)
        return "a channel block of " + std::to_string(c.block) + " is narrower than a vector";
    const int usable = isa_traits<isa>::n_vregs - (isa_traits<isa>::has_opmask ? 0 : 1);
    if (chunk_of<isa>(aux_vecs, usable) == 0) return "the chain's spare registers do not fit";
    // Displacements and steps are 32-bit immediates.
    const int64_t n = c.vectors(simd_w);
    int64_t largest = std::max({c.src_px_step, c.dst_px_step, c.tap_stride[0], c.tap_stride[1],
                                c.tap_stride[2], n * simd_w * int64_t(sizeof(float))}); // f32 widest
    if (c.block > 0) largest = std::max(largest, (n * simd_w / c.block) * std::max(c.src_cblk, c.dst_cblk));
    if (largest > INT32_MAX / 2) return "strides too large for 32-bit displacements";
    return "";
}

template <cpu_isa isa>
std::shared_ptr<const jit_generator> get_kernel(const pool_kernel_conf &conf, const post_ops &chain) {
    const std::string kind = std::string("pool_") + isa_traits<isa>::name;
    return kernel_cache::instance().get_or_create(kernel_key(kind.c_str(), conf, chain),
            [&] { return std::make_unique<pool_kernel<isa>>(conf, chain); });
}

} // namespace

std::string pool_kernel_why_not(cpu_isa isa, const pool_kernel_conf &conf, int aux_vecs) {
    return isa == cpu_isa::avx512 ? why_not_on<cpu_isa::avx512>(conf, aux_vecs)
                                  : why_not_on<cpu_isa::avx2>(conf, aux_vecs);
}

std::shared_ptr<const jit_generator> get_pool_kernel(cpu_isa isa, const pool_kernel_conf &conf,
                                                     const post_ops &chain) {
    return isa == cpu_isa::avx512 ? get_kernel<cpu_isa::avx512>(conf, chain)
                                  : get_kernel<cpu_isa::avx2>(conf, chain);
}

} // namespace jit
} // namespace prim
