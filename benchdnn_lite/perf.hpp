// Timing for --mode=P: one warm-up run, then timed runs until the budget is spent.
#pragma once
#include <functional>
#include <vector>

namespace bdl {

struct timing {
    double min_ms = 0, median_ms = 0;
    int runs = 0;
};

// Runs `run` once untimed, then times single runs until max_ms have passed (at least one run,
// at most max_runs).
timing time_runs(const std::function<void()> &run, int max_ms, int max_runs = 5000);

// Two sides timed alternately (a, b, a, b, ...) so that both see the same machine state; each
// side gets about max_ms.
void time_alternating(const std::function<void()> &a, const std::function<void()> &b, int max_ms,
                      timing &ta, timing &tb, int max_runs = 5000);

// Min and median of run times in ms (sorts t).
timing summarize(std::vector<double> &t);

double now_ms();

} // namespace bdl
