// The convolution driver: descriptor -> primitive through the public API, reference through
// ref_conv_fwd on plain buffers. A chain with a dw post-op has a case of its own (conv_dw_case):
// its reference is the 1x1 convolution with the entries before the dw, then the depthwise
// convolution, both by ref_conv_fwd.
#include <algorithm>
#include <cmath>

#include "common/dw_post_op.hpp"
#include "common/post_op_operands.hpp"
#include "tags.hpp"
#include "compare.hpp"
#include "drivers.hpp"
#include "fill.hpp"
#include "operands.hpp"
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
        const timed_creation<prim::convolution_forward> c = create_pd(attr);
        return bind(c.prim, c.pd, c.ms);
    }

    void compute_reference(const float *src, float *dst,
                           const prim::impl::ref_acc_stage *stage) const override {
        const float *bias = with_bias_ ? bias_.data() : nullptr;
        prim::impl::ref_conv_fwd(prb_, src, wei_.data(), bias, prim::post_ops(), dst, stage);
    }

    double work(const prim::post_ops &) const override { return prb_.flops(); }

protected:
    timed_creation<prim::convolution_forward> create_pd(const prim::primitive_attr &attr) const {
        using prim::convolution_forward;
        const user_descs descs = make_user_descs();
        const convolution_forward::desc d(descs.prop, prim::algorithm::convolution_direct, descs.src,
                descs.wei, descs.bias, descs.dst, strides_, dilates_, pad_l_, pad_r_);
        return create_timed<convolution_forward>(d, with_quantization(attr));
    }

    prim::impl::conv_problem prb_;
    memory::dims strides_, dilates_, pad_l_, pad_r_;
};

