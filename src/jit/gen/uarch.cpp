// The micro-architecture figures from the CPU's facts (uarch.hpp).
#include "jit/gen/uarch.hpp"

namespace prim {
namespace jit {

uarch uarch_for(const impl::cpu_info &cpu) {
    uarch u;
    const int64_t l2 = cpu.l2_bytes;
    u.conv_block_weights_bytes = l2;
    u.conv_ocbg_inner_weights_bytes = l2 / 2;
    // The panel budget over the bytes per K value of a 3-block panel (3 * 16 floats).
    u.ip_max_k_blk = (l2 * 3 / 16) / (3 * 16 * 4);
    u.ip_src_block_bytes = l2 / 2;
    u.stream_threshold_bytes = cpu.l3_bytes / 4;
    u.lnorm_block_bytes = cpu.l1d_bytes;
    u.conv_dw_ring_bytes = l2 / 4;
    // Zen 4 (AMD family 25), measured 2026-11-27 with the AVX-512 kernels of that day (2 threads,
    // alternating with oneDNN 2.6, 4-6 rounds, medians): with 1024 output channels the gather
    // loses, now that reading in place is costed as two loads a broadcast (conv_conf.cpp):
    // res4a_branch1 (512 -> 1024) 0.98x oneDNN gathered, 1.04x in place at mb2 (1.00x / 1.05x
    // at mb1); with 2048 it is even (res5a_branch1: 1.00x / 1.01x), so it starts there. Other
    // CPUs keep the threshold measured earlier; the cost model's pipes and latency keep their
    // defaults everywhere (a Xeon's case goes here once measured).
    // AMD family 25 is Zen 4 (models 0x10-0x1f, 0x60-0x7f, 0xa0-0xaf; AVX-512) or Zen 3 (the
    // others, AVX2 only: Milan is model 1). Zen 3 ran with these figures when issue 28's Zen 3
    // measurements were taken and keeps them until it is measured on its own; both run on
    // 256-bit FMA units (which only the AVX-512 kernels' choices read).
    const bool zen3_or_zen4 = cpu.vendor == impl::cpu_vendor::amd && cpu.family == 25;
    if (zen3_or_zen4) u.gather_min_oc = 2048;
    if (zen3_or_zen4) u.fma_unit_bits = 256;
    return u;
}

const uarch &current_uarch() {
    static const uarch u = uarch_for(impl::get_cpu_info());
    return u;
}

} // namespace jit
} // namespace prim
