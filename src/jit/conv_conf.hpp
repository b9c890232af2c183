// The plain configuration of one JIT convolution: the problem's sizes, the byte strides of the
// three tensors as the kernel walks them, and the register blocking. Filled once at creation by
// init_conv_conf() (conv_conf.cpp); the kernel generator (conv_kernel.cpp) and the primitive's
// threading loops (jit_convolution.cpp) only read it.
//
// Layouts the kernel reads directly (anything else is repacked by the primitive):
//   src: any plain layout (nchw, nhwc, ...), or channel-blocked by the vector width (nChw16c
//        on AVX-512, nChw8c on AVX2); channel c of a group lives at
//        (c / W) * src_icb + (c % W) * src_ic.
//   dst: channels innermost (nhwc) or channel-blocked by W: one oc block is one contiguous vector.
//   wei: the packed layout of packed_weights_desc(): per group, oc block, ic block, kd, kh, kw,
//        W input channels of W output channels each (OIhw16i16o; grouped gOIhw16i16o).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/problem.hpp"
#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

struct conv_conf {
    int simd_w = 16;          // f32 lanes of one vector: the channel block W
    int n_vregs = 32;         // vector registers of the ISA

    // Sizes per group; spatial arrays indexed d, h, w (impl::SP_D..SP_W).
    int64_t mb = 0, g = 1, icg = 0, ocg = 0;
    int64_t nb_ic = 0;        // ic blocks of W per group, the last one possibly partial
    int ic_tail = 0;          // valid channels of the last ic block, 0 when icg % W == 0
    int64_t n_ocb = 0;        // oc blocks of W per group
    int oc_tail = 0;          // valid channels of the last oc block, 0 when ocg % W == 0
    int64_t i[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1};
    int64_t s[3] = {1, 1, 1}, p[3] = {0, 0, 0};
    int64_t dil[3] = {1, 1, 1}; // distance between taps: benchdnn's d + 1

    // Byte strides. src: per ic inside a block, per ic block, per pixel along d/h/w, per image,
    // per group (the group's first channel).
    int64_t src_ic = 0, src_icb = 0, src_sp[3] = {0, 0, 0}, src_n = 0, src_g = 0;
    // wei: per ic inside a block (W floats), per tap along d/h/w, per ic block, per oc block,
    // per group.
    int64_t wei_ic = 0, wei_sp[3] = {0, 0, 0}, wei_icb = 0, wei_ocb = 0, wei_g = 0;
    // dst: per oc block, per pixel along d/h/w, per image, per group.
    int64_t dst_ocb = 0, dst_sp[3] = {0, 0, 0}, dst_n = 0, dst_g = 0;

    // Register blocking: ur_w output pixels of one row times nb_oc oc blocks per kernel call.
    int ur_w = 1;
    int nb_oc = 1;
    double model_eff = 0; // the cost model's FMA-pipe efficiency of that blocking (0..1)
    int64_t n_ocbg = 1;       // oc block groups per group: ceil(n_ocb / nb_oc)
    // During the FMAs, hold the ur broadcast src values and stream the nb weight vectors one at a
    // time (registers: ur * nb + ur + 1), instead of holding the nb weight vectors and streaming
    // the broadcasts (ur * nb + nb + 1).
    bool hold_bcast = false;
    // Threading order: oc block groups innermost (the weights of a group stay in L2 while src
    // rows are reused) or outermost (large weights: each thread keeps a slice of them).
    bool ocbg_inner = false;

    bool with_bias = false;
    post_ops chain;

    // Depthwise (one input and one output channel per group): the groups are on the vector
    // lanes, g is 1 for the threading loops, n_ocb counts channel blocks, and the src pointer
    // moves with the channel block by src_ocb bytes (0 otherwise).
    bool depthwise = false;
    int64_t src_ocb = 0;
};

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
std::vector<row_block> plan_row(const conv_conf &c);

// How a data tensor (src or dst) can be addressed by the kernel; ok = false when its layout is
// not one the kernel reads directly (then the primitive repacks it to nhwc).
struct data_geom {
    bool ok = false;
    int64_t blk = 1;        // channel block (1 for plain layouts)
    int64_t s_c = 0;        // elements between channels inside a block (plain: between channels)
    int64_t s_cb = 0;       // elements between channel blocks (plain: blk * s_c)
    int64_t s_n = 0;
    int64_t s_sp[3] = {0, 0, 0};
};
data_geom analyze_data_desc(const memory::desc &md, int nsp);

// Layout patterns the primitive uses.
std::string blocked_data_pattern(int nsp, int simd_w);    // "aBcd16b"
std::string channels_last_pattern(int nsp);               // "acdb"
// The packed weights for the user's weight dims (grouped or not): "ABcd16b16a" / "aBCde16c16b".
memory::desc packed_weights_desc(const memory::dims &wei_dims, bool grouped, int nsp, int simd_w);

// Depthwise weights (dims g, 1, 1, k...): [channel block][k...][W channels], "Abcde16a".
memory::desc packed_dw_weights_desc(const memory::dims &wei_dims, int nsp, int simd_w);

// Fills the sizes and the register blocking (not the strides, which depend on the layouts the
// primitive settles on; see set_strides). Returns "" or the reason the JIT cannot take it.
// aux_vecs: spare vector registers the post-ops injector needs.
std::string init_conv_blocking(conv_conf &c, const impl::conv_problem &prb, cpu_isa isa,
                               int aux_vecs);
// Strides from the three layouts the kernel will read. Returns "" or a reason (e.g. a byte
// displacement beyond 32 bits).
std::string set_strides(conv_conf &c, const data_geom &src, const memory::desc &wei,
                        bool grouped, const data_geom &dst, int nsp);

// The same for the depthwise kernel (channel blocks along src_ocb / dst_ocb / wei_ocb).
std::string set_dw_strides(conv_conf &c, const data_geom &src, const memory::desc &wei,
                           const data_geom &dst, int nsp);

} // namespace jit
} // namespace prim
