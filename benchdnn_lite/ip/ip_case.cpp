// The inner-product driver: descriptor -> primitive through the public API, reference through
// ref_ip_fwd on plain buffers.
#include "drivers.hpp"
#include "problem_parse.hpp"
#include "ref/ref_kernels.hpp"
#include "weighted_case.hpp"

namespace bdl {

namespace {

using prim::memory;

class ip_case : public weighted_case {
public:
    ip_case(const prim::impl::ip_problem &prb, const settings &s)
        : weighted_case(s), prb_(prb) {
        src_dims_ = {prb.mb, prb.ic};
        wei_dims_ = {prb.oc, prb.ic};
        dst_dims_ = {prb.mb, prb.oc};
        for (int sp = 3 - prb.nsp; sp < 3 && prb.nsp > 0; ++sp) {
            src_dims_.push_back(prb.i[sp]);
            wei_dims_.push_back(prb.i[sp]);
        }
        grouped_ = false;
        allocate_and_fill(prb.oc, prb.ic * prb.spatial(), desc());
    }

    std::string desc() const override { return prim::impl::to_string(prb_); }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        using prim::inner_product_forward;
        const user_descs descs = make_user_descs();
        const inner_product_forward::desc d(descs.prop, descs.src, descs.wei, descs.bias, descs.dst);
        const timed_creation<inner_product_forward> c = create_timed<inner_product_forward>(d, with_quantization(attr));
        return bind(c.prim, c.pd, c.ms);
    }

    void compute_reference(const float *src, float *dst,
                           const prim::impl::ref_acc_stage *stage) const override {
        const float *bias = with_bias_ ? bias_.data() : nullptr;
        prim::impl::ref_ip_fwd(prb_, src, wei_.data(), bias, prim::post_ops(), dst, stage);
    }

    double work(const prim::post_ops &) const override { return prb_.flops(); }

private:
    prim::impl::ip_problem prb_;
};

} // namespace

std::string ip_case_desc(const std::string &text, const settings &s) {
    prim::impl::ip_problem prb = parse_ip_problem(text);
    if (s.mb > 0) prb.mb = s.mb;
    return prim::impl::to_string(prb);
}

std::unique_ptr<problem_case> make_ip_case(const std::string &text, const settings &s) {
    prim::impl::ip_problem prb = parse_ip_problem(text);
    if (s.mb > 0) prb.mb = s.mb;
    return std::make_unique<ip_case>(prb, s);
}

} // namespace bdl
