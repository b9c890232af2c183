// What the CPU reports (common/cpu_info.hpp) and the micro-architecture figures derived from it
// (jit/gen/uarch.hpp): CPUID decoding on recorded Intel and AMD answers, this machine's facts
// against Linux's own report, the figures that replaced literals, and decisions that follow the
// facts (a larger L2 changes the loop order, the K block; the gather threshold is read).
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <utility>

#include "common/cpu_info.hpp"
#include "jit/conv/conv_conf.hpp"
#include "jit/ip/ip_blocking.hpp"
#include "jit/gen/uarch.hpp"
#include "problem_parse.hpp"

using prim::cpu_isa;
using prim::impl::cpu_info;
using prim::impl::cpuid_regs;
using prim::memory;

namespace {

// A recorded CPU: answers per (leaf, subleaf), zeros elsewhere.
struct fake_cpu {
    std::map<std::pair<uint32_t, uint32_t>, cpuid_regs> leaves;

    void vendor(const char *id, uint32_t max_leaf) {
        cpuid_regs r;
        r.eax = max_leaf;
        std::memcpy(&r.ebx, id, 4);
        std::memcpy(&r.edx, id + 4, 4);
        std::memcpy(&r.ecx, id + 8, 4);
        leaves[{0, 0}] = r;
    }
    void set(uint32_t leaf, uint32_t sub, cpuid_regs r) { leaves[{leaf, sub}] = r; }
    // One subleaf of leaf 4 / 0x8000001D: type (1 data, 2 instruction, 3 unified), level,
    // logical CPUs sharing it, ways, sets, 64-byte lines.
    void cache(uint32_t leaf, uint32_t sub, uint32_t type, uint32_t level, uint32_t sharing,
               uint32_t ways, uint32_t sets) {
        cpuid_regs r;
        r.eax = type | level << 5 | (sharing - 1) << 14;
        r.ebx = (ways - 1) << 22 | 63;
        r.ecx = sets - 1;
        set(leaf, sub, r);
    }
    cpu_info decode() const {
        return prim::impl::decode_cpu_info([this](uint32_t leaf, uint32_t sub) {
            const auto it = leaves.find({leaf, sub});
            return it == leaves.end() ? cpuid_regs() : it->second;
        });
    }
};

cpuid_regs eax_only(uint32_t eax) {
    cpuid_regs r;
    r.eax = eax;
    return r;
}

// A Xeon of family 6 model 207: 48 KiB L1d, 2 MiB L2 per core, 105 MiB of L3.
fake_cpu xeon_207() {
    fake_cpu c;
    c.vendor("GenuineIntel", 0x1f);
    c.set(1, 0, eax_only(0x000C06F2)); // extended model 0xC, model 0xF, family 6, stepping 2
    c.cache(4, 0, 1, 1, 2, 12, 64);
    c.cache(4, 1, 2, 1, 2, 8, 64);
    c.cache(4, 2, 3, 2, 2, 16, 2048);
    c.cache(4, 3, 3, 3, 128, 15, 114688);
    return c;
}

// A Zen 5 (family 0x1A, model 2) as it reports itself through leaf 0x8000001D.
fake_cpu zen5() {
    fake_cpu c;
    c.vendor("AuthenticAMD", 0x10);
    c.set(1, 0, eax_only(0x00B00F20)); // extended family 0xB + 0xF, model 2
    c.set(0x80000000u, 0, eax_only(0x80000021u));
    cpuid_regs ext1;
    ext1.ecx = 1u << 22; // topology extensions: leaf 0x8000001D
    c.set(0x80000001u, 0, ext1);
    c.cache(0x8000001du, 0, 1, 1, 2, 12, 64);
    c.cache(0x8000001du, 1, 2, 1, 2, 8, 64);
    c.cache(0x8000001du, 2, 3, 2, 2, 16, 1024);
    c.cache(0x8000001du, 3, 3, 3, 16, 16, 32768);
    return c;
}

// The machine the JIT was tuned on, as its hypervisor reports it: 32 KiB, 1 MiB, 32 MiB.
cpu_info tuned_machine() {
    cpu_info c;
    c.l1d_bytes = 32 * 1024;
    c.l2_bytes = 1024 * 1024;
    c.l3_bytes = 32 * 1024 * 1024;
    return c;
}

// Linux's size of the cache of `level` and `type` ("Data", "Unified") of cpu0; 0 if unknown.
int64_t sysfs_cache_bytes(int level, const std::string &type) {
    for (int i = 0; i < 8; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        std::ifstream lv(dir + "level"), ty(dir + "type"), sz(dir + "size");
        int l = 0;
        std::string t, s;
        if (!(lv >> l) || !(ty >> t) || !(sz >> s)) continue;
        if (l != level || t != type || s.empty()) continue;
        const int64_t n = std::stoll(s);
        return s.back() == 'K' ? n * 1024 : s.back() == 'M' ? n * 1024 * 1024 : n;
    }
    return 0;
}

prim::impl::conv_request conv_req(const std::string &text) {
    const prim::impl::conv_problem p = bdl::parse_conv_problem(text);
    prim::impl::conv_request req;
    req.prb = p;
    const auto any = memory::format_tag::any;
    req.src = memory::desc({p.mb, p.ic, p.i[1], p.i[2]}, memory::data_type::f32, any);
    req.dst = memory::desc({p.mb, p.oc, p.o[1], p.o[2]}, memory::data_type::f32, any);
    req.wei = memory::desc({p.oc, p.ic, p.k[1], p.k[2]}, memory::data_type::f32, any);
    return req;
}

} // namespace

