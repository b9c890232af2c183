// The convolution driver: descriptor -> primitive through the public API, reference through
// ref_conv_fwd on plain buffers. A chain with a dw post-op has a case of its own (conv_dw_case):
// its reference is the 1x1 convolution with the entries before the dw, then the depthwise
// convolution, both by ref_conv_fwd.
#include <algorithm>
#include <cmath>

#include "common/dw_post_op.hpp"
#include "common/plain_layout.hpp"
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
          dw_types_(prim::impl::dw_types_of(po.entries()[at_], quant_.types.src, quant_.types.dst)),
          dw_bias_given_(po.entries()[at_].dw.bias_dt != memory::data_type::undef) {
        dst_dims_ = {dw_.mb, dw_.oc, dw_.o[1], dw_.o[2]};
        if (prb.nsp != 2) dst_dims_.assign(2 + prb.nsp, 1); // refused at creation
        dst_old_ = buffer(volume(dst_dims_));
        fill_dst_old(dst_old_);
        dw_wei_ = buffer(dw_.oc * dw_.k[1] * dw_.k[2]);
        // int8: s8 weights as benchdnn's conv fills them, wide enough that the depthwise sums
        // of u8/s8 inputs reach the destination's saturation bounds.
        if (quant_.types.int8()) fill_int(dw_wei_, tensor_id::dw_wei, -4, 4);
        else fill_int(dw_wei_, tensor_id::dw_wei, -1, 1);
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

    // The 1x1 with the entries before the dw into mid, then the depthwise convolution. int8
    // (doc/reference.md, "The dw post-op"): stage holds the 1x1's scales; mid is its output
    // quantized by its dst scale to its type (rounded, saturated) as the depthwise reads it,
    // whose own scales are mid's (src) and the dw arguments' weights scales.
    void compute_reference(const float *src, float *dst,
                           const prim::impl::ref_acc_stage *stage) const override {
        const memory::dims mid_dims {prb_.mb, prb_.oc, prb_.o[1], prb_.o[2]};
        std::vector<float> mid(static_cast<size_t>(volume(mid_dims)));
        const float *bias = with_bias_ ? bias_.data() : nullptr;
        const chain_operands operands(before_, mid_dims); // their data: the case chain's 0..at-1
        const prim::impl::ref_chain chain(before_, mid_dims, operands.pointers());
        prim::impl::ref_conv_fwd(prb_, src, wei_.data(), bias, chain, mid.data(), stage);
        const float *dw_bias = dw_bias_given_ ? dw_bias_.data() : nullptr;
        if (!stage) {
            float largest = 1.f;
            for (float v : mid) largest = std::max(largest, std::fabs(v));
            base_tol_ = pre_tol_ * largest;
            prim::impl::ref_conv_fwd(dw_, mid.data(), dw_wei_.data(), dw_bias, prim::post_ops(), dst);
            return;
        }
        const float mid_scale = quant_.dst_scale.given ? quant_values(quant_.dst_scale, 1, false)[0] : 1.f;
        for (float &v : mid) v = quantized(v / mid_scale, dw_types_.mid);
        const std::vector<float> wei_scales = quant_values(quant_.dw_wei_scale, dw_.oc, false);
        std::vector<float> pre(dw_.oc), post(dw_.oc, 1.f);
        for (int64_t c = 0; c < dw_.oc; ++c)
            pre[c] = mid_scale * (quant_.dw_wei_scale.given ? wei_scales[quant_.dw_wei_scale.per_channel ? c : 0] : 1.f);
        base_tol_ = mid_may_flip() ? mid_flip_bound(pre) : 0.0;
        const prim::impl::ref_acc_stage dw_stage {pre.data(), post.data()};
        prim::impl::ref_conv_fwd(dw_, mid.data(), dw_wei_.data(), dw_bias, prim::post_ops(), dst, &dw_stage);
    }

    // The depthwise output's type and last step: the dw dst scale, no zero point.
    memory::data_type dst_type() const override {
        return quant_.types.int8() ? dw_types_.dst : memory::data_type::f32;
    }
    void finish_reference(std::vector<float> &ref) const override {
        if (quant_.types.int8()) quantize(ref, quant_.dw_dst_scale, quant_param(), dw_types_.dst);
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
    // (g = oc) with the entries after it into dst; their operands keep their data. int8: the
    // 1x1 writes mid's type with its own quantization (src, weights, dst scales, src zero
    // point); the depthwise reads it with mid's scale (the 1x1's dst scale) as its src scale,
    // the dw weights' scales and the dw dst scale as its own.
    std::vector<bound_primitive> unfused_steps(const prim::post_ops &po) const override {
        using prim::convolution_forward;
        using prim::PRIM_ARG_SRC, prim::PRIM_ARG_WEIGHTS, prim::PRIM_ARG_BIAS, prim::PRIM_ARG_DST;
        const int at = po.dw_index();
        const bool int8 = quant_.types.int8();
        const user_descs descs = make_user_descs();
        const auto direct = prim::algorithm::convolution_direct;
        // Each half's quantization (the depthwise's: grouped weights, per channel mask 3).
        quant_spec one_quant = quant_, dw_quant;
        one_quant.dw_wei_scale = one_quant.dw_dst_scale = quant_param();
        dw_quant.types = quant_.types;
        dw_quant.src_scale = quant_.dst_scale;
        dw_quant.wei_scale = quant_.dw_wei_scale;
        dw_quant.dst_scale = quant_.dw_dst_scale;
        prim::primitive_attr a1, a2;
        a1.set_post_ops(prim::impl::chain_slice(po, 0, at));
        a2.set_post_ops(prim::impl::chain_slice(po, at + 1, po.len()));
        if (int8) {
            add_quantization(one_quant, grouped_, a1);
            add_quantization(dw_quant, true, a2);
        }
        const memory::dims mid {prb_.mb, prb_.oc, prb_.o[1], prb_.o[2]};
        const memory::desc mid_md = prim::impl::retyped(user_desc(mid, s_.dtag, "", 2, 3, "--dtag"), dw_types_.mid);
        const convolution_forward::desc d1(descs.prop, direct, descs.src, descs.wei, descs.bias,
                mid_md, strides_, dilates_, pad_l_, pad_r_);
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
        const memory::desc dw_bias_md = dw_bias_given_
                ? prim::impl::retyped(plain_desc({dw_.oc}), dw_types_.bias) : memory::desc();
        const convolution_forward::desc d2(descs.prop, direct, c1.pd.dst_desc(),
                memory::desc(wei, dw_types_.wei, memory::format_tag::any), dw_bias_md,
                prim::impl::retyped(descs.dst, dw_types_.dst),
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
        bind_quant_values(one_quant, prb_.oc, prb_.ic, one.args);
        bind_quant_values(dw_quant, dw_.oc, dw_.oc, two.args);
        return {one, two};
    }

    bool int8_unfused() const override { return true; }

private:
    // x rounded half to even and saturated to the integer type t, as the primitive stores it.
    static float quantized(float x, memory::data_type t) {
        const float lo = t == memory::data_type::u8 ? 0.f : -128.f, hi = t == memory::data_type::u8 ? 255.f : 127.f;
        return std::nearbyint(std::min(std::max(x, lo), hi));
    }

    // int8: an entry before the dw built on exp/log/tanh/... (an approximation in the JIT) may
    // move a value of mid that is near a rounding tie to the other side: one unit of mid. The
    // arithmetic ones (linear: a * x + b) are exact on the dyadic values the driver fills and
    // scales by (powers of two), so they round as the reference does: no allowance for them.
    bool mid_may_flip() const {
        for (const prim::post_ops::entry &e : before_.entries())
            if (entry_tolerance(e) >= 1e-6) return true;
        return false;
    }
    // The bound: in the worst case every one of the k * k inputs of a depthwise output flips,
    // each moving it by |weight| * its scale (pre); in units of an integer destination, divided
    // by the dw dst scale.
    double mid_flip_bound(const std::vector<float> &pre) const {
        float wei = 0.f, scale = 0.f;
        for (float w : dw_wei_) wei = std::max(wei, std::fabs(w));
        for (float p : pre) scale = std::max(scale, std::fabs(p));
        double bound = static_cast<double>(dw_.k[1] * dw_.k[2]) * wei * scale;
        if (quant_.dw_dst_scale.given && dw_types_.dst != memory::data_type::f32)
            bound /= quant_values(quant_.dw_dst_scale, 1, false)[0];
        return bound;
    }

    int at_;
    prim::post_ops before_;
    prim::impl::conv_problem dw_;
    prim::impl::dw_types dw_types_;
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
