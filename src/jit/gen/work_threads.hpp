// How many threads a primitive's call should use for its amount of work, and how it runs its
// parts on them.
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

// Calls part(0) ... part(n - 1), each once: on the calling thread when n is 1, else in an OpenMP
// team of n. The team may come out smaller (OMP_THREAD_LIMIT, OMP_DYNAMIC, nested regions):
// each thread then takes every team-th part, so that no part is left undone.
template <class Part>
void run_parts(int n, const Part &part) {
    if (n == 1) return part(0);
#pragma omp parallel num_threads(n)
    for (int t = omp_get_thread_num(); t < n; t += omp_get_num_threads()) part(t);
}

} // namespace jit
} // namespace prim