TEST_CASE("cpu_info decodes Intel's leaf 4", "[cpu_info]") {
    const cpu_info c = xeon_207().decode();
    CHECK(c.vendor == prim::impl::cpu_vendor::intel);
    CHECK(c.vendor_id == "GenuineIntel");
    CHECK(c.family == 6);
    CHECK(c.model == 207);
    CHECK(c.l1d_bytes == 48 * 1024); // the instruction cache of the same size is not taken
    CHECK(c.l2_bytes == 2 * 1024 * 1024);
    CHECK(c.l3_bytes == int64_t(15) * 64 * 114688);
    CHECK(c.l3_shared_by == 128);
    CHECK(c.caches_from_cpuid);
    CHECK(prim::impl::to_string(c)
          == "cpu:GenuineIntel:family6:model207,l1d:48K,l2:2048K,l3:107520K");
}

TEST_CASE("cpu_info decodes AMD's leaf 0x8000001D, and the older leaves without it", "[cpu_info]") {
    fake_cpu amd = zen5();
    cpu_info c = amd.decode();
    CHECK(c.vendor == prim::impl::cpu_vendor::amd);
    CHECK(c.family == 26);
    CHECK(c.model == 2);
    CHECK(c.l1d_bytes == 48 * 1024);
    CHECK(c.l2_bytes == 1024 * 1024);
    CHECK(c.l3_bytes == 32 * 1024 * 1024);
    CHECK(c.l3_shared_by == 16);
    CHECK(c.caches_from_cpuid);

    // Without topology extensions: L1d and L2 from 0x80000005/6; their L3 field is the package's,
    // so the L3 is the fallback, and said so.
    amd.set(0x80000001u, 0, cpuid_regs());
    cpuid_regs l1, l2;
    l1.ecx = 64u << 24;
    l2.ecx = 512u << 16;
    l2.edx = 640u << 18;
    amd.set(0x80000005u, 0, l1);
    amd.set(0x80000006u, 0, l2);
    c = amd.decode();
    CHECK(c.l1d_bytes == 64 * 1024);
    CHECK(c.l2_bytes == 512 * 1024);
    CHECK(c.l3_bytes == prim::impl::fallback_l3_bytes);
    CHECK_FALSE(c.caches_from_cpuid);
    CHECK(prim::impl::to_string(c).find(",caches:fallback") != std::string::npos);
}

TEST_CASE("cpu_info falls back to the tuned machine's sizes when CPUID says nothing", "[cpu_info]") {
    fake_cpu other;
    other.vendor("SomeVendorID", 1);
    other.set(1, 0, eax_only(0x00000F10)); // base family 15, no extended family: 15
    const cpu_info c = other.decode();
    CHECK(c.vendor == prim::impl::cpu_vendor::other);
    CHECK(c.family == 15);
    CHECK(c.l1d_bytes == prim::impl::fallback_l1d_bytes);
    CHECK(c.l2_bytes == prim::impl::fallback_l2_bytes);
    CHECK(c.l3_bytes == prim::impl::fallback_l3_bytes);
    CHECK_FALSE(c.caches_from_cpuid);
    // An empty CPUID (leaf 0 answering zeros) too.
    const cpu_info none = fake_cpu().decode();
    CHECK(none.l2_bytes == prim::impl::fallback_l2_bytes);
    CHECK(prim::impl::to_string(none).rfind("cpu:unknown:family0:model0,", 0) == 0);
}

