// The JIT convolution's configuration, decided in one place (see conv_conf.hpp): sizes, register
// blocking, layouts, strides, depthwise and row merging.
#include <algorithm>
#include <climits>
#include <cstdlib>

#include "jit/conv/conv_conf.hpp"
#include "jit/gen/isa_traits.hpp"

namespace prim {
namespace jit {

namespace {

using impl::conv_problem;
using impl::conv_request;

int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool fits_i32(double v) { return v >= INT32_MIN / 2 && v <= INT32_MAX / 2; }

// Displacement checks are computed in double: with huge strides the products themselves would
// overflow an int64.
double as_double(int64_t v) { return static_cast<double>(v); }

// Bytes a kernel row reaches in src along w.
double row_span_bytes(const conv_kernel_conf &c) {
    return (as_double(c.o[2]) * as_double(c.s[2]) + as_double(c.k[2]) * as_double(c.dil[2])
            + as_double(c.p[2]))
            * std::abs(as_double(c.src_sp[2]));
}

// The kernels' steps between ic blocks and kd / kh taps are 64-bit adds: with the sizes a
// descriptor may have (2^60 elements, dilations of 2^30) even those could overflow.
bool steps_fit_i64(const conv_kernel_conf &c) {
    const double limit = 0x1p62;
    for (int sp = 0; sp < 2; ++sp)
        if (std::abs(as_double(c.src_sp[sp])) * as_double(c.dil[sp]) >= limit
            || std::abs(as_double(c.wei_sp[sp])) >= limit)
            return false;
    return std::abs(as_double(c.src_icb)) < limit && std::abs(as_double(c.wei_icb)) < limit;
}

// The decline when the chain's spare registers leave no room for an accumulator block. No chain
// of today's algorithms needs that many (5 at most, doc/injector.md); the register contract
// still makes the host decline rather than spill, should an algorithm ever need more.
std::string too_many_spares(int aux_vecs) {
    return "the post-ops chain needs " + std::to_string(aux_vecs)
           + " spare vector registers, too many to keep any accumulator block";
}

// A desc of like's dims in the layout pattern ("aBcd16b").
memory::desc make_desc(const memory::desc &like, const std::string &pattern) {
    return memory::desc(like.get_dims(), memory::data_type::f32, pattern);
}

// The packed weights of one group: what decides the threading order (conv_conf::ocbg_inner).
double group_weight_bytes(const impl::conv_problem &prb, int simd_w) {
    return 4.0 * as_double(div_up(prb.ocg(), simd_w) * simd_w) * as_double(prb.icg())
           * as_double(prb.k[0]) * as_double(prb.k[1]) * as_double(prb.k[2]);
}

// Threading order: a group's oc block groups innermost when its weights stay in L2 (half of it,
// so that the src rows its calls share fit beside them).
bool ocbg_inner_order(const impl::conv_problem &prb, int simd_w, const uarch &arch) {
    return group_weight_bytes(prb, simd_w) <= as_double(arch.conv_ocbg_inner_weights_bytes);
}

// Fills the sizes and the register blocking (not the strides, which depend on the layouts;
// see set_strides). Returns the cost model's FMA-pipe efficiency of the blocking (0..1), or -1
// when no accumulator block fits beside the aux_vecs spares the post-ops injector needs.
double init_blocking(conv_conf &c, const impl::conv_problem &prb, cpu_isa isa, int aux_vecs,
                     const uarch &arch) {
    const bool avx512 = isa == cpu_isa::avx512;
    c.simd_w = simd_w_of(isa);
    c.n_vregs = n_vregs_of(isa);
    const int simd_w = c.simd_w;
    c.mb = prb.mb;
    c.g = prb.g;
    c.icg = prb.icg();
    c.ocg = prb.ocg();
    c.nb_ic = div_up(c.icg, simd_w);
    c.ic_tail = static_cast<int>(c.icg % simd_w);
    c.n_ocb = div_up(c.ocg, simd_w);
    c.oc_tail = static_cast<int>(c.ocg % simd_w);
    for (int sp = 0; sp < 3; ++sp) {
        c.i[sp] = prb.i[sp];
        c.o[sp] = prb.o[sp];
        c.k[sp] = prb.k[sp];
        c.s[sp] = prb.s[sp];
        c.p[sp] = prb.p[sp];
        c.dil[sp] = prb.d[sp] + 1;
    }

    // Register blocking. During the FMAs a kernel holds ur * nb accumulators, nb weight vectors
    // and one broadcast src vector, or ur broadcasts and one weight vector (hold_bcast); a
    // broadcast into a register shared by nb FMAs beats a {1toN} memory operand per FMA by
    // 10-20% on Zen 5. After the FMAs the post-ops borrow
    // aux_vecs spares, plus the AVX2 tail mask. (ur, nb) come from a small cost model: cycles per
    // (ic, kw) step are bounded by the FMA pipes, the loads (nb + ur) and the FMA latency per
    // chain (arch: 2, 2 and 4 cycles on Zen 5), summed over every block of every oc group; the
    // weights of one oc block group should stay in L2 while a thread walks its rows.
    const int64_t OW = c.o[2];
    const int post_regs = aux_vecs + (!avx512 && c.oc_tail ? 1 : 0);
    // AVX2 without AVX-512VL's opmasks keeps a merged group's lane mask in a register during
    // the FMAs.
    const int lane_mask_regs = !avx512 && !c.evex && c.merged_cg > 0 ? 1 : 0;
    const int ur_cap = avx512 ? arch.conv_max_ur_avx512 : arch.conv_max_ur_avx2;
    const double wei_bytes_per_block = 4.0 * simd_w * c.icg * c.k[0] * c.k[1] * c.k[2];
    // A strided 1x1 convolution read in place broadcasts pixels that share no cache line (no
    // other tap reads between them): each broadcast counts as two loads. Measured on one thread,
    // res3a_branch1 (256 -> 512, 56x56 -> 28x28): AVX2 4 x 3 beats the 6 x 2 the plain count
    // chose by 8% (and 3 x 4 res3a_branch2a's by 3%); AVX-512 7 x 3 beats 14 x 2 by 1-2%.
    const double bcast_loads = c.k[2] == 1 && c.s[2] > 1 ? 2.0 : 1.0;
    // Where the FMAs read src from: a broadcast register shared by the nb FMAs of a pixel (nb
    // weights held), ur broadcasts held while the nb weights stream (hold_bcast), or, for one
    // oc block with several kw taps, every pixel the taps read held once (share_taps).
    // Sharing pays where the FMAs wait for the loads: one oc block's FMAs each read a src value,
    // and units as wide as the vector run two FMAs a cycle against two loads. Units half as wide
    // run one 16-lane FMA a cycle: Zen 4's AVX-512 16 -> 16 3x3 layer, 7 pixels wide, lost 4%.
    enum mode { hold_weights, hold_bcasts, shared_taps };
    const bool share_ok = c.k[2] > 1 && 32 * simd_w <= arch.fma_unit_bits;
    const int n_modes = share_ok ? 3 : 2;
    // Broadcasts per (ic, kw) step for a block of ur_ pixels.
    const auto bcasts = [&](int m, int ur_) {
        if (m == shared_taps) return double(tap_pixels(c, ur_).size()) / as_double(c.k[2]);
        return ur_ * bcast_loads;
    };
    double best = -1.0, best_loads = 0.0;
    for (int m = 0; m < n_modes; ++m)
    for (int nb = 1; nb <= 4 && nb <= c.n_ocb; ++nb) {
        if (m == shared_taps && nb > 1) continue;
        // Registers for the FMAs besides the accumulators: nb weights + 1 broadcast, ur
        // broadcasts + 1 weight, or a register per pixel + 1 weight (from fma_vregs(): the
        // accumulators and the post-ops' spares within n_vregs).
        int ur = 0;
        for (int v = 1; v <= ur_cap && v <= OW; ++v) {
            const int fma_regs = lane_mask_regs
                    + (m == hold_weights ? nb + 1
                       : m == hold_bcasts ? v + 1 : static_cast<int>(held_pixels(c, v).size()) + 1);
            if (v * nb + fma_regs > (m == shared_taps ? c.fma_vregs() : c.n_vregs)
                || v * nb + post_regs > c.n_vregs)
                break; // more pixels need more registers
            ur = v;
        }
        if (ur < 1) continue;
        const int64_t nblocks = div_up(OW, ur);
        ur = static_cast<int>(div_up(OW, nblocks)); // even out the blocks
        auto step_cycles = [&](int ur_, int n) {
            return std::max({ur_ * n / arch.fma_per_cycle,
                             (n + bcasts(m, ur_)) / arch.loads_per_cycle, arch.fma_latency})
                    + 1.0;
        };
        auto row_cycles = [&](int n) {
            const int64_t full = OW / ur, rest = OW % ur;
            return full * step_cycles(ur, n)
                    + (rest ? step_cycles(static_cast<int>(rest), n) : 0.0);
        };
        const int64_t groups_full = c.n_ocb / nb, last = c.n_ocb % nb;
        const double cycles = groups_full * row_cycles(nb)
                + (last ? row_cycles(static_cast<int>(last)) : 0.0);
        double eff = (OW * c.n_ocb / 2.0) / cycles;
        if (nb > 1 && nb * wei_bytes_per_block > as_double(arch.conv_block_weights_bytes))
            eff *= arch.conv_beyond_l2_factor;
        // Ties: fewest loads per FMA, then more oc blocks (measured on AVX2: 4 x 3 beats 3 x 4);
        // a broadcast counts as one load here whatever the stride (as measured).
        const double loads = (nb + (m == shared_taps ? bcasts(m, ur) : ur)) / (nb * ur) - 1e-3 * nb;
        if (eff > best + 1e-9 || (eff > best - 1e-9 && loads < best_loads)) {
            best = eff;
            best_loads = loads;
            c.ur_w = ur;
            c.nb_oc = nb;
            c.hold_bcast = m == hold_bcasts;
            c.share_taps = m == shared_taps;
        }
    }
    c.n_ocbg = div_up(c.n_ocb, c.nb_oc);
    c.ocbg_inner = ocbg_inner_order(prb, simd_w, arch);
    c.narrow_tail = avx512 && arch.fma_unit_bits < 512 && c.oc_tail > 0 && c.oc_tail <= 8;
    return best;
}

// Strides from the three layouts the kernel will read. Returns "" or a reason (e.g. a byte
// displacement beyond 32 bits).
std::string set_strides(conv_conf &c, const data_geom &src, const memory::desc &wei, bool grouped,
                        const data_geom &dst, int nsp) {
    const int64_t simd_w = c.simd_w, f = sizeof(float);
    // src: channel c of a group at (c / simd_w) * src_icb + (c % simd_w) * src_ic.
    c.src_ic = src.s_c * f;
    c.src_icb = (src.blk == 1 ? simd_w * src.s_c : src.s_cb) * f;
    c.src_n = src.s_n * f;
    c.src_cblk = src.blk;
    c.src_cb = src.s_cb * f;
    for (int sp = 0; sp < 3; ++sp) c.src_sp[sp] = src.s_sp[sp] * f;

    // dst: vectors of simd_w channels are contiguous.
    c.dst_ocb = (dst.blk == 1 ? simd_w : dst.s_cb) * f;
    c.dst_n = dst.s_n * f;
    c.dst_cblk = dst.blk;
    c.dst_cb = dst.s_cb * f;
    for (int sp = 0; sp < 3; ++sp) c.dst_sp[sp] = dst.s_sp[sp] * f;

    // wei: the packed layout; strides are per block index along blocked dims.
    const auto &ws = wei.strides();
    const int o = grouped ? 1 : 0; // index of the oc dim
    c.wei_g = grouped ? ws[0] * f : 0;
    c.wei_ocb = ws[o] * f;
    c.wei_icb = ws[o + 1] * f;
    c.wei_ic = simd_w * f;
    for (int sp = 0; sp < 3; ++sp) c.wei_sp[sp] = 0;
    for (int j = 0; j < nsp; ++j) c.wei_sp[sp_index(nsp, j)] = ws[o + 2 + j] * f;

    // Every displacement and immediate the kernel emits must fit in 32 bits: the reach of one
    // row in src, dst and the weights, and the per-channel step. The steps between ic blocks,
    // kd / kh taps and rows are 64-bit adds (add_offset), so planar tensors of any size work.
    const double checks[] = {row_span_bytes(c), std::abs(as_double(c.src_ic)), as_double(c.wei_ic),
            as_double(c.wei_ocb) * 4, as_double(c.wei_sp[2]) * as_double(c.k[2]),
            as_double(c.dst_ocb) * 4, as_double(c.o[2]) * as_double(c.dst_sp[2])};
    for (double v : checks)
        if (!fits_i32(v)) return "a stride or row span exceeds the kernel's 32-bit displacements";
    if (!steps_fit_i64(c)) return "a stride times a dilation exceeds 64 bits";
    return "";
}

// The same for the depthwise kernel (channel blocks along src_ocb / dst_ocb / wei_ocb).
std::string set_dw_strides(conv_conf &c, const data_geom &src, const memory::desc &wei,
                           const data_geom &dst, int nsp) {
    const int64_t simd_w = c.simd_w, f = sizeof(float);
    c.src_ocb = (src.blk == 1 ? simd_w : src.s_cb) * f;
    c.src_n = src.s_n * f;
    c.dst_ocb = (dst.blk == 1 ? simd_w : dst.s_cb) * f;
    c.dst_n = dst.s_n * f;
    for (int sp = 0; sp < 3; ++sp) {
        c.src_sp[sp] = src.s_sp[sp] * f;
        c.dst_sp[sp] = dst.s_sp[sp] * f;
        c.wei_sp[sp] = 0;
    }
    const auto &ws = wei.strides();
    c.wei_ocb = ws[0] * f;
    for (int j = 0; j < nsp; ++j) c.wei_sp[sp_index(nsp, j)] = ws[3 + j] * f;
    // The kernel addresses nb_oc channel blocks from one base (conv_dw_kernel.hpp).
    const double blocks = as_double(c.nb_oc - 1);
    const double checks[] = {row_span_bytes(c), as_double(c.src_sp[0]) * as_double(c.dil[0]),
            as_double(c.src_sp[1]) * as_double(c.dil[1]), as_double(c.wei_sp[0]),
            as_double(c.wei_sp[1]), as_double(c.wei_sp[2]) * as_double(c.k[2]),
            as_double(c.o[2]) * as_double(c.dst_sp[2]),
            blocks * as_double(c.src_ocb) + row_span_bytes(c),
            blocks * as_double(c.dst_ocb) + as_double(c.dst_sp[1]),
            blocks * as_double(c.wei_ocb) + as_double(c.wei_sp[2]) * as_double(c.k[2])};
    for (double v : checks)
        if (!fits_i32(v)) return "a stride or row span exceeds the kernel's 32-bit displacements";
    if (!steps_fit_i64(c)) return "a stride times a dilation exceeds 64 bits";
    return "";
}

// For a 1x1, stride 1, unpadded problem whose src and dst rows are contiguous along h
// (h stride = width * w stride), merges m output rows into one: m is the smallest divisor of
// OH giving rows of at least arch.conv_merged_row_min_pixels (48). Adjusts the problem and both
// row strides.
bool flatten_rows(conv_problem &p, data_geom &src_geom, data_geom &dst_geom, const uarch &arch) {
    const int h = impl::SP_H, w = impl::SP_W;
    if (p.nsp < 2 || p.k[h] != 1 || p.k[w] != 1 || p.s[h] != 1 || p.s[w] != 1 || p.p[h] != 0
            || p.p[w] != 0 || p.p_end[h] != 0 || p.p_end[w] != 0)
        return false;
    if (src_geom.s_sp[h] != p.i[w] * src_geom.s_sp[w]
        || dst_geom.s_sp[h] != p.o[w] * dst_geom.s_sp[w])
        return false;
    int64_t m = 1;
    while (m < p.o[h] && (p.o[h] % m != 0 || p.o[w] * m < arch.conv_merged_row_min_pixels)) ++m;
    if (m == 1) return false;
    p.o[w] = p.i[w] = p.o[w] * m;
    p.o[h] = p.i[h] = p.o[h] / m;
    src_geom.s_sp[h] *= m;
    dst_geom.s_sp[h] *= m;
    return true;
}

// A 1x1 convolution with stride 1 and no padding on dense rows is a matrix product over
// pixels, so several output rows can be one kernel row: short rows (14, 7 pixels) then fill
// the register blocks. But a merged row's src no longer stays in L1 while each oc block group
// reads it, so rows are merged only when the register blocking gains: by the cost model's
// efficiency, at least 5% on AVX-512 (measured, mb2, 2 threads: MobileNet-v2's 1x1 layers
// ic144-960 -> oc32-320 ran 6-12% faster unmerged, where merging gained 0-4% in the model;
// ic512 14x14 -> oc16, +8% in the model, ran 10% faster merged), any gain on AVX2, whose
// blocks of 3-6 pixels leave tails on short rows (ResNet-50's 14x14 and 7x7 1x1 layers: +1-3%).
void merge_rows_if_better(conv_problem &p, data_geom &src_geom, data_geom &dst_geom, cpu_isa isa,
                          int aux_vecs, const conv_conf &kernel_kind, const uarch &arch) {
    conv_problem merged = p;
    data_geom merged_src_geom = src_geom, merged_dst_geom = dst_geom;
    if (!flatten_rows(merged, merged_src_geom, merged_dst_geom, arch)) return;
    // From kernel_kind: merged_cg and evex, which decide the registers the blocking has.
    conv_conf as_is = kernel_kind, as_merged = kernel_kind;
    const double eff = init_blocking(as_is, p, isa, aux_vecs, arch);
    const double merged_eff = init_blocking(as_merged, merged, isa, aux_vecs, arch);
    if (eff < 0 || merged_eff < 0) return;
    const double min_gain = isa == cpu_isa::avx512 ? arch.conv_merge_rows_min_gain_avx512
                                                   : arch.conv_merge_rows_min_gain_avx2;
    if (merged_eff <= eff * min_gain) return;
    p = merged;
    src_geom = merged_src_geom;
    dst_geom = merged_dst_geom;
}

// Weights in the kernel's packed layout kwei: with 'any' the user passes them packed (reordered
// once), else execute() repacks them per call. Merged small groups: the user's weights, or plain
// goihw for 'any', expanded per call. Bias stays the user's plain vector. False if it is not plain.
bool set_weights_and_bias(conv_setup &s, const conv_request &req, const memory::desc &kwei) {
    s.kwei = kwei;
    if (s.merged_groups.enabled())
        s.user.wei = s.merged_groups.user_wei_md();
    else
        s.user.wei = req.wei.is_any() ? kwei : req.wei;
    if (!req.with_bias) return true;
    const memory::desc plain_bias = make_desc(req.bias, "a");
    s.user.bias = req.bias.is_any() ? plain_bias : req.bias;
    return s.user.bias == plain_bias;
}

// Accumulators (pixels times channel blocks) the depthwise kernel can hold beside its FMA
// registers and the chain's spares: the weight vector, plus on AVX2 with a tail a register for
// the masked src load and the mask itself (kept for the whole kernel).
int dw_max_acc(const conv_conf &c, int aux_vecs, const uarch &arch) {
    const bool avx2_tail = c.simd_w == 8 && c.oc_tail != 0;
    const int fma_regs = 1 + (avx2_tail ? 2 : 0);
    const int post_regs = aux_vecs + (avx2_tail ? 1 : 0);
    const int cap = c.simd_w == 16 ? arch.conv_dw_max_acc_avx512 : arch.conv_dw_max_acc_avx2;
    return std::min(cap, c.n_vregs - std::max(fma_regs, post_regs));
}

// Depthwise: channels on the lanes, its own kernel (conv_dw_kernel.hpp). src and dst are
// channel-blocked by simd_w ('any') or nhwc; other layouts are repacked to the blocked one.
std::string init_depthwise(conv_setup &s, const conv_request &req, cpu_isa isa, int aux_vecs,
                           const uarch &arch) {
    const conv_problem &prb = req.prb;
    conv_conf &c = s.conf;
    // The regular blocking fills the sizes; the depthwise fields are set below.
    init_blocking(c, prb, isa, 0, arch);
    const int nsp = prb.nsp, simd_w = c.simd_w;
    const int64_t C = prb.g;
    c.depthwise = true;
    c.narrow_tail = false; // the depthwise kernel's tail stays a masked full vector
    c.hold_bcast = c.share_taps = false; // its FMAs read src vectors, not broadcasts
    c.g = 1; // the channel blocks are the oc blocks of one group
    c.icg = c.ocg = C;
    c.nb_ic = 1;
    c.ic_tail = 0;
    c.n_ocb = div_up(C, simd_w);
    c.oc_tail = static_cast<int>(C % simd_w);
    c.ocbg_inner = false; // each thread walks whole channel planes
    const int acc_max = dw_max_acc(c, aux_vecs, arch);
    if (acc_max < 1) return too_many_spares(aux_vecs);
    const int64_t OW = c.o[2], nblocks = div_up(OW, acc_max);
    c.ur_w = static_cast<int>(div_up(OW, nblocks));
    // Short rows: up to 4 channel blocks per call fill the registers (7-wide rows: 4 x 7).
    c.nb_oc = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({acc_max / c.ur_w, 4, c.n_ocb})));
    c.n_ocbg = div_up(c.n_ocb, c.nb_oc);

