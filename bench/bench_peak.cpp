// The machine's fp32 FMA peak, measured now: every OpenMP thread runs independent FMA chains
// on registers (no memory), enough of them to hide the FMA latency. Percentages of "peak" in
// doc/performance.md are of this figure: the clock of these shared machines changes from day
// to day, so a peak computed from a nominal frequency can be far from what the cores deliver.
//   ./bench/prim_bench --benchmark_filter=fma_peak
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>

#include <immintrin.h>

namespace {

// Independent chains: 2 FMA pipes x 4 cycles of latency = 8 needed; 24 (AVX-512, 32 registers)
// or 12 (AVX2, 16 registers) leave room to spare without spilling.
constexpr int chains_avx512_n = 24, chains_avx2_n = 12;
constexpr long rounds = 1L << 16;   // FMAs per chain per run: about 0.2 ms, like a benchdnn run

// One function per ISA, each compiled for it (the bench itself is built for any x86-64), with
// the same loop: acc = acc * b + c on every chain.
#define PRIM_FMA_CHAINS(chains, VEC, SET1, FMADD, STORE_FIRST)                                        \
    VEC acc[chains];                                                                           \
    const VEC b = SET1(1.0000001f), c = SET1(-0.5f);                                            \
    for (int i = 0; i < chains; ++i) acc[i] = SET1(static_cast<float>(i));                      \
    for (long r = 0; r < rounds; ++r) {                                                        \
        _Pragma("GCC unroll 24") for (int i = 0; i < chains; ++i) acc[i] = FMADD(acc[i], b, c); \
    }                                                                                          \
    float keep = 0;                                                                            \
    for (int i = 0; i < chains; ++i) keep += STORE_FIRST(acc[i]);                               \
    return keep;

__attribute__((target("avx512f"))) float chains_avx512() {
    PRIM_FMA_CHAINS(chains_avx512_n, __m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_cvtss_f32)
}
__attribute__((target("avx2,fma"))) float chains_avx2() {
    PRIM_FMA_CHAINS(chains_avx2_n, __m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_cvtss_f32)
}
#undef PRIM_FMA_CHAINS

void fma_peak(benchmark::State &state, bool avx512) {
    if (avx512 ? !__builtin_cpu_supports("avx512f") : !__builtin_cpu_supports("fma")) {
        state.SkipWithError("the CPU lacks this ISA");
        return;
    }
    const int lanes = avx512 ? 16 : 8;
    int threads = 1;
    double best_s = 1e30;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel
        {
#pragma omp single
            threads = omp_get_num_threads();
            benchmark::DoNotOptimize(avx512 ? chains_avx512() : chains_avx2());
        }
        best_s = std::min(best_s, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    // Mean over the runs, and the best run: benchdnn_lite's GFLOP/s come from its fastest run,
    // so compare those with GFLOPS_best.
    const int chains = avx512 ? chains_avx512_n : chains_avx2_n;
    const double flops_per_run = 2.0 * lanes * chains * rounds * threads;
    state.counters["GFLOPS"] = benchmark::Counter(flops_per_run * state.iterations() / 1e9,
                                                  benchmark::Counter::kIsRate);
    state.counters["GFLOPS_best"] = flops_per_run / best_s / 1e9;
    state.counters["threads"] = threads;
}

} // namespace

BENCHMARK_CAPTURE(fma_peak, avx512, true)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(fma_peak, avx2, false)->Unit(benchmark::kMillisecond)->UseRealTime();
