// CPUID decoding (cpu_info.hpp).
#include "common/cpu_info.hpp"

#include <cpuid.h>
#include <cstring>

namespace prim {
namespace impl {

namespace {

cpuid_regs hw_cpuid(uint32_t leaf, uint32_t subleaf) {
    cpuid_regs r;
    // __get_cpuid_count checks the leaf against the maximum of its range (basic or extended).
    if (!__get_cpuid_count(leaf, subleaf, &r.eax, &r.ebx, &r.ecx, &r.edx)) return cpuid_regs();
    return r;
}

// Intel's leaf 4 and AMD's 0x8000001D share one format: one subleaf per cache, type 0 ends
// the list (1 data, 2 instruction, 3 unified), level in EAX[7:5], the logical CPUs sharing it
// in EAX[25:14] + 1, and size = ways * partitions * line size * sets.
void read_cache_leaf(const cpuid_fn &cpuid, uint32_t leaf, cpu_info &info) {
    for (uint32_t sub = 0; sub < 16; ++sub) {
        const cpuid_regs r = cpuid(leaf, sub);
        const uint32_t type = r.eax & 0x1f;
        if (type == 0) break;
        if (type == 2) continue; // instruction cache
        const int level = static_cast<int>((r.eax >> 5) & 7);
        const int64_t ways = ((r.ebx >> 22) & 0x3ff) + 1, parts = ((r.ebx >> 12) & 0x3ff) + 1;
        const int64_t line = (r.ebx & 0xfff) + 1, sets = static_cast<int64_t>(r.ecx) + 1;
        const int64_t bytes = ways * parts * line * sets;
        if (level == 1) info.l1d_bytes = bytes;
        if (level == 2) info.l2_bytes = bytes;
        if (level == 3) {
            info.l3_bytes = bytes;
            info.l3_shared_by = static_cast<int>(((r.eax >> 14) & 0xfff) + 1);
        }
    }
}

} // namespace

cpu_info decode_cpu_info(const cpuid_fn &cpuid) {
    cpu_info info;
    const cpuid_regs v = cpuid(0, 0);
    char id[13] = {};
    std::memcpy(id, &v.ebx, 4);
    std::memcpy(id + 4, &v.edx, 4);
    std::memcpy(id + 8, &v.ecx, 4);
    info.vendor_id = id;
    info.vendor = info.vendor_id == "GenuineIntel" ? cpu_vendor::intel
                : info.vendor_id == "AuthenticAMD" ? cpu_vendor::amd : cpu_vendor::other;
    const uint32_t max_leaf = v.eax;
    if (max_leaf >= 1) {
        const uint32_t sig = cpuid(1, 0).eax;
        const int base_family = static_cast<int>((sig >> 8) & 0xf);
        const int base_model = static_cast<int>((sig >> 4) & 0xf);
        // The extended family counts only under base family 15; the extended model under 6 or 15.
        info.family = base_family == 15 ? base_family + static_cast<int>((sig >> 20) & 0xff) : base_family;
        info.model = base_family == 6 || base_family == 15
                ? base_model | static_cast<int>(((sig >> 16) & 0xf) << 4) : base_model;
    }
    if (info.vendor == cpu_vendor::intel && max_leaf >= 4) {
        read_cache_leaf(cpuid, 4, info);
    } else if (info.vendor == cpu_vendor::amd) {
        const uint32_t max_ext = cpuid(0x80000000u, 0).eax;
        const bool topoext = max_ext >= 0x80000001u && (cpuid(0x80000001u, 0).ecx >> 22 & 1);
        if (topoext && max_ext >= 0x8000001du) {
            read_cache_leaf(cpuid, 0x8000001du, info);
        } else {
            // Older AMD: L1d KiB in 0x80000005 ECX[31:24], L2 KiB in 0x80000006 ECX[31:16]
            // (the L3 field there is the whole package's, not what one core sees: left out).
            if (max_ext >= 0x80000005u) info.l1d_bytes = int64_t(cpuid(0x80000005u, 0).ecx >> 24) * 1024;
            if (max_ext >= 0x80000006u) info.l2_bytes = int64_t(cpuid(0x80000006u, 0).ecx >> 16) * 1024;
        }
    }
    info.caches_from_cpuid = info.l1d_bytes > 0 && info.l2_bytes > 0 && info.l3_bytes > 0;
    if (info.l1d_bytes <= 0) info.l1d_bytes = fallback_l1d_bytes;
    if (info.l2_bytes <= 0) info.l2_bytes = fallback_l2_bytes;
    if (info.l3_bytes <= 0) info.l3_bytes = fallback_l3_bytes;
    return info;
}

const cpu_info &get_cpu_info() {
    static const cpu_info info = decode_cpu_info(hw_cpuid);
    return info;
}

std::string to_string(const cpu_info &info) {
    auto kib = [](int64_t b) { return std::to_string(b / 1024) + "K"; };
    return "cpu:" + (info.vendor_id.empty() ? std::string("unknown") : info.vendor_id) + ":family"
           + std::to_string(info.family) + ":model" + std::to_string(info.model) + ",l1d:"
           + kib(info.l1d_bytes) + ",l2:" + kib(info.l2_bytes) + ",l3:" + kib(info.l3_bytes)
           + (info.caches_from_cpuid ? "" : ",caches:fallback");
}

} // namespace impl
} // namespace prim
