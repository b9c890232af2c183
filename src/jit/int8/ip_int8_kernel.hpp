// The int8 GEMM's micro-kernel (the inner product and every convolution, int8_gemm.hpp): one
// register tile of
//   dst[mr rows, nr·simd_w oc] = convert(src[mr rows, K] · W[nr oc blocks, K]ᵀ)
// with an exact s32 accumulation, then in f32 registers the scales, the bias, the post-ops chain
// and the destination's scale and zero point, and one rounded, saturated store per vector.
//
// Exact accumulation on every CPU (doc/int8.md):
//   vnni     vpdpbusd: u8 src x s8 weights, 4 products per s32 lane; the src groups of 4 K values
//            are broadcast as one dword. An s8 src comes prepared as u8 (s8 + 128); the primitive
//            folds -128·Σw into the per-oc compensation.
//   16-bit   vpmaddwd: s16 src x s16 weights, 2 products per s32 lane, each pair sum at most
//            2·255·128 in magnitude, so nothing saturates (vpmaddubsw's s16 pair sums would),
//            then vpaddd. src comes prepared as s16 pairs; weights are read as s8 pairs and
//            sign-extended by the load (vpmovsxbw).
//
// Data it reads:
//   src      rows lda bytes apart (int8_src_form.hpp): u8 groups of 4 (vnni) or s16 pairs
//            (16-bit), K padded with zeros to the group; with taps, each tap's K groups at its
//            own offset from the row (a convolution's taps read the src where they are): the
//            args' tap rows (kd, kh: those of the output row inside the input), each row's
//            kw_unroll taps unrolled, kw_bytes apart, a tap read only by the tile rows whose
//            tap is inside (conf.kw_rows).
//   weights  packed by panel, [oc/P][K/G][P][G] s8, G = 4 (vnni) or 2, P = the panel's oc:
//            oc block j at j·simd_w·G bytes, K groups wei_k_step = P·G bytes apart. Padding
//            lanes and K values are zero, so weight loads never need a mask.
//   per-oc   f32 (s32 for comp) arrays padded to whole panels with zeros, so their vector loads
//            need no mask either; the args point at the tile's first oc.
// Depthwise (conf.depthwise): the lanes are channels, not output channels of one K sum: per
// tap, acc(m, j) += src[row m][block j] · w[tap][block j], one product per lane. The src bytes
// are widened to s32 (vpmovzxbd / vpmovsxbd), the weights to s16 in the low half of each s32
// lane (high half 0), so vpmaddwd's pair sum is the one exact product (vpdpwssd adds it with
// VNNI). Weights packed [C/P][taps][P] s8; the src rows' channels padded to whole vectors.
// Finalize, in this order (doc/int8.md): acc + comp (s32: -(128 + zp_src)·Σw), vcvtdq2ps,
// · pre (src · weights scales), + bias, · post (2.x output scales), the chain (sum reads the
// old dst as its type, less its zero point; binary operands are converted from theirs),
// · (1 / dst scale), + dst zero point (without a chain, folded: one FMA after the conversion),
// then for an integer dst: NaN to 0, clamp to the type's
// range, vcvtps2dq (round half to even under the default MXCSR) and a narrowing store (AVX-512
// vpmov[u]sdb, AVX2 packs) with the tail masked.
//
// Registers: accumulator (m, j) is vector m·nr + j; the nr weight vectors, the broadcasts and
// (16-bit) two product temporaries come after them. After the K loop every register outside
// the accumulators is a spare for the injector (on AVX2 with a tail and an operand entry, but
// the last one: the operand loads' mask). On AVX-512 the tail mask is k1 (host_tail_opmask).
#pragma once
#include <cstdint>
#include <string>

#include "jit/gen/isa_traits.hpp"
#include "jit/gen/typed_vectors.hpp"
#include "jit/ip/gemm_kernel_base.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "jit/int8/int8_src_form.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace jit {

// The one argument of a kernel call, read by offsetof. Per-oc pointers are at the tile's
// first oc; null when the conf says the step is absent.
struct ip_int8_args {
    const void *src = nullptr;     // prepared src, row 0 of the tile
    const void *src2 = nullptr;    // row row_split of the tile (conf.row_split > 0)
    const int8_t *wei = nullptr;   // packed weights, first oc block of the tile, K group 0
    void *dst = nullptr;           // dst row 0, the tile's first oc
    const int32_t *comp = nullptr; // per oc, added to the s32 accumulator
    const float *pre = nullptr;    // per oc: src scale · weights scale
    const float *bias = nullptr;   // per oc, f32
    const float *post = nullptr;   // per oc: 2.x output scale
    const float *dst_zp = nullptr; // per oc, f32
    const float *dst_mul = nullptr; // one value: 1 / dst scale
    int64_t k_groups = 0;          // K groups of G values per tap, >= 1
    // with_taps: the tap rows the tile reads (int8_src_form.hpp), their src offsets from src and
    // their first tap's index; none when every tap of the tile is in the padding.
    const int8_tap_row *tap_rows = nullptr;
    int64_t n_tap_rows = 0;
    const int64_t *post_op = nullptr; // per chain entry, its operand's address at the tile (row m0, oc0)
    const void *table = nullptr;   // the constant table with runtime parameters
};

