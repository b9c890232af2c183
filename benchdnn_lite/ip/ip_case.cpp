// The inner-product driver: descriptor -> primitive through the public API, reference through
// ref_ip_fwd on plain buffers.
#include "common/problem.hpp"
#include "drivers.hpp"
#include "fill.hpp"
#include "ref/ref_kernels.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

using prim::memory;

class ip_case : public problem_case {
public:
    ip_case(const prim::impl::ip_problem &prb, const settings &s)
        : prb_(prb), s_(s), with_bias_(s.dir != direction::fwd_d) {
        src_dims_ = {prb.mb, prb.ic};
        wei_dims_ = {prb.oc, prb.ic};
        dst_dims_ = {prb.mb, prb.oc};
        for (int sp = 3 - prb.nsp; sp < 3 && prb.nsp > 0; ++sp) {
            src_dims_.push_back(prb.i[sp]);
            wei_dims_.push_back(prb.i[sp]);
        }
        check_memory_budget(
                3.0 * 4 * (volume_f(src_dims_) + volume_f(wei_dims_) + 3.0 * volume_f(dst_dims_)),
                desc());
        src_ = buffer(volume(src_dims_));
        wei_ = buffer(volume(wei_dims_));
        bias_ = buffer(prb.oc);
        dst_old_ = buffer(volume(dst_dims_));
        fill_src(src_, tensor_id::src);
        fill_wei(wei_, prb.ic * prb.spatial());
        fill_src(bias_, tensor_id::bias);
        fill_dst_old(dst_old_);
    }

    std::string desc() const override { return prim::impl::to_string(prb_); }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        using prim::inner_product_forward;
        const memory::desc src_md = make_desc(src_dims_, s_.stag, "--stag");
        const memory::desc wei_md = make_desc(wei_dims_, s_.wtag, "--wtag");
        const memory::desc dst_md = make_desc(dst_dims_, s_.dtag, "--dtag");
        const memory::desc bias_md = with_bias_ ? plain_desc({prb_.oc}) : memory::desc();
        const auto prop = s_.dir == direction::fwd_i ? prim::prop_kind::forward_inference
                                                     : prim::prop_kind::forward_training;
        const inner_product_forward::desc d(prop, src_md, wei_md, bias_md, dst_md);
        const inner_product_forward::primitive_desc pd(d, attr);
        bound_primitive b;
        b.prim = std::make_shared<inner_product_forward>(pd);
        b.impl = pd.impl_name();
        b.args[prim::PRIM_ARG_SRC] = from_plain(src_, src_dims_, pd.src_desc());
        b.args[prim::PRIM_ARG_WEIGHTS] = from_plain(wei_, wei_dims_, pd.weights_desc());
        if (with_bias_) b.args[prim::PRIM_ARG_BIAS] = from_plain(bias_, {prb_.oc}, pd.bias_desc());
        b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, dst_dims_, pd.dst_desc());
        return b;
    }

    const std::vector<float> &ref_base() override {
        if (!ref_done_) {
            ref_ = dst_old_;
            prim::impl::ref_ip_fwd(prb_, src_.data(), wei_.data(),
                                   with_bias_ ? bias_.data() : nullptr, prim::post_ops(),
                                   ref_.data());
            ref_done_ = true;
        }
        return ref_;
    }

    double work(const prim::post_ops &) const override { return prb_.flops(); }

private:
    prim::impl::ip_problem prb_;
    settings s_;
    bool with_bias_;
    memory::dims src_dims_, wei_dims_;
    std::vector<float> src_, wei_, bias_, ref_;
    bool ref_done_ = false;
};

} // namespace

std::unique_ptr<problem_case> make_ip_case(const std::string &text, const settings &s) {
    prim::impl::ip_problem prb = prim::impl::parse_ip_problem(text);
    if (s.mb > 0) prb.mb = s.mb;
    return std::make_unique<ip_case>(prb, s);
}

} // namespace bdl
