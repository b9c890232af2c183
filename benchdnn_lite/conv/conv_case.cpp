// The convolution driver: descriptor -> primitive through the public API, reference through
// ref_conv_fwd on plain buffers.
#include "drivers.hpp"
#include "problem_parse.hpp"
#include "ref/ref_kernels.hpp"
#include "weighted_case.hpp"

namespace bdl {

namespace {

using prim::memory;

class conv_case : public weighted_case {
public:
    conv_case(const prim::impl::conv_problem &prb, const settings &s)
        : weighted_case(s), prb_(prb) {
        const int first = 3 - prb.nsp;
        src_dims_ = {prb.mb, prb.ic};
        dst_dims_ = {prb.mb, prb.oc};
        wei_dims_ = prb.g > 1 ? memory::dims {prb.g, prb.ocg(), prb.icg()}
                              : memory::dims {prb.oc, prb.ic};
        for (int sp = first; sp < 3; ++sp) {
            src_dims_.push_back(prb.i[sp]);
            dst_dims_.push_back(prb.o[sp]);
            wei_dims_.push_back(prb.k[sp]);
            strides_.push_back(prb.s[sp]);
            dilates_.push_back(prb.d[sp]);
            pad_l_.push_back(prb.p[sp]);
            pad_r_.push_back(prb.p_end[sp]);
        }
        grouped_ = prb.g > 1;
        allocate_and_fill(prb.oc, prb.icg() * prb.k[0] * prb.k[1] * prb.k[2], desc());
    }

    std::string desc() const override { return prim::impl::to_string(prb_); }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        using prim::convolution_forward;
        const user_descs u = make_user_descs();
        const convolution_forward::desc d(u.prop, prim::algorithm::convolution_direct, u.src,
                u.wei, u.bias, u.dst, strides_, dilates_, pad_l_, pad_r_);
        const timed_creation<convolution_forward> c = create_timed<convolution_forward>(d, with_quantization(attr));
        return bind(c.prim, c.pd, c.ms);
    }

    void compute_reference(const float *src, float *dst,
                           const prim::impl::ref_acc_stage *stage) const override {
        const float *bias = with_bias_ ? bias_.data() : nullptr;
        prim::impl::ref_conv_fwd(prb_, src, wei_.data(), bias, prim::post_ops(), dst, stage);
    }

    double work(const prim::post_ops &) const override { return prb_.flops(); }

private:
    prim::impl::conv_problem prb_;
    memory::dims strides_, dilates_, pad_l_, pad_r_;
};

} // namespace

std::string conv_case_desc(const std::string &text, const settings &s) {
    prim::impl::conv_problem prb = parse_conv_problem(text);
    if (s.mb > 0) prb.mb = s.mb;
    return prim::impl::to_string(prb);
}

std::unique_ptr<problem_case> make_conv_case(const std::string &text, const settings &s) {
    prim::impl::conv_problem prb = parse_conv_problem(text);
    if (s.mb > 0) prb.mb = s.mb;
    return std::make_unique<conv_case>(prb, s);
}

} // namespace bdl
