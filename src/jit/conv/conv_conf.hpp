// The configuration of one JIT convolution, decided once at creation by init_conv_conf() and
// read-only afterwards: the problem's sizes, the byte strides of the three tensors as the kernel
// walks them, the register blocking (conv_conf, from which the kernels are generated and keyed
// in the kernel cache), and the layouts and per-call transformations around the kernel
// (conv_setup). The kernel generators (conv_kernel.cpp, conv_dw_kernel.cpp) and the primitive's
// threading loops (jit_convolution.cpp) only read it.
//
// Layouts the kernel reads directly (anything else is repacked by the primitive):
//   src: any plain layout (nchw, nhwc, ...), or channel-blocked by the vector width (nChw16c
//        on AVX-512, nChw8c on AVX2); channel c of a group lives at
//        (c / W) * src_icb + (c % W) * src_ic from the group's first channel (src_group()).
//        8-lane kernels of 8-channel groups on a CPU with AVX-512 also read nChw16c, two groups
//        to a block (conv_kernel_isa()).
//   dst: channels innermost (nhwc) or channel-blocked by W (or 16, as src): one oc block is one
//        contiguous vector.
//   wei: the packed layout of packed_weights_desc(): per group, oc block, ic block, kd, kh, kw,
//        W input channels of W output channels each (OIhw16i16o; grouped gOIhw16i16o).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/primitive_impl.hpp"
#include "common/problem.hpp"
#include "jit/conv/conv_layouts.hpp"
#include "jit/conv/conv_merged_groups.hpp"
#include "jit/conv/conv_unit_stride.hpp"
#include "jit/gen/uarch.hpp"
#include "jit/inject/kernel_chain_plan.hpp"
#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// What the kernels read: the code depends on nothing else (but the chain and the variant's oc
// blocks and tail). Integer fields only, without padding: its bytes are the kernel cache's key
// (kernel_key()), so layers that differ only in what the threading loops read (batch, groups)
// share kernels.
struct conv_kernel_conf {
    // Sizes per group; spatial arrays indexed d, h, w (impl::SP_D..SP_W).
    int64_t i[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1};
    int64_t s[3] = {1, 1, 1}, p[3] = {0, 0, 0};
    int64_t dil[3] = {1, 1, 1}; // distance between taps: benchdnn's d + 1
    int64_t nb_ic = 0;        // ic blocks of W per group, the last one possibly partial
    // Merged small groups (conv_merged_groups.hpp): the channels of one user group, 0 when not
    // merged. Each input channel then adds only into its own group's lanes, so that an inf or
    // NaN input times the zero weights of the other groups does not reach their outputs.
    int64_t merged_cg = 0;

    // Byte strides. src: per ic inside a block, per ic block, per pixel along d/h/w.
    int64_t src_ic = 0, src_icb = 0, src_sp[3] = {0, 0, 0};
    // wei: per ic inside a block (W floats), per tap along d/h/w, per ic block, per oc block.
    int64_t wei_ic = 0, wei_sp[3] = {0, 0, 0}, wei_icb = 0, wei_ocb = 0;
    // dst: per oc block, per pixel along d/h/w.
    int64_t dst_ocb = 0, dst_sp[3] = {0, 0, 0};
    // Depthwise: the src pointer moves with the channel block by src_ocb bytes (0 otherwise).
    int64_t src_ocb = 0;

