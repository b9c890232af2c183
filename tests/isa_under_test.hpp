// The instruction sets a run of a test program checks, so that ctest reports what this CPU
// cannot check as skipped instead of passing without checking it (doc/testing.md).
//
// A program whose test cases run JIT code of a particular ISA has one ctest entry per ISA
// (tests/CMakeLists.txt, prim_per_isa_test): `test_x` sets PRIM_TEST_ISA=avx2 and leaves out
// the cases tagged [avx512]; `test_x_avx512` sets PRIM_TEST_ISA=avx512 and runs them all.
// catch_main.cpp exits with prim_test::skip_return_code, which ctest reports as skipped, when
// the effective ISA (the CPU's, capped by PRIM_MAX_CPU_ISA) is below the entry's. Cases that
// loop over ISAs loop over jit_isas_under_test(): the entry's one ISA. Run by hand, without
// PRIM_TEST_ISA, a program checks every ISA the effective one allows, and leaves out the
// [avx512] cases (saying so) where it is below avx512.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "jit/gen/cpu_isa_detect.hpp"
#include "prim/cpu_isa.hpp"

namespace prim_test {

// ctest's SKIP_RETURN_CODE for every entry that sets PRIM_TEST_ISA (the automake convention).
constexpr int skip_return_code = 77;

// The CPU's ISA capped by PRIM_MAX_CPU_ISA, read here without get_effective_cpu_isa()'s
// once-per-process cache (test_jit_cpu_isa sets the variable before its first read). An
// invalid cap counts as none.
inline prim::cpu_isa effective_isa() {
    try {
        return std::min(prim::jit::detect_cpu_isa(),
                        prim::jit::parse_max_cpu_isa(std::getenv("PRIM_MAX_CPU_ISA")));
    } catch (...) {
        return prim::cpu_isa::none;
    }
}

// PRIM_TEST_ISA's ISA, or cpu_isa::all when it is not set (run by hand).
inline prim::cpu_isa entry_isa() {
    const char *v = std::getenv("PRIM_TEST_ISA");
    if (!v || !*v) return prim::cpu_isa::all;
    return prim::jit::parse_max_cpu_isa(v);
}

// The JIT ISAs this run checks: the entry's, or by hand every one the effective ISA allows.
inline std::vector<prim::cpu_isa> jit_isas_under_test() {
    const prim::cpu_isa entry = entry_isa();
    if (entry != prim::cpu_isa::all) return {entry};
    std::vector<prim::cpu_isa> v;
    for (prim::cpu_isa isa : {prim::cpu_isa::avx2, prim::cpu_isa::avx512})
        if (effective_isa() >= isa) v.push_back(isa);
    return v;
}

// The reference (cpu_isa::none), then the JIT ISAs this run checks: the reference runs in every
// run but an AVX-512 entry's, which would only repeat it.
inline std::vector<prim::cpu_isa> isas_under_test() {
    std::vector<prim::cpu_isa> v;
    if (entry_isa() != prim::cpu_isa::avx512) v.push_back(prim::cpu_isa::none);
    for (prim::cpu_isa isa : jit_isas_under_test()) v.push_back(isa);
    return v;
}

// Whether this run checks the JIT code of `isa`.
inline bool under_test(prim::cpu_isa isa) {
    const std::vector<prim::cpu_isa> v = jit_isas_under_test();
    return std::find(v.begin(), v.end(), isa) != v.end();
}

} // namespace prim_test

namespace prim_test {

// Calls f(std::integral_constant<cpu_isa, isa>) for each JIT ISA this run checks, for code
// whose ISA is a template parameter: `for_each_isa_under_test([&](auto isa) { run<isa()>(); })`.
template <typename F>
void for_each_isa_under_test(F &&f) {
    for (prim::cpu_isa isa : jit_isas_under_test()) {
        using prim::cpu_isa;
        if (isa == cpu_isa::avx512) f(std::integral_constant<cpu_isa, cpu_isa::avx512>());
        else if (isa == cpu_isa::avx2) f(std::integral_constant<cpu_isa, cpu_isa::avx2>());
    }
}

} // namespace prim_test
