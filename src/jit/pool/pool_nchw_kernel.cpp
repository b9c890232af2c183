// The JIT pooling kernel on plain layouts (pool_nchw_kernel.hpp).
#include <algorithm>
#include <climits>
#include <cstddef>
#include <limits>
#include <vector>

#include "jit/gen/kernel_cache.hpp"
#include "jit/pool/pool_kernel.hpp"
#include "jit/pool/pool_nchw_kernel.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "jit/gen/tail_mask.hpp"

namespace prim {
namespace jit {

namespace {

// True for the entries whose operand varies along ow (read as vectors, moved with the pixels).
bool along_ow(const post_ops::entry &e) {
    return (e.kind == post_ops::kind::binary || e.kind == post_ops::kind::prelu)
           && (e.mask == post_ops::policy::per_mb_spatial || e.mask == post_ops::policy::per_tensor);
}

template <cpu_isa isa>
struct nchw_regs {
    // AVX2: accumulators 0..3, their taps 4..7; the gather index, the gather's working mask and
    // the tail mask at the top. AVX-512: 8 accumulators, taps 8..15, the gather index in zmm31;
    // the gather's working mask is k2 (the injector's, free outside its compute()). Stride 2
    // reads a second vector per tap into zmm16 + u (AVX-512, a spare until the chain runs) or
    // the gather's mask register (AVX2).
    static constexpr bool avx512 = isa == cpu_isa::avx512;
    static constexpr int unroll = avx512 ? 8 : 4;
    static constexpr int idx = avx512 ? 31 : 13;
    static constexpr int gather_mask = avx512 ? 2 : 14;
    static constexpr int tail = avx512 ? host_tail_opmask : 15;
    static constexpr int spares_end = avx512 ? 31 : 13; // spares: unroll .. spares_end - 1
    // Stride 2 (AVX-512): the second load's mask, simd_w - 1 lanes (the injector's k3, free
    // outside its compute()). The even-lane index or, AVX2, that mask sits in idx.
    static constexpr int pair_mask = 3;
};

template <cpu_isa isa>
class pool_nchw_kernel : public jit_generator {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    using R = nchw_regs<isa>;
    static constexpr int simd_w = isa_traits<isa>::simd_w;
    static constexpr int fsz = sizeof(float);

