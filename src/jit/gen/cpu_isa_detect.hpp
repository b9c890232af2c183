// The two halves of prim::get_effective_cpu_isa(), exposed for tests.
#pragma once
#include "prim/cpu_isa.hpp"

namespace prim {
namespace jit {

// What the CPU and the OS support: avx512 needs AVX-512 F, BW, VL and DQ with the zmm and opmask
// state enabled in XCR0, avx512_vnni that and AVX512-VNNI; avx2 needs AVX2 and FMA with the ymm
// state enabled.
cpu_isa detect_cpu_isa();

// PRIM_MAX_CPU_ISA's value: nullptr or "" means no cap (cpu_isa::all); otherwise avx512_vnni,
// avx512, avx2 or none, case-insensitive. Throws prim::error(invalid_arguments) naming the bad value.
cpu_isa parse_max_cpu_isa(const char *value);

} // namespace jit
} // namespace prim
