// The JIT layer normalization: one normalization pass dst = chain((x - mean[r]) * rstd[r]
// [+ correction[r]] [* scale[c]] [+ shift[c]]) with r the row (every dim but the last) and c the
// last dim. The per-row mean (in f32), rstd = 1 / sqrt(variance + eps) and, for computed
// statistics, the correction of the mean's rounding are per-call buffers in the rows' memory
// order; scale and shift are read from the user's buffers. Statistics that are not given are
// computed by blocks of rows, each block normalized right after, while it is still in the cache.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/plain_layout.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/norm/jit_normalization.hpp"
#include "jit/norm/normalization_pass.hpp"
#include "jit/norm/normalization_stats.hpp"
#include "jit/gen/work_threads.hpp"
#include "jit/gen/uarch.hpp"

namespace prim {
namespace impl {
namespace {

// Below this many elements one thread does the whole run (as eltwise_pass).
const int64_t min_elems_per_thread = 32 * 1024;

class jit_lnorm : public primitive_impl {
public:
    jit_lnorm(cpu_isa isa, const lnorm_problem &prb, arg_layouts layouts,
              std::vector<int64_t> stat_offset, std::unique_ptr<jit::normalization_pass> pass)
        : primitive_impl(std::move(layouts)), isa_(isa), prb_(prb),
          stat_offset_(std::move(stat_offset)), pass_(std::move(pass)) {}

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        const int64_t rows = prb_.rows(), len = prb_.norm_len();
        // Per row in memory order: the mean rounded to f32, rstd, and (computed statistics) the
        // rounding's correction (m - mean) * rstd, of order 2^-24 |mean| / sigma.
        std::vector<float> stats(static_cast<size_t>(3 * rows));
        float *mean = stats.data(), *rstd = mean + rows, *correction = rstd + rows;
        std::vector<const float *> leading = {mean, rstd};
        if (!prb_.global_stats()) leading.push_back(correction);
        if (prb_.use_scale()) leading.push_back(args.scale);
        if (prb_.use_shift()) leading.push_back(args.shift);
        const std::vector<const float *> ops = pass_->operands(leading, args);
        const jit::eltwise_pass &pass = pass_->pass();
        const double eps = prb_.eps;
        const auto set_row = [&](int64_t r, double m, double v) {
            const double inv = 1.0 / std::sqrt(v + eps);
            mean[r] = static_cast<float>(m);
            rstd[r] = static_cast<float>(inv);
            correction[r] = static_cast<float>((static_cast<double>(mean[r]) - m) * inv);
        };

        if (prb_.global_stats()) {
            for (int64_t r = 0; r < rows; ++r) {
                const int64_t at = stat_offset_.empty() ? r : stat_offset_[r];
                set_row(r, args.mean[at], args.variance[at]);
            }
            pass.execute(args.src, args.dst, ops, args.runtime_params);
            return;
        }
        // Rows per block when the statistics are computed: about an L1d of src (uarch.hpp),
        // which stays in the cache between the statistics and the pass.
        const int64_t block_bytes = jit::current_uarch().lnorm_block_bytes;
        const int64_t block = std::max<int64_t>(1, block_bytes / (len * 4));
        const int64_t blocks = (rows + block - 1) / block;
        const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
        const int nthr = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(
                {max_threads, blocks, prb_.nelems() / min_elems_per_thread})));
        const auto run = [&](int t) {
            for (int64_t b = blocks * t / nthr; b < blocks * (t + 1) / nthr; ++b) {
                const int64_t first = b * block, count = std::min(block, rows - first);
                for (int64_t r = first; r < first + count; ++r) {
                    double m, v;
                    jit::row_moments(isa_, args.src + r * len, len, m, v);
                    set_row(r, m, v);
                }
                pass.execute_rows(args.src, args.dst, ops, args.runtime_params, first, count);
            }
        };
        jit::run_parts(nthr, run);
    }

private:
    cpu_isa isa_;
    lnorm_problem prb_;
    std::vector<int64_t> stat_offset_; // per row in memory order, the statistics' offset; empty: r
    std::unique_ptr<jit::normalization_pass> pass_;
};

// The layout's pattern has no inner block and ends with the last dim: rows are contiguous.
bool last_dim_innermost(const memory::desc &md) {
    const std::string p = md.layout();
    return static_cast<int>(p.size()) == md.ndims()
           && p.back() == static_cast<char>('a' + md.ndims() - 1);
}

} // namespace

std::unique_ptr<primitive_impl> create_jit_lnorm(const lnorm_request &req, cpu_isa isa,
                                                 std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;
    const lnorm_problem &prb = req.prb;
    const int rank = static_cast<int>(prb.dims.size());

    memory::desc src = req.src, dst = req.dst;
    jit::resolve_any(src, dst);
    PRIM_DISPATCH(why_not, src == dst, "src and dst layouts differ");
    PRIM_DISPATCH(why_not, src.is_dense() && src.nelems_padded() == prb.nelems(),
                  "the layout is not dense or is padded");
    PRIM_DISPATCH(why_not, last_dim_innermost(src),
                  "the last dim is not the innermost one, unblocked");

    // Rows: every dim but the last (mask), broadcast along the last; scale and shift: the last.
    // A given mean is an f32 already: no correction.
    const int per_row = ~(1 << (rank - 1)), per_col = 1 << (rank - 1);
    std::vector<jit::leading_entry> leading = {{algorithm::binary_sub, per_row},
                                               {algorithm::binary_mul, per_row}};
    if (!prb.global_stats()) leading.push_back({algorithm::binary_add, per_row});
    if (prb.use_scale()) leading.push_back({algorithm::binary_mul, per_col});
    if (prb.use_shift()) leading.push_back({algorithm::binary_add, per_col});
    auto pass = jit::normalization_pass::create(kernel_isa, leading, req.attr.get_post_ops(), src,
                                                why_not);
    if (!pass) return nullptr;
    PRIM_DISPATCH(why_not, pass->pass().row_len() == prb.norm_len()
                      && pass->pass().total_rows() == prb.rows(),
                  "the pass does not walk the tensor by rows of the last dim");

    arg_layouts layouts;
    layouts.src = src;
    layouts.dst = dst;
    const memory::desc stat = plain_if_any(req.stat);
    std::vector<int64_t> stat_offset;
    if (prb.global_stats()) {
        layouts.mean = layouts.variance = stat;
        // Row r in memory order is where the per-row operand puts it; the user's statistics
        // may be in another order.
        const memory::desc &row_md = pass->leading_md(0);
        const int64_t rows = prb.rows();
        std::vector<int64_t> offset(static_cast<size_t>(rows));
        memory::dims idx(static_cast<size_t>(rank), 0);
        bool identity = true;
        for (int64_t r = 0; r < rows; ++r) {
            int64_t rest = r;
            for (int d = rank - 2; d >= 0; --d) {
                idx[d] = rest % prb.dims[d];
                rest /= prb.dims[d];
            }
            const int64_t mem_row = row_md.offset(idx.data());
            const int64_t at = stat.offset(idx.data());
            offset[static_cast<size_t>(mem_row)] = at;
            identity = identity && mem_row == at;
        }
        if (!identity) stat_offset = std::move(offset);
    }
    const memory::desc vec({prb.norm_len()}, memory::data_type::f32, memory::format_tag::a);
    if (prb.use_scale()) layouts.scale = vec;
    if (prb.use_shift()) layouts.shift = vec;
    return std::make_unique<jit_lnorm>(kernel_isa, prb, std::move(layouts), std::move(stat_offset),
                                       std::move(pass));
}

} // namespace impl
} // namespace prim