    const std::string blocked = blocked_data_pattern(nsp, simd_w);
    s.user.src = req.src.is_any() ? make_desc(req.src, blocked) : req.src;
    s.user.dst = req.dst.is_any() ? make_desc(req.dst, blocked) : req.dst;
    auto direct = [&](const data_geom &g) {
        return g.ok && g.s_c == 1 && (g.blk == 1 || g.blk == simd_w);
    };
    const bool src_direct = direct(analyze_data_desc(s.user.src, nsp));
    const bool dst_direct = direct(analyze_data_desc(s.user.dst, nsp));
    s.ksrc = src_direct ? s.user.src : make_desc(req.src, blocked);
    s.kdst = dst_direct ? s.user.dst : make_desc(req.dst, blocked);
    if (!set_weights_and_bias(s, req, packed_dw_weights_desc(req.wei.get_dims(), nsp, simd_w)))
        return "bias must be a plain vector";
    return set_dw_strides(c, analyze_data_desc(s.ksrc, nsp), s.kwei,
                          analyze_data_desc(s.kdst, nsp), nsp);
}

} // namespace

std::vector<row_block> plan_row(const conv_kernel_conf &c) {
    const int64_t OW = c.o[2], IW = c.i[2], sw = c.s[2], pw = c.p[2];
    const int64_t last_tap = (c.k[2] - 1) * c.dil[2];
    const int ur = c.ur_w;
    const int64_t nblocks = div_up(OW, ur);
    auto len_of = [&](int64_t b) { return static_cast<int>(std::min<int64_t>(ur, OW - b * ur)); };
    auto interior = [&](int64_t b) {
        const int64_t ow0 = b * ur, ow1 = ow0 + len_of(b) - 1;
        return ow0 * sw - pw >= 0 && ow1 * sw - pw + last_tap < IW;
    };
    // The middle run of full interior blocks becomes one loop; the others are unrolled.
    int64_t b1 = 0;
    while (b1 < nblocks && !(interior(b1) && len_of(b1) == ur)) ++b1;
    int64_t b2 = b1;
    while (b2 < nblocks && interior(b2) && len_of(b2) == ur) ++b2;
    if (b2 - b1 < 2) b1 = b2 = nblocks; // not worth a loop
    std::vector<row_block> plan;
    for (int64_t b = 0; b < nblocks;) {
        if (b == b1) {
            plan.push_back({b1 * ur, ur, true, b2 - b1});
            b = b2;
        } else {
            plan.push_back({b * ur, len_of(b), interior(b), 1});
            ++b;
        }
    }
    return plan;
}

