// The JIT softmax for an axis that is not innermost, on a plain layout: softmax over the channels
// of an N x C x H x W tensor (segmentation heads), where each softmax row is a column of stride
// H * W. The tensor is a run of slabs, one per position of the dims before the axis, each a
// len x inner block (len = the axis); in a slab, every column is one row of the softmax, and the
// work goes down the columns with every load contiguous:
//   1. max[i] of each column (softmax_reductions.hpp);
//   2. pass A: exp(x - max[i]) into a scratch slab (the library's exp emitter, as an eltwise pass
//      whose first entry subtracts the per-column max, broadcast along the axis);
//   3. the sums of the scratch columns, in double: factor[i] = 1 / sum (softmax) or log(sum);
//   4. pass B into dst: softmax: scratch * factor[i]; log: x - max[i] - factor[i]; then the
//      user's post-ops (eltwise and sum; binary and prelu operands go to the reference).
// Many slabs: each thread takes whole slabs. Few: the threads share each slab's columns (steps 1
// and 3) and rows (steps 2 and 4), with a barrier between the steps.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/softmax_request.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/softmax/softmax_shared.hpp"
#include "jit/softmax/softmax_reductions.hpp"

namespace prim {
namespace impl {
namespace {

class jit_softmax_strided : public primitive_impl {
public:
    jit_softmax_strided(cpu_isa isa, const softmax_request &req,
                        std::unique_ptr<jit::eltwise_pass> a, std::unique_ptr<jit::eltwise_pass> b)
        : primitive_impl(softmax_layouts(req)), isa_(isa), prb_(req.prb),
          user_len_(req.attr.get_post_ops().len()), a_(std::move(a)), b_(std::move(b)) {}

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        const int64_t slabs = prb_.outer(), len = prb_.axis_len(), inner = prb_.inner();
        const int64_t slab_elems = len * inner;
        const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
        const int nthr = static_cast<int>(std::max<int64_t>(
                1, std::min<int64_t>(max_threads, prb_.nelems() / softmax_min_elems_per_thread)));
        const bool whole_slabs = slabs >= 2 * nthr;
        // One work area per thread taking whole slabs, else one shared.
        const int areas = whole_slabs ? nthr : 1;
        std::vector<float> scratch(static_cast<size_t>(areas * slab_elems));
        std::vector<float> stats(static_cast<size_t>(areas * 2 * inner));
        std::vector<double> sums(static_cast<size_t>(areas * inner));
        // Parts by the team that comes (it may be smaller than nthr: OMP_THREAD_LIMIT,
        // OMP_DYNAMIC), since the threads sharing a slab meet at barriers.
        const auto run = [&](int ithr, int team) {
            const int area = whole_slabs ? ithr : 0;
            work w {scratch.data() + area * slab_elems, stats.data() + area * 2 * inner,
                    stats.data() + area * 2 * inner + inner, sums.data() + area * inner};
            if (whole_slabs) {
                for (int64_t o = slabs * ithr / team; o < slabs * (ithr + 1) / team; ++o)
                    slab(args, o, w, 0, 1, false);
            } else {
                for (int64_t o = 0; o < slabs; ++o) slab(args, o, w, ithr, team, team > 1);
            }
        };
        if (nthr == 1) return run(0, 1);
#pragma omp parallel num_threads(nthr)
        run(omp_get_thread_num(), omp_get_num_threads());
    }

private:
    struct work {
        float *scratch, *max, *factor;
        double *sum;
    };

