// How the fused dw passes (f32: conv/jit_conv_dw_fused.cpp, int8: int8/jit_conv_dw_int8.cpp) cut
// one execute into items (image, chunk of channel units, strip of depthwise output rows), and
// the one rule that chooses the cut.
#pragma once
#include <algorithm>
#include <cstdint>

namespace prim {
namespace jit {

// What the rule weighs.
struct dw_pair_work {
    int64_t mb = 1;          // images
    int64_t n_units = 1;     // channel units (whole oc groups of both kernels; the last may be partial)
    int64_t min_chunks = 1;  // chunks at least (a pass's buffer budget)
    double unit_weight = 1;  // one unit's products, in the pass's measure (f32: its channel blocks)
    double total_weight = 1; // every unit's (f32: all blocks, the last unit's partial)
    int64_t oh = 1, s = 1, k = 1; // depthwise output rows, stride, kernel
    int64_t h = 1;           // the 1x1's output rows
    double pw_row = 0;       // products of one 1x1 row, per unit weight
    double dw_row = 0;       // products of one depthwise output row, per unit weight
};

struct dw_pair_split {
    int64_t chunk_units = 1, chunks = 1, strips = 1;
    int64_t items(int64_t mb) const { return mb * chunks * strips; }
};

// The split that finishes first by a count of products: an item of u units and r output rows
// costs u times (its 1x1 rows · pw_row + r · dw_row), its 1x1 rows being r · S plus the halo
// K - S of a strip. The threads take items as they come (thread_pool.hpp), so a call lasts
// about its work over the threads plus one item: a thread that wakes late still finds work
// (with two items, the caller waited for the late one's half). Channel chunks cost nothing;
// strips cost their halo. Ties: fewer items. (At most 4 · threads chunks and strips are tried.)
inline dw_pair_split choose_dw_pair_split(const dw_pair_work &w, int threads) {
    const int64_t most = 4 * static_cast<int64_t>(threads);
    dw_pair_split best;
    double best_cost = -1.0;
    for (int64_t chunks = w.min_chunks; chunks <= std::max(w.min_chunks, std::min(w.n_units, most)); ++chunks)
        for (int64_t strips = 1; strips <= std::min(w.oh, most); ++strips) {
            dw_pair_split sp;
            sp.chunk_units = (w.n_units + chunks - 1) / chunks;
            sp.chunks = (w.n_units + sp.chunk_units - 1) / sp.chunk_units;
            sp.strips = strips;
            const int64_t rows = (w.oh + strips - 1) / strips;
            const int64_t pw_rows = std::min(rows * w.s + std::max<int64_t>(0, w.k - w.s), w.h);
            const double item = sp.chunk_units * w.unit_weight * (pw_rows * w.pw_row + rows * w.dw_row);
            const double total = w.mb * w.total_weight * (strips * pw_rows * w.pw_row + w.oh * w.dw_row);
            const double cost = threads == 1 ? total : total / threads + item;
            if (best_cost < 0 || cost < best_cost * (1 - 1e-9)) {
                best_cost = cost;
                best = sp;
            }
        }
    return best;
}

} // namespace jit
} // namespace prim