cpu_isa conv_kernel_isa(const conv_problem &prb, cpu_isa max_isa, const uarch &arch) {
    if (max_isa < cpu_isa::avx512) return cpu_isa::avx2;
    // FMAs per useful one with simd_w lanes: small groups are merged r at a time with zero blocks
    // (conv_merged_groups.cpp); depthwise apart (its own kernel, no zeros).
    const bool depthwise = prb.g > 1 && prb.icg() == 1 && prb.ocg() == 1;
    auto zero_factor = [&](int lanes) { return depthwise ? 1 : merged_groups::factor(prb, lanes); };
    // 16 lanes cost zero_factor(16) / zero_factor(8) times the FMAs of 8 lanes, and run them
    // fma_unit_bits / 256 times as fast. Measured on the Zen 4 (256-bit units), ResNeXt's
    // 32 groups of 8 (3x3, 56x56, mb2, one thread): 16 lanes 52 GFLOP/s, 8 lanes 95 (oneDNN
    // 78); 64 groups of 4: 24 -> 48; two threads alike.
    const double cost16 = double(zero_factor(16)) / (arch.fma_unit_bits / 256.0);
    return cost16 > double(zero_factor(8)) ? cpu_isa::avx2 : cpu_isa::avx512;
}

std::string init_conv_conf(conv_setup &s, const conv_request &req, cpu_isa isa,
                           const kernel_chain_plan &chain, const uarch &arch) {
    return init_conv_conf(s, req, isa, isa, chain, arch);
}

