// The JIT eltwise pass: eltwise_pass.hpp. The code itself is the eltwise kernel
// (eltwise_kernel.cpp), shared through the kernel cache.
#include "jit/eltwise/eltwise_pass.hpp"
#include "jit/gen/work_threads.hpp"

#include <omp.h>

#include <algorithm>

#include "common/post_op_operands.hpp"
#include "jit/eltwise/eltwise_kernel.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/inject/kernel_chain_plan.hpp"
#include "jit/gen/uarch.hpp"

namespace prim {
namespace jit {

namespace {

// Below this many elements one thread does the whole run.
const int64_t min_elems_per_thread = 32 * 1024;

} // namespace

std::unique_ptr<eltwise_pass> eltwise_pass::create(cpu_isa isa, algorithm alg, float alpha,
        float beta, const post_ops &chain, const memory::desc &md,
        const std::vector<memory::desc> &operand_mds, std::string &why_not,
        const eltwise_pass_options &opts) {
    // The chain with each operand read as one value or dst-like per row, after the algorithm.
    eltwise_rows plan;
    post_ops rows_chain;
    why_not = plan_eltwise_rows(md, chain, operand_mds, jit::simd_w_of(isa), plan,
                                rows_chain);
    if (!why_not.empty()) return nullptr;
    post_ops front;
    front.append_eltwise(alg, alpha, beta, 1.f);
    const kernel_chain_plan admitted = admit_kernel_chain(isa, impl::chain_after(front, rows_chain), {});
    why_not = admitted.why_not;
    if (!why_not.empty()) return nullptr;
    const post_ops &kernel_chain = admitted.chain;
    // The whole buffer: a layout padded along a blocked dim is walked padding included (the
    // plan's memory dims are the padded ones); the caller decides what the padding holds.
    const int64_t nelems = md.nelems_padded();
    return std::unique_ptr<eltwise_pass>(new eltwise_pass(isa, kernel_chain, nelems, std::move(plan),
                                                          opts, md.get_data_type()));
}

eltwise_pass::eltwise_pass(cpu_isa isa, const post_ops &chain, int64_t nelems, eltwise_rows plan,
                           const eltwise_pass_options &opts, memory::data_type dst_dt)
    : isa_(isa), nelems_(nelems), plan_(std::move(plan)),
      src_size_(static_cast<int64_t>(data_type_size(opts.src_dt))),
      dst_size_(static_cast<int64_t>(data_type_size(dst_dt))), has_operands_(chain.has_operands()) {
    for (const post_ops::entry &e : chain.entries())
        operand_sizes_.push_back(
                impl::has_operand(e) ? static_cast<int64_t>(data_type_size(impl::operand_type(e))) : 0);
    eltwise_kernel_conf conf;
    conf.src_dt = static_cast<uint8_t>(opts.src_dt);
    conf.scale_src = opts.scale_src;
    conf.scale_first_operand = opts.scale_first_operand;
    conf.dst_dt = static_cast<uint8_t>(dst_dt);
    kernel_ = get_eltwise_kernel(isa, conf, chain);
    // From a quarter of the L3 on (uarch.hpp), an out-of-place run without sum uses
    // non-temporal stores: dst is not read, and bypassing the caches saves the
    // read-for-ownership traffic of ordinary stores. Whole vectors of 4-byte values only.
    if (!chain.has_sum() && dst_size_ == 4
            && nelems * dst_size_ >= current_uarch().stream_threshold_bytes) {
        conf.stream_stores = true;
        stream_kernel_ = get_eltwise_kernel(isa, conf, chain);
    }
}

bool eltwise_pass::stream(const void *src, const void *dst) const {
    // Non-temporal stores fault on a misaligned vector: every call's first row must start on a
    // vector boundary, so dst must, and so must each row and outer step when there are several
    // rows (a single row is cut into chunks of 64 bytes). A review found the crash with rows of
    // 2049 and 513 x 513 elements.
    const int64_t vlen = jit::vlen_of(isa_);
    const auto aligned = [&](int64_t elems) { return elems * dst_size_ % vlen == 0; };
    if (!stream_kernel_ || src == dst || reinterpret_cast<uintptr_t>(dst) % vlen != 0) return false;
    if (plan_.rows * plan_.outer_count() == 1) return true;
    if (!aligned(plan_.row_len)) return false;
    for (const int64_t step : plan_.dst_outer)
        if (!aligned(step)) return false;
    return true;
}

void eltwise_pass::execute(const void *src, void *dst, const std::vector<const float *> &operands,
                           const std::vector<float> &runtime_params,
                           const eltwise_scales &scales) const {
    if (nelems_ == 0) return;
    const runtime_tables tables = tables_for(runtime_params);
    const bool stream = this->stream(src, dst);
    const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
    const int nthr = static_cast<int>(std::max<int64_t>(
            1, std::min<int64_t>(max_threads, nelems_ / min_elems_per_thread)));
    // One row (no operand, or none that needs rows): equal chunks of it, each a multiple of
    // 64 bytes of dst so that every chunk starts cache-line aligned relative to the buffer; the
    // last chunk takes the tail. Otherwise equal ranges of rows.
    const int64_t total_rows = plan_.rows * plan_.outer_count();
    const bool one_row = total_rows == 1;
    const int64_t line = 64 / dst_size_;
    const int64_t chunk = one_row ? ((nelems_ + nthr - 1) / nthr + line - 1) / line * line
                                  : (total_rows + nthr - 1) / nthr;
    const auto run_chunk = [&](int t) {
        const int64_t first = std::min<int64_t>(one_row ? nelems_ : total_rows, chunk * t);
        const int64_t last = std::min<int64_t>(one_row ? nelems_ : total_rows, first + chunk);
        if (!one_row) return run_rows(src, dst, operands, tables, scales, stream, first, last - first);
        std::vector<int64_t> values(2 * (operands.size() + 1));
        if (last > first)
            call(src, dst, operands, tables, scales, stream, 0, first, last - first, 1, values);
    };
    run_parts(nthr, run_chunk);
}

void eltwise_pass::execute_rows(const void *src, void *dst,
                                const std::vector<const float *> &operands,
                                const std::vector<float> &runtime_params, int64_t first,
                                int64_t count) const {
    if (nelems_ > 0)
        run_rows(src, dst, operands, tables_for(runtime_params), {}, stream(src, dst), first, count);
}

void eltwise_pass::run_rows(const void *src, void *dst,
                            const std::vector<const float *> &operands,
                            const runtime_tables &tables, const eltwise_scales &scales,
                            bool stream, int64_t first, int64_t count) const {
    std::vector<int64_t> values(2 * (operands.size() + 1));
    const int64_t last = first + count;
    for (int64_t r = first; r < last;) {
        const int64_t in_outer = r % plan_.rows;
        const int64_t n = std::min(last - r, plan_.rows - in_outer);
        call(src, dst, operands, tables, scales, stream, r / plan_.rows, in_outer * plan_.row_len,
             plan_.row_len, n, values);
        r += n;
    }
}

void eltwise_pass::call(const void *src, void *dst, const std::vector<const float *> &operands,
                        const runtime_tables &tables, const eltwise_scales &scales, bool stream,
                        int64_t outer, int64_t start, int64_t row_len, int64_t rows,
                        std::vector<int64_t> &values) const {
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
    for (size_t i = 0; has_operands_ && i < operands.size(); ++i) {
        const eltwise_rows::operand &op = plan_.operands[i];
        if (!op.present) continue;
        const bool follows = op.how == eltwise_rows::read::follows_dst;
        int64_t off = row0 * op.row_step + (follows ? in_row : 0);
        for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * op.outer[d];
        // Entry i of the attribute is entry i + 1 of the kernel chain.
        const int64_t size = operand_sizes_[i + 1];
        int64_t *v = &values[2 * (i + 1)];
        v[0] = reinterpret_cast<intptr_t>(reinterpret_cast<const char *>(operands[i]) + off * size);
        v[1] = size * op.row_step;
    }
    const jit_generator &kernel = stream ? *stream_kernel_ : *kernel_;
    eltwise_call_args a{static_cast<const char *>(src) + dst_off * src_size_,
                        static_cast<char *>(dst) + dst_off * dst_size_, row_len, rows,
                        has_operands_ ? values.data() : nullptr, tables.of(&kernel)};
    std::fill(std::begin(a.src_scale), std::end(a.src_scale), scales.src);
    std::fill(std::begin(a.first_operand_scale), std::end(a.first_operand_scale), scales.first_operand);
    kernel.entry_as<eltwise_kernel_fn>()(&a);
}

} // namespace jit
} // namespace prim
