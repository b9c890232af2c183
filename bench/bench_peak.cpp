// The machine's fp32 FMA peak, measured now (benchdnn_lite/fma_peak.hpp, the code benchdnn_lite's
// roof lines use too). Percentages of "peak" in doc/performance.md are of this figure: the clock
// of these shared machines changes from day to day, so a peak computed from a nominal frequency
// can be far from what the cores deliver.
//   ./bench/prim_bench --benchmark_filter=fma_peak
#include <benchmark/benchmark.h>

#include <algorithm>

#include "fma_peak.hpp"

namespace {

void fma_peak(benchmark::State &state, bool avx512) {
    if (!bdl::cpu_has_fma_isa(avx512)) {
        state.SkipWithError("the CPU lacks this ISA");
        return;
    }
    int threads = 1;
    double best_ms = 1e30, flops = 0;
    for (auto _ : state) {
        double ms = 0;
        flops = bdl::run_fma_chains(avx512, threads, ms);
        best_ms = std::min(best_ms, ms);
    }
    // Mean over the runs, and the best run: benchdnn_lite's GFLOP/s come from its fastest run,
    // so compare those with GFLOPS_best.
    state.counters["GFLOPS"] = benchmark::Counter(flops * state.iterations() / 1e9,
                                                  benchmark::Counter::kIsRate);
    state.counters["GFLOPS_best"] = flops / (best_ms * 1e6);
    state.counters["threads"] = threads;
}

} // namespace

BENCHMARK_CAPTURE(fma_peak, avx512, true)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(fma_peak, avx2, false)->Unit(benchmark::kMillisecond)->UseRealTime();