std::string init_conv_conf(conv_setup &s, const conv_request &req, cpu_isa isa, cpu_isa max_isa,
                           const kernel_chain_plan &chain, const uarch &arch) {
    const conv_problem &prb = req.prb;
    s.chain = chain.chain;
    const int aux_vecs = chain.aux_vecs;
    s.conf.with_bias = req.with_bias;
    if (prb.g > 1 && prb.icg() == 1 && prb.ocg() == 1)
        return init_depthwise(s, req, isa, aux_vecs, arch);
    const int nsp = prb.nsp, simd_w = simd_w_of(isa);
    const bool grouped = req.wei.ndims() == nsp + 3;
    const std::string nhwc = channels_last_pattern(nsp);
    // Groups smaller than a vector become vector-wide ones (conv_merged_groups.hpp): from here
    // on kernel_prb is the problem the kernel runs.
    conv_problem kernel_prb = prb;
    s.merged_groups.init(kernel_prb, simd_w, req.wei);

    // src and dst: 'any' becomes channel-blocked when groups start on block boundaries (nhwc
    // otherwise, and for the few channels of a first layer); a given layout is read directly
    // when the kernel can, else repacked to nhwc per call. Blocks of simd_w channels; or, for
    // 8-lane kernels on a CPU with AVX-512 whose groups are one vector each, the 16-channel
    // blocks of the AVX-512 layers around them, two groups to a block (conv_conf::src_group()).
    const int64_t wide = max_isa >= cpu_isa::avx512 && simd_w == 8 && kernel_prb.g % 2 == 0
                    && kernel_prb.icg() == simd_w && kernel_prb.ocg() == simd_w ? 16 : simd_w;
    const bool src_blk_ok = kernel_prb.g == 1 || kernel_prb.icg() % simd_w == 0;
    const bool dst_blk_ok = kernel_prb.g == 1 || kernel_prb.ocg() % simd_w == 0;
    const std::string blocked = blocked_data_pattern(nsp, static_cast<int>(wide));
    s.user.src = req.src.is_any()
            ? make_desc(req.src, src_blk_ok && prb.ic >= simd_w ? blocked : nhwc)
            : req.src;
    s.user.dst = req.dst.is_any() ? make_desc(req.dst, dst_blk_ok ? blocked : nhwc) : req.dst;
    auto blocks_ok = [&](const data_geom &d) { return d.blk == simd_w || d.blk == wide; };
    const data_geom user_src_geom = analyze_data_desc(s.user.src, nsp);
    const bool src_direct = user_src_geom.ok
            && (user_src_geom.blk == 1
                || (blocks_ok(user_src_geom) && user_src_geom.s_c == 1 && src_blk_ok));
    const data_geom user_dst_geom = analyze_data_desc(s.user.dst, nsp);
    const bool dst_direct = user_dst_geom.ok && user_dst_geom.s_c == 1
            && (user_dst_geom.blk == 1 || (blocks_ok(user_dst_geom) && dst_blk_ok));
    s.ksrc = src_direct ? s.user.src : make_desc(req.src, nhwc);
    s.kdst = dst_direct ? s.user.dst : make_desc(req.dst, nhwc);
    data_geom src_geom = analyze_data_desc(s.ksrc, nsp), dst_geom = analyze_data_desc(s.kdst, nsp);

    // A strided 1x1 convolution reads a dense copy of the pixels it uses, with stride 1
    // (conv_unit_stride.hpp); then short rows of a 1x1 convolution may be merged.
    const unit_stride_src::policy gather_policy {arch.gather_min_oc, arch.cache_line_bytes,
                                                  !ocbg_inner_order(kernel_prb, simd_w, arch)};
    if (s.unit_stride.init(kernel_prb, s.ksrc, gather_policy))
        src_geom = analyze_data_desc(s.unit_stride.compact_md(), nsp);
    // AVX-512 has the registers to lend the chain spares for two accumulators' code interleaved
    // (post_ops_injector::interleaved_aux_vecs_count: at most 8 of 32); AVX2's 16 are the
    // accumulators'. (The depthwise kernel, bound by memory, lends what the chain needs: not
    // measured otherwise.)
    const int dense_aux = isa == cpu_isa::avx512 ? chain.interleaved_aux_vecs : aux_vecs;
    // Read by the blocking, as the kernel's registers depend on them.
    s.conf.merged_cg = s.merged_groups.enabled() ? prb.icg() : 0;
    s.conf.evex = isa == cpu_isa::avx2 && max_isa >= cpu_isa::avx512;
    if (!s.rows_apart)
        merge_rows_if_better(kernel_prb, src_geom, dst_geom, isa, dense_aux, s.conf, arch);
    if (init_blocking(s.conf, kernel_prb, isa, dense_aux, arch) < 0)
        return too_many_spares(aux_vecs);

    const memory::desc kwei = s.merged_groups.enabled()
            ? s.merged_groups.packed_md()
            : packed_weights_desc(req.wei.get_dims(), grouped, nsp, simd_w);
    if (!set_weights_and_bias(s, req, kwei))
        return "bias must be a plain vector";
    return set_strides(s.conf, src_geom, s.kwei, grouped, dst_geom, nsp);
}

std::vector<int64_t> tap_pixels(const conv_kernel_conf &c, int ur, int min_reads) {
    std::vector<int64_t> reads; // one entry per (pixel j, tap kw)
    for (int j = 0; j < ur; ++j)
        for (int64_t kw = 0; kw < c.k[2]; ++kw) reads.push_back(j * c.s[2] + kw * c.dil[2]);
    std::sort(reads.begin(), reads.end());
    std::vector<int64_t> pixels;
    for (size_t i = 0; i < reads.size();) {
        size_t end = i;
        while (end < reads.size() && reads[end] == reads[i]) ++end;
        if (end - i >= static_cast<size_t>(min_reads)) pixels.push_back(reads[i]);
        i = end;
    }
    return pixels;
}

} // namespace jit
} // namespace prim