    pool_nchw_kernel(const pool_nchw_kernel_conf &c, const post_ops &chain)
        : jit_generator(std::string("pool_nchw_") + isa_traits<isa>::name, isa_traits<isa>::vlen),
          c_(c), chain_(chain) {
        read_runtime_table(chain.has_runtime_params());
    }

protected:
    void generate() override;

private:
    void load(const Vmm &v, const Xbyak::Address &a) {
        if (tail_) tail_mask<isa>(*this, 0, R::tail).load(v, a);
        else vmovups(v, a);
    }
    // Vector u's taps at the current tap position: contiguous (stride 1), the even lanes of two
    // vectors (stride 2, whole vectors), or gathered sw apart.
    void load_taps(const Vmm &x, int u) {
        const int disp = static_cast<int>(u * simd_w * c_.sw * fsz);
        if (c_.sw == 1) {
            load(x, ptr[reg_tap[2] + disp]);
            return;
        }
        if (c_.sw == 2 && !tail_) {
            load_even_lanes(x, u, disp);
            return;
        }
        if constexpr (isa == cpu_isa::avx512) {
            const Xbyak::Opmask k(R::gather_mask);
            if (tail_) kmovw(k, Xbyak::Opmask(R::tail));
            else kxnorw(k, k, k);
            vgatherdps(x | k, ptr[reg_tap[2] + Vmm(R::idx) + disp]);
        } else {
            const Vmm m(R::gather_mask);
            if (tail_) vmovups(m, Vmm(R::tail));
            else vpcmpeqd(m, m, m);
            vgatherdps(x, ptr[reg_tap[2] + Vmm(R::idx) + disp], m);
        }
    }
    // The 2 * simd_w - 1 elements from disp (the last one of two vectors is never needed, so
    // the second load is masked and never reads past the last tap), their even lanes into x.
    void load_even_lanes(const Vmm &x, int u, int disp) {
        const Xbyak::Address first = ptr[reg_tap[2] + disp];
        const Xbyak::Address second = ptr[reg_tap[2] + disp + simd_w * fsz];
        if constexpr (isa == cpu_isa::avx512) {
            const Vmm b(16 + u); // a spare: the injector borrows it only after the taps
            vmovups(x, first);
            vmovups(b | Xbyak::Opmask(R::pair_mask) | T_z, second);
            vpermt2ps(x, Vmm(R::idx), b);
        } else {
            const Vmm b(R::gather_mask);
            vmovups(x, first);
            vmaskmovps(b, Vmm(R::idx), second);
            vshufps(x, x, b, 0x88);  // per 128-bit lane: x0 x2 b0 b2 | x4 x6 b4 b6
            vpermpd(x, x, 0xd8);     // x0 x2 x4 x6 b0 b2 b4 b6
        }
    }
    // Before the taps of a block (stride 2): the second load's mask, simd_w - 1 lanes.
    void prepare_pair_mask() {
        if constexpr (isa == cpu_isa::avx512) {
            mov(reg_tmp.cvt32(), (1u << (simd_w - 1)) - 1u);
            kmovw(Xbyak::Opmask(R::pair_mask), reg_tmp.cvt32());
        }
    }
    void accumulate(const Vmm &acc, const Vmm &x) {
        if (c_.avg) {
            vaddps(acc, acc, x);
            return;
        }
        vmaxps(acc, x, acc); // keeps acc's NaN; x's is carried below
        if constexpr (isa == cpu_isa::avx512) {
            const Xbyak::Opmask k(R::gather_mask);
            vcmpps(k, x, x, 3); // _CMP_UNORD_Q
            vmovups(acc | k, x);
        } else {
            vcmpps(x, x, x, 3);
            vorps(acc, acc, x);
        }
    }
    void process(int n, bool tail);
    // The along-ow operands move past the reg_px pixels of a tail (reg_px is clobbered).
    void operands_past_tail() {
        shl(reg_px, 2);
        for (int i = 0; i < chain_.len(); ++i)
            if (along_ow(chain_.entries()[i]))
                add(qword[reg_values + static_cast<int>(i * 2 * sizeof(int64_t))], reg_px);
    }
    // Global pooling: the channel's whole plane, contiguous, reduced into lane 0 of acc 0, then
    // the chain and a one-lane store.
    void emit_plane();
    // One channel's row of pixels: blocks of vectors, single vectors, a masked tail (which
    // jumps to l_end when there is none).
    void walk_row(Xbyak::Label &l_end);
    // acc's lanes reduced into its lane 0 (max keeping NaN, or sum).
    void reduce_lanes(int acc);
    // Vmm(idx) for the block to come: the gather's byte offsets (any stride but 1; with stride 2
    // only the tail gathers), or with stride 2 the even-lane selection (AVX-512: indices 0, 2,
    // ..., 30 of two vectors; AVX2: the second load's mask of simd_w - 1 lanes).
    void load_gather_index() {
        std::vector<uint32_t> row(simd_w);
        for (int l = 0; l < simd_w; ++l) row[l] = static_cast<uint32_t>(l * c_.sw * fsz);
        vmovups(Vmm(R::idx), ptr[reg_table + table().offset_of_row(row)]);
    }
    void load_pair_index() {
        std::vector<uint32_t> row(simd_w);
        for (int l = 0; l < simd_w; ++l)
            row[l] = isa == cpu_isa::avx512 ? static_cast<uint32_t>(2 * l)
                                            : (l < simd_w - 1 ? 0xffffffffu : 0u);
        vmovups(Vmm(R::idx), ptr[reg_table + table().offset_of_row(row)]);
    }
    void advance(int pixels);

    pool_nchw_kernel_conf c_;
    post_ops chain_;
    bool tail_ = false;
    post_ops_injector<isa> *injector_ = nullptr;

