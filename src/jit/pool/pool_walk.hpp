// How the JIT pooling primitives walk an output row: segments of pixels that share their real
// taps along w (one kernel call each), and offsets of problem-shaped indices in any desc.
#pragma once
#include <cstdint>
#include <vector>

#include "common/pool_problem.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// Pixels [ow0, ow0 + pixels) of an output row whose real taps along w are [first, first + count).
struct pool_segment {
    int64_t ow0, pixels, first, count;
};

// The row's segments: the border pixels one by one (unless neighbours share their taps), the
// interior in one.
inline std::vector<pool_segment> pool_segments(const impl::pool_problem &prb) {
    std::vector<pool_segment> out;
    const int64_t OW = prb.o[impl::SP_W];
    for (int64_t ow = 0; ow < OW;) {
        const impl::tap_range t = impl::real_taps(prb, impl::SP_W, ow);
        int64_t end = ow + 1;
        while (end < OW && impl::real_taps(prb, impl::SP_W, end).first == t.first
               && impl::real_taps(prb, impl::SP_W, end).count == t.count)
            ++end;
        out.push_back({ow, end - ow, t.first, t.count});
        ow = end;
    }
    return out;
}

// An index (n, c, d, h, w) of the problem; the spatial dims not in use are ignored.
struct pool_index {
    int64_t v[5];
};

// Its offset in md (of the problem's rank), md's own dims of size 1 (a broadcast operand) at 0.
inline int64_t pool_offset(const memory::desc &md, const pool_index &at) {
    memory::dim idx[5];
    const int rank = md.ndims();
    idx[0] = at.v[0];
    idx[1] = at.v[1];
    for (int j = 2; j < rank; ++j) idx[j] = at.v[5 - rank + j];
    for (int j = 0; j < rank; ++j)
        if (md.get_dims()[j] == 1) idx[j] = 0;
    return md.offset(idx);
}

} // namespace jit
} // namespace prim
