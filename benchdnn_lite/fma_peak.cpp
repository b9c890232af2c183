// The FMA peak (fma_peak.hpp).
#include "fma_peak.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>

#include <immintrin.h>

#include <xbyak/xbyak.h>

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
// vpmaddubsw would saturate. Generated with Xbyak, registers chosen by hand: compiled from
// intrinsics the chains went through the stack on every step. 16 chains on zmm; 12 on ymm, whose
// 16 registers also hold the ones and the product. The values wrap; only the rate matters.
class int8_chains : public Xbyak::CodeGenerator {
public:
    // AutoGrow: the buffer stays RW until ready(PROTECT_RE) makes it RX, never RWX.
    int8_chains(prim::cpu_isa isa, int chains) : Xbyak::CodeGenerator(4096, Xbyak::AutoGrow) {
        using namespace Xbyak;
        const bool zmm = isa != prim::cpu_isa::avx2;
        const auto reg = [&](int i) -> Xmm { return zmm ? Xmm(Zmm(i)) : Xmm(Ymm(i)); };
        const Xmm ones = reg(chains), product = reg(chains + 1);
        mov(eax, 0x01010101);
        vmovd(Xmm(ones.getIdx()), eax);
        vpbroadcastd(ones, Xmm(ones.getIdx()));
        mov(rax, rounds);
        L("@@");
        for (int c = 0; c < chains; ++c) {
            if (isa == prim::cpu_isa::avx512_vnni) {
                vpdpbusd(reg(c), ones, ones);
            } else {
                vpmaddwd(product, reg(c), ones);
                vpaddd(reg(c), reg(c), product);
            }
        }
        dec(rax);
        jnz("@b");
        vzeroupper();
        ret();
        ready(PROTECT_RE);
    }
};

constexpr int int8_chains_zmm = 16, int8_chains_ymm = 12;

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
    const bool has = isa == prim::cpu_isa::avx512_vnni ? __builtin_cpu_supports("avx512vnni")
            : isa == prim::cpu_isa::avx512 ? __builtin_cpu_supports("avx512bw")
            : isa == prim::cpu_isa::avx2 && __builtin_cpu_supports("avx2");
    if (!has) return fma_peak();
    const int chains = isa == prim::cpu_isa::avx2 ? int8_chains_ymm : int8_chains_zmm;
    // Products a step: 16 s32 lanes of 4 (vpdpbusd) or 2 (vpmaddwd) on zmm, 8 lanes of 2 on ymm.
    const int products = isa == prim::cpu_isa::avx512_vnni ? 64 : isa == prim::cpu_isa::avx512 ? 32 : 16;
    static int8_chains code_vnni(prim::cpu_isa::avx512_vnni, int8_chains_zmm),
            code_avx512(prim::cpu_isa::avx512, int8_chains_zmm), code_avx2(prim::cpu_isa::avx2, int8_chains_ymm);
    int8_chains &code = isa == prim::cpu_isa::avx512_vnni ? code_vnni
            : isa == prim::cpu_isa::avx512 ? code_avx512 : code_avx2;
    return measure(isa, code.getCode<float (*)()>(), 2.0 * products * chains * rounds, budget_ms);
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
