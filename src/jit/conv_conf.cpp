// Sizes, strides and register blocking of the JIT convolution (see conv_conf.hpp).
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>

#include "jit/conv_conf.hpp"

namespace prim {
namespace jit {

namespace {

int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Spatial dim j (0 = outermost in use) of an nsp-dim problem as an index into the d/h/w arrays.
int sp_index(int nsp, int j) { return 3 - nsp + j; }

// The letters of the spatial dims of a rank-(first + nsp) tensor, starting at letter `first`.
std::string spatial_letters(int first, int nsp) {
    std::string s;
    for (int j = 0; j < nsp; ++j) s += static_cast<char>('a' + first + j);
    return s;
}

bool fits_i32(double v) { return v >= INT32_MIN / 2 && v <= INT32_MAX / 2; }

// Displacement checks are computed in double: with huge strides the products themselves would
// overflow an int64.
double dbl(int64_t v) { return static_cast<double>(v); }

// Bytes a kernel row reaches in src along w.
double row_span_bytes(const conv_conf &c) {
    return (dbl(c.o[2]) * dbl(c.s[2]) + dbl(c.k[2]) * dbl(c.dil[2]) + dbl(c.p[2])) * std::abs(dbl(c.src_sp[2]));
}

} // namespace

std::vector<row_block> plan_row(const conv_conf &c) {
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

data_geom analyze_data_desc(const memory::desc &md, int nsp) {
    data_geom g;
    if (md.is_zero() || md.is_any() || md.ndims() != nsp + 2) return g;
    // The layout string: one letter per dim, then the inner blocks ("aBcd16b").
    const std::string lay = md.layout();
    size_t pos = 0;
    while (pos < lay.size() && std::isalpha(static_cast<unsigned char>(lay[pos]))) ++pos;
    const std::string blocks = lay.substr(pos);
    const auto &st = md.strides();
    if (blocks.empty()) {
        g.blk = 1;
        g.s_c = st[1];
        g.s_cb = st[1];
    } else {
        // Exactly one inner block, on the channel dim (b).
        size_t end = 0;
        const long blk = std::stol(blocks, &end);
        if (end + 1 != blocks.size() || blocks[end] != 'b') return g;
        g.blk = blk;
        g.s_c = 1;
        g.s_cb = st[1];
    }
    g.s_n = st[0];
    for (int j = 0; j < nsp; ++j) g.s_sp[sp_index(nsp, j)] = st[2 + j];
    g.ok = true;
    return g;
}

std::string blocked_data_pattern(int nsp, int simd_w) {
    return "aB" + spatial_letters(2, nsp) + std::to_string(simd_w) + "b";
}

std::string channels_last_pattern(int nsp) { return "a" + spatial_letters(2, nsp) + "b"; }

memory::desc packed_weights_desc(const memory::dims &wei_dims, bool grouped, int nsp, int simd_w) {
    const std::string w = std::to_string(simd_w);
    const std::string pattern = grouped ? "aBC" + spatial_letters(3, nsp) + w + "c" + w + "b"
                                        : "AB" + spatial_letters(2, nsp) + w + "b" + w + "a";
    return memory::desc(wei_dims, memory::data_type::f32, pattern);
}

memory::desc packed_dw_weights_desc(const memory::dims &wei_dims, int nsp, int simd_w) {
    return memory::desc(wei_dims, memory::data_type::f32,
                        "Abc" + spatial_letters(3, nsp) + std::to_string(simd_w) + "a");
}

std::string init_conv_blocking(conv_conf &c, const impl::conv_problem &prb, cpu_isa isa,
                               int aux_vecs) {
    const bool avx512 = isa == cpu_isa::avx512;
    c.simd_w = avx512 ? 16 : 8;
    c.n_vregs = avx512 ? 32 : 16;
    const int W = c.simd_w;
    c.mb = prb.mb;
    c.g = prb.g;
    c.icg = prb.icg();
    c.ocg = prb.ocg();
    c.nb_ic = div_up(c.icg, W);
    c.ic_tail = static_cast<int>(c.icg % W);
    c.n_ocb = div_up(c.ocg, W);
    c.oc_tail = static_cast<int>(c.ocg % W);
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
    // (ic, kw) step are bounded by the FMA pipes (2 per cycle), the loads (nb + ur, about 2 per
    // cycle) and the FMA latency (4 cycles per chain), summed over every block of every oc
    // group; the weights of one oc block group should stay in L2 while a thread walks its rows.
    const int64_t OW = c.o[2];
    const int post_regs = aux_vecs + (!avx512 && c.oc_tail ? 1 : 0);
    const int ur_cap = avx512 ? 28 : 14; // bounds the code size of one block
    const double wei_bytes_per_block = 4.0 * W * c.icg * c.k[0] * c.k[1] * c.k[2];
    double best = -1.0, best_loads = 0.0;
    for (int hold = 0; hold < 2; ++hold)
    for (int nb = 1; nb <= 4 && nb <= c.n_ocb; ++nb) {
        // Registers for the FMAs besides the accumulators: nb weights + 1 broadcast, or (hold)
        // ur broadcasts + 1 weight.
        int ur = 0;
        for (int u = 1; u <= ur_cap && u <= OW; ++u) {
            const int fma_regs = hold ? u + 1 : nb + 1;
            if (u * nb + std::max(fma_regs, post_regs) <= c.n_vregs) ur = u;
        }
        if (ur < 1) continue;
        const int64_t nblocks = div_up(OW, ur);
        ur = static_cast<int>(div_up(OW, nblocks)); // even out the blocks
        auto step_cycles = [](int u, int n) {
            return std::max({u * n / 2.0, (n + u) / 2.0, 4.0}) + 1.0;
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
        if (nb > 1 && nb * wei_bytes_per_block > 1024.0 * 1024) eff *= 0.85; // beyond L2
        // Ties: fewest loads per FMA, then more oc blocks (measured on AVX2: 4 x 3 beats 3 x 4).
        const double loads = double(nb + ur) / (nb * ur) - 1e-3 * nb;
        if (eff > best + 1e-9 || (eff > best - 1e-9 && loads < best_loads)) {
            best = eff;
            best_loads = loads;
            c.ur_w = ur;
            c.nb_oc = nb;
            c.hold_bcast = hold;
            c.model_eff = eff;
        }
    }
    if (best < 0)
        return "the post-ops chain needs " + std::to_string(aux_vecs)
                + " spare vector registers, too many to keep any accumulator block";
    c.n_ocbg = div_up(c.n_ocb, c.nb_oc);
    c.ocbg_inner = c.n_ocb * wei_bytes_per_block <= 512.0 * 1024;
    return "";
}

std::string set_strides(conv_conf &c, const data_geom &src, const memory::desc &wei, bool grouped,
                        const data_geom &dst, int nsp) {
    const int64_t W = c.simd_w, f = sizeof(float);
    // src: channel c of a group at (c / W) * src_icb + (c % W) * src_ic.
    c.src_ic = src.s_c * f;
    c.src_icb = (src.blk == 1 ? W * src.s_c : src.s_cb) * f;
    c.src_n = src.s_n * f;
    c.src_g = (src.blk == 1 ? c.icg * src.s_c : c.icg / src.blk * src.s_cb) * f;
    for (int sp = 0; sp < 3; ++sp) c.src_sp[sp] = src.s_sp[sp] * f;

    // dst: vectors of W channels are contiguous.
    c.dst_ocb = (dst.blk == 1 ? W : dst.s_cb) * f;
    c.dst_n = dst.s_n * f;
    c.dst_g = (dst.blk == 1 ? c.ocg : c.ocg / dst.blk * dst.s_cb) * f;
    for (int sp = 0; sp < 3; ++sp) c.dst_sp[sp] = dst.s_sp[sp] * f;

    // wei: the packed layout; strides are per block index along blocked dims.
    const auto &ws = wei.strides();
    const int o = grouped ? 1 : 0; // index of the oc dim
    c.wei_g = grouped ? ws[0] * f : 0;
    c.wei_ocb = ws[o] * f;
    c.wei_icb = ws[o + 1] * f;
    c.wei_ic = W * f;
    for (int sp = 0; sp < 3; ++sp) c.wei_sp[sp] = 0;
    for (int j = 0; j < nsp; ++j) c.wei_sp[sp_index(nsp, j)] = ws[o + 2 + j] * f;

    // Every displacement the kernel emits must fit in 32 bits.
    const double checks[] = {dbl(c.src_icb), row_span_bytes(c) + dbl(W) * std::abs(dbl(c.src_ic)),
            dbl(c.src_sp[0]) * dbl(c.dil[0]), dbl(c.src_sp[1]) * dbl(c.dil[1]), dbl(c.wei_icb),
            dbl(c.wei_ocb) * 4, dbl(c.wei_sp[0]), dbl(c.wei_sp[1]), dbl(c.wei_sp[2]) * dbl(c.k[2]),
            dbl(c.dst_ocb) * 4, dbl(c.o[2]) * dbl(c.dst_sp[2])};
    for (double v : checks)
        if (!fits_i32(v)) return "a stride or row span exceeds the kernel's 32-bit displacements";
    return "";
}

std::string set_dw_strides(conv_conf &c, const data_geom &src, const memory::desc &wei,
                           const data_geom &dst, int nsp) {
    const int64_t W = c.simd_w, f = sizeof(float);
    c.src_ocb = (src.blk == 1 ? W : src.s_cb) * f;
    c.src_n = src.s_n * f;
    c.dst_ocb = (dst.blk == 1 ? W : dst.s_cb) * f;
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
    const double blocks = dbl(c.nb_oc - 1);
    const double checks[] = {row_span_bytes(c), dbl(c.src_sp[0]) * dbl(c.dil[0]),
            dbl(c.src_sp[1]) * dbl(c.dil[1]), dbl(c.wei_sp[0]), dbl(c.wei_sp[1]),
            dbl(c.wei_sp[2]) * dbl(c.k[2]), dbl(c.o[2]) * dbl(c.dst_sp[2]),
            blocks * dbl(c.src_ocb) + row_span_bytes(c), blocks * dbl(c.dst_ocb) + dbl(c.dst_sp[1]),
            blocks * dbl(c.wei_ocb) + dbl(c.wei_sp[2]) * dbl(c.k[2])};
    for (double v : checks)
        if (!fits_i32(v)) return "a stride or row span exceeds the kernel's 32-bit displacements";
    return "";
}

} // namespace jit
} // namespace prim
