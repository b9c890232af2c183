// What the plain timing programs that compare a pass with a copy of the same bytes share
// (normalization_timing.cpp, quantize_timing.cpp): a stopwatch, a median, a two-thread copy.
#pragma once
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <vector>

namespace bench {

inline double ms_of(const std::function<void()> &f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Every thread copies a contiguous share of bytes from s to d.
inline void copy(const char *s, char *d, size_t bytes) {
#pragma omp parallel
    {
        const int nthr = omp_get_num_threads(), ithr = omp_get_thread_num();
        const size_t chunk = (bytes / nthr + 63) / 64 * 64;
        const size_t begin = std::min(bytes, chunk * ithr);
        std::memcpy(d + begin, s + begin, std::min(bytes, begin + chunk) - begin);
    }
}

} // namespace bench