TEST_CASE("this CPU's cache sizes agree with Linux's", "[cpu_info]") {
    const cpu_info &c = prim::impl::get_cpu_info();
    INFO(prim::impl::to_string(c));
    CHECK(&c == &prim::impl::get_cpu_info()); // read once
    const int64_t l1d = sysfs_cache_bytes(1, "Data"), l2 = sysfs_cache_bytes(2, "Unified"),
                  l3 = sysfs_cache_bytes(3, "Unified");
    if (l1d == 0 || l2 == 0 || l3 == 0) {
        WARN("no cache sizes under /sys: only the sanity of the figures is checked");
    } else {
        CHECK(c.l1d_bytes == l1d);
        CHECK(c.l2_bytes == l2);
        CHECK(c.l3_bytes == l3);
    }
    CHECK(c.l1d_bytes >= 8 * 1024);
    CHECK(c.l2_bytes > c.l1d_bytes);
}

TEST_CASE("uarch: on the tuned machine's caches every figure is the literal it replaced", "[cpu_info]") {
    const prim::jit::uarch u = prim::jit::uarch_for(tuned_machine());
    CHECK(u.fma_per_cycle == 2);
    CHECK(u.loads_per_cycle == 2);
    CHECK(u.fma_latency == 4);
    CHECK(u.conv_block_weights_bytes == 1024 * 1024);
    CHECK(u.conv_ocbg_inner_weights_bytes == 512 * 1024);
    CHECK(u.gather_min_oc == 1024);
    CHECK(u.ip_max_k_blk == 1024);
    CHECK(u.ip_src_block_bytes == 512 * 1024);
    CHECK(u.stream_threshold_bytes == 8 * 1024 * 1024);
    CHECK(u.lnorm_block_bytes == 32 * 1024);

    // The Xeon's larger L1d and L2 scale the cache-derived figures, and only those.
    const prim::jit::uarch x = prim::jit::uarch_for(xeon_207().decode());
    CHECK(x.conv_block_weights_bytes == 2 * 1024 * 1024);
    CHECK(x.conv_ocbg_inner_weights_bytes == 1024 * 1024);
    CHECK(x.ip_max_k_blk == 2048);
    CHECK(x.lnorm_block_bytes == 48 * 1024);
    CHECK(x.gather_min_oc == u.gather_min_oc);

    // Zen 4 (family 25) gathers the strided 1x1 layers' pixels from 2048 output channels, not
    // 1024 (measured there, uarch.cpp), on 256-bit FMA units; a Zen 3 (family 25 model 1) keeps
    // the figures it was measured with until it is tuned on its own; a Zen 5 (family 26) 1024.
    cpu_info family25 = tuned_machine();
    family25.vendor = prim::impl::cpu_vendor::amd;
    family25.family = 25;
    for (int model : {0x01, 0x11, 0x21, 0x61}) { // Zen 3, Zen 4, Zen 3, Zen 4
        family25.model = model;
        CHECK(prim::jit::uarch_for(family25).gather_min_oc == 2048);
        CHECK(prim::jit::uarch_for(family25).fma_unit_bits == 256);
    }
    CHECK(prim::jit::uarch_for(zen5().decode()).gather_min_oc == 1024);
}

