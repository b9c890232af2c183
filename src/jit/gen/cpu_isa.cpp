// ISA detection (cpuid + XCR0 through Xbyak::util::Cpu) and the PRIM_MAX_CPU_ISA cap.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include <xbyak/xbyak_util.h>

#include "jit/gen/cpu_isa_detect.hpp"
#include "prim/error.hpp"

namespace prim {

const char *cpu_isa_name(cpu_isa isa) {
    switch (isa) {
    case cpu_isa::none: return "none";
    case cpu_isa::avx2: return "avx2";
    case cpu_isa::avx512: return "avx512";
    case cpu_isa::avx512_vnni: return "avx512_vnni";
    case cpu_isa::all: return "all";
    }
    return "unknown";
}

namespace jit {

cpu_isa detect_cpu_isa() {
    using Cpu = Xbyak::util::Cpu;
    const Cpu cpu; // Xbyak sets the AVX/AVX-512 bits only when XCR0 enables their state
    if (cpu.has(Cpu::tAVX512F) && cpu.has(Cpu::tAVX512BW) && cpu.has(Cpu::tAVX512VL)
            && cpu.has(Cpu::tAVX512DQ))
        return cpu.has(Cpu::tAVX512_VNNI) ? cpu_isa::avx512_vnni : cpu_isa::avx512;
    if (cpu.has(Cpu::tAVX2) && cpu.has(Cpu::tFMA)) return cpu_isa::avx2;
    return cpu_isa::none;
}

cpu_isa parse_max_cpu_isa(const char *value) {
    if (value == nullptr || *value == '\0') return cpu_isa::all;
    std::string v(value);
    std::transform(v.begin(), v.end(), v.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (v == "avx512_vnni") return cpu_isa::avx512_vnni;
    if (v == "avx512") return cpu_isa::avx512;
    if (v == "avx2") return cpu_isa::avx2;
    if (v == "none") return cpu_isa::none;
    throw error(status::invalid_arguments,
                std::string("PRIM_MAX_CPU_ISA=") + value + " is not one of avx512_vnni, avx512, avx2, none");
}

} // namespace jit

namespace {

// Read once per process. A bad value is remembered and rethrown at every use.
struct isa_state {
    cpu_isa effective = cpu_isa::none;
    std::string env_error;
};

const isa_state &state() {
    static const isa_state s = [] {
        isa_state st;
        const cpu_isa hw = jit::detect_cpu_isa();
        try {
            const cpu_isa cap = jit::parse_max_cpu_isa(std::getenv("PRIM_MAX_CPU_ISA"));
            st.effective = std::min(hw, cap);
        } catch (const error &e) {
            st.env_error = e.what();
        }
        return st;
    }();
    return s;
}

} // namespace

cpu_isa get_effective_cpu_isa() {
    const isa_state &s = state();
    if (!s.env_error.empty()) throw error(status::invalid_arguments, s.env_error);
    return s.effective;
}

} // namespace prim
