// The JIT batch normalization: per call, the folded factors a = scale / sqrt(variance + eps) and
// b = shift - mean * a of every channel (computed in double, rounded once), the statistics first
// when they are not given; then one normalization pass dst = chain(x * a[c] + b[c]).
#include <cmath>
#include <vector>

#include "jit/gen/isa_traits.hpp"
#include "jit/norm/jit_normalization.hpp"
#include "jit/norm/normalization_pass.hpp"
#include "jit/norm/normalization_stats.hpp"

namespace prim {
namespace impl {
namespace {

class jit_bnorm : public primitive_impl {
public:
    jit_bnorm(cpu_isa isa, const bnorm_problem &prb, arg_layouts layouts, jit::channel_view view,
              std::unique_ptr<jit::normalization_pass> pass)
        : primitive_impl(std::move(layouts)), isa_(isa), prb_(prb), view_(view),
          pass_(std::move(pass)) {
        // Where channel c sits in a per-channel operand (c itself in every layout taken now).
        const memory::desc &op = pass_->leading_md(0);
        op_size_ = op.nelems_padded();
        memory::dims idx(static_cast<size_t>(op.ndims()), 0);
        for (int64_t c = 0; c < prb_.ic; ++c) {
            idx[1] = c;
            op_offset_.push_back(op.offset(idx.data()));
        }
        padded_ = dst_md().nelems_padded() != prb_.nelems();
    }

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        const int64_t channels = prb_.ic;
        std::vector<double> mean(static_cast<size_t>(channels)), var(mean.size());
        if (prb_.global_stats()) {
            for (int64_t c = 0; c < channels; ++c) {
                mean[c] = args.mean[c];
                var[c] = args.variance[c];
            }
        } else {
            jit::channel_moments(isa_, view_, channels, args.src, mean.data(), var.data());
        }
        // a then b, each in the per-channel operand's layout, its padding lanes zero.
        std::vector<float> ab(static_cast<size_t>(2 * op_size_), 0.f);
        for (int64_t c = 0; c < channels; ++c) {
            const double inv = 1.0 / std::sqrt(var[c] + static_cast<double>(prb_.eps));
            const double a = (args.scale ? args.scale[c] : 1.0) * inv;
            const double b = (args.shift ? args.shift[c] : 0.0) - mean[c] * a;
            ab[static_cast<size_t>(op_offset_[c])] = static_cast<float>(a);
            ab[static_cast<size_t>(op_size_ + op_offset_[c])] = static_cast<float>(b);
        }
        pass_->pass().execute(args.src, args.dst,
                              pass_->operands({ab.data(), ab.data() + op_size_}, args),
                              args.runtime_params);
        if (padded_) zero_channel_padding(args.dst);
    }

private:
    // The pass ran over the padding lanes of the last channel block too: they are zero again.
    void zero_channel_padding(float *dst) const {
        const int64_t cb = view_.c_blocks - 1, from = prb_.ic - cb * view_.block;
#pragma omp parallel for schedule(static) if (view_.outer * view_.inner > 4096)
        for (int64_t os = 0; os < view_.outer * view_.inner; ++os) {
            const int64_t o = os / view_.inner, s = os % view_.inner;
            float *lanes = dst + ((o * view_.c_blocks + cb) * view_.inner + s) * view_.block;
            for (int64_t l = from; l < view_.block; ++l) lanes[l] = 0.f;
        }
    }

    cpu_isa isa_;
    bnorm_problem prb_;
    jit::channel_view view_;
    std::unique_ptr<jit::normalization_pass> pass_;
    int64_t op_size_ = 0;
    std::vector<int64_t> op_offset_;
    bool padded_ = false;
};

} // namespace

std::unique_ptr<primitive_impl> create_jit_bnorm(const bnorm_request &req, cpu_isa isa,
                                                 std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;
    const bnorm_problem &prb = req.prb;

    memory::desc src = req.src, dst = req.dst;
    jit::resolve_any(src, dst);
    PRIM_DISPATCH(why_not, src == dst, "src and dst layouts differ");
    PRIM_DISPATCH(why_not, src.is_dense(), "the layout is not dense (strides with gaps)");
    const jit::channel_view view = jit::make_channel_view(src);
    const bool padded = src.nelems_padded() != prb.nelems();
    PRIM_DISPATCH(why_not, !padded || view.block > 1,
                  "the layout is padded along another dim than a block of channels");
    PRIM_DISPATCH(why_not, prb.global_stats() || view.valid(),
                  "statistics are computed on nchw, nhwc and nChw8c/16c-like layouts only");

    const std::vector<jit::leading_entry> leading = {
            {algorithm::binary_mul, post_ops::policy::per_oc},
            {algorithm::binary_add, post_ops::policy::per_oc}};
    auto pass = jit::normalization_pass::create(kernel_isa, leading, req.attr.get_post_ops(), src,
                                                why_not);
    if (!pass) return nullptr;

    arg_layouts layouts;
    layouts.src = src;
    layouts.dst = dst;
    const memory::desc vec({prb.ic}, memory::data_type::f32, memory::format_tag::a);
    if (prb.global_stats()) layouts.mean = layouts.variance = vec;
    if (prb.use_scale()) layouts.scale = vec;
    if (prb.use_shift()) layouts.shift = vec;
    return std::make_unique<jit_bnorm>(kernel_isa, prb, std::move(layouts), view, std::move(pass));
}

} // namespace impl
} // namespace prim
