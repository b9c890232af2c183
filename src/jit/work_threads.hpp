// How many threads a primitive's call should use for its amount of work.
#pragma once
#include <algorithm>
#include <cstdint>

#include <omp.h>

namespace prim {
namespace jit {

// At most one thread per half MFLOP: waking a second thread costs about 2.5 us here, so it
// pays from about 1 MFLOP of work on (measured: an mb8 64->64 inner product took 3.9 us on two
// threads, 1.6 us on one; a 3x3 8->8 5x5 convolution 3.8 us through a one-thread parallel
// region, 0.6 us without one). Never more threads than items, and one inside a parallel
// region. A result of 1 means: run on the calling thread, without entering a parallel region.
inline int threads_for_work(double flops, int64_t items) {
    constexpr double min_flops_per_thread = 1 << 19;
    const int64_t max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
    return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(
            {max_threads, items, static_cast<int64_t>(flops / min_flops_per_thread)})));
}

} // namespace jit
} // namespace prim