    // Slab o, the part [ithr / nthr] of its columns and rows; sync: barriers between the steps
    // (the parts of one slab are shared by the threads).
    void slab(const exec_ptrs &args, int64_t o, const work &w, int ithr, int nthr,
              bool sync) const {
        const int64_t len = prb_.axis_len(), inner = prb_.inner(), at = o * len * inner;
        const bool log = prb_.alg == algorithm::softmax_log;
        const float *src = args.src + at;
        float *dst = args.dst + at;
        // The passes' rows (eltwise_rows.hpp): the slab's len rows of inner elements, or one row
        // when a column block is a single vector (inner = 16 on AVX-512).
        const int64_t rows = a_->total_rows();
        const int64_t col0 = inner * ithr / nthr, col1 = inner * (ithr + 1) / nthr;
        const int64_t row0 = rows * ithr / nthr, row1 = rows * (ithr + 1) / nthr;
        jit::softmax_column_max(isa_, src, len, inner, col0, col1, w.max + col0);
        if (sync) {
#pragma omp barrier
        }
        if (row1 > row0)
            a_->execute_rows(src, w.scratch, {w.max, nullptr}, args.runtime_params, row0, row1 - row0);
        if (sync) {
#pragma omp barrier
        }
        jit::softmax_column_sum(isa_, w.scratch, len, inner, col0, col1, w.sum + col0);
        for (int64_t i = col0; i < col1; ++i)
            w.factor[i] = static_cast<float>(log ? std::log(w.sum[i]) : 1.0 / w.sum[i]);
        if (sync) {
#pragma omp barrier
        }
        // Pass B's operands: the leading entries' (softmax: mul; log: sub, sub), the user's none.
        std::vector<const float *> ops = log ? std::vector<const float *> {w.max, w.factor}
                                             : std::vector<const float *> {w.factor};
        ops.resize(ops.size() + static_cast<size_t>(user_len_), nullptr);
        if (row1 > row0)
            b_->execute_rows(log ? src : w.scratch, dst, ops, args.runtime_params, row0, row1 - row0);
        if (sync) { // the next slab's first step must not overtake this one's last
#pragma omp barrier
        }
    }

    cpu_isa isa_;
    softmax_problem prb_;
    int user_len_;
    std::unique_ptr<jit::eltwise_pass> a_, b_; // on one slab: exp(x - max); the result
};

} // namespace

std::unique_ptr<primitive_impl> create_jit_softmax_strided(const softmax_request &req, cpu_isa isa,
                                                           std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;
    const softmax_problem &prb = req.prb;
    const arg_layouts l = softmax_layouts(req);
    PRIM_DISPATCH(why_not, l.src == l.dst, "src and dst layouts differ");
    PRIM_DISPATCH(why_not, l.src == plain_desc(prb.dims), "the layout is not plain");
    PRIM_DISPATCH(why_not, prb.inner() > 1, "the axis is innermost");
    PRIM_DISPATCH(why_not, prb.axis_len() > 1, "the axis has one element");
    PRIM_DISPATCH(why_not, prb.nelems() > 0, "the tensor is empty");
    const post_ops &user = req.attr.get_post_ops();
    PRIM_DISPATCH(why_not, !user.has_operands(),
                  "binary or prelu post-ops with an axis not innermost");

    // One slab, as the plain len x inner matrix it is in memory. The per-column values (max,
    // factor) are binary operands that vary along dim 1 only: broadcast along the axis.
    const memory::desc slab_md = plain_desc({prb.axis_len(), prb.inner()});
    const int per_column = 1 << 1;
    post_ops a;
    a.append_binary(algorithm::binary_sub, per_column);
    a.append_eltwise(algorithm::eltwise_exp, 0.f, 0.f);
    post_ops front;
    if (prb.alg == algorithm::softmax_log) {
        front.append_binary(algorithm::binary_sub, per_column); // - max
        front.append_binary(algorithm::binary_sub, per_column); // - log(sum)
    } else {
        front.append_binary(algorithm::binary_mul, per_column); // * (1 / sum)
    }
    std::unique_ptr<jit::eltwise_pass> pass_a = softmax_pass(kernel_isa, a, slab_md, why_not);
    if (!pass_a) return nullptr;
    std::unique_ptr<jit::eltwise_pass> pass_b =
            softmax_pass(kernel_isa, chain_after(front, user), slab_md, why_not);
    if (!pass_b) return nullptr;
    // The threads share a slab by the passes' rows: both passes must walk it alike.
    PRIM_DISPATCH(why_not, pass_a->row_len() == pass_b->row_len()
                      && pass_a->total_rows() == pass_b->total_rows(),
                  "the two passes walk a slab differently");
    return std::make_unique<jit_softmax_strided>(kernel_isa, req, std::move(pass_a), std::move(pass_b));
}

} // namespace impl
} // namespace prim
