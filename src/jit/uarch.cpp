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
    // No CPU has been measured apart from the Zen 4 yet: the cost model's pipes and latency and
    // the gather threshold keep their defaults everywhere (a Xeon's case goes here once measured).
    return u;
}

const uarch &current_uarch() {
    static const uarch u = uarch_for(impl::get_cpu_info());
    return u;
}

} // namespace jit
} // namespace prim
