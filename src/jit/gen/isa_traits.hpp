// What changes between the two instruction sets the JIT kernels support: the vector register
// type, its width, how many there are, and whether opmask registers exist. Kernels are templates
// over cpu_isa and read everything ISA-specific from here (plus the few helpers in tail_mask.hpp).
#pragma once
#include <xbyak/xbyak.h>

#include "prim/cpu_isa.hpp"

namespace prim {
namespace jit {

// Why every JIT implementation declines when the ISA cap (PRIM_MAX_CPU_ISA, the attribute's
// set_max_cpu_isa) leaves it no instruction set: one wording for all of them.
constexpr const char *isa_cap_below_avx2 = "the ISA cap is below avx2";

template <cpu_isa isa>
struct isa_traits;

template <>
struct isa_traits<cpu_isa::avx2> {
    using Vmm = Xbyak::Ymm;
    static constexpr int vlen = 32;    // bytes in one vector register
    static constexpr int simd_w = 8;   // f32 lanes
    static constexpr int n_vregs = 16; // ymm0..ymm15
    static constexpr bool has_opmask = false;
    static constexpr const char *name = "avx2";
};

template <>
struct isa_traits<cpu_isa::avx512> {
    using Vmm = Xbyak::Zmm;
    static constexpr int vlen = 64;
    static constexpr int simd_w = 16;
    static constexpr int n_vregs = 32; // zmm0..zmm31
    static constexpr bool has_opmask = true; // k1..k7 usable as write masks
    static constexpr const char *name = "avx512";
};

// The traits of an ISA known only at run time (a creator's or a configuration's): avx512's, or
// avx2's for any other.
constexpr int simd_w_of(cpu_isa isa) {
    using avx512 = isa_traits<cpu_isa::avx512>;
    return isa == cpu_isa::avx512 ? avx512::simd_w : isa_traits<cpu_isa::avx2>::simd_w;
}
constexpr int n_vregs_of(cpu_isa isa) {
    using avx512 = isa_traits<cpu_isa::avx512>;
    return isa == cpu_isa::avx512 ? avx512::n_vregs : isa_traits<cpu_isa::avx2>::n_vregs;
}
constexpr int vlen_of(cpu_isa isa) {
    using avx512 = isa_traits<cpu_isa::avx512>;
    return isa == cpu_isa::avx512 ? avx512::vlen : isa_traits<cpu_isa::avx2>::vlen;
}

} // namespace jit
} // namespace prim
