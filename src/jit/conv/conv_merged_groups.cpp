// Merging small groups into vector-wide ones (conv_merged_groups.hpp).
#include <algorithm>

#include "jit/conv/conv_layouts.hpp"
#include "jit/conv/conv_merged_groups.hpp"
#include "common/plain_layout.hpp"

namespace prim {
namespace jit {
namespace {

// dims (g, oc per group, ic per group, then prb's kernel sizes) and the plain pattern for them.
memory::dims weight_dims(const impl::conv_problem &prb, int64_t g, int64_t cg) {
    memory::dims d = {g, cg, cg};
    for (int sp = 3 - prb.nsp; sp < 3; ++sp) d.push_back(prb.k[sp]);
    return d;
}

} // namespace

int merged_groups::factor(const impl::conv_problem &prb, int simd_w) {
    const int64_t cg = prb.icg();
    if (prb.g <= 1 || prb.ocg() != cg || cg >= simd_w || simd_w % cg != 0) return 1;
    const int r = static_cast<int>(simd_w / cg);
    return r > max_r || prb.g % r != 0 ? 1 : r;
}

bool merged_groups::init(impl::conv_problem &prb, int simd_w, const memory::desc &user_wei) {
    const int r = factor(prb, simd_w);
    if (r == 1) return false;
    const int64_t cg = prb.icg();
    r_ = r;
    g_ = prb.g;
    cg_ = cg;
    taps_ = prb.k[0] * prb.k[1] * prb.k[2];
    plain_md_ = impl::plain_desc(weight_dims(prb, g_, cg_));
    user_wei_md_ = user_wei.is_any() ? plain_md_ : user_wei;
    const memory::dims merged = weight_dims(prb, g_ / r_, simd_w);
    packed_md_ = packed_weights_desc(merged, true, prb.nsp, simd_w);
    // expand() writes packed_md_ through packed_offset(): check that they agree (first and last
    // element of the last merged group) rather than trust it.
    for (const int64_t corner : {int64_t(0), int64_t(1)}) {
        memory::dims idx = {g_ / r_ - 1, corner * (simd_w - 1), (1 - corner) * (simd_w - 1)};
        for (int sp = 3 - prb.nsp; sp < 3; ++sp) idx.push_back(corner * (prb.k[sp] - 1));
        const int64_t tap = corner * (taps_ - 1);
        if (packed_md_.offset(idx.data()) != packed_offset(idx[0], idx[1], idx[2], tap)) {
            r_ = 1;
            return false;
        }
    }
    prb.g /= r_;
    return true;
}

int64_t merged_groups::packed_offset(int64_t mg, int64_t o, int64_t i, int64_t tap) const {
    // packed_md_ ("aBCde16c16b" with one oc and one ic block per merged group): per merged
    // group, per tap, a W x W block with oc innermost.
    const int64_t W = cg_ * r_;
    return ((mg * taps_ + tap) * W + i) * W + o;
}

void merged_groups::expand(const float *user_wei, float *packed) const {
    const impl::plain_buffer plain_wei(user_wei_md_, user_wei, true); // goihw, copied if need be
    const float *w = plain_wei.get();
    // Group g is diagonal block g % r of merged group g / r; everything else is 0.
    std::fill_n(packed, packed_md_.nelems_padded(), 0.f);
    for (int64_t g = 0; g < g_; ++g) {
        const int64_t mg = g / r_, off = (g % r_) * cg_;
        for (int64_t o = 0; o < cg_; ++o)
            for (int64_t i = 0; i < cg_; ++i) {
                const float *src = w + ((g * cg_ + o) * cg_ + i) * taps_;
                for (int64_t t = 0; t < taps_; ++t) packed[packed_offset(mg, off + o, off + i, t)] = src[t];
            }
    }
}

} // namespace jit
} // namespace prim
