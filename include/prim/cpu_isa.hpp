// prim: instruction-set levels, for capping which kernels a primitive may use.
#pragma once
#include "prim/api.hpp"

namespace prim {

// Ordered: a higher value may use everything a lower one may.
enum class cpu_isa {
    none = 0,   // reference kernels only
    avx2 = 1,   // AVX2 + FMA, ymm registers
    avx512 = 2, // AVX-512 F/BW/VL/DQ, zmm registers (without VNNI when it is a cap)
    avx512_vnni = 3, // AVX-512 as above with VNNI (vpdpbusd): only the int8 kernels use it
    all = 4,    // no cap: the best the machine has
};

PRIM_API const char *cpu_isa_name(cpu_isa isa);

// The best ISA this process may use: what the CPU supports, capped by PRIM_MAX_CPU_ISA.
// Throws prim::error(invalid_arguments) if PRIM_MAX_CPU_ISA holds an unknown value.
PRIM_API cpu_isa get_effective_cpu_isa();

} // namespace prim
