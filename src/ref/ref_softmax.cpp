// The reference softmax: plain copies of src and dst, each row (the axis' run for one position of
// the other dims) computed in double and rounded to f32 once before the post-ops chain. int8
// (doc/int8.md), as oneDNN: y = chain(src_scale * softmax(src)) * (1 / dst_scale), the copy back
// to an integer dst rounding and saturating.
#include <cmath>
#include <limits>

#include "common/plain_layout.hpp"
#include "common/softmax_request.hpp"
#include "ref/ref_chain_operands.hpp"

namespace prim {
namespace impl {
namespace {

// The factors around the chain: src's scale (or 2.x's output scale) before, 1 / dst's after.
struct softmax_scales {
    float before = 1.f, after = 1.f;
};

// Row (o, i) of a plain tensor outer x len x inner: element a at (o * len + a) * inner + i.
void ref_softmax_fwd(const softmax_problem &prb, const float *src, const ref_chain &chain,
                     softmax_scales scales, float *dst) {
    const int64_t outer = prb.outer(), len = prb.axis_len(), inner = prb.inner();
    const bool log = prb.alg == algorithm::softmax_log;
#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * len * inner + i;
            // The maximum, NaN when any value is NaN (a max instruction would drop it).
            double max = -std::numeric_limits<double>::infinity();
            for (int64_t a = 0; a < len; ++a) {
                const double x = src[base + a * inner];
                if (std::isnan(x) || std::isnan(max)) max = std::numeric_limits<double>::quiet_NaN();
                else if (x > max) max = x;
            }
            // -inf - -inf is NaN: a row of only -inf gives NaN, as the exp arithmetic does.
            double sum = 0.0;
            for (int64_t a = 0; a < len; ++a) sum += std::exp(src[base + a * inner] - max);
            const double log_sum = std::log(sum);
            for (int64_t a = 0; a < len; ++a) {
                const int64_t at = base + a * inner;
                const double shifted = src[at] - max;
                const float y = static_cast<float>(log ? shifted - log_sum : std::exp(shifted) / sum);
                dst[at] = chain.apply(y * scales.before, dst[at], at) * scales.after;
            }
        }
}

class ref_softmax : public primitive_impl {
public:
    explicit ref_softmax(const softmax_request &req)
        : primitive_impl(softmax_layouts(req)), prb_(req.prb), chain_(req.attr.get_post_ops()),
          operand_mds_(operand_descs(chain_, dst_md())), quant_(req.attr.get_quantization()) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        // src is copied when the layouts differ (or in place), so dst's writes never meet it.
        const plain_buffer src(src_md(), args.src, true);
        const plain_buffer dst(dst_md(), args.dst, chain_.has_sum());
        std::vector<float> src_copy;
        const float *in = src.get();
        if (in == dst.get()) {
            src_copy.assign(in, in + prb_.nelems());
            in = src_copy.data();
        }
        const ref_chain_operands chain(chain_, dst_md(), operand_mds_, args);
        ref_softmax_fwd(prb_, in, chain.chain(), scales_of(args.quant), dst.get());
        dst.copy_out();
    }

private:
    softmax_scales scales_of(const exec_ptrs::quant_values &v) const {
        softmax_scales s;
        if (v.src_scales) s.before = v.src_scales[0];
        if (quant_.has_output_scales) s.before = v.output_scales ? v.output_scales[0] : quant_.output_scales[0];
        if (v.dst_scales) s.after = 1.f / v.dst_scales[0];
        return s;
    }

    softmax_problem prb_;
    post_ops chain_;
    std::vector<memory::desc> operand_mds_;
    quantization quant_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_softmax(const softmax_request &req, cpu_isa,
                                                   std::string &) {
    return std::make_unique<ref_softmax>(req); // the reference takes every valid problem
}

} // namespace impl
} // namespace prim
