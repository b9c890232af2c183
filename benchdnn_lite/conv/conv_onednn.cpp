// The convolution driver's oneDNN mapping for --cmp=onednn (onednn_drivers.hpp), int8
// included (onednn/onednn_weighted.hpp).
#ifdef PRIM_WITH_ONEDNN

#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"
#include "onednn/onednn_weighted.hpp"
#include "common/dw_post_op.hpp"
#include "problem_parse.hpp"

namespace bdl {

using namespace onednn_names;

namespace {

// The int8 pair's depthwise as oneDNN 2.6 takes it (onednn_dw_int8): output scales
// mid_scale * dw_wei_scale[c] (mid_scale: the 1x1's dst scale, the depthwise's src scale),
// mask 2 when per channel; its bias is divided by them (bias_divisor, oc values), as the 1x1's
// (int8_side); each half's dst scale becomes a linear:1/scale entry after its chain.
onednn_dw_int8 dw_int8_form(const quant_spec &q, const prim::post_ops::entry &e, int64_t oc,
                            std::vector<float> &bias_divisor) {
    onednn_dw_int8 f;
    f.int8 = true;
    const prim::impl::dw_types t = prim::impl::dw_types_of(e, q.types.src, q.types.dst);
    f.wei = t.wei;
    f.dst = t.dst;
    const float mid_scale = q.dst_scale.given ? quant_values(q.dst_scale, 1, false)[0] : 1.f;
    bias_divisor.assign(static_cast<size_t>(oc), mid_scale);
    if (q.dw_wei_scale.given) {
        const std::vector<float> w = quant_values(q.dw_wei_scale, oc, false);
        for (size_t c = 0; c < bias_divisor.size(); ++c) bias_divisor[c] *= w[w.size() > 1 ? c : 0];
    }
    const bool per_channel = q.dw_wei_scale.given && q.dw_wei_scale.per_channel;
    f.mask = per_channel ? 1 << 1 : 0;
    f.scales = per_channel ? bias_divisor : std::vector<float> {bias_divisor[0]};
    f.mid_inv_scale = 1.f / mid_scale;
    if (q.dw_dst_scale.given) f.dst_inv_scale = 1.f / quant_values(q.dw_dst_scale, 1, false)[0];
    return f;
}

} // namespace

void onednn_conv(onednn_state &st, const problem_case &pc, const settings &s,
                 const prim::post_ops &po) {
    const prim::impl::conv_problem prb = parse_conv_problem(pc.desc());
    const int dw = po.dw_index();
    const int8_side i8(s, dw >= 0);
    std::vector<float> dw_bias_divisor; // an int8 pair's depthwise bias, for its output scales
    if (dw >= 0) { // the 1x1's output, which the entries before the dw apply to
        st.dw_mid = {prb.mb, prb.oc, prb.o[1], prb.o[2]};
        // Found by the C-mode check: with a src zero point oneDNN 2.6's fused pair is wrong
        // (up to 255 off on a u8 dst, no scales needed), the fused and unfused prim agreeing.
        if (i8.int8 && i8.q.src_zp.given)
            throw onednn_skip("oneDNN 2.6's int8 dw fusion computes a src zero point wrong");
        if (i8.int8) st.dw_int8 = dw_int8_form(i8.q, po.entries()[dw], prb.oc, dw_bias_divisor);
    }
    const dnnl::primitive_attr given_attr = st.post_ops_attr(po, pc);
    const dnnl::primitive_attr attr = i8.attr(given_attr, prb.oc);
    weighted_shape w;
    memory::dims &src = w.src, &wei = w.wei, &dst = w.dst;
    src = {prb.mb, prb.ic};
    dst = {prb.mb, prb.oc};
    wei = prb.g > 1 ? memory::dims {prb.g, prb.ocg(), prb.icg()} : memory::dims {prb.oc, prb.ic};
    memory::dims strides, dilates, pad_l, pad_r;
    for (int sp = 3 - prb.nsp; sp < 3; ++sp) {
        src.push_back(prb.i[sp]);
        dst.push_back(prb.o[sp]);
        wei.push_back(prb.k[sp]);
        strides.push_back(prb.s[sp]);
        dilates.push_back(prb.d[sp]); // oneDNN counts dilation as benchdnn does: 0 is dense
        pad_l.push_back(prb.p[sp]);
        pad_r.push_back(prb.p_end[sp]);
    }
    w.with_bias = i8.with_bias(s);
    w.ic = prb.ic;
    w.oc = prb.oc;
    w.fan_in = prb.icg() * prb.k[0] * prb.k[1] * prb.k[2];
    const weighted_types &t = i8.q.types;
    const memory::desc src_md(src, i8.type(t.src), tag::any), wei_md(wei, i8.type(t.wei), tag::any),
            dst_md(dst, i8.type(t.dst), tag::any), bias_md({prb.oc}, i8.type(t.bias), tag::any);
    using conv = dnnl::convolution_forward;
    const auto alg = dnnl::algorithm::convolution_direct;
    const conv::desc d = w.with_bias
            ? conv::desc(prop_of(s), alg, src_md, wei_md, bias_md, dst_md, strides, dilates,
                         pad_l, pad_r)
            : conv::desc(prop_of(s), alg, src_md, wei_md, dst_md, strides, dilates, pad_l, pad_r);
    const conv::primitive_desc pd(d, attr, st.eng);
    st.prim = conv(pd);
    st.impl = pd.impl_info_str();
    bind_weighted_inputs(st, pc, i8, pd, w);
    if (st.chain.dw_index() >= 0) { // dst is the depthwise output; its weights and bias, the case's
        dst = onednn_dims(pc.dst_dims());
        const prim::post_ops::entry &e = st.chain.entries()[st.chain.dw_index()];
        const memory::dims dw_wei {prb.oc, 1, 1, e.dw.kernel, e.dw.kernel};
        const int wei_arg = DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS;
        const int bias_arg = DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS;
        st.args[wei_arg] = st.bind(pc.input(prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_WEIGHTS),
                                   dw_wei, pd.query_md(dnnl::query::exec_arg_md, wei_arg));
        if (e.dw.bias_dt != prim::memory::data_type::undef) {
            std::vector<float> bias = pc.input(prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_BIAS);
            for (size_t c = 0; c < dw_bias_divisor.size(); ++c) bias[c] /= dw_bias_divisor[c];
            st.args[bias_arg] = st.bind(std::move(bias), {prb.oc}, pd.query_md(dnnl::query::exec_arg_md, bias_arg));
        }
    }
    bind_weighted_outputs(st, pc, i8, pd, w);
}

} // namespace bdl

#endif
