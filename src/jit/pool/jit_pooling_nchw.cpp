// The JIT pooling primitive on plain layouts (ncw, nchw, ncdhw): rows (n, c, od, oh) spread over
// the threads, each row cut into segments of pixels sharing their real taps, one call of the
// plain-layout kernel (pool_nchw_kernel.hpp) per segment.
#include <algorithm>
#include <vector>

#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/pool/jit_pooling.hpp"
#include "jit/inject/kernel_chain_plan.hpp"
#include "jit/pool/pool_kernel.hpp"
#include "jit/pool/pool_nchw_kernel.hpp"
#include "jit/pool/pool_walk.hpp"
#include "jit/gen/runtime_table.hpp"
#include "jit/gen/work_threads.hpp"

namespace prim {
namespace impl {
namespace {

// No inner block and unit stride along w: the kernel's vectors of pixels are contiguous.
bool w_contiguous(const memory::desc &md) {
    return is_unblocked(md) && md.strides().back() == 1;
}

class jit_pooling_nchw : public primitive_impl {
public:
    jit_pooling_nchw(cpu_isa isa, const pool_problem &prb, arg_layouts layouts, post_ops kchain,
                     std::vector<memory::desc> operand_mds,
                     std::shared_ptr<const jit::jit_generator> kernel)
        : primitive_impl(std::move(layouts)), isa_(isa), prb_(prb), kchain_(std::move(kchain)),
          operand_mds_(std::move(operand_mds)), kernel_(std::move(kernel)),
          segments_(jit::pool_segments(prb)) {
        // Channels per call: all of them, unless that leaves too few items for the threads.
        const int64_t rows = prb_.mb * prb_.o[SP_D] * prb_.o[SP_H];
        const int64_t chunks = std::min<int64_t>(prb_.ic, (16 + rows - 1) / rows);
        chunk_ = (prb_.ic + chunks - 1) / chunks;
        for (const memory::desc &md : operand_mds_)
            step_c_.push_back(md.is_zero() || md.get_dims()[1] == 1
                                      ? 0
                                      : (jit::pool_offset(md, {{0, 1, 0, 0, 0}})
                                         - jit::pool_offset(md, {{0, 0, 0, 0, 0}}))
                                                * static_cast<int64_t>(sizeof(float)));
    }

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        if (prb_.mb == 0) return;
        const int64_t OD = prb_.o[SP_D], OH = prb_.o[SP_H];
        const int64_t chunks = (prb_.ic + chunk_ - 1) / chunk_;
        const int64_t rows = prb_.mb * chunks * OD * OH;
        // A tap is a load and a max or add: counted as the two flops of an FMA.
        const double work = 2.0 * static_cast<double>(prb_.dst_nelems())
                            * static_cast<double>(prb_.kernel_volume());
        const int threads = jit::threads_for_work(work, rows);
        const jit::runtime_tables tables({kernel_.get()}, args.runtime_params);
        const void *table = tables.of(kernel_.get());
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
        for (int64_t row = 0; row < rows; ++row) {
            const int64_t oh = row % OH, od = row / OH % OD, nc = row / (OD * OH);
            const int64_t c0 = nc % chunks * chunk_;
            run_row(args, table, nc / chunks, c0, std::min(chunk_, prb_.ic - c0), od, oh);
        }
    }

private:
    // Channels [c, c + channels) of the rows (n, od, oh); table: the runtime parameters' copy
    // of the kernel's constant table, or null.
    void run_row(const exec_ptrs &args, const void *table, int64_t n, int64_t c, int64_t channels,
                 int64_t od, int64_t oh) const {
        const tap_range td = real_taps(prb_, SP_D, od), th = real_taps(prb_, SP_H, oh);
        const int64_t id = od * prb_.s[SP_D] - prb_.p[SP_D] + td.first * (prb_.d[SP_D] + 1);
        const int64_t ih = oh * prb_.s[SP_H] - prb_.p[SP_H] + th.first * (prb_.d[SP_H] + 1);
        std::vector<int64_t> values(2 * operand_mds_.size(), 0);
        jit::pool_call_args a;
        a.post_op = values.data();
        a.table = table;
        for (const jit::pool_segment &s : segments_) {
            const int64_t iw = s.ow0 * prb_.s[SP_W] - prb_.p[SP_W] + s.first * (prb_.d[SP_W] + 1);
            const jit::pool_index out {{n, c, od, oh, s.ow0}};
            a.src = args.src + jit::pool_offset(src_md(), {{n, c, id, ih, iw}});
            a.dst = args.dst + jit::pool_offset(dst_md(), out);
            a.pixels = s.pixels;
            a.channels = channels;
            a.taps[0] = td.count;
            a.taps[1] = th.count;
            a.taps[2] = s.count;
            a.divisor = static_cast<float>(prb_.alg == algorithm::pooling_avg_include_padding
                                                   ? prb_.kernel_volume()
                                                   : td.count * th.count * s.count);
            // Every operand's value is its address at the segment's first pixel and channel.
            for (size_t i = 0; i < args.post_op.size(); ++i) { // empty without operands
                if (!args.post_op[i]) continue;
                values[2 * i] = reinterpret_cast<int64_t>(
                        args.post_op[i] + jit::pool_offset(operand_mds_[i], out));
                values[2 * i + 1] = step_c_[i];
            }
            kernel_->entry_as<void (*)(const jit::pool_call_args *)>()(&a);
        }
    }

