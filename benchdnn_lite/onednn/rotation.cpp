// Timing in rotation (see rotation.hpp).
#include "onednn/rotation.hpp"

#include <algorithm>
#include <cmath>

namespace bdl {

namespace {

constexpr int rounds_wanted = 20;
constexpr int max_batch = 64;

} // namespace

int rotation_batch(double est_ms, int max_ms) {
    const double per_batch = static_cast<double>(max_ms) / rounds_wanted;
    if (!(est_ms > 0)) return max_batch; // too fast for the clock: the largest batch
    const double n = std::floor(per_batch / est_ms);
    return static_cast<int>(std::clamp(n, 1.0, static_cast<double>(max_batch)));
}

std::vector<timing> time_rotating(const std::vector<std::function<void()>> &sides, int max_ms,
                                  int max_runs) {
    const size_t n = sides.size();
    std::vector<int> batch(n);
    for (size_t i = 0; i < n; ++i) {
        sides[i](); // warm-up: first touch of buffers, lazily built kernels
        const double start = now_ms();
        sides[i]();
        batch[i] = rotation_batch(now_ms() - start, max_ms);
    }
    std::vector<std::vector<double>> t(n);
    const double start = now_ms();
    const double budget = static_cast<double>(max_ms) * static_cast<double>(n);
    bool more = true;
    while (more) {
        for (size_t i = 0; i < n; ++i)
            for (int b = 0; b < batch[i] && static_cast<int>(t[i].size()) < max_runs; ++b) {
                const double t0 = now_ms();
                sides[i]();
                t[i].push_back(now_ms() - t0);
            }
        more = now_ms() - start < budget;
        for (size_t i = 0; i < n; ++i)
            if (static_cast<int>(t[i].size()) >= max_runs) more = false;
    }
    std::vector<timing> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = summarize(t[i]);
    return out;
}

} // namespace bdl
