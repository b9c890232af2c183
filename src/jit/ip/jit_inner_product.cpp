// The JIT inner product primitive: creation checks, the layouts it runs on, the kernels it
// generates once, and the threaded walk over panels, K blocks and tiles at execution.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "jit/gen/thread_pool.hpp"
#include "jit/ip/ip_blocking.hpp"
#include "jit/ip/ip_gemm_kernel.hpp"
#include "jit/gen/runtime_table.hpp"
#include "jit/ip/ip_pack_weights.hpp"
#include "jit/ip/jit_inner_product.hpp"
#include "jit/ip/ip_kernel_grid.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "jit/inject/kernel_chain_plan.hpp"
#include "jit/gen/work_threads.hpp"
#include "common/internal_reorder.hpp"
#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"

namespace prim {
namespace impl {
namespace {

using jit::ip_blocking;
using jit::ip_gemm_args;
using jit::ip_gemm_conf;
using jit::ip_gemm_kernel;

// The packed weights layout: oc blocked by one panel (nr oc blocks) innermost, the rest plain,
// so the K dims (ic and the spatial dims) flatten contiguously and a panel's weights are one
// sequential stream: "Ab48a" for the 8x3 AVX-512 tile, "Abcd128a" for mb1 with spatial dims.
memory::desc packed_weights_desc(const memory::dims &dims, int64_t block) {
    std::string pattern = "A";
    for (size_t i = 1; i < dims.size(); ++i) pattern += static_cast<char>('a' + i);
    pattern += std::to_string(block) + "a";
    return memory::desc(dims, memory::data_type::f32, pattern);
}

template <cpu_isa isa>
class jit_inner_product : public primitive_impl {
public:
    static constexpr int simd_w = jit::isa_traits<isa>::simd_w;

    // chain: the kernel chain (kernel_chain_plan.hpp).
    jit_inner_product(const ip_request &req, const ip_blocking &blk, const post_ops &chain)
        : primitive_impl(layouts(req, blk)), prb_(req.prb), blk_(blk),
          has_sum_(req.attr.get_post_ops().has_sum()), chain_(chain),
          operand_mds_(operand_descs(req.attr.get_post_ops(), dst_md())),
          packed_wei_md_(packed_weights_desc(req.wei.get_dims(), wei_block(blk))),
          wei_block_(wei_block(blk)) {
        repack_src_ = !is_plain(src_md());
        repack_wei_ = wei_md() != packed_wei_md_;
        repack_bias_ = req.with_bias && !is_plain(bias_md());
        repack_dst_ = !is_plain(dst_md());

        // Up to four kernels: full tile rows or the mb tail, full panels or the last one.
        const int64_t m_tail = blk_.mb % blk_.mr;
        const int64_t last_nr = blk_.oc_blocks - (blk_.panels - 1) * blk_.nr;
        const bool last_differs = last_nr != blk_.nr || blk_.oc_tail != 0;
        for (int r = 0; r < 2; ++r)
            for (int p = 0; p < 2; ++p) {
                if ((r == 1 && m_tail == 0) || (p == 1 && !last_differs)) continue;
                ip_gemm_conf c;
                c.mr = r == 0 ? blk_.mr : static_cast<int>(m_tail);
                c.nr = p == 0 ? blk_.nr : static_cast<int>(last_nr);
                c.tail = p == 0 ? 0 : blk_.oc_tail;
                c.lda = blk_.k * 4;
                c.ldw = simd_w * 4;
                c.wei_k_step = wei_block_ * 4;
                c.ldc = blk_.oc * 4;
                c.ldp = wei_block_ * 4; // a partial tile row holds one panel
                c.with_bias = req.with_bias;
                // Equal primitives share their kernels through the process-wide cache.
                kernels_.k[r][p] = jit::kernel_cache::instance().get_or_create(
                        ip_gemm_kernel<isa>::cache_key(c, chain_),
                        [&] { return std::make_unique<ip_gemm_kernel<isa>>(c, chain_); });
            }
    }

