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
    prim::cpu_isa isa = prim::cpu_isa::none; // avx512 or avx2; none: the CPU has neither
    int threads = 0;
    double gflops = 0;                      // best run
    double ms = 0;                          // the time spent measuring
};

// The best of repeated runs for about budget_ms on isa's vectors (avx512 or avx2), every
// OpenMP thread running the chains at once (a run: about 0.08 ms).
fma_peak measure_fma_peak(prim::cpu_isa isa, double budget_ms);

// The peak the roof lines compare with, measured once per process at the first call (50 ms):
// on the instruction set the library runs (PRIM_MAX_CPU_ISA caps it), the machine's best when
// that is none.
const fma_peak &roof_peak();

} // namespace bdl
