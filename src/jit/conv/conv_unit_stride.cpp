// The gather of a strided 1x1 convolution's pixels (conv_unit_stride.hpp).
#include "jit/conv/conv_unit_stride.hpp"

namespace prim {
namespace jit {

bool unit_stride_src::init(impl::conv_problem &prb, const memory::desc &src_md, const policy &p) {
    bool strided = false;
    for (int sp = 0; sp < 3; ++sp) {
        if (prb.k[sp] != 1 || prb.p[sp] != 0 || (prb.o[sp] - 1) * prb.s[sp] >= prb.i[sp])
            return false;
        strided = strided || prb.s[sp] > 1;
    }
    from_ = analyze_data_desc(src_md, prb.nsp);
    // Each pixel's channels must lie in contiguous runs: channel blocks, or channels last.
    if (!strided || !from_.ok || from_.s_c != 1) return false;
    // The copy pays when many output channels reuse each gathered pixel: measured on the six
    // strided 1x1 layers of ResNet-50 with 16-channel blocks (AVX-512; mb2, two threads), it
    // gains 5% with 1024 output channels and 14% with 2048, but loses 9-17% with 128-512 (the
    // copy costs more than the scattered reads it saves). min_oc is 1024 there (jit/gen/uarch.hpp);
    // on Zen 4, with in-place reads costed as two loads a broadcast since, 2048 (jit/gen/uarch.cpp).
    // With fewer channels, it pays where a pixel's channels fill less than a cache line
    // (8-channel blocks on AVX2), so that every line read in place also brings in a pixel the
    // convolution skips, and each oc block group re-reads all of src (the threading order for
    // weights beyond L2): measured on AVX2 (mb2), res5a_branch2a (1024 -> 512, 14x14 -> 7x7)
    // +20% on one thread, +9% on two; on res3a_branch1 and res3a_branch2a, whose oc block groups
    // share each src row from L1, it lost 7-10%, and on AVX-512 the layers below 1024 lose 2-8%.
    const int64_t run_bytes = (from_.blk == 1 ? prb.ic : from_.blk) * int64_t(sizeof(float));
    const bool pays = prb.ocg() >= p.min_oc || (run_bytes < p.line_bytes && p.src_reread);
    if (!pays) return false;
    memory::dims dims = {prb.mb, prb.ic};
    for (int sp = 3 - prb.nsp; sp < 3; ++sp) dims.push_back(prb.o[sp]);
    compact_md_ = memory::desc(dims, memory::data_type::f32, src_md.layout());
    to_ = analyze_data_desc(compact_md_, prb.nsp);
    if (!to_.ok) return false;
    run_len_ = from_.blk == 1 ? prb.ic : from_.blk;
    runs_ = from_.blk == 1 ? 1 : src_md.padded_dims()[1] / from_.blk;
    mb_ = prb.mb;
    for (int sp = 0; sp < 3; ++sp) {
        o_[sp] = prb.o[sp];
        s_[sp] = prb.s[sp];
        prb.i[sp] = prb.o[sp];
        prb.s[sp] = 1;
        prb.p_end[sp] = 0;
    }
    enabled_ = true;
    return true;
}

void unit_stride_src::gather(const float *src, float *dst, int ithr, int nthr) const {
    const int64_t rows = mb_ * o_[0] * o_[1];
    // Channel blocks: each run is a short stretch of a row in another channel plane, too short
    // for the hardware prefetcher to follow, so the pixel two planes on is asked for ahead.
    // Channels last reads one long run per pixel, which the hardware follows.
    const int64_t ahead = 2;
    for (int64_t row = rows * ithr / nthr; row < rows * (ithr + 1) / nthr; ++row) {
        const int64_t oh = row % o_[1], od = row / o_[1] % o_[0], n = row / (o_[1] * o_[0]);
        for (int64_t r = 0; r < runs_; ++r) {
            const float *s = src + n * from_.s_n + r * from_.s_cb + od * s_[0] * from_.s_sp[0]
                             + oh * s_[1] * from_.s_sp[1];
            float *d = dst + n * to_.s_n + r * to_.s_cb + od * to_.s_sp[0] + oh * to_.s_sp[1];
            for (int64_t ow = 0; ow < o_[2]; ++ow) {
                const float *sp = s + ow * s_[2] * from_.s_sp[2];
                if (r + ahead < runs_) __builtin_prefetch(sp + ahead * from_.s_cb);
                float *dp = d + ow * to_.s_sp[2];
                for (int64_t k = 0; k < run_len_; ++k) dp[k] = sp[k];
            }
        }
    }
}

} // namespace jit
} // namespace prim
