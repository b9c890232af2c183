// Timing loops.
#include "perf.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace bdl {

double now_ms() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

namespace {

double time_one(const std::function<void()> &run) {
    const double start = now_ms();
    run();
    return now_ms() - start;
}

} // namespace

timing summarize(std::vector<double> &t) {
    timing r;
    r.runs = static_cast<int>(t.size());
    if (t.empty()) return r;
    std::sort(t.begin(), t.end());
    r.min_ms = t.front();
    const size_t mid = t.size() / 2;
    r.median_ms = t.size() % 2 ? t[mid] : 0.5 * (t[mid - 1] + t[mid]);
    return r;
}

timing time_runs(const std::function<void()> &run, int max_ms, int max_runs) {
    run(); // warm-up: first touch of buffers, caches, lazily built kernels
    std::vector<double> t;
    const double start = now_ms();
    do {
        t.push_back(time_one(run));
    } while (now_ms() - start < max_ms && static_cast<int>(t.size()) < max_runs);
    return summarize(t);
}

void time_alternating(const std::function<void()> &a, const std::function<void()> &b, int max_ms,
                      timing &ta, timing &tb, int max_runs) {
    a();
    b();
    std::vector<double> t_a, t_b;
    const double start = now_ms();
    do {
        t_a.push_back(time_one(a));
        t_b.push_back(time_one(b));
    } while (now_ms() - start < 2.0 * max_ms && static_cast<int>(t_a.size()) < max_runs);
    ta = summarize(t_a);
    tb = summarize(t_b);
}

} // namespace bdl