    int simd_w = 16;          // f32 lanes of one vector: the channel block W
    int n_vregs = 32;         // vector registers of the ISA
    int ic_tail = 0;          // valid channels of the last ic block, 0 when icg % W == 0
    int ur_w = 1;             // register blocking: output pixels of a row per block
    // During the FMAs, hold the ur broadcast src values and stream the nb weight vectors one at a
    // time (registers: ur * nb + ur + 1), instead of holding the nb weight vectors and streaming
    // the broadcasts (ur * nb + nb + 1).
    bool hold_bcast = false;
    bool with_bias = false;
    // AVX-512 with an oc tail of 8 lanes or fewer: the tail block's FMAs run on 8-lane (ymm)
    // registers, which cost a CPU with 256-bit FMA units half a 16-lane FMA
    // (uarch::fma_unit_bits).
    bool narrow_tail = false;
    // 8-lane kernels on a CPU with AVX-512 (conv_kernel_isa()): they may use AVX-512VL's
    // encodings, embedded {1to8} broadcasts, opmasks and, during the FMAs, registers 16-31.
    bool evex = false;
    // One oc block with several kw taps: each src pixel that two or more taps of one input
    // channel read (held_pixels()) is broadcast once into a register of its own and serves
    // each of them; a pixel one tap reads is that FMA's embedded broadcast operand (plain AVX2,
    // without embedded broadcasts, holds it too). The weight vector of each tap streams through
    // one register. At stride 1 a block of ur pixels then loads ur + kw - 1 broadcasts per
    // channel instead of ur * kw.
    bool share_taps = false;
    // Depthwise kernel only: the src rows of the kh taps come from a table of row pointers
    // (conv_call_args::src_rows), not at a fixed stride: the fused dw pass keeps the 1x1's rows
    // in a ring (jit_conv_dw_fused.cpp). src is then the byte offset of the call's first channel
    // block within each row.
    bool src_rows = false;
    bool pad_[2] = {};        // explicit zero padding: every byte of the struct is in its key

    // Vector registers the FMAs may use: n_vregs, or 32 for 8-lane kernels with AVX-512VL. The
    // accumulators and the post-ops stay within n_vregs (the AVX2 injector's encodings).
    int fma_vregs() const { return evex ? 32 : n_vregs; }
};

// The src pixels that at least min_reads of the kw taps of one input channel read, for a block
// of ur output pixels: j * s + kw * dil for pixel j and tap kw, in pixels from the block's first
// tap; sorted, each once.
std::vector<int64_t> tap_pixels(const conv_kernel_conf &c, int ur, int min_reads = 1);
// share_taps: the pixels a block holds in registers, the i-th in the i-th register after the
// accumulators: those read twice or more where the FMAs take embedded broadcasts (AVX-512, or
// evex), else all.
inline std::vector<int64_t> held_pixels(const conv_kernel_conf &c, int ur) {
    return tap_pixels(c, ur, c.simd_w == 16 || c.evex ? 2 : 1);
}

// The whole configuration: what the kernels read, and what only the primitive's threading loops
// read (the batch, the groups, the oc block groups of each call).
struct conv_conf : conv_kernel_conf {
    int64_t mb = 0, g = 1, icg = 0, ocg = 0;
    int64_t n_ocb = 0;        // oc blocks of W per group
    int oc_tail = 0;          // valid channels of the last oc block, 0 when ocg % W == 0
    int nb_oc = 1;            // oc blocks per kernel call
    int64_t n_ocbg = 1;       // oc block groups per group: ceil(n_ocb / nb_oc)
    // Byte strides per image of src and dst, per group of the packed weights.
    int64_t src_n = 0, wei_g = 0, dst_n = 0;
    // The data layouts' channel blocks: channels per block (1: plain) and bytes between blocks
    // (plain: between channels). A block may hold two kernel groups (8-channel groups in the
    // 16-channel blocks of an AVX-512 machine's layouts, see conv_kernel_isa()).
    int64_t src_cblk = 1, src_cb = 0, dst_cblk = 1, dst_cb = 0;
    // Bytes from a tensor's channel 0 to group g's first channel.
    int64_t src_group(int64_t g) const { return channel_bytes(g * icg, src_cblk, src_cb, src_ic); }
    int64_t dst_group(int64_t g) const { return channel_bytes(g * ocg, dst_cblk, dst_cb, 4); }
    static int64_t channel_bytes(int64_t c, int64_t cblk, int64_t cb, int64_t c_bytes) {
        return c / cblk * cb + c % cblk * c_bytes;
    }
    // Threading order: oc block groups innermost (the weights of a group stay in L2 while src
    // rows are reused) or outermost (large weights: each thread keeps a slice of them).
    bool ocbg_inner = false;
    // Depthwise (one input and one output channel per group): the groups are on the vector
    // lanes, g is 1 for the threading loops, and n_ocb counts channel blocks.
    bool depthwise = false;
};

