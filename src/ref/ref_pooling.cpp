// The reference pooling kernel and primitive (ref_pooling.hpp): one output point at a time,
// out-of-range taps (padding) skipped.
#include <cmath>
#include <limits>

#include "common/plain_layout.hpp"
#include "ref/ref_chain_operands.hpp"
#include "ref/ref_pooling.hpp"

namespace prim {
namespace impl {

void ref_pool_fwd(const pool_problem &prb, const float *src, const ref_chain &po, float *dst) {
    const int64_t ID = prb.i[SP_D], IH = prb.i[SP_H], IW = prb.i[SP_W];
    const int64_t OD = prb.o[SP_D], OH = prb.o[SP_H], OW = prb.o[SP_W];
    const int64_t KD = prb.k[SP_D], KH = prb.k[SP_H], KW = prb.k[SP_W];
    const int64_t SD = prb.s[SP_D], SH = prb.s[SP_H], SW = prb.s[SP_W];
    const int64_t PD = prb.p[SP_D], PH = prb.p[SP_H], PW = prb.p[SP_W];
    // benchdnn's dilation counts the gaps: tap k sits k * (d + 1) after the first one.
    const int64_t DD = prb.d[SP_D] + 1, DH = prb.d[SP_H] + 1, DW = prb.d[SP_W] + 1;
    const int64_t planes = prb.mb * prb.ic;

#pragma omp parallel for schedule(static)
    for (int64_t nc = 0; nc < planes; ++nc) {
        const float *s = src + nc * ID * IH * IW;
        float *d = dst + nc * OD * OH * OW;
        for (int64_t od = 0; od < OD; ++od)
        for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
            double sum = 0.0;
            float max = -std::numeric_limits<float>::infinity();
            bool nan = false;
            int64_t taps = 0;
            for (int64_t kd = 0; kd < KD; ++kd) {
                const int64_t id = od * SD - PD + kd * DD;
                if (id < 0 || id >= ID) continue;
                for (int64_t kh = 0; kh < KH; ++kh) {
                    const int64_t ih = oh * SH - PH + kh * DH;
                    if (ih < 0 || ih >= IH) continue;
                    for (int64_t kw = 0; kw < KW; ++kw) {
                        const int64_t iw = ow * SW - PW + kw * DW;
                        if (iw < 0 || iw >= IW) continue;
                        const float v = s[(id * IH + ih) * IW + iw];
                        nan = nan || std::isnan(v);
                        if (v > max) max = v;
                        sum += static_cast<double>(v);
                        ++taps;
                    }
                }
            }
            float x;
            if (prb.is_max()) {
                x = nan ? std::numeric_limits<float>::quiet_NaN() : max;
            } else {
                const int64_t divisor = prb.alg == algorithm::pooling_avg_include_padding
                                                ? prb.kernel_volume() : taps;
                x = static_cast<float>(sum / static_cast<double>(divisor));
            }
            float &out = d[(od * OH + oh) * OW + ow];
            out = po.apply(x, out, &out - dst); // out still holds dst_old here
        }
    }
}

namespace {

class ref_pooling : public primitive_impl {
public:
    explicit ref_pooling(const pool_request &req)
        : primitive_impl(layouts_of(req)), prb_(req.prb), chain_(req.attr.get_post_ops()),
          operand_mds_(operand_descs(chain_, dst_md())) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        if (prb_.mb == 0) return;
        const plain_buffer src(src_md(), args.src, true);
        const plain_buffer dst(dst_md(), args.dst, chain_.has_sum());
        const ref_chain_operands chain(chain_, dst_md(), operand_mds_, args);
        ref_pool_fwd(prb_, src.get(), chain.chain(), dst.get());
        dst.copy_out();
    }

private:
    // 'any': src takes dst's layout when dst has one, else plain; dst takes src's.
    static arg_layouts layouts_of(const pool_request &req) {
        arg_layouts l;
        l.src = req.src.is_any() && !req.dst.is_any()
                        ? memory::desc(req.src.get_dims(), req.src.get_data_type(), req.dst.layout())
                        : plain_if_any(req.src);
        l.dst = req.dst.is_any() ? memory::desc(req.dst.get_dims(), req.dst.get_data_type(),
                                                l.src.layout())
                                 : req.dst;
        return l;
    }

    pool_problem prb_;
    post_ops chain_;
    std::vector<memory::desc> operand_mds_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_pool(const pool_request &req, cpu_isa, std::string &) {
    return std::make_unique<ref_pooling>(req);
}

} // namespace impl
} // namespace prim
