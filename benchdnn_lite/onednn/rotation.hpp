// Timing several sides in rotation (ours fused, ours unfused, oneDNN, ...), in batches, so that
// every side sees the same machine state over the run: a frequency change or a neighbour's load
// hits all of them alike. Used by --cmp=onednn.
#pragma once
#include <functional>
#include <vector>

#include "perf.hpp"

namespace bdl {

// Each side runs once untimed (warm-up) and once more to estimate its time; then rounds of
// batches: side 0 runs a batch of single executions, each timed, then side 1, and so on, until
// every side has had about max_ms (so the whole takes about sides.size() * max_ms) or max_runs
// runs. A batch lasts about max_ms / 20 (at least one execution), so a side's runs are spread
// over about 20 rounds. MIN_MS and MEDIAN_MS of each side are over its single executions.
std::vector<timing> time_rotating(const std::vector<std::function<void()>> &sides, int max_ms,
                                  int max_runs = 5000);

// The batch size for a side whose single execution takes est_ms, under budget max_ms.
int rotation_batch(double est_ms, int max_ms);

} // namespace bdl
