// How the JIT inner product cuts its GEMM, dst[mb, oc] = src[mb, K] · W[oc, K]ᵀ with
// K = ic · spatial, into register tiles and cache blocks. A plain struct filled once at creation
// by init_ip_blocking(); the kernels and the threading loops only read it.
//
// Terms (AVX-512 numbers; AVX2 halves the vector width):
//   oc block  16 output channels = one vector.
//   tile      mr rows of src × nr oc blocks: mr·nr accumulators held in registers for all of K.
//   panel     nr consecutive oc blocks: the unit of work a thread owns (never split further).
//             The packed weights are [oc/panel][K][panel] ("Ab48a"): a panel is one stream.
//   K block   k_blk values of K (at most uarch::ip_max_k_blk, from the L2 size): a weight panel
//             of nr·16·k_blk floats that stays in L2 while
//             every tile row of an m chunk streams past it. When K has several K blocks the
//             partial sums go to a per-thread scratch tile, and only the last K block adds the
//             bias, runs the post-ops chain (sum reads the untouched dst) and stores to dst.
//   m chunk   m_chunk rows of src whose K block (m_chunk · k_blk floats) stays in L2 across
//             the panels a thread walks through.
// Whatever the blocking, every accumulator sums its K products in the order k = 0, 1, ... K-1
// (a partial sum stored to scratch and reloaded is exact), and K is never split across threads:
// results are identical across runs, thread counts and blockings. None of the choices here
// depends on the thread count anyway.
#pragma once
#include <cstdint>
#include <string>

#include "common/problem.hpp"
#include "jit/gen/uarch.hpp"
#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"

namespace prim {
namespace jit {

struct ip_blocking {
    int simd_w = 16;      // f32 lanes of one vector (16 avx512, 8 avx2)
    int64_t mb = 0, oc = 0, k = 0; // the GEMM: k = ic * spatial
    int mr = 8, nr = 3;   // register tile: rows × oc blocks
    int64_t oc_blocks = 0; // ceil(oc / simd_w)
    int oc_tail = 0;      // valid lanes of the last oc block, 0 when oc % simd_w == 0
    int64_t panels = 0;   // ceil(oc_blocks / nr)
    int64_t k_blk = 0;    // K values per K block (the last block may be shorter)
    int64_t k_blocks = 1; // ceil(k / k_blk)
    int64_t m_chunk = 0;  // rows per m chunk, a multiple of mr (or mb when mb is smaller)
    int64_t m_chunks = 1;
};

// Chooses the blocking for one problem on one ISA with one post-ops chain. Returns "" on success,
// else the reason the JIT kernel cannot take the problem (e.g. the chain needs more spare
// registers than any tile leaves). chain_aux_vecs: the injector's aux_vecs_count(chain).
std::string init_ip_blocking(ip_blocking &b, cpu_isa isa, const impl::ip_problem &prb,
                             int chain_aux_vecs, bool chain_has_sum,
                             const uarch &u = current_uarch());

} // namespace jit
} // namespace prim
