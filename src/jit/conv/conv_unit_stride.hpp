// Strided 1x1 convolutions read a dense copy of the pixels they use.
//
// A 1x1 convolution with stride s reads one input pixel in s per spatial dim. Read in place,
// those pixels are scattered (every other 64-byte channel vector, every other row), the
// hardware prefetcher drags in their neighbours as well, and every oc block group re-reads the
// scattered set: on ResNet-50's res4a_branch1 and res5a_branch1 the kernel ran at 0.88-0.92x
// oneDNN, which copies them first ("reduce to unit stride"). So does prim, where the copy pays
// (many output channels reuse each pixel, or a pixel's channels fill less than a cache line;
// see init()): once per call the used pixels are gathered into a buffer of the output's spatial
// size, in the same layout, and the convolution runs on it with stride 1 -- which also lets
// short output rows be merged into longer register blocks where that pays
// (merge_rows_if_better). The gather is split by rows over the convolution's threads
// (thread_pool.hpp: the call that follows it finds the pool's threads still watching).
#pragma once
#include <cstdint>

#include "common/problem.hpp"
#include "jit/conv/conv_layouts.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

class unit_stride_src {
public:
    // When the copy pays (init()).
    struct policy {
        int64_t min_oc;      // from this many output channels per group (uarch::gather_min_oc)
        int64_t line_bytes;  // or, with runs shorter than a line (uarch::cache_line_bytes)
        bool src_reread;     // when each oc block group re-reads all of src (threading order)
    };
    // True when prb is a strided 1x1 convolution without padding whose src layout src_md (the
    // layout the kernel reads) keeps each pixel's channels in contiguous runs, and the copy pays
    // by p. Then compact_md() is the gathered buffer's layout and prb is rewritten to read it
    // (stride 1).
    bool init(impl::conv_problem &prb, const memory::desc &src_md, const policy &p);
    bool enabled() const { return enabled_; }
    const memory::desc &compact_md() const { return compact_md_; }

    // dst (compact_md) = the pixels of src (src_md) the convolution reads: the share of thread
    // ithr of nthr (contiguous output rows), so that the threads of one call split it.
    void gather(const float *src, float *dst, int ithr, int nthr) const;

private:
    bool enabled_ = false;
    memory::desc compact_md_;
    data_geom from_, to_;
    int64_t mb_ = 0, runs_ = 0, run_len_ = 0; // per pixel: runs_ runs of run_len_ floats
    int64_t o_[3] = {1, 1, 1}, s_[3] = {1, 1, 1};
};

} // namespace jit
} // namespace prim