    std::string name() const override {
        const bool repack = repack_src_ || repack_wei_ || repack_bias_ || repack_dst_;
        return std::string("jit:") + jit::isa_traits<isa>::name + (repack ? "+repack" : "");
    }

    void execute(const exec_ptrs &args) const override {
        if (prb_.mb == 0) return;
        // Arguments not in the layout the kernels read are copied per call (documented cost).
        const plain_buffer src(src_md(), args.src, true);
        const plain_buffer bias(bias_md(), args.bias, true);
        const plain_buffer dst(dst_md(), args.dst, has_sum_);
        std::vector<float> wei_copy;
        const float *wei = args.wei;
        if (repack_wei_) {
            wei_copy.resize(static_cast<size_t>(packed_wei_md_.nelems_padded()));
            if (jit::can_pack_ip_weights(wei_md()))
                jit::pack_ip_weights(wei_md(), args.wei, blk_.oc, blk_.k, wei_block_, wei_copy.data());
            else
                internal_reorder(wei_md(), packed_wei_md_)
                        .execute(memory(wei_md(), const_cast<float *>(args.wei)),
                                 memory(packed_wei_md_, wei_copy.data()));
            wei = wei_copy.data();
        }
        // Operands: full-tensor ones plain like dst (copied when not), the others as given.
        std::vector<std::unique_ptr<plain_buffer>> operand_copies;
        std::vector<const float *> ops = args.post_op;
        for (size_t i = 0; i < ops.size(); ++i)
            if (ops[i] && chain_.entries()[i].mask == post_ops::policy::per_tensor) {
                operand_copies.push_back(std::make_unique<plain_buffer>(operand_mds_[i], ops[i], true));
                ops[i] = operand_copies.back()->get();
            }
        const jit::runtime_tables tables(kernels_.all(), args.runtime_params);
        run({src.get(), wei, bias.get(), dst.get(), ops, tables});
        dst.copy_out();
    }

private:
    // oc per block of the packed weights: one panel, nr * simd_w.
    static int64_t wei_block(const ip_blocking &blk) { return static_cast<int64_t>(blk.nr) * simd_w; }

    // src, bias and dst plain ('any' becomes plain); weights packed by panel for 'any'.
    static arg_layouts layouts(const ip_request &req, const ip_blocking &blk) {
        const memory::desc packed = packed_weights_desc(req.wei.get_dims(), wei_block(blk));
        return {plain_if_any(req.src), req.wei.is_any() ? packed : req.wei,
                req.with_bias ? plain_if_any(req.bias) : memory::desc(), plain_if_any(req.dst)};
    }


    // One execute's data, as the kernels read it.
    struct exec_data {
        const float *src, *wei, *bias;
        float *dst;
        const std::vector<const float *> &ops;
        const jit::runtime_tables &tables;
    };

    // Work items are (m chunk, panel) pairs, m-chunk-major so that consecutive items reuse the
    // same src rows. A dst value is computed by exactly one item, its K blocks in order: no
    // reduction across threads, so which thread runs an item never changes the result.
    void run(const exec_data &d) const {
        const ip_blocking &b = blk_;
        const int64_t n_items = b.m_chunks * b.panels;
        const int threads = jit::threads_for_work(2.0 * static_cast<double>(b.mb) * b.oc * b.k, n_items);
        if (threads == 1) return run_items(0, n_items, d);
        // One contiguous range of items per thread. The ranges are claimed (thread_pool.hpp):
        // when a thread starts late the caller runs its range too, rather than waiting for it
        // (so which core reads which weight panels may change from call to call).
        jit::run_chunks(threads, threads, [&](int64_t part) {
            const std::pair<int64_t, int64_t> r = items_of_thread(static_cast<int>(part), threads);
            run_items(r.first, r.second, d);
        });
    }