    const Xbyak::Reg64 reg_param = abi_param(0), reg_values = Xbyak::util::rsi;
    const Xbyak::Reg64 reg_src = Xbyak::util::r8, reg_dst = Xbyak::util::r9;
    const Xbyak::Reg64 reg_px = Xbyak::util::r10, reg_table = Xbyak::util::r11;
    const Xbyak::Reg64 reg_tap[3] = {Xbyak::util::r12, Xbyak::util::r13, Xbyak::util::r14};
    const Xbyak::Reg64 reg_cnt[3] = {Xbyak::util::r15, Xbyak::util::rbx, Xbyak::util::rbp};
    const Xbyak::Reg64 reg_op = Xbyak::util::rax, reg_tmp = Xbyak::util::rdx;
    const Xbyak::Reg64 reg_channels = Xbyak::util::rcx;
    // The current channel's src and dst rows live on the stack: no general register is left.
    static constexpr int src_row_slot = 0, dst_row_slot = 8, stack_bytes = 16;
};

// n vectors of pixels from reg_src / reg_dst; the last one masked when tail.
template <cpu_isa isa>
void pool_nchw_kernel<isa>::process(int n, bool tail) {
    tail_ = tail;
    if (c_.sw == 2) {
        if (tail) load_gather_index();
        else {
            load_pair_index();
            prepare_pair_mask();
        }
    }
    for (int u = 0; u < n; ++u) {
        const Vmm acc(u);
        if (c_.avg) vxorps(acc, acc, acc);
        else vmovups(acc, table_at(reg_table, -std::numeric_limits<float>::infinity()));
    }
    Xbyak::Label loop[3];
    mov(reg_tap[0], reg_src);
    for (int sp = 0; sp < 3; ++sp) {
        if (sp > 0) mov(reg_tap[sp], reg_tap[sp - 1]);
        mov(reg_cnt[sp], ptr[reg_param + offsetof(pool_call_args, taps) + sp * sizeof(int64_t)]);
        L(loop[sp]);
    }
    for (int u = 0; u < n; ++u) {
        const Vmm x(R::unroll + u);
        load_taps(x, u);
        accumulate(Vmm(u), x);
    }
    for (int sp = 2; sp >= 0; --sp) {
        add(reg_tap[sp], static_cast<int>(c_.tap_stride[sp]));
        dec(reg_cnt[sp]);
        jnz(loop[sp], T_NEAR);
    }
    if (c_.avg) {
        const Vmm div(R::unroll);
        vbroadcastss(div, ptr[reg_param + offsetof(pool_call_args, divisor)]);
        for (int u = 0; u < n; ++u) vdivps(Vmm(u), Vmm(u), div);
    }
    injector_regs regs;
    for (int u = 0; u < n; ++u) regs.acc.push_back(u);
    for (int r = R::unroll; r < R::spares_end; ++r)
        if (isa == cpu_isa::avx512 || (r != R::gather_mask && r != R::idx)) regs.aux.push_back(r);
    regs.opmasks = post_ops_injector<isa>::opmasks();
    regs.reg_table = reg_table;
    injector_->compute(regs);
    for (int u = 0; u < n; ++u) {
        const Xbyak::Address at = ptr[reg_dst + u * simd_w * fsz];
        if (tail) tail_mask<isa>(*this, 0, R::tail).store(at, Vmm(u));
        else vmovups(at, Vmm(u));
    }
}

template <cpu_isa isa>
void pool_nchw_kernel<isa>::emit_plane() {
    constexpr int n = R::unroll;
    const float neutral = c_.avg ? 0.f : -std::numeric_limits<float>::infinity();
    for (int u = 0; u < n; ++u) vmovups(Vmm(u), table_at(reg_table, neutral));
    tail_ = false;
    const int64_t per_block = n * simd_w, blocks = c_.plane / per_block;
    if (blocks > 0) {
        Xbyak::Label l_block;
        mov(reg_cnt[0], blocks);
        L(l_block);
        for (int u = 0; u < n; ++u) {
            vmovups(Vmm(n + u), ptr[reg_src + u * simd_w * fsz]);
            accumulate(Vmm(u), Vmm(n + u));
        }
        add(reg_src, static_cast<int>(per_block * fsz));
        dec(reg_cnt[0]);
        jnz(l_block, T_NEAR);
    }
    const int64_t rest = c_.plane % per_block;
    for (int64_t v = 0; v < rest / simd_w; ++v) {
        vmovups(Vmm(n), ptr[reg_src + static_cast<int>(v * simd_w * fsz)]);
        accumulate(Vmm(static_cast<int>(v % n)), Vmm(n));
    }
    if (const int t = static_cast<int>(rest % simd_w)) {
        // The last elements, the other lanes the neutral value.
        const Xbyak::Address at = ptr[reg_src + static_cast<int>(rest / simd_w * simd_w * fsz)];
        const Vmm x(n);
        vmovups(x, table_at(reg_table, neutral));
        if constexpr (isa == cpu_isa::avx512) {
            const Xbyak::Opmask k(R::pair_mask);
            mov(reg_tmp.cvt32(), (1u << t) - 1u);
            kmovw(k, reg_tmp.cvt32());
            vmovups(x | k, at);
        } else {
            tail_mask<isa>(*this, t, R::idx).prepare(reg_table, reg_tmp);
            vmaskmovps(Vmm(R::gather_mask), Vmm(R::idx), at);
            vblendvps(x, x, Vmm(R::gather_mask), Vmm(R::idx));
        }
        accumulate(Vmm(0), x);
    }
    for (int u = 1; u < n; ++u) accumulate(Vmm(0), Vmm(u));
    reduce_lanes(0);
    if (c_.avg) {
        const Vmm div(n);
        vbroadcastss(div, ptr[reg_param + offsetof(pool_call_args, divisor)]);
        vdivps(Vmm(0), Vmm(0), div);
    }
    tail_ = true; // one lane: R::tail holds a one-lane mask in this mode
    injector_regs regs;
    regs.acc.push_back(0);
    for (int r = 1; r < R::spares_end; ++r)
        if (isa == cpu_isa::avx512 || (r != R::gather_mask && r != R::idx)) regs.aux.push_back(r);
    regs.opmasks = post_ops_injector<isa>::opmasks();
    regs.reg_table = reg_table;
    injector_->compute(regs);
    tail_mask<isa>(*this, 1, R::tail).store(ptr[reg_dst], Vmm(0));
}

template <cpu_isa isa>
void pool_nchw_kernel<isa>::reduce_lanes(int acc) {
    // Halve the width until one lane is left; each step combines two halves as accumulate()
    // does (x is clobbered on AVX2, so it gets a copy).
    const Xbyak::Ymm y(acc), ty(R::unroll);
    const Xbyak::Xmm x(acc), tx(R::unroll);
    const auto combine = [&](const Xbyak::Xmm &a, const Xbyak::Xmm &b) {
        if (c_.avg) {
            vaddps(a, a, b);
            return;
        }
        vmaxps(a, b, a);
        vcmpps(b, b, b, 3); // VEX-encoded on both ISAs: all-ones where b is NaN
        vorps(a, a, b);
    };
    if constexpr (isa == cpu_isa::avx512) {
        vextractf32x8(ty, Xbyak::Zmm(acc), 1);
        combine(y, ty);
    }
    vextractf128(tx, y, 1);
    combine(x, tx);
    vpermilps(tx, x, 0x4e); // lanes 2 3 0 1
    combine(x, tx);
    vpermilps(tx, x, 0xb1); // lanes 1 0 3 2
    combine(x, tx);
}

// Past `pixels` pixels: src, dst and the operands read along ow.
template <cpu_isa isa>
void pool_nchw_kernel<isa>::advance(int pixels) {
    add(reg_src, static_cast<int>(pixels * c_.sw * fsz));
    add(reg_dst, pixels * fsz);
    for (int i = 0; i < chain_.len(); ++i)
        if (along_ow(chain_.entries()[i]))
            add(qword[reg_values + static_cast<int>(i * 2 * sizeof(int64_t))], pixels * fsz);
}

template <cpu_isa isa>
void pool_nchw_kernel<isa>::walk_row(Xbyak::Label &l_end) {
    Xbyak::Label l_block, l_single, l_tail;
    L(l_block);
    cmp(reg_px, R::unroll * simd_w);
    jl(l_single, T_NEAR);
    process(R::unroll, false);
    advance(R::unroll * simd_w);
    sub(reg_px, R::unroll * simd_w);
    jmp(l_block, T_NEAR);
    L(l_single);
    cmp(reg_px, simd_w);
    jl(l_tail, T_NEAR);
    process(1, false);
    advance(simd_w);
    sub(reg_px, simd_w);
    jmp(l_single, T_NEAR);
    L(l_tail);
    test(reg_px, reg_px);
    jle(l_end, T_NEAR);
    tail_mask<isa>(*this, 0, R::tail).prepare_runtime(reg_table, reg_px, reg_tmp);
    process(1, true);
    operands_past_tail();
}

template <cpu_isa isa>
void pool_nchw_kernel<isa>::generate() {
    post_ops_injector<isa> injector(*this, chain_, [this](const sum_args &s) {
        const Vmm acc(s.acc_idx), old(s.aux_idx);
        load(old, ptr[reg_dst + s.acc_idx * simd_w * fsz]);
        if (s.scale == 1.f) vaddps(acc, acc, old);
        else vfmadd231ps(acc, old, s.scale_vec);
    }, [this](const operand_args &o) {
        const Vmm v(o.aux_idx);
        if (o.first) mov(reg_op, ptr[reg_values + static_cast<int>(o.entry * 2 * sizeof(int64_t))]);
        if (along_ow(chain_.entries()[o.entry])) load(v, ptr[reg_op + o.acc_idx * simd_w * fsz]);
        else vbroadcastss(v, ptr[reg_op]); // common, per_oc: one value for the row
    }, [this](int entry, int) { return along_ow(chain_.entries()[entry]) ? -1 : 0; });
    injector_ = &injector;

    preamble();
    load_table_address(reg_table, ptr[reg_param + offsetof(pool_call_args, table)]);
    if (c_.sw > 2) load_gather_index();
    sub(rsp, stack_bytes);
    mov(reg_tmp, ptr[reg_param + offsetof(pool_call_args, src)]);
    mov(ptr[rsp + src_row_slot], reg_tmp);
    mov(reg_tmp, ptr[reg_param + offsetof(pool_call_args, dst)]);
    mov(ptr[rsp + dst_row_slot], reg_tmp);
    mov(reg_channels, ptr[reg_param + offsetof(pool_call_args, channels)]);
    mov(reg_values, ptr[reg_param + offsetof(pool_call_args, post_op)]);

    if (c_.plane > 0) tail_mask<isa>(*this, 1, R::tail).prepare(reg_table, reg_tmp);
    Xbyak::Label l_channel, l_end;
    L(l_channel);
    mov(reg_src, ptr[rsp + src_row_slot]);
    mov(reg_dst, ptr[rsp + dst_row_slot]);
    mov(reg_px, ptr[reg_param + offsetof(pool_call_args, pixels)]);
    if (c_.plane > 0) {
        emit_plane();
        mov(reg_px, 1);
        operands_past_tail();
    } else {
        walk_row(l_end);
    }
    L(l_end);
    // The next channel: its rows, and each operand back at the first pixel, one channel on.
    add(qword[rsp + src_row_slot], static_cast<int>(c_.src_c_stride));
    add(qword[rsp + dst_row_slot], static_cast<int>(c_.dst_c_stride));
    mov(reg_px, ptr[reg_param + offsetof(pool_call_args, pixels)]);
    shl(reg_px, 2); // bytes the along-ow operands moved
    for (int i = 0; i < chain_.len(); ++i) {
        const post_ops::entry &e = chain_.entries()[i];
        if (e.kind != post_ops::kind::binary && e.kind != post_ops::kind::prelu) continue;
        const int at = static_cast<int>(i * 2 * sizeof(int64_t));
        if (along_ow(e)) sub(qword[reg_values + at], reg_px);
        mov(reg_tmp, ptr[reg_values + at + static_cast<int>(sizeof(int64_t))]);
        add(qword[reg_values + at], reg_tmp);
    }
    dec(reg_channels);
    jnz(l_channel, T_NEAR);
    add(rsp, stack_bytes);
    postamble();
    injector_ = nullptr;
}

template <cpu_isa isa>
std::string why_not_on(const pool_nchw_kernel_conf &c, int aux_vecs) {
    using R = nchw_regs<isa>;
    const int spares = R::spares_end - R::unroll;
    if (aux_vecs > spares)
        return "the chain's spare registers do not fit";
    const int64_t vector_reach = R::unroll * isa_traits<isa>::simd_w * c.sw * int64_t(sizeof(float));
    if (std::max({vector_reach, c.tap_stride[0], c.tap_stride[1], c.tap_stride[2],
                  c.src_c_stride, c.dst_c_stride}) > INT32_MAX / 2)
        return "strides too large for 32-bit displacements";
    return "";
}

template <cpu_isa isa>
std::shared_ptr<const jit_generator> get_kernel(const pool_nchw_kernel_conf &conf, const post_ops &chain) {
    const std::string kind = std::string("pool_nchw_") + isa_traits<isa>::name;
    return kernel_cache::instance().get_or_create(kernel_key(kind.c_str(), conf, chain),
            [&] { return std::make_unique<pool_nchw_kernel<isa>>(conf, chain); });
}

} // namespace

std::string pool_nchw_kernel_why_not(cpu_isa isa, const pool_nchw_kernel_conf &conf, int aux_vecs) {
    return isa == cpu_isa::avx512 ? why_not_on<cpu_isa::avx512>(conf, aux_vecs)
                                  : why_not_on<cpu_isa::avx2>(conf, aux_vecs);
}

std::shared_ptr<const jit_generator> get_pool_nchw_kernel(cpu_isa isa,
                                                          const pool_nchw_kernel_conf &conf,
                                                          const post_ops &chain) {
    return isa == cpu_isa::avx512 ? get_kernel<cpu_isa::avx512>(conf, chain)
                                  : get_kernel<cpu_isa::avx2>(conf, chain);
}

} // namespace jit
} // namespace prim
