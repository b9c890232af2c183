// The JIT eltwise primitive: checks, then the threading over the flat buffer. The code itself
// is the eltwise kernel (eltwise_kernel.cpp), shared through the kernel cache.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "jit/eltwise_kernel.hpp"
#include "jit/jit_eltwise.hpp"
#include "jit/eltwise_rows.hpp"
#include "jit/post_ops_injector.hpp"

namespace prim {
namespace impl {
namespace {

using jit::eltwise_call_args;
using jit::eltwise_kernel_fn;

// Above this size an out-of-place run without sum uses non-temporal stores: dst is not read,
// and bypassing the caches saves the read-for-ownership traffic of ordinary stores.
const int64_t stream_threshold_bytes = 8 << 20;
// Below this many elements one thread does the whole run.
const int64_t min_elems_per_thread = 32 * 1024;

class jit_eltwise : public primitive_impl {
public:
    // chain: the kernel chain (the algorithm, then the attribute's entries one place later);
    // plan: the walk that makes every operand one value or dst-like per row.
    jit_eltwise(cpu_isa isa, const post_ops &chain, int64_t nelems, const memory::desc &md,
                jit::eltwise_rows plan)
        : primitive_impl({md, {}, {}, md}), isa_(isa), nelems_(nelems), plan_(std::move(plan)),
          has_operands_(chain.has_operands()) {
        jit::eltwise_kernel_conf conf;
        kernel_ = jit::get_eltwise_kernel(isa, conf, chain);
        if (!chain.has_sum() && nelems * static_cast<int64_t>(sizeof(float)) >= stream_threshold_bytes) {
            conf.stream_stores = true;
            stream_kernel_ = jit::get_eltwise_kernel(isa, conf, chain);
        }
    }

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        if (nelems_ == 0) return;
        const int vlen = isa_ == cpu_isa::avx512 ? 64 : 32;
        const bool stream = stream_kernel_ && args.src != args.dst
                && reinterpret_cast<uintptr_t>(args.dst) % vlen == 0;
        const eltwise_kernel_fn fn = (stream ? stream_kernel_ : kernel_)->entry_as<eltwise_kernel_fn>();
        const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
        const int nthr = static_cast<int>(std::max<int64_t>(
                1, std::min<int64_t>(max_threads, nelems_ / min_elems_per_thread)));
        // One row (no operand, or none that needs rows): equal chunks of it, each a multiple of
        // 16 elements (64 bytes) so that every chunk starts cache-line aligned relative to the
        // buffer; the last chunk takes the tail. Otherwise equal ranges of rows.
        const int64_t total_rows = plan_.rows * plan_.outer_count();
        const bool one_row = total_rows == 1;
        const int64_t chunk = one_row ? ((nelems_ + nthr - 1) / nthr + 15) / 16 * 16
                                      : (total_rows + nthr - 1) / nthr;
        const auto run_chunk = [&](int t) {
            const int64_t first = std::min<int64_t>(one_row ? nelems_ : total_rows, chunk * t);
            const int64_t last = std::min<int64_t>(one_row ? nelems_ : total_rows, first + chunk);
            std::vector<int64_t> values(2 * (args.post_op.size() + 1));
            if (one_row) {
                if (last > first) call(fn, args, 0, first, last - first, 1, values);
                return;
            }
            // Rows [first, last), cut where the outer index changes.
            for (int64_t r = first; r < last;) {
                const int64_t in_outer = r % plan_.rows;
                const int64_t count = std::min(last - r, plan_.rows - in_outer);
                call(fn, args, r / plan_.rows, in_outer * plan_.row_len, plan_.row_len, count, values);
                r += count;
            }
        };
        if (nthr == 1) return run_chunk(0);
#pragma omp parallel num_threads(nthr)
        run_chunk(omp_get_thread_num());
    }

private:
    // One kernel call: `rows` rows of row_len elements from element `start` of the outer index
    // `outer` (row-dim offset included in start). values: scratch for the operand values.
    void call(eltwise_kernel_fn fn, const exec_ptrs &args, int64_t outer, int64_t start,
              int64_t row_len, int64_t rows, std::vector<int64_t> &values) const {
        // The outer index's element offsets in dst and in each operand.
        int64_t dst_off = start;
        std::vector<int64_t> idx(plan_.outer_sizes.size());
        for (int d = static_cast<int>(idx.size()) - 1; d >= 0; --d) {
            idx[d] = outer % plan_.outer_sizes[d];
            outer /= plan_.outer_sizes[d];
            dst_off += idx[d] * plan_.dst_outer[d];
        }
        // The row-dim index of the first row, and where in it the call starts (a chunk of the
        // single row starts inside it).
        const int64_t row0 = start / plan_.row_len, in_row = start % plan_.row_len;
        for (size_t i = 0; has_operands_ && i < args.post_op.size(); ++i) {
            const jit::eltwise_rows::operand &op = plan_.operands[i];
            if (!op.present) continue;
            int64_t off = row0 * op.row_step + (op.follows_dst ? in_row : 0);
            for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * op.outer[d];
            const intptr_t at = reinterpret_cast<intptr_t>(args.post_op[i] + off);
            const intptr_t dst_at = reinterpret_cast<intptr_t>(args.dst + dst_off);
            // Entry i of the attribute is entry i + 1 of the kernel chain.
            int64_t *v = &values[2 * (i + 1)];
            v[0] = op.follows_dst ? at - dst_at : at;
            v[1] = static_cast<int64_t>(sizeof(float))
                   * (op.follows_dst ? op.row_step - plan_.row_len : op.row_step);
        }
        const eltwise_call_args a{args.src + dst_off, args.dst + dst_off, row_len, rows,
                                  has_operands_ ? values.data() : nullptr};
        fn(&a);
    }