    // Items [first, last) in order, with one partial-sum tile for them when K is split.
    void run_items(int64_t first, int64_t last, const exec_data &d) const {
        std::vector<float> partial;
        if (blk_.k_blocks > 1) partial.resize(static_cast<size_t>(blk_.m_chunk * blk_.nr * simd_w));
        std::vector<int64_t> op_values(d.ops.size());
        for (int64_t item = first; item < last; ++item)
            run_item(item, d, partial.data(), op_values.data());
    }

    // The rows times oc blocks an item computes: the last m chunk and the last panel are smaller.
    int64_t item_cost(int64_t item) const {
        const ip_blocking &b = blk_;
        const int64_t mc = item / b.panels, p = item % b.panels;
        const int64_t rows = std::min(b.mb, (mc + 1) * b.m_chunk) - mc * b.m_chunk;
        const int64_t blocks = p == b.panels - 1 ? b.oc_blocks - (b.panels - 1) * b.nr : b.nr;
        return rows * blocks;
    }

    // Thread t's contiguous items, balanced by cost: an item goes to the thread whose share of
    // the total cost holds the item's middle (with equal counts, a thread could get the big
    // items only: mb37 300->123 ran at 0.66x oneDNN so).
    std::pair<int64_t, int64_t> items_of_thread(int t, int threads) const {
        const int64_t n_items = blk_.m_chunks * blk_.panels;
        int64_t total = 0;
        for (int64_t i = 0; i < n_items; ++i) total += item_cost(i);
        int64_t first = n_items, last = n_items, before = 0;
        for (int64_t i = 0; i < n_items; ++i) {
            const int64_t cost = item_cost(i);
            const int owner = static_cast<int>(std::min<int64_t>(
                    threads - 1, (2 * before + cost) * threads / (2 * total)));
            if (owner == t && first == n_items) first = i;
            if (owner > t) {
                last = i;
                break;
            }
            before += cost;
        }
        return {std::min(first, last), last};
    }

    // One panel of one m chunk: for each K block, every tile row of the chunk.
    void run_item(int64_t item, const exec_data &d, float *partial, int64_t *op_values) const {
        const ip_blocking &b = blk_;
        const int64_t panel_oc = static_cast<int64_t>(b.nr) * simd_w;
        const int64_t mc = item / b.panels, p = item % b.panels;
        const int64_t m0 = mc * b.m_chunk, m1 = std::min(b.mb, m0 + b.m_chunk);
        const int64_t oc0 = p * panel_oc;
        const bool last_panel = p == b.panels - 1;
        ip_gemm_args a;
        a.post_op = op_values;
        for (int64_t kb = 0; kb < b.k_blocks; ++kb) {
            const int64_t k0 = kb * b.k_blk;
            a.k = std::min(b.k_blk, b.k - k0);
            a.flags = (kb > 0 ? jit::ip_load_partial : int64_t(0))
                      | (kb == b.k_blocks - 1 ? jit::ip_finalize : int64_t(0));
            a.wei = d.wei + p * b.nr * b.k * simd_w + k0 * wei_block_;
            a.bias = d.bias ? d.bias + oc0 : nullptr;
            for (int64_t m = m0; m < m1; m += b.mr) {
                a.src = d.src + m * b.k + k0;
                a.dst = d.dst + m * b.oc + oc0;
                a.partial = b.k_blocks > 1 ? partial + (m - m0) * panel_oc : nullptr;
                if (!d.ops.empty()) operand_values(d.ops, m, oc0, d.dst, op_values);
                const jit::jit_generator &k = kernels_.at(m1 - m < b.mr, last_panel);
                a.table = d.tables.of(&k);
                k.entry_as<jit::ip_gemm_fn>()(&a);
            }
        }
    }

