// Every micro-architecture figure the JIT's decisions read, in one place: derived from what the
// CPU reports (common/cpu_info.hpp) where a cache size is what matters, and otherwise the
// figures measured on the machine the kernels were tuned on (two cores of an AMD EPYC that
// reports family 25 model 17: a Zen 4, whose AVX-512 runs on 256-bit units), which any
// CPU gets until it is measured. To tune another CPU, add its case to uarch_for() (uarch.cpp),
// and check the chosen configurations with bench/prim_jit_config_table.
//
// On that Zen 4 (L1d 32 KiB, L2 1 MiB, L3 32 MiB) every figure
// below equals the literal it replaced; doc/convolution.md has the table.
#pragma once
#include <cstdint>

#include "common/cpu_info.hpp"

namespace prim {
namespace jit {

struct uarch {
    // The convolution's register-blocking cost model (conv_conf.cpp, init_blocking), in cycles
    // per (ic, kw) step: vector FMAs and loads issued per cycle, and the FMA latency. Zen 5 and
    // the Xeons with two FMA units both issue 2 FMAs per cycle with a latency of 4.
    double fma_per_cycle = 2, loads_per_cycle = 2, fma_latency = 4;
    // The width of the FMA units in bits. A Zen 4 runs each 512-bit instruction on two halves
    // of 256-bit units, so 16-lane vectors bring it no more FLOPs per cycle than 8-lane ones
    // (its two-thread FMA loop: 234-236 GFLOP/s either way); the Xeons and Zen 5 have 512-bit
    // units. Where 16 lanes would waste more of each vector than 8, the convolution then takes
    // 8: small groups merged with zero blocks (conv_kernel_isa()) and oc tails of 8 lanes or
    // fewer (conv_kernel_conf::narrow_tail), both in conv_conf.cpp.
    int fma_unit_bits = 512;
    // At most this many pixels in one register block, which bounds the code size of one block:
    // 28 on AVX-512 (32 registers), 14 on AVX2 (16).
    int conv_max_ur_avx512 = 28, conv_max_ur_avx2 = 14;
    // A blocking over several oc blocks whose weights exceed this loses 15% in the cost model
    // (its efficiency times conv_beyond_l2_factor): they no longer stay in L2 while a thread
    // walks its rows. (L2 per core: 1 MiB on Zen 5.)
    int64_t conv_block_weights_bytes = 0;
    double conv_beyond_l2_factor = 0.85;
    // Short rows of a 1x1 convolution are merged, the fewest that make a row of
    // conv_merged_row_min_pixels, into one kernel row when the cost model's efficiency gains by
    // this factor (conv_conf.cpp, merge_rows_if_better): 5% on AVX-512, any gain on AVX2 (the
    // measurements are there).
    int64_t conv_merged_row_min_pixels = 48;
    double conv_merge_rows_min_gain_avx512 = 1.05, conv_merge_rows_min_gain_avx2 = 1.0;
    // The depthwise kernel's accumulators at most (conv_conf.cpp, dw_max_acc), besides what its
    // registers allow.
    int conv_dw_max_acc_avx512 = 28, conv_dw_max_acc_avx2 = 13;
    // The convolution's work items run in chunks taken dynamically (jit_convolution.cpp):
    // conv_chunks_per_thread per thread, or conv_small_call_chunks_per_thread for a 1x1 call
    // below conv_small_call_flops_per_thread per thread (8 MFLOP, 70 us on one core), where
    // OpenMP's passive wait has the other thread join late and coarse chunks left one thread
    // idle at the end (measurements in jit_convolution.cpp).
    int conv_chunks_per_thread = 4, conv_small_call_chunks_per_thread = 16;
    double conv_small_call_flops_per_thread = 8e6;
    // Threading order: oc block groups innermost when one group's weights fit this (half the
    // L2, so the src rows the group's calls share fit beside them: 512 KiB on Zen 5).
    int64_t conv_ocbg_inner_weights_bytes = 0;
    // The strided 1x1 gather pays from this many output channels per group: a ratio of the
    // copy's cost to the scattered re-reads it saves (every oc block group re-reads the
    // row from L2; ResNet-50's strided 1x1 rows all take the same 28 KiB whatever the
    // cache), measured (conv_unit_stride.cpp), not a cache size: 2048 on Zen 4 (uarch.cpp).
    int64_t gather_min_oc = 1024;
    // The cache line: a strided 1x1 convolution whose pixels' channels fill less than one
    // is gathered whatever its output channels (conv_unit_stride.cpp). 64 bytes on every x86
    // CPU prim runs on (Zen 5 and the Xeons alike).
    int64_t cache_line_bytes = 64;
    // The inner product's K block: a weight panel of 3 oc blocks of 16 and k_blk values takes at
    // most 3/16 of L2 (192 KiB of 1 MiB: max_k_blk 1024 on Zen 5); and an m chunk's src K
    // block at most half of L2 (512 KiB).
    int64_t ip_max_k_blk = 0;
    int64_t ip_src_block_bytes = 0;
    // Eltwise passes: non-temporal stores from a quarter of the L3 on (8 MiB on Zen 5's 32 MiB):
    // a dst that large is not read again from the cache anyway.
    int64_t stream_threshold_bytes = 0;
    // Layer normalization: rows are normalized by blocks of the L1d's size, so that the block's
    // statistics pass leaves it in L1 for the normalizing pass (32 KiB).
    int64_t lnorm_block_bytes = 0;
    // The fused dw pass (jit_conv_dw_fused.cpp): a thread's ring of the 1x1's rows takes at
    // most this (a quarter of the L2: beside it stay the 1x1's weights of the ring's channels
    // and the src row they read), unless one unit of channel blocks is larger.
    int64_t conv_dw_ring_bytes = 0;
};

// The figures for a CPU.
uarch uarch_for(const impl::cpu_info &cpu);

// This CPU's figures, computed once.
const uarch &current_uarch();

} // namespace jit
} // namespace prim