    cpu_isa isa_;
    pool_problem prb_;
    post_ops kchain_;
    std::vector<memory::desc> operand_mds_;
    std::shared_ptr<const jit::jit_generator> kernel_;
    std::vector<jit::pool_segment> segments_;
    int64_t chunk_ = 1;          // channels per kernel call
    std::vector<int64_t> step_c_; // per entry: bytes its operand moves by per channel
};

} // namespace

std::unique_ptr<primitive_impl> create_jit_pool_nchw(const pool_request &req, cpu_isa isa,
                                                     std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;
    const pool_problem &prb = req.prb;
    PRIM_DISPATCH(why_not, !(req.src.is_any() && req.dst.is_any()),
                  "src and dst are 'any': the channels-last kernel chooses");
    memory::desc src = req.src, dst = req.dst;
    if (src.is_any()) src = memory::desc(src.get_dims(), memory::data_type::f32, dst.layout());
    if (dst.is_any()) dst = memory::desc(dst.get_dims(), memory::data_type::f32, src.layout());
    PRIM_DISPATCH(why_not, w_contiguous(src) && w_contiguous(dst),
                  "src " + src.layout() + " or dst " + dst.layout()
                          + " is blocked or not contiguous along w (plain ncw/nchw/ncdhw are taken)");
    PRIM_DISPATCH(why_not, src.strides()[1] != 1 || dst.strides()[1] != 1,
                  "channels-last src and dst run on the channel-vector kernel");

    jit::kernel_chain_needs needs;
    needs.batch_per_call = true;
    const jit::kernel_chain_plan plan = jit::plan_kernel_chain(kernel_isa, req.attr.get_post_ops(), dst, needs);
    PRIM_DISPATCH(why_not, plan.why_not.empty(), plan.why_not);
    const post_ops &kchain = plan.chain;
    const std::vector<memory::desc> mds = operand_descs(req.attr.get_post_ops(), dst);
    for (int i = 0; i < kchain.len(); ++i) {
        const post_ops::entry &e = kchain.entries()[i];
        const bool along_ow = has_operand(e) && (e.mask == post_ops::policy::per_mb_spatial
                                                 || e.mask == post_ops::policy::per_tensor);
        PRIM_DISPATCH(why_not, !along_ow || prb.o[SP_W] == 1 || w_contiguous(mds[i]),
                      operand_name(req.attr.get_post_ops().entries()[i], i)
                              + " is not contiguous along w");
    }

    jit::pool_nchw_kernel_conf c;
    c.avg = prb.is_max() ? 0 : 1;
    c.sw = prb.s[SP_W];
    const int rank = src.ndims();
    for (int j = 2; j < rank; ++j) {
        const int sp = 3 - rank + j;
        c.tap_stride[sp] = (prb.d[sp] + 1) * src.strides()[j] * int64_t(sizeof(float));
    }
    c.src_c_stride = src.strides()[1] * int64_t(sizeof(float));
    c.dst_c_stride = dst.strides()[1] * int64_t(sizeof(float));
    // Global pooling over a dense plane: one contiguous run per channel, in whole vectors.
    bool global = true;
    int64_t plane = 1;
    for (int j = rank - 1; j >= 2; --j) {
        const int sp = 3 - rank + j;
        global = global && prb.k[sp] == prb.i[sp] && prb.p[sp] == 0 && prb.p_end[sp] == 0
                 && src.strides()[j] == plane;
        plane *= prb.i[sp];
    }
    if (global) c.plane = plane;
    const std::string bad_kernel = jit::pool_nchw_kernel_why_not(kernel_isa, c, plan.aux_vecs);
    PRIM_DISPATCH(why_not, bad_kernel.empty(), bad_kernel);

    arg_layouts layouts;
    layouts.src = src;
    layouts.dst = dst;
    return std::make_unique<jit_pooling_nchw>(kernel_isa, prb, std::move(layouts), kchain, mds,
                                              jit::get_pool_nchw_kernel(kernel_isa, c, kchain));
}

} // namespace impl
} // namespace prim
