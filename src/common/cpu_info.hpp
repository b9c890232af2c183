// What the CPU says about itself: vendor, family and model, cache sizes (CPUID leaf 4 on Intel,
// leaf 0x8000001D on AMD), read once per process. The JIT's micro-architecture decisions read
// these facts through jit::uarch (src/jit/gen/uarch.hpp), never literal cache sizes.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace prim {
namespace impl {

struct cpuid_regs {
    uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};
// cpuid(leaf, subleaf); a leaf beyond the CPU's maximum returns zeros.
using cpuid_fn = std::function<cpuid_regs(uint32_t leaf, uint32_t subleaf)>;

enum class cpu_vendor { intel, amd, other };

struct cpu_info {
    cpu_vendor vendor = cpu_vendor::other;
    std::string vendor_id;     // "GenuineIntel", "AuthenticAMD", ...
    int family = 0, model = 0; // with the extended fields folded in (Zen 5: 26, Sapphire Rapids: 6/143)
    // Data caches as one core sees them: its own L1d and L2, and the L3 it shares (the whole
    // cache). Each size the CPU does not report is a fallback (below).
    int64_t l1d_bytes = 0, l2_bytes = 0, l3_bytes = 0;
    int l3_shared_by = 1;      // logical CPUs sharing the L3 (CPUID's count, an upper bound)
    bool caches_from_cpuid = false; // false: at least one size is a fallback
};

// The fallbacks when CPUID gives no cache size: the sizes of the machine the JIT was tuned on
// (a Zen 4 core, family 25 model 17), so that an unknown CPU gets the same decisions.
constexpr int64_t fallback_l1d_bytes = 32 * 1024;
constexpr int64_t fallback_l2_bytes = 1024 * 1024;
constexpr int64_t fallback_l3_bytes = 32 * 1024 * 1024;

// Decodes the facts from cpuid (tests pass a fake one).
cpu_info decode_cpu_info(const cpuid_fn &cpuid);

// This CPU's facts, read once.
const cpu_info &get_cpu_info();

// "cpu:AuthenticAMD:family25:model17,l1d:32K,l2:1024K,l3:32768K" (then ",caches:fallback" when
// a size is not the CPU's): the prim_verbose,info line's fields after max_isa.
std::string to_string(const cpu_info &info);

} // namespace impl
} // namespace prim
