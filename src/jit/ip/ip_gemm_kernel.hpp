// The inner product's micro-kernel: one register tile of
//   dst[mr rows, nr·simd_w oc] = src[mr rows, K block] · W[nr oc blocks, K block]ᵀ
// (then, on the last K block, + bias and the post-ops chain in registers, one store per vector).
//
// Data it reads:
//   src      plain rows [mb][K], row stride lda; the kernel broadcasts one value per row and step.
//   weights  packed by panel, [oc/(nr·simd_w)][K][nr·simd_w] ("Ab48a" for the 8×3 AVX-512
//            tile): one vector per oc block and step, oc blocks ldw bytes apart, K rows
//            wei_k_step bytes apart, so a tile reads one sequential stream. Padding lanes hold
//            zeros, so weight loads never need a mask.
//   partial  a scratch tile of sums over the earlier K blocks (rows ldp bytes apart), when K is
//            split; the user's dst is not touched before the last K block, so a sum entry of the
//            chain reads the true dst_old.
// The oc tail (the last oc block of the last panel) is handled by a kernel variant whose last
// vector uses the tail mask for the bias load, the sum's dst_old load and the store; an mb tail
// by a variant with fewer rows. K is a run-time loop count (4-step unrolled body + remainder).
//
// Registers: accumulator (m, j) is vector m·nr + j; the nr weight vectors and the broadcast come
// right after them. After the FMAs every register outside the accumulators is a spare for the
// post-ops injector (on AVX2 with a tail and an operand entry, but the last one: the mask of the
// operand loads). On AVX-512 the tail mask lives in the host's opmask and the injector gets
// its own (post_ops_injector.hpp, register contract).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "jit/gen/isa_traits.hpp"
#include "jit/ip/gemm_kernel_base.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace jit {

// The one argument of a kernel call, read by offsetof.
struct ip_gemm_args {
    const float *src = nullptr;   // row 0 of the tile, first K value of the block
    const float *wei = nullptr;   // first oc block of the tile, first K value of the block
    const float *bias = nullptr;  // bias of the tile's first oc (finalize only; null: no bias)
    float *dst = nullptr;         // dst row 0, the tile's first oc
    float *partial = nullptr;     // partial-sum tile row 0 (used unless the K block is alone)
    int64_t k = 0;                // K values in this block, >= 1
    int64_t flags = 0;            // ip_load_partial | ip_finalize
    // Per chain entry, its binary or prelu operand's value for this tile (finalize only): the
    // address of the operand (common), of the tile's first oc (per_oc), of the tile's row 0
    // (per_mb_spatial: one value per row, rows contiguous), or operand - dst in bytes
    // (per_tensor: the operand is plain like dst, read at the store's address plus this).
    const int64_t *post_op = nullptr;
    const void *table = nullptr; // the constant table with runtime parameters (runtime_table.hpp)
};

// ip_gemm_args::flags bits.
constexpr int64_t ip_load_partial = 1; // start from the partial tile, not zero (later K blocks)
constexpr int64_t ip_finalize = 2;     // last K block: bias, chain, store to dst; else store to
                                       // the partial tile

// What the code depends on besides the ISA and the post-ops chain (which the kernel takes
// beside it). Its bytes are the kernel cache's key (kernel_key()), so every field is an int64_t:
// no padding, nothing a key could miss.
struct ip_gemm_conf {
    int64_t mr = 1, nr = 1;   // tile rows, oc blocks
    int64_t tail = 0;         // valid lanes of the last oc block of the tile; 0: all
    int64_t lda = 0;          // src row stride, bytes
    int64_t ldw = 0;          // weights stride between oc blocks of a K row, bytes (vlen)
    int64_t wei_k_step = 0;   // weights stride between K rows, bytes (nr · vlen)
    int64_t ldc = 0;          // dst row stride, bytes
    int64_t ldp = 0;          // partial tile row stride, bytes
    int64_t with_bias = 0;    // 1: add the bias on the last K block
};

using ip_gemm_fn = void (*)(const ip_gemm_args *);

template <cpu_isa isa>
class ip_gemm_kernel : public gemm_kernel_base {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    static constexpr int simd_w = isa_traits<isa>::simd_w;
    static constexpr int vlen = isa_traits<isa>::vlen;
    static constexpr int k_unroll = 4;

    // chain: the post-ops applied on the last K block.
    ip_gemm_kernel(const ip_gemm_conf &conf, const post_ops &chain);

    // "ip_gemm_8x3_avx512", with "_tail5" for an oc-tail variant.
    static std::string kernel_name(const ip_gemm_conf &conf);
    // The process-wide kernel cache's key: the ISA, every byte of conf, and the chain.
    static std::string cache_key(const ip_gemm_conf &conf, const post_ops &chain);

private:
    void generate() override;

    Vmm acc(int m, int j) const { return Vmm(static_cast<int>(m * conf_.nr + j)); }
    int n_acc() const { return static_cast<int>(conf_.mr * conf_.nr); }
    bool is_tail_vec(int j) const { return conf_.tail != 0 && j == conf_.nr - 1; }

    void k_step(int u);          // one K value: nr weight loads, mr broadcasts, mr·nr FMAs
    void finalize();             // bias, chain, store to dst
    void add_bias();
    void sum_dst_old(int acc_idx, int aux_idx, float scale, const Xbyak::Address &scale_vec);
    void load_operand(const operand_args &o);
    void store_dst();

    Xbyak::Address src_at(int m, int u) { return ptr[reg_src + conf_.lda * m + 4 * u]; }
    Xbyak::Address wei_at(int j, int u) { return ptr[reg_wei + conf_.ldw * j + conf_.wei_k_step * u]; }
    Xbyak::Address dst_at(int m, int j) { return ptr[reg_dst + conf_.ldc * m + vlen * j]; }
    Xbyak::Address partial_at(int m, int j) { return ptr[reg_partial + conf_.ldp * m + vlen * j]; }

    ip_gemm_conf conf_;
    post_ops chain_;

    const Xbyak::Reg64 reg_bias = Xbyak::util::r12;
    const Xbyak::Reg64 reg_partial = Xbyak::util::r13;
    const Xbyak::Reg64 reg_flags = Xbyak::util::r15;
};

extern template class ip_gemm_kernel<cpu_isa::avx2>;
extern template class ip_gemm_kernel<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