// Everything creation decides for one JIT convolution besides the kernels' configuration: the
// layouts of the user's arguments ('any' resolved), the layouts the kernel reads, and the per-call
// transformations between them. Execution repacks an argument whose user layout differs from
// the kernel's.
struct conv_setup {
    conv_conf conf;
    post_ops chain;                  // the kernel chain: operand masks are accesses
    std::vector<memory::desc> operands; // per chain entry, the user's operand desc (or zero)
    impl::arg_layouts user;          // what the user passes (wei: before packing or merging)
    memory::desc ksrc, kwei, kdst;   // what the kernel reads
    jit::unit_stride_src unit_stride; // strided 1x1: the kernel reads a dense copy of src
    jit::merged_groups merged_groups; // small groups: block-diagonal weights, expanded per call
    // Set before init_conv_conf(): never merge output rows into longer kernel rows (the fused
    // dw pass computes the 1x1's output one row at a time).
    bool rows_apart = false;
};

// The vector ISA of the convolution's kernels when the CPU allows max_isa (avx2 or above):
// avx512, or avx2 where 8 lanes waste less of each FMA than 16 by more than 16 lanes gain on
// this CPU (uarch::fma_unit_bits): small groups merged with zero blocks (conv_merged_groups.hpp).
cpu_isa conv_kernel_isa(const impl::conv_problem &prb, cpu_isa max_isa,
                        const uarch &arch = current_uarch());

// The whole configuration for the request on isa (avx2 or avx512), depthwise and row merging
// included. chain: the kernel's chain and its spares (plan_kernel_chain()), which setup.chain
// becomes. Returns "" or the reason the JIT cannot take the request. arch: the
// micro-architecture figures the cost model and the cache-size decisions read (another CPU's in
// tests and bench/prim_jit_config_table).
std::string init_conv_conf(conv_setup &setup, const impl::conv_request &req, cpu_isa isa,
                           const kernel_chain_plan &chain, const uarch &arch = current_uarch());
// The same for the 8-lane kernels conv_kernel_isa() chose on a CPU with AVX-512: its groups of 8
// channels read and write the 16-channel blocks the AVX-512 layers around them use.
std::string init_conv_conf(conv_setup &setup, const impl::conv_request &req, cpu_isa isa,
                           cpu_isa max_isa, const kernel_chain_plan &chain,
                           const uarch &arch = current_uarch());

// What one kernel call computes: a full output row (all OW pixels) of nb_oc oc blocks, at one
// (image, group, oc block group, od, oh). Pointers already point at the first valid kd/kh tap.
// The kernel reads the fields by offsetof.
struct conv_call_args {
    const float *src;   // (n, group's first channel, first valid id, first valid ih, iw = 0)
    const float *wei;   // (group, first oc block, ic block 0, first valid kd, first valid kh, kw 0)
    const float *bias;  // bias of the first oc of the call (unused without bias)
    float *dst;         // (n, first oc of the call, od, oh, ow = 0)
    int64_t kd_count;   // valid kd taps (may be 0 when the row lies wholly in the padding)
    int64_t kh_count;   // valid kh taps
    const int64_t *post_op; // per chain entry, its operand's per-call value (conv_operand.hpp)
    const void *table;      // the constant table with runtime parameters (runtime_table.hpp)
    // conv_kernel_conf::src_rows: the row of each valid kh tap, first valid tap first.
    const float *const *src_rows;
};

// The blocks of one output row, in order: each covers ur pixels from ow0; count > 1 means
// `count` consecutive blocks run as one loop (all interior and full). interior: every tap of
// every pixel reads inside the input row, so no tap needs to be skipped.
struct row_block {
    int64_t ow0;
    int ur;
    bool interior;
    int64_t count;
};
std::vector<row_block> plan_row(const conv_kernel_conf &c);

} // namespace jit
} // namespace prim
