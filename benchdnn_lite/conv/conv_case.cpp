// The convolution driver: descriptor -> primitive through the public API, reference through
// ref_conv_fwd on plain buffers.
#include "common/problem.hpp"
#include "drivers.hpp"
#include "fill.hpp"
#include "ref/ref_kernels.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

using prim::memory;

class conv_case : public problem_case {
public:
    conv_case(const prim::impl::conv_problem &prb, const settings &s)
        : prb_(prb), s_(s), with_bias_(s.dir != direction::fwd_d) {
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
        // Plain copies, the primitive's copies, the reference and results: about 3x each.
        check_memory_budget(
                3.0 * 4 * (volume_f(src_dims_) + volume_f(wei_dims_) + 3.0 * volume_f(dst_dims_)),
                desc());
        src_ = buffer(volume(src_dims_));
        wei_ = buffer(volume(wei_dims_));
        bias_ = buffer(prb.oc);
        dst_old_ = buffer(volume(dst_dims_));
        fill_src(src_, tensor_id::src);
        fill_wei(wei_, prb.icg() * prb.k[0] * prb.k[1] * prb.k[2]);
        fill_src(bias_, tensor_id::bias);
        fill_dst_old(dst_old_);
    }

    std::string desc() const override { return prim::impl::to_string(prb_); }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        using prim::convolution_forward;
        const memory::desc src_md = make_desc(src_dims_, s_.stag, "--stag");
        const memory::desc wei_md = make_desc(wei_dims_, s_.wtag, "--wtag");
        const memory::desc dst_md = make_desc(dst_dims_, s_.dtag, "--dtag");
        const memory::desc bias_md = with_bias_ ? plain_desc({prb_.oc}) : memory::desc();
        const auto prop = s_.dir == direction::fwd_i ? prim::prop_kind::forward_inference
                                                     : prim::prop_kind::forward_training;
        const convolution_forward::desc d(prop, prim::algorithm::convolution_direct, src_md,
                wei_md, bias_md, dst_md, strides_, dilates_, pad_l_, pad_r_);
        const convolution_forward::primitive_desc pd(d, attr);
        bound_primitive b;
        b.prim = std::make_shared<convolution_forward>(pd);
        b.impl = pd.impl_name();
        b.args[prim::PRIM_ARG_SRC] = from_plain(src_, src_dims_, pd.src_desc());
        b.args[prim::PRIM_ARG_WEIGHTS] = from_plain(wei_, wei_dims_, pd.weights_desc());
        if (with_bias_) b.args[prim::PRIM_ARG_BIAS] = from_plain(bias_, {prb_.oc}, pd.bias_desc());
        b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, dst_dims_, pd.dst_desc());
        return b;
    }

    const std::vector<float> &ref_base() override {
        if (!ref_done_) {
            ref_ = dst_old_; // no post-ops: overwritten with acc + bias
            prim::impl::ref_conv_fwd(prb_, src_.data(), wei_.data(),
                                     with_bias_ ? bias_.data() : nullptr, prim::post_ops(),
                                     ref_.data());
            ref_done_ = true;
        }
        return ref_;
    }

    double work(const prim::post_ops &) const override { return prb_.flops(); }

private:
    prim::impl::conv_problem prb_;
    settings s_;
    bool with_bias_;
    memory::dims src_dims_, wei_dims_, strides_, dilates_, pad_l_, pad_r_;
    std::vector<float> src_, wei_, bias_, ref_;
    bool ref_done_ = false;
};

} // namespace

std::unique_ptr<problem_case> make_conv_case(const std::string &text, const settings &s) {
    prim::impl::conv_problem prb = prim::impl::parse_conv_problem(text);
    if (s.mb > 0) prb.mb = s.mb;
    return std::make_unique<conv_case>(prb, s);
}

} // namespace bdl
