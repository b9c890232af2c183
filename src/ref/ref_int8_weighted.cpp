// The reference int8 convolution and inner product (doc/int8.md): src u8|s8 less its zero
// point, weights s8, both read exactly as f32 into plain copies; the kernels accumulate the
// products exactly (in double: integers), the stage applies the scales and the bias, the chain
// runs in f32, and dst gets round_half_even(x / dst_scale + zp_dst), saturated to its type.
#include <vector>

#include "common/plain_layout.hpp"
#include "ref/ref_chain_operands.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"
#include "ref/ref_int8.hpp"

namespace prim {
namespace impl {
namespace {

template <typename problem>
using weighted_kernel = void (*)(const problem &, const float *src, const float *wei,
                                 const float *bias, const ref_chain &, float *dst,
                                 const ref_acc_stage *);

// Per output channel, what multiplies the accumulator before the bias (v3: src * weights
// scales) and after it (2.x output scales): the ones not given are 1.
struct channel_scales {
    std::vector<float> pre, post;
};

channel_scales scales_of(const quantization &q, const exec_ptrs::quant_values &v, int64_t oc) {
    channel_scales s {std::vector<float>(static_cast<size_t>(oc), 1.f),
                      std::vector<float>(static_cast<size_t>(oc), 1.f)};
    const float src = v.src_scales ? v.src_scales[0] : 1.f;
    for (int64_t c = 0; c < oc; ++c) {
        const float wei = v.wei_scales ? v.wei_scales[q.wei_scale_mask > 0 ? c : 0] : 1.f;
        s.pre[c] = src * wei;
        if (q.has_output_scales) {
            const bool per_oc = q.output_scales_mask != 0;
            const float *values = v.output_scales ? v.output_scales : q.output_scales.data();
            s.post[c] = values[per_oc ? c : 0];
        }
    }
    return s;
}

template <typename request, typename problem, weighted_kernel<problem> kernel>
class ref_int8_weighted : public primitive_impl {
public:
    explicit ref_int8_weighted(const request &req)
        : primitive_impl({plain_if_any(req.src), plain_if_any(req.wei),
                          req.with_bias ? plain_if_any(req.bias) : memory::desc(),
                          plain_if_any(req.dst)}),
          prb_(req.prb), chain_(req.attr.get_post_ops()), quant_(req.attr.get_quantization()),
          operand_mds_(operand_descs(chain_, dst_md())) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        if (prb_.mb == 0) return;
        const plain_weighted_inputs in(*this, args);
        // Always read: the old dst is the sum's operand, and padding of a blocked integer dst
        // must come back as it was written (the copy writes every element anyway).
        const plain_buffer dst(dst_md(), args.dst, chain_.has_sum());
        const memory::dims &sd = src_md().get_dims(), &dd = dst_md().get_dims();
        if (args.quant.src_zero_points)
            shift_channels(in.src.get(), sd, args.quant.src_zero_points, quant_.src_zp_mask > 0, -1.f);
        const channel_scales scales = scales_of(quant_, args.quant, prb_.oc);
        const ref_acc_stage stage {scales.pre.data(), scales.post.data()};
        const ref_chain_operands chain(chain_, dst_md(), operand_mds_, args);
        kernel(prb_, in.src.get(), in.wei.get(), in.bias.get(), chain.chain(), dst.get(), &stage);
        if (args.quant.dst_scales) scale_all(dst.get(), dd, 1.f / args.quant.dst_scales[0]);
        if (args.quant.dst_zero_points)
            shift_channels(dst.get(), dd, args.quant.dst_zero_points, quant_.dst_zp_mask > 0, 1.f);
        dst.copy_out(); // rounds half to even and saturates into dst's type
    }

private:
    problem prb_;
    post_ops chain_;
    quantization quant_;
    std::vector<memory::desc> operand_mds_;
};

} // namespace

void shift_channels(float *data, const memory::dims &dims, const int32_t *zp, bool per_channel,
                    float sign) {
    int64_t inner = 1;
    for (size_t d = 2; d < dims.size(); ++d) inner *= dims[d];
    const int64_t channels = dims[1], outer = dims[0];
    for (int64_t n = 0; n < outer; ++n)
        for (int64_t c = 0; c < channels; ++c) {
            const float v = sign * static_cast<float>(zp[per_channel ? c : 0]);
            float *p = data + (n * channels + c) * inner;
            for (int64_t i = 0; i < inner; ++i) p[i] += v;
        }
}

void scale_all(float *data, const memory::dims &dims, float factor) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    for (int64_t i = 0; i < n; ++i) data[i] *= factor;
}

std::unique_ptr<primitive_impl> create_ref_int8_conv(const conv_request &req) {
    return std::make_unique<ref_int8_weighted<conv_request, conv_problem, ref_conv_fwd>>(req);
}

std::unique_ptr<primitive_impl> create_ref_int8_ip(const ip_request &req) {
    return std::make_unique<ref_int8_weighted<ip_request, ip_problem, ref_ip_fwd>>(req);
}

} // namespace impl
} // namespace prim