    cpu_isa isa_;
    int64_t nelems_;
    jit::eltwise_rows plan_;
    bool has_operands_;
    std::shared_ptr<const jit::jit_generator> kernel_, stream_kernel_;
};

} // namespace

std::unique_ptr<primitive_impl> create_jit_eltwise(const eltwise_request &req, cpu_isa isa,
                                                   std::string &why_not) {
    PRIM_DISPATCH(isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;

    // 'any' takes the other one's layout, or plain when both are 'any'.
    memory::desc src = req.src, dst = req.dst;
    if (src.is_any() && dst.is_any()) src = dst = plain_desc(req.prb.dims);
    if (src.is_any()) src = dst;
    if (dst.is_any()) dst = src;
    PRIM_DISPATCH(src == dst, "src and dst layouts differ");
    PRIM_DISPATCH(src.get_data_type() == memory::data_type::f32, "only f32");
    PRIM_DISPATCH(src.nelems_padded() == req.prb.nelems(), "padded layout");

    // The kernel's chain: the primitive's own algorithm first, then the attribute's post-ops.
    // (The eltwise creation has checked the algorithm and its parameters, so append_eltwise
    // takes them.)
    // The attribute's chain with each operand read as one value or dst-like per row.
    const post_ops &attr_chain = req.attr.get_post_ops();
    jit::eltwise_rows plan;
    post_ops rows_chain;
    const std::string unread = jit::plan_eltwise_rows(
            dst, attr_chain, operand_descs(attr_chain, dst),
            kernel_isa == cpu_isa::avx512 ? 16 : 8, plan, rows_chain);
    PRIM_DISPATCH(unread.empty(), unread);
    post_ops chain;
    chain.append_eltwise(req.alg, req.alpha, req.beta, 1.f);
    for (const post_ops::entry &e : rows_chain.entries()) {
        if (e.kind == post_ops::kind::sum) chain.append_sum(e.scale);
        else if (e.kind == post_ops::kind::eltwise) chain.append_eltwise(e.alg, e.alpha, e.beta, e.scale);
        else if (e.kind == post_ops::kind::binary) chain.append_binary(e.alg, e.mask);
        else chain.append_prelu(e.mask);
    }
    const std::string injector_refuses = kernel_isa == cpu_isa::avx512
            ? jit::post_ops_injector<cpu_isa::avx512>::why_not(chain)
            : jit::post_ops_injector<cpu_isa::avx2>::why_not(chain);
    PRIM_DISPATCH(injector_refuses.empty(), injector_refuses);
    return std::make_unique<jit_eltwise>(kernel_isa, chain, req.prb.nelems(), src, std::move(plan));
}

} // namespace impl
} // namespace prim