TEST_CASE("conv and inner product decisions follow the CPU's facts", "[cpu_info]") {
    const prim::jit::uarch tuned = prim::jit::uarch_for(tuned_machine());
    const prim::jit::uarch xeon = prim::jit::uarch_for(xeon_207().decode());
    for (cpu_isa isa : {cpu_isa::avx512, cpu_isa::avx2}) {
        // 3x3 128->128: 576 KiB of weights, beyond half of 1 MiB, within half of 2 MiB.
        const prim::impl::conv_request req = conv_req("mb2ic128ih28oc128oh28kh3ph1");
        prim::jit::conv_setup a, b;
        REQUIRE(prim::jit::init_conv_conf(a, req, isa, {}, tuned).empty());
        REQUIRE(prim::jit::init_conv_conf(b, req, isa, {}, xeon).empty());
        CHECK_FALSE(a.conf.ocbg_inner);
        CHECK(b.conf.ocbg_inner);

        // The gather threshold is read: res4a_branch2a (256 channels) gathers from 256 on.
        const prim::impl::conv_request strided = conv_req("mb2ic512ih28oc256oh14kh1sh2");
        prim::jit::uarch low = tuned;
        low.gather_min_oc = 256;
        prim::jit::conv_setup c, d;
        REQUIRE(prim::jit::init_conv_conf(c, strided, isa, {}, tuned).empty());
        REQUIRE(prim::jit::init_conv_conf(d, strided, isa, {}, low).empty());
        CHECK_FALSE(c.unit_stride.enabled());
        CHECK(d.unit_stride.enabled());

        // BERT's FFN down projection (K = 3072): K blocks of 1024 on a 1 MiB L2, 1536 on 2 MiB.
        const prim::impl::ip_problem ip = bdl::parse_ip_problem("mb128ic3072oc768");
        prim::jit::ip_blocking ba, bb;
        REQUIRE(prim::jit::init_ip_blocking(ba, isa, ip, 0, false, tuned).empty());
        REQUIRE(prim::jit::init_ip_blocking(bb, isa, ip, 0, false, xeon).empty());
        CHECK(ba.k_blk == 1024);
        CHECK(bb.k_blk == 1536);
    }
}

TEST_CASE("the convolution's vector width follows the width of the CPU's FMA units", "[cpu_info]") {
    using prim::jit::conv_kernel_isa;
    cpu_info zen4_facts = tuned_machine();
    zen4_facts.vendor = prim::impl::cpu_vendor::amd;
    zen4_facts.family = 25;
    const prim::jit::uarch zen4 = prim::jit::uarch_for(zen4_facts);
    const prim::jit::uarch xeon = prim::jit::uarch_for(xeon_207().decode());
    const prim::jit::uarch zen5_u = prim::jit::uarch_for(zen5().decode());
    CHECK(zen4.fma_unit_bits == 256);
    CHECK(xeon.fma_unit_bits == 512);
    CHECK(zen5_u.fma_unit_bits == 512);
    auto prb = [](const char *text) { return bdl::parse_conv_problem(text); };
    // Groups of 8, 4 and 2 channels: merged with zero blocks twice as many on 16 lanes as on 8,
    // which only 512-bit units pay back.
    for (const char *small : {"g32mb2ic256ih56oc256oh56kh3ph1", "g64mb2ic256ih56oc256oh56kh3ph1",
                              "g8mb2ic16ih14oc16oh14kh3ph1", "g32mb2ic256ih56oc256oh28kh3sh2ph1"}) {
        CAPTURE(small);
        CHECK(conv_kernel_isa(prb(small), cpu_isa::avx512, zen4) == cpu_isa::avx2);
        CHECK(conv_kernel_isa(prb(small), cpu_isa::avx512, xeon) == cpu_isa::avx512);
        CHECK(conv_kernel_isa(prb(small), cpu_isa::avx512, zen5_u) == cpu_isa::avx512);
        CHECK(conv_kernel_isa(prb(small), cpu_isa::avx2, xeon) == cpu_isa::avx2);
    }
    // Nothing merged on 16 lanes (groups of 16, no groups, depthwise, a group count that 16 lanes
    // do not merge): 16 lanes everywhere.
    for (const char *other : {"g32mb2ic512ih28oc512oh28kh3ph1", "mb2ic64ih56oc64oh56kh3ph1",
                              "g32mb2ic32ih56oc32oh56kh3ph1", "g3mb2ic24ih14oc24oh14kh3ph1"}) {
        CAPTURE(other);
        CHECK(conv_kernel_isa(prb(other), cpu_isa::avx512, zen4) == cpu_isa::avx512);
        CHECK(conv_kernel_isa(prb(other), cpu_isa::avx512, xeon) == cpu_isa::avx512);
    }
}
