// The machine's fp32 FMA peak, measured: every OpenMP thread runs independent FMA chains on
// registers (no memory), enough of them to hide the FMA latency. benchdnn_lite's roof lines
// (P mode) and bench/bench_peak.cpp both measure it here. A peak computed from a nominal clock
// can be far from what the cores of a shared or throttled machine deliver; this one is not.
#pragma once

#include "prim/cpu_isa.hpp"

namespace bdl {

// The CPU has the instructions of the avx512 (16-lane) or the avx2 (8-lane) chains.
bool cpu_has_fma_isa(bool avx512);

struct fma_peak {
    prim::cpu_isa isa = prim::cpu_isa::none; // the vectors measured; none: the CPU has not the ISA
    int threads = 0;
    double gflops = 0;                      // best run
    double ms = 0;                          // the time spent measuring
};

// The best of repeated runs for about budget_ms on isa's vectors (avx512 or avx2), every
// OpenMP thread running the chains at once (a run: about 0.08 ms).
fma_peak measure_fma_peak(prim::cpu_isa isa, double budget_ms);

// The exact int8 multiply-accumulate peak in GOPS (2 per product, as FLOPs): vpdpbusd on
// avx512_vnni, vpmaddwd + vpaddd on avx512 (zmm) and avx2 (ymm); isa none when the CPU lacks it.
fma_peak measure_int8_peak(prim::cpu_isa isa, double budget_ms);

// The peaks the roof lines compare with, measured once per process at the first call (50 ms):
// on the instruction set the library runs (PRIM_MAX_CPU_ISA caps it), the machine's best when
// that is none. roof_peak is the f32 FMA's (avx512 on a VNNI CPU), roof_peak_int8 the int8 one.
const fma_peak &roof_peak();
const fma_peak &roof_peak_int8();

} // namespace bdl