// A convolution whose chain has a dw post-op: dst is the depthwise output, the depthwise
// weights and bias are inputs of their own (filled as weights and bias are), and ref_base() is
// the depthwise output with the entries up to the dw applied; the driver applies the rest.
class conv_dw_case : public conv_case {
public:
    conv_dw_case(const prim::impl::conv_problem &prb, const settings &s, const prim::post_ops &po)
        : conv_case(prb, s), at_(po.dw_index()),
          before_(prim::impl::chain_slice(with_runtime_defaults(po), 0, at_)),
          dw_(prim::impl::dw_problem(prb, po.entries()[at_])),
          dw_bias_given_(po.entries()[at_].dw.bias_dt != memory::data_type::undef) {
        dst_dims_ = {dw_.mb, dw_.oc, dw_.o[1], dw_.o[2]};
        if (prb.nsp != 2) dst_dims_.assign(2 + prb.nsp, 1); // refused at creation
        dst_old_ = buffer(volume(dst_dims_));
        fill_dst_old(dst_old_);
        dw_wei_ = buffer(dw_.oc * dw_.k[1] * dw_.k[2]);
        fill_int(dw_wei_, tensor_id::dw_wei, -1, 1);
        dw_bias_ = buffer(dw_.oc);
        fill_src(dw_bias_, tensor_id::dw_bias);
        // An inexact entry before the dw errs by its budget (oneDNN's: its own approximation)
        // on each of the k * k values a depthwise output sums, each up to the largest |value|.
        for (const prim::post_ops::entry &e : before_.entries())
            pre_tol_ += entry_tolerance(e) + (entry_tolerance(e) >= 1e-6 ? 1e-5 : 0.0);
        pre_tol_ *= static_cast<double>(dw_.k[1] * dw_.k[2]);
    }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        const timed_creation<prim::convolution_forward> c = create_pd(attr);
        bound_primitive b = bind(c.prim, c.pd, c.ms);
        const prim::primitive_desc_base &pd = c.pd;
        const int wei = prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_WEIGHTS;
        const int bias = prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_BIAS;
        b.args[wei] = from_plain(dw_wei_, {dw_.oc, 1, 1, dw_.k[1], dw_.k[2]}, pd.query_md(wei));
        if (dw_bias_given_) b.args[bias] = from_plain(dw_bias_, {dw_.oc}, pd.query_md(bias));
        return b;
    }

    void compute_reference(const float *src, float *dst,
                           const prim::impl::ref_acc_stage *) const override {
        const memory::dims mid_dims {prb_.mb, prb_.oc, prb_.o[1], prb_.o[2]};
        std::vector<float> mid(static_cast<size_t>(volume(mid_dims)));
        const float *bias = with_bias_ ? bias_.data() : nullptr;
        const chain_operands operands(before_, mid_dims); // their data: the case chain's 0..at-1
        const prim::impl::ref_chain chain(before_, mid_dims, operands.pointers());
        prim::impl::ref_conv_fwd(prb_, src, wei_.data(), bias, chain, mid.data());
        float largest = 1.f;
        for (float v : mid) largest = std::max(largest, std::fabs(v));
        base_tol_ = pre_tol_ * largest;
        prim::impl::ref_conv_fwd(dw_, mid.data(), dw_wei_.data(),
                                 dw_bias_given_ ? dw_bias_.data() : nullptr, prim::post_ops(), dst);
    }

    double base_tolerance() const override { return base_tol_; }

    prim::post_ops elementwise_chain(const prim::post_ops &po) const override {
        return prim::impl::chain_slice(po, po.dw_index() + 1, po.len());
    }

    std::vector<float> input(int arg) const override {
        if (arg == (prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_WEIGHTS)) return dw_wei_;
        if (arg == (prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_BIAS)) return dw_bias_;
        return conv_case::input(arg);
    }

    double work(const prim::post_ops &) const override { return prb_.flops() + dw_.flops(); }

    // Two convolutions, as a user without the dw post-op runs the pair: the 1x1 with the entries
    // before the dw into a buffer of its output (--dtag's layout), then the depthwise convolution
    // (g = oc) with the entries after it into dst; their operands keep their data.
    std::vector<bound_primitive> unfused_steps(const prim::post_ops &po) const override {
        using prim::convolution_forward;
        using prim::PRIM_ARG_SRC, prim::PRIM_ARG_WEIGHTS, prim::PRIM_ARG_BIAS, prim::PRIM_ARG_DST;
        const int at = po.dw_index();
        const user_descs descs = make_user_descs();
        const auto direct = prim::algorithm::convolution_direct;
        prim::primitive_attr a1, a2;
        a1.set_post_ops(prim::impl::chain_slice(po, 0, at));
        a2.set_post_ops(prim::impl::chain_slice(po, at + 1, po.len()));
        const memory::dims mid {prb_.mb, prb_.oc, prb_.o[1], prb_.o[2]};
        const convolution_forward::desc d1(descs.prop, direct, descs.src, descs.wei, descs.bias,
                user_desc(mid, s_.dtag, "", 2, 3, "--dtag"), strides_, dilates_, pad_l_, pad_r_);
        const timed_creation<convolution_forward> c1 = create_timed<convolution_forward>(d1, a1);
        bound_primitive one;
        one.prim = c1.prim;
        one.impl = c1.pd.impl_name();
        one.args[PRIM_ARG_SRC] = from_plain(src_, src_dims_, c1.pd.src_desc());
        one.args[PRIM_ARG_WEIGHTS] = from_plain(wei_, wei_dims_, c1.pd.weights_desc());
        if (with_bias_) one.args[PRIM_ARG_BIAS] = from_plain(bias_, {prb_.oc}, c1.pd.bias_desc());
        one.args[PRIM_ARG_DST] = prim::memory(c1.pd.dst_desc());
        bind_operands(c1.pd, one.args);

        const memory::dims wei {dw_.oc, 1, 1, dw_.k[1], dw_.k[2]};
        const convolution_forward::desc d2(descs.prop, direct, c1.pd.dst_desc(),
                memory::desc(wei, memory::data_type::f32, memory::format_tag::any),
                dw_bias_given_ ? plain_desc({dw_.oc}) : memory::desc(), descs.dst,
                {dw_.s[1], dw_.s[2]}, {0, 0}, {dw_.p[1], dw_.p[2]}, {dw_.p_end[1], dw_.p_end[2]});
        const timed_creation<convolution_forward> c2 = create_timed<convolution_forward>(d2, a2);
        bound_primitive two;
        two.prim = c2.prim;
        two.impl = c2.pd.impl_name();
        two.args[PRIM_ARG_SRC] = one.args[PRIM_ARG_DST];
        two.args[PRIM_ARG_WEIGHTS] = from_plain(dw_wei_, wei, c2.pd.weights_desc());
        if (dw_bias_given_) two.args[PRIM_ARG_BIAS] = from_plain(dw_bias_, {dw_.oc}, c2.pd.bias_desc());
        two.args[PRIM_ARG_DST] = from_plain(dst_old_, dst_dims_, c2.pd.dst_desc());
        for (int j = at + 1; j < po.len(); ++j)
            if (prim::impl::has_operand(po.entries()[j]))
                bind_operand(po.entries()[j], j, j - at - 1, c2.pd, two.args);
        return {one, two};
    }

private:
    int at_;
    prim::post_ops before_;
    prim::impl::conv_problem dw_;
    bool dw_bias_given_;
    std::vector<float> dw_wei_, dw_bias_;
    double pre_tol_ = 0;
    mutable double base_tol_ = 0;
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

std::unique_ptr<problem_case> make_conv_dw_case(const std::string &text, const settings &s,
                                                const prim::post_ops &po) {
    prim::impl::conv_problem prb = parse_conv_problem(text);
    if (s.mb > 0) prb.mb = s.mb;
    return std::make_unique<conv_dw_case>(prb, s, po);
}

} // namespace bdl
