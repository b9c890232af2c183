// Reference forward convolution on the plain 5D layouts of ref_kernels.hpp: one output point
// at a time, every tap summed in double, out-of-range taps (padding) skipped.
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {

void ref_conv_fwd(const conv_problem &prb, const float *src, const float *wei, const float *bias,
                  const ref_chain &po, float *dst, const ref_acc_stage *stage) {
    const int64_t MB = prb.mb, IC = prb.ic, OC = prb.oc, ICG = prb.icg(), OCG = prb.ocg();
    const int64_t ID = prb.i[SP_D], IH = prb.i[SP_H], IW = prb.i[SP_W];
    const int64_t OD = prb.o[SP_D], OH = prb.o[SP_H], OW = prb.o[SP_W];
    const int64_t KD = prb.k[SP_D], KH = prb.k[SP_H], KW = prb.k[SP_W];
    const int64_t SD = prb.s[SP_D], SH = prb.s[SP_H], SW = prb.s[SP_W];
    const int64_t PD = prb.p[SP_D], PH = prb.p[SP_H], PW = prb.p[SP_W];
    // benchdnn's dilation counts the gaps: tap k sits k * (d + 1) rows after the first one.
    const int64_t DD = prb.d[SP_D] + 1, DH = prb.d[SP_H] + 1, DW = prb.d[SP_W] + 1;
    if (MB <= 0 || OC <= 0) return; // mb0: nothing to compute

    const int64_t src_img = ID * IH * IW;       // one input channel
    const int64_t dst_img = OD * OH * OW;       // one output channel
    const int64_t wei_oc = ICG * KD * KH * KW;  // one output channel's filter

#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t n = 0; n < MB; ++n) {
        for (int64_t oc = 0; oc < OC; ++oc) {
            const int64_t g = oc / OCG;
            // [g][oc/g] row-major is just oc, so the filter of oc starts at oc * wei_oc.
            const float *w = wei + oc * wei_oc;
            const float *s = src + (n * IC + g * ICG) * src_img;
            float *d = dst + (n * OC + oc) * dst_img;
            const double b = bias ? static_cast<double>(bias[oc]) : 0.0;

            for (int64_t od = 0; od < OD; ++od)
            for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
                double acc = 0.0;
                for (int64_t ic = 0; ic < ICG; ++ic)
                for (int64_t kd = 0; kd < KD; ++kd) {
                    const int64_t id = od * SD - PD + kd * DD;
                    if (id < 0 || id >= ID) continue;
                    for (int64_t kh = 0; kh < KH; ++kh) {
                        const int64_t ih = oh * SH - PH + kh * DH;
                        if (ih < 0 || ih >= IH) continue;
                        const float *s_row = s + (ic * ID + id) * IH * IW + ih * IW;
                        const float *w_row = w + ((ic * KD + kd) * KH + kh) * KW;
                        for (int64_t kw = 0; kw < KW; ++kw) {
                            const int64_t iw = ow * SW - PW + kw * DW;
                            if (iw < 0 || iw >= IW) continue;
                            acc += static_cast<double>(s_row[iw]) * static_cast<double>(w_row[kw]);
                        }
                    }
                }
                float &out = d[(od * OH + oh) * OW + ow];
                const float x = stage ? stage->apply(acc, oc, static_cast<float>(b))
                                      : static_cast<float>(acc + b);
                out = po.apply(x, out, &out - dst); // out still holds dst_old here
            }
        }
    }
}

} // namespace impl
} // namespace prim