    // Each operand's value for the tile at row m, oc oc0 (ip_gemm_args::post_op).
    void operand_values(const std::vector<const float *> &ops, int64_t m, int64_t oc0,
                        const float *dst, int64_t *out) const {
        using policy = post_ops::policy;
        for (size_t i = 0; i < ops.size(); ++i) {
            const float *op = ops[i];
            switch (chain_.entries()[i].mask) {
            case policy::common: out[i] = reinterpret_cast<intptr_t>(op); break;
            case policy::per_oc: out[i] = reinterpret_cast<intptr_t>(op + oc0); break;
            case policy::per_mb_spatial: out[i] = reinterpret_cast<intptr_t>(op + m); break;
            case policy::per_tensor:
                out[i] = reinterpret_cast<intptr_t>(op) - reinterpret_cast<intptr_t>(dst);
                break;
            default: break;
            }
        }
    }

    ip_problem prb_;
    ip_blocking blk_;
    bool has_sum_;
    post_ops chain_;                        // the kernel chain
    std::vector<memory::desc> operand_mds_; // per entry, the user's operand desc
    memory::desc packed_wei_md_;
    int64_t wei_block_; // wei_block(blk_)
    bool repack_src_ = false, repack_wei_ = false, repack_bias_ = false, repack_dst_ = false;
    jit::ip_kernel_grid kernels_; // ip_gemm_kernel<isa>, cached
};

// The kernels read a per_oc operand as contiguous channels and a per_mb_spatial one as
// contiguous rows (a per_tensor one is copied to plain when it is not); "" or why not.
std::string operands_unreadable(const ip_request &req, const post_ops &kernel_chain) {
    const memory::desc dst = plain_if_any(req.dst);
    for (int i = 0; i < kernel_chain.len(); ++i) {
        const post_ops::entry &e = kernel_chain.entries()[i];
        const int along = e.mask == post_ops::policy::per_oc ? 1
                : e.mask == post_ops::policy::per_mb_spatial ? 0 : -1;
        if (along < 0) continue;
        const memory::desc md = operand_desc(req.attr.get_post_ops().entries()[i], dst);
        memory::dims idx(2, 0);
        for (idx[along] = 0; idx[along] < md.get_dims()[along]; ++idx[along])
            if (md.offset(idx.data()) != idx[along])
                return operand_name(e, i) + ": the inner product reads it with unit stride";
    }
    return "";
}

template <cpu_isa isa>
std::unique_ptr<primitive_impl> create(const ip_request &req, std::string &why_not) {
    jit::kernel_chain_needs needs;
    needs.operand_mask_spare = true; // AVX2 keeps a tail mask for the operand loads
    const jit::kernel_chain_plan plan = jit::plan_kernel_chain(isa, req.attr.get_post_ops(), req.dst, needs);
    PRIM_DISPATCH(why_not, plan.why_not.empty(), plan.why_not);
    const post_ops &chain = plan.chain;
    const std::string unread = operands_unreadable(req, chain);
    PRIM_DISPATCH(why_not, unread.empty(), unread);

    ip_blocking blk;
    const std::string blocking_error = jit::init_ip_blocking(blk, isa, req.prb, plan.aux_vecs, chain.has_sum());
    PRIM_DISPATCH(why_not, blocking_error.empty(), blocking_error);

    // The kernels address src and dst rows with 32-bit displacements.
    const int64_t limit = INT32_MAX - 1024;
    PRIM_DISPATCH(why_not, blk.k * 4 * blk.mr < limit,
                  "ic * spatial is too large for 32-bit row offsets");
    PRIM_DISPATCH(why_not, blk.oc * 4 * blk.mr < limit, "oc is too large for 32-bit dst offsets");
    return std::make_unique<jit_inner_product<isa>>(req, blk, chain);
}

} // namespace

std::unique_ptr<primitive_impl> create_jit_ip(const ip_request &req, cpu_isa isa,
                                              std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    if (isa >= cpu_isa::avx512) return create<cpu_isa::avx512>(req, why_not);
    return create<cpu_isa::avx2>(req, why_not);
}

} // namespace impl
} // namespace prim
