// The blocking rules of the JIT inner product; see ip_blocking.hpp for the terms.
#include <algorithm>

#include "jit/ip/ip_blocking.hpp"
#include "jit/gen/isa_traits.hpp"

namespace prim {
namespace jit {
namespace {

constexpr int max_nr = 8;                           // oc blocks per tile (mb1: 8 weight streams)
constexpr int64_t min_work_items = 8;               // (m chunk, panel) pairs, when mb allows

int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Does an mr × nr tile fit the vector registers? During the FMAs: the accumulators, nr weight
// vectors and one broadcast. During the chain: the registers outside the accumulators are the
// injector's spares; the sum callback on AVX2 also needs one for the tail mask besides its aux.
bool tile_fits(int mr, int nr, int n_vregs, int chain_aux, int min_spare) {
    const int acc = mr * nr;
    return acc + nr + 1 <= n_vregs && n_vregs - acc >= std::max(chain_aux, min_spare);
}

} // namespace

std::string init_ip_blocking(ip_blocking &b, cpu_isa isa, const impl::ip_problem &prb,
                             int chain_aux_vecs, bool chain_has_sum, const uarch &u) {
    // K block and m chunk from the L2 size (uarch.hpp): 1024 and 512 KiB on a 1 MiB L2.
    const int64_t max_k_blk = u.ip_max_k_blk, src_block_bytes = u.ip_src_block_bytes;
    const bool avx512 = isa == cpu_isa::avx512;
    const int n_vregs = n_vregs_of(isa);
    b.simd_w = simd_w_of(isa);
    b.mb = prb.mb;
    b.oc = prb.oc;
    b.k = prb.ic * prb.spatial();
    b.oc_blocks = div_up(b.oc, b.simd_w);
    b.oc_tail = static_cast<int>(b.oc % b.simd_w);

    // Tall tiles for large batches (8×3 on AVX-512, 4×3 on AVX2: 24 / 12 accumulators); for
    // small batches one tile row covers the batch and the spare registers go to more oc blocks.
    const int mr_big = avx512 ? 8 : 4;
    const int min_spare = (!avx512 && chain_has_sum) ? 2 : 1;
    // For small batches keep at least 4 panels when there are enough oc blocks, so that both
    // cores get work even for mb1 (a rule on the problem only, never on the thread count).
    const int64_t min_panels = b.mb <= mr_big ? 4 : 1;
    const int nr_cap = static_cast<int>(
            std::max<int64_t>(1, std::min<int64_t>(max_nr, div_up(b.oc_blocks, min_panels))));
    int best_mr = 0, best_nr = 0;
    for (int mr = static_cast<int>(std::min<int64_t>(std::max<int64_t>(b.mb, 1), mr_big));
         mr >= 1 && best_mr == 0; --mr) {
        const int nr_start = std::min(nr_cap, (n_vregs - 1) / (mr + 1));
        for (int nr = nr_start; nr >= 1; --nr)
            if (tile_fits(mr, nr, n_vregs, chain_aux_vecs, min_spare)) {
                best_mr = mr;
                best_nr = nr;
                break;
            }
    }
    if (best_mr == 0)
        return "the post-ops chain needs " + std::to_string(chain_aux_vecs)
               + " spare vector registers, more than any register tile leaves";
    b.mr = best_mr;
    b.nr = best_nr;
    b.panels = div_up(b.oc_blocks, b.nr);

    // K blocks only pay when several tile rows reuse a weight panel.
    if (b.mb <= b.mr || b.k <= max_k_blk) {
        b.k_blk = b.k;
    } else {
        const int64_t n = div_up(b.k, max_k_blk);
        b.k_blk = div_up(div_up(b.k, n), 4) * 4; // a multiple of the kernel's K unroll
    }
    b.k_blocks = div_up(b.k, b.k_blk);

    int64_t rows = std::max<int64_t>(b.mr, src_block_bytes / (b.k_blk * 4) / b.mr * b.mr);
    // Tall and narrow problems (few panels): smaller m chunks, so there are at least
    // min_work_items items to share among the threads.
    if (b.panels < min_work_items) {
        const int64_t chunks = div_up(min_work_items, b.panels);
        rows = std::min(rows, std::max<int64_t>(b.mr, div_up(div_up(b.mb, chunks), b.mr) * b.mr));
    }
    b.m_chunk = std::max<int64_t>(1, std::min<int64_t>(b.mb, rows));
    b.m_chunks = b.mb == 0 ? 0 : div_up(b.mb, b.m_chunk);
    return "";
}

} // namespace jit
} // namespace prim
