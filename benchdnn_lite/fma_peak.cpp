// The FMA peak (fma_peak.hpp).
#include "fma_peak.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>

#include <immintrin.h>

namespace bdl {

namespace {

// Independent chains: 2 FMA pipes x 4 cycles of latency = 8 needed; 24 (AVX-512, 32 registers)
// or 12 (AVX2, 16 registers) leave room to spare without spilling.
constexpr int chains_avx512_n = 24, chains_avx2_n = 12;
// FMAs per chain per run: about 0.08 ms, so that 50 ms hold hundreds of runs and the best of
// them is one when every thread had its core (on a shared machine a thread that waits out
// another job makes the whole run slow).
constexpr long rounds = 1L << 15;

// One function per ISA, each compiled for it (the driver itself is built for any x86-64), with
// the same loop: acc = acc * b + c on every chain.
#define BDL_FMA_CHAINS(chains, VEC, SET1, FMADD, FIRST)                                          \
    VEC acc[chains];                                                                           \
    const VEC b = SET1(1.0000001f), c = SET1(-0.5f);                                            \
    for (int i = 0; i < chains; ++i) acc[i] = SET1(static_cast<float>(i));                      \
    for (long r = 0; r < rounds; ++r) {                                                        \
        _Pragma("GCC unroll 24") for (int i = 0; i < chains; ++i) acc[i] = FMADD(acc[i], b, c); \
    }                                                                                          \
    float keep = 0;                                                                            \
    for (int i = 0; i < chains; ++i) keep += FIRST(acc[i]);                                     \
    return keep;

__attribute__((target("avx512f"))) float chains_avx512() {
    BDL_FMA_CHAINS(chains_avx512_n, __m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_cvtss_f32)
}
__attribute__((target("avx2,fma"))) float chains_avx2() {
    BDL_FMA_CHAINS(chains_avx2_n, __m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_cvtss_f32)
}
#undef BDL_FMA_CHAINS

// The exact int8 multiply-accumulate (doc/int8.md) on independent integer chains: with VNNI
// vpdpbusd (64 u8·s8 products into the 16 s32 lanes of a zmm), without it vpmaddwd on 16-bit
// values and vpaddd (32 products a zmm, 16 a ymm), the sequence prim's kernels use where
// vpmaddubsw would saturate. Written in assembly: compiled from intrinsics, the chains went
// through the stack on every step (16 ymm registers hold AVX2's 12 chains, b and the product only
// when allocated by hand). The values wrap; only the rate matters. 16 chains (12 on AVX2).
constexpr int int8_chains_zmm = 16, int8_chains_ymm = 12;
const int32_t int8_ones = 0x01010101;

__attribute__((target("avx512f,avx512vnni"))) float int8_chains_vnni() {
    long n = rounds;
    asm volatile(
            "vpbroadcastd %1, %%zmm16\n"
            "1:\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm0\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm1\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm2\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm3\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm4\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm5\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm6\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm7\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm8\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm9\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm10\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm11\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm12\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm13\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm14\n"
            "vpdpbusd %%zmm16, %%zmm16, %%zmm15\n"
            "dec %0\n"
            "jnz 1b\n"
            : "+r"(n)
            : "m"(int8_ones)
            : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "cc");
    return 0.f;
}
__attribute__((target("avx512f,avx512bw"))) float int8_chains_avx512() {
    long n = rounds;
    asm volatile(
            "vpbroadcastd %1, %%zmm16\n"
            "1:\n"
            "vpmaddwd %%zmm16, %%zmm0, %%zmm17\n" "vpaddd %%zmm17, %%zmm0, %%zmm0\n"
            "vpmaddwd %%zmm16, %%zmm1, %%zmm17\n" "vpaddd %%zmm17, %%zmm1, %%zmm1\n"
            "vpmaddwd %%zmm16, %%zmm2, %%zmm17\n" "vpaddd %%zmm17, %%zmm2, %%zmm2\n"
            "vpmaddwd %%zmm16, %%zmm3, %%zmm17\n" "vpaddd %%zmm17, %%zmm3, %%zmm3\n"
            "vpmaddwd %%zmm16, %%zmm4, %%zmm17\n" "vpaddd %%zmm17, %%zmm4, %%zmm4\n"
            "vpmaddwd %%zmm16, %%zmm5, %%zmm17\n" "vpaddd %%zmm17, %%zmm5, %%zmm5\n"
            "vpmaddwd %%zmm16, %%zmm6, %%zmm17\n" "vpaddd %%zmm17, %%zmm6, %%zmm6\n"
            "vpmaddwd %%zmm16, %%zmm7, %%zmm17\n" "vpaddd %%zmm17, %%zmm7, %%zmm7\n"
            "vpmaddwd %%zmm16, %%zmm8, %%zmm17\n" "vpaddd %%zmm17, %%zmm8, %%zmm8\n"
            "vpmaddwd %%zmm16, %%zmm9, %%zmm17\n" "vpaddd %%zmm17, %%zmm9, %%zmm9\n"
            "vpmaddwd %%zmm16, %%zmm10, %%zmm17\n" "vpaddd %%zmm17, %%zmm10, %%zmm10\n"
            "vpmaddwd %%zmm16, %%zmm11, %%zmm17\n" "vpaddd %%zmm17, %%zmm11, %%zmm11\n"
            "vpmaddwd %%zmm16, %%zmm12, %%zmm17\n" "vpaddd %%zmm17, %%zmm12, %%zmm12\n"
            "vpmaddwd %%zmm16, %%zmm13, %%zmm17\n" "vpaddd %%zmm17, %%zmm13, %%zmm13\n"
            "vpmaddwd %%zmm16, %%zmm14, %%zmm17\n" "vpaddd %%zmm17, %%zmm14, %%zmm14\n"
            "vpmaddwd %%zmm16, %%zmm15, %%zmm17\n" "vpaddd %%zmm17, %%zmm15, %%zmm15\n"
            "dec %0\n"
            "jnz 1b\n"
            : "+r"(n)
            : "m"(int8_ones)
            : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "cc");
    return 0.f;
}
__attribute__((target("avx2"))) float int8_chains_avx2() {
    long n = rounds;
    asm volatile(
            "vpbroadcastd %1, %%ymm12\n"
            "1:\n"
            "vpmaddwd %%ymm12, %%ymm0, %%ymm13\n" "vpaddd %%ymm13, %%ymm0, %%ymm0\n"
            "vpmaddwd %%ymm12, %%ymm1, %%ymm13\n" "vpaddd %%ymm13, %%ymm1, %%ymm1\n"
            "vpmaddwd %%ymm12, %%ymm2, %%ymm13\n" "vpaddd %%ymm13, %%ymm2, %%ymm2\n"
            "vpmaddwd %%ymm12, %%ymm3, %%ymm13\n" "vpaddd %%ymm13, %%ymm3, %%ymm3\n"
            "vpmaddwd %%ymm12, %%ymm4, %%ymm13\n" "vpaddd %%ymm13, %%ymm4, %%ymm4\n"
            "vpmaddwd %%ymm12, %%ymm5, %%ymm13\n" "vpaddd %%ymm13, %%ymm5, %%ymm5\n"
            "vpmaddwd %%ymm12, %%ymm6, %%ymm13\n" "vpaddd %%ymm13, %%ymm6, %%ymm6\n"
            "vpmaddwd %%ymm12, %%ymm7, %%ymm13\n" "vpaddd %%ymm13, %%ymm7, %%ymm7\n"
            "vpmaddwd %%ymm12, %%ymm8, %%ymm13\n" "vpaddd %%ymm13, %%ymm8, %%ymm8\n"
            "vpmaddwd %%ymm12, %%ymm9, %%ymm13\n" "vpaddd %%ymm13, %%ymm9, %%ymm9\n"
            "vpmaddwd %%ymm12, %%ymm10, %%ymm13\n" "vpaddd %%ymm13, %%ymm10, %%ymm10\n"
            "vpmaddwd %%ymm12, %%ymm11, %%ymm13\n" "vpaddd %%ymm13, %%ymm11, %%ymm11\n"
            "dec %0\n"
            "jnz 1b\n"
            "vzeroupper\n"
            : "+r"(n)
            : "m"(int8_ones)
            : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "cc");
    return 0.f;
}
#undef BDL_INT8_CHAINS

double clock_ms() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

} // namespace

bool cpu_has_fma_isa(bool avx512) {
    return avx512 ? __builtin_cpu_supports("avx512f") : __builtin_cpu_supports("fma")
                    && __builtin_cpu_supports("avx2");
}

namespace {

// The best of repeated runs of `chains` (ops_per_run operations each) for about budget_ms, every
// OpenMP thread running it at once.
fma_peak measure(prim::cpu_isa isa, float (*chains)(), double ops_per_run, double budget_ms) {
    fma_peak p;
    p.isa = isa;
    // One parallel region, the runs inside it between barriers: waking the threads for every run
    // would time the OS's scheduling (12 ms per run was measured under load for 0.2 ms of work).
    // A run is timed from the barrier where every thread is present to the one where all are done.
    const double start = clock_ms();
    double best_ms = 0;
    bool stop = false;
    volatile float sink = 0; // keeps the chains' results alive
#pragma omp parallel
    {
#pragma omp single
        p.threads = omp_get_num_threads();
        double t0 = 0;
        while (true) {
#pragma omp barrier
#pragma omp master
            t0 = clock_ms();
            const float v = chains();
#pragma omp atomic
            sink += v;
#pragma omp barrier
#pragma omp master
            {
                const double now = clock_ms(), ms = now - t0;
                if (ms > 0 && (best_ms == 0 || ms < best_ms)) best_ms = ms;
                stop = now - start >= budget_ms;
            }
#pragma omp barrier
            if (stop) break;
        }
    }
    (void)sink;
    p.ms = clock_ms() - start;
    if (best_ms > 0) p.gflops = ops_per_run * p.threads / (best_ms * 1e6);
    return p;
}

// The ISA the library runs (PRIM_MAX_CPU_ISA caps it), the machine's best when that is none.
prim::cpu_isa library_isa() {
    prim::cpu_isa isa = prim::cpu_isa::none;
    try {
        isa = prim::get_effective_cpu_isa();
    } catch (...) {
        // A bad PRIM_MAX_CPU_ISA fails every case on its own: the roof is the machine's.
    }
    if (isa == prim::cpu_isa::none || isa == prim::cpu_isa::all) {
        isa = cpu_has_fma_isa(true) ? prim::cpu_isa::avx512 : prim::cpu_isa::avx2;
        if (isa == prim::cpu_isa::avx512 && __builtin_cpu_supports("avx512vnni"))
            isa = prim::cpu_isa::avx512_vnni;
    }
    return isa;
}

} // namespace

fma_peak measure_fma_peak(prim::cpu_isa isa, double budget_ms) {
    const bool avx512 = isa == prim::cpu_isa::avx512;
    if ((isa != prim::cpu_isa::avx512 && isa != prim::cpu_isa::avx2) || !cpu_has_fma_isa(avx512))
        return fma_peak();
    const int lanes = avx512 ? 16 : 8, chains = avx512 ? chains_avx512_n : chains_avx2_n;
    return measure(isa, avx512 ? chains_avx512 : chains_avx2, 2.0 * lanes * chains * rounds,
                   budget_ms);
}

fma_peak measure_int8_peak(prim::cpu_isa isa, double budget_ms) {
    switch (isa) {
    case prim::cpu_isa::avx512_vnni: // 64 products a zmm
        if (!__builtin_cpu_supports("avx512vnni")) return fma_peak();
        return measure(isa, int8_chains_vnni, 2.0 * 64 * int8_chains_zmm * rounds, budget_ms);
    case prim::cpu_isa::avx512: // 32 products a zmm
        if (!__builtin_cpu_supports("avx512bw")) return fma_peak();
        return measure(isa, int8_chains_avx512, 2.0 * 32 * int8_chains_zmm * rounds, budget_ms);
    case prim::cpu_isa::avx2: // 16 products a ymm
        if (!__builtin_cpu_supports("avx2")) return fma_peak();
        return measure(isa, int8_chains_avx2, 2.0 * 16 * int8_chains_ymm * rounds, budget_ms);
    default: return fma_peak();
    }
}

const fma_peak &roof_peak() {
    static const fma_peak peak = [] {
        // The f32 FMA peak: VNNI adds integer instructions, not f32 ones.
        return measure_fma_peak(std::min(library_isa(), prim::cpu_isa::avx512), 50);
    }();
    return peak;
}

const fma_peak &roof_peak_int8() {
    static const fma_peak peak = [] { return measure_int8_peak(library_isa(), 50); }();
    return peak;
}

} // namespace bdl
