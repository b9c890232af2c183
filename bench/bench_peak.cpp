// The machine's fp32 FMA peak, measured now (benchdnn_lite/fma_peak.hpp, the code benchdnn_lite's
// roof lines use too). Percentages of "peak" in doc/performance.md are of this figure: the clock
// of these shared machines changes from day to day, so a peak computed from a nominal frequency
// can be far from what the cores deliver.
//   ./bench/prim_bench --benchmark_filter=fma_peak
// And the exact int8 multiply-accumulate peak (vpdpbusd with VNNI, vpmaddwd + vpaddd without),
// in GOPS counted like FLOPs: ./bench/prim_bench --benchmark_filter=int8_peak
#include <benchmark/benchmark.h>

#include <algorithm>

#include "fma_peak.hpp"

namespace {

void fma_peak(benchmark::State &state, prim::cpu_isa isa) {
    if (!bdl::cpu_has_fma_isa(isa == prim::cpu_isa::avx512)) {
        state.SkipWithError("the CPU lacks this ISA");
        return;
    }
    // Each iteration: the best run of 50 ms of runs, as benchdnn_lite's roof lines measure it.
    bdl::fma_peak best;
    for (auto _ : state) {
        const bdl::fma_peak p = bdl::measure_fma_peak(isa, 50);
        if (p.gflops > best.gflops) best = p;
    }
    state.counters["GFLOPS_best"] = best.gflops;
    state.counters["threads"] = best.threads;
}

void int8_peak(benchmark::State &state, prim::cpu_isa isa) {
    bdl::fma_peak best;
    for (auto _ : state) {
        const bdl::fma_peak p = bdl::measure_int8_peak(isa, 50);
        if (p.isa == prim::cpu_isa::none) {
            state.SkipWithError("the CPU lacks this ISA");
            return;
        }
        if (p.gflops > best.gflops) best = p;
    }
    state.counters["GOPS_best"] = best.gflops;
    state.counters["threads"] = best.threads;
}

} // namespace

BENCHMARK_CAPTURE(int8_peak, avx512_vnni, prim::cpu_isa::avx512_vnni)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(int8_peak, avx512, prim::cpu_isa::avx512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(int8_peak, avx2, prim::cpu_isa::avx2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(fma_peak, avx512, prim::cpu_isa::avx512)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(fma_peak, avx2, prim::cpu_isa::avx2)->Unit(benchmark::kMillisecond)->UseRealTime();
