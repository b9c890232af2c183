// The micro-architecture figures from the CPU's facts (uarch.hpp).
#include "jit/uarch.hpp"

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
    const bool zen4 = cpu.vendor == impl::cpu_vendor::amd && cpu.family == 25;
    if (zen4) u.gather_min_oc = 2048;
    // Zen 4 is the AMD family 25 that has AVX-512 (Zen 3, the other one, has none): 256-bit
    // FMA units under it.
    if (zen4) u.fma_unit_bits = 256;
    return u;
}

const uarch &current_uarch() {
    static const uarch u = uarch_for(impl::get_cpu_info());
    return u;
}

} // namespace jit
} // namespace prim