// What the code depends on besides the ISA and the chain; its bytes are the kernel cache's key.
struct ip_int8_conf {
    int64_t mr = 1, nr = 1;     // tile rows, oc blocks
    int64_t tail = 0;           // valid lanes of the tile's last oc block; 0: all
    int64_t vnni = 0;           // 1: vpdpbusd on u8 groups of 4; 0: vpmaddwd on s16 pairs
    int64_t lda = 0;            // src row stride, bytes
    int64_t row_split = 0;      // without taps: rows [row_split, mr) from args.src2, lda apart
                                // (the tile's rows in the next output row); 0: all from src
    int64_t with_taps = 0;      // 1: K is taps x k_groups, each tap's src rows at its offset,
                                // walked by the tap rows of the args
    int64_t tap_k_groups = 0;   // with_taps: a tap's K groups when few enough to unroll (a
                                // first layer's 3 channels: 1), else 0 (the K loop)
    int64_t kw_unroll = 1;      // with_taps: the taps of a tap row, unrolled
    int64_t kw_bytes = 0;       // src bytes between two taps of a row
    int64_t tap_wei_bytes = 0;  // packed weights of one tap
    // Per tap of a row, the tile rows [first, last) that read it inside the input: the others
    // skip it (their tap is in the padding, whose value 0 adds nothing); [0, mr) for all.
    static constexpr int max_kw_unroll = 8;
    int64_t kw_rows[max_kw_unroll][2] = {};
    int64_t depthwise = 0;      // 1: the lanes are channels, one product per tap (below)
    int64_t src_s8 = 0;         // depthwise: the src bytes are s8 (else u8)
    int64_t wei_k_step = 0;     // packed weights stride between K groups, bytes (P·G)
    int64_t dst_dt = 0;         // memory::data_type of dst
    int64_t ldc = 0;            // dst row stride, bytes
    int64_t ld_op = 0;          // a per_tensor operand's row stride, elements (dst's oc)
    int64_t with_comp = 0, with_pre = 0, with_bias = 0, with_post = 0;
    int64_t with_dst_mul = 0, with_dst_zp = 0;
    // 1: no chain, and the float steps come folded per oc as x · pre + bias (pre: src · weights
    // scales · output scale · 1 / dst scale, bias: the bias through the same and the dst zero
    // point): one FMA instead of up to five steps, its rounding within the contract's ±1.
    int64_t folded = 0;
};

using ip_int8_fn = void (*)(const ip_int8_args *);

template <cpu_isa isa>
class ip_int8_kernel : public gemm_kernel_base {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    static constexpr int simd_w = isa_traits<isa>::simd_w;
    static constexpr int vlen = isa_traits<isa>::vlen;
    static constexpr int k_unroll = 2; // K groups per loop iteration

    ip_int8_kernel(const ip_int8_conf &conf, const post_ops &chain);

    // "ip_int8_8x3_avx512_vnni_u8", with "_tail5" for an oc-tail variant.
    static std::string kernel_name(const ip_int8_conf &conf);
    static std::string cache_key(const ip_int8_conf &conf, const post_ops &chain);
    // Vector registers the K loop needs besides the accumulators (weights, broadcasts, temps).
    static int loop_vregs(int nr, bool vnni, bool depthwise = false) {
        return nr + (depthwise || vnni ? 2 : 3);
    }

private:
    void generate() override;

    Vmm acc(int m, int j) const { return Vmm(static_cast<int>(m * conf_.nr + j)); }
    int n_acc() const { return static_cast<int>(conf_.mr * conf_.nr); }
    bool is_tail_vec(int j) const { return conf_.tail != 0 && j == conf_.nr - 1; }
    int group() const { return conf_.vnni ? 4 : 2; }
    memory::data_type dst_dt() const { return static_cast<memory::data_type>(conf_.dst_dt); }

    // Tile rows [m0, m1) only: the others' tap is in the padding.
    void k_step(int u, int m0, int m1);
    // K group u of tile row m.
    Xbyak::Address src_at(int m, int u) const;
    void depthwise_tap(int m0, int m1);
    // One tap's products for tile rows [m0, m1): its K groups, or depthwise one product a lane.
    void tap_products(int m0, int m1);
    void tap_rows_loop();
    void finalize();
    // acc(m, j) op= the per-oc vector at args field `field` (op: vpaddd, vmulps, vaddps).
    template <typename op_t>
    void per_oc_step(size_t field, op_t op);
    void sum_dst_old(const sum_args &s);
    void load_operand(const operand_args &o);
    // v = the values of type dt at base + disp (one vector's lanes, the tail's when tail), as f32.
    // AVX2's f32/s32 tail reads its mask from vector mask_idx, loaded there first if prepare_mask.
    void load_as_f32(const Vmm &v, const Xbyak::Reg64 &base, int64_t disp, memory::data_type dt,
                     bool tail, int mask_idx, bool prepare_mask);
    void store_dst();
    // A vector's lanes: the oc tail's in the last column of a tail kernel.
    vector_lanes lanes(bool tail) const {
        return tail ? vector_lanes::first(static_cast<int>(conf_.tail)) : vector_lanes::all();
    }

    // The byte offset of the tile's dst vector (m, j) from reg_dst.
    int64_t dst_disp(int m, int j) const {
        return conf_.ldc * m + simd_w * static_cast<int64_t>(data_type_size(dst_dt())) * j;
    }

    ip_int8_conf conf_;
    post_ops chain_;

    const Xbyak::Reg64 reg_oc = Xbyak::util::r12; // one per-oc array at a time
    // The tap rows' loop (with_taps): tap (0, 0, 0)'s src and the tile's weights, the next
    // row, the rows left.
    const Xbyak::Reg64 reg_src_base = Xbyak::util::rbx;
    const Xbyak::Reg64 reg_wei_base = Xbyak::util::rdx;
    const Xbyak::Reg64 reg_tap = Xbyak::util::r13;
    const Xbyak::Reg64 reg_taps_left = Xbyak::util::r15;
};

extern template class ip_int8_kernel<cpu_isa::avx2>;
extern template class ip_int8_kernel<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
