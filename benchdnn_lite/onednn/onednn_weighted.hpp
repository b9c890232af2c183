// What the convolution's and the inner product's oneDNN mappings share: the int8 side and the
// binding of their arguments.
#pragma once
#ifdef PRIM_WITH_ONEDNN

#include <unordered_map>
#include <vector>

#include "fill.hpp"
#include "onednn/onednn_state.hpp"
#include "quant_spec.hpp"

namespace bdl {

// An int8 convolution or inner product (doc/int8.md) as oneDNN 2.6 takes it: the case's own
// data and types, output scales and zero points given at execute. v3 per-argument scales have
// a oneDNN 2.6 form for the 1x1 of a dw pair only (dw_pair): its src and weights scales become
// its output scales and its bias is divided by them (2.x adds the bias before scaling: (acc +
// bias / s) * s = s * acc + bias, exact for the powers of two benchdnn's scales are); its dst
// scale is a linear:1/scale entry after its chain (onednn_dw_int8).
struct int8_side {
    using memory = dnnl::memory;
    using tag = memory::format_tag;
    static constexpr auto f32 = memory::data_type::f32;
    quant_spec q;
    bool int8 = false;
    bool v3_as_output_scales = false; // a dw pair's 1x1 with src or weights scales
    int8_side(const settings &s, bool dw_pair = false) {
        parse_quant_spec(s, q);
        int8 = q.types.int8();
        if (int8 && !dw_pair && (q.src_scale.given || q.wei_scale.given || q.dst_scale.given))
            throw onednn_skip("per-argument scales (oneDNN v3) have no oneDNN 2.6 form for this primitive");
        v3_as_output_scales = int8 && dw_pair && (q.src_scale.given || q.wei_scale.given);
    }
    // src_scale * wei_scale[oc] (v3_as_output_scales): oc values, or one when both are common.
    std::vector<float> v3_output_scales(int64_t oc) const {
        const float src = q.src_scale.given ? quant_values(q.src_scale, 1, false)[0] : 1.f;
        std::vector<float> v = q.wei_scale.given ? quant_values(q.wei_scale, oc, false) : std::vector<float> {1.f};
        for (float &x : v) x *= src;
        return v;
    }
    memory::data_type type(prim::memory::data_type t) const { return int8 ? onednn_type(t) : f32; }
    // A bias unless --dir=FWD_D or --bia-dt=undef.
    bool with_bias(const settings &s) const {
        return s.dir != direction::fwd_d && q.types.bias != prim::memory::data_type::undef;
    }
    // The attribute with the quantization: output scales as constants (oneDNN 2.6's int8
    // convolutions refuse runtime ones), zero points at execute.
    dnnl::primitive_attr attr(const dnnl::primitive_attr &given, int64_t oc) const {
        dnnl::primitive_attr a = given;
        if (q.oscale.given) a.set_output_scales(q.oscale.per_channel ? 1 << 1 : 0, quant_values(q.oscale, oc, false));
        if (v3_as_output_scales) {
            const std::vector<float> v = v3_output_scales(oc);
            a.set_output_scales(v.size() > 1 ? 1 << 1 : 0, v);
        }
        if (q.src_zp.given)
            a.set_zero_points(DNNL_ARG_SRC, q.src_zp.per_channel ? 1 << 1 : 0, {DNNL_RUNTIME_S32_VAL});
        if (q.dst_zp.given)
            a.set_zero_points(DNNL_ARG_DST, q.dst_zp.per_channel ? 1 << 1 : 0, {DNNL_RUNTIME_S32_VAL});
        return a;
    }
    void bind_values(dnnl::engine &eng, std::unordered_map<int, memory> &args, int64_t ic,
                     int64_t oc) const {
        const auto values = [&](const quant_param &p, int arg, int64_t channels, bool zp) {
            if (!p.given) return;
            const std::vector<float> v = quant_values(p, channels, zp);
            memory m({{static_cast<int64_t>(v.size())}, zp ? memory::data_type::s32 : f32, tag::x}, eng);
            for (size_t i = 0; i < v.size(); ++i) {
                if (zp) static_cast<int32_t *>(m.get_data_handle())[i] = static_cast<int32_t>(v[i]);
                else static_cast<float *>(m.get_data_handle())[i] = v[i];
            }
            args[arg] = m;
        };
        values(q.src_zp, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, ic, true);
        values(q.dst_zp, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, oc, true);
    }
};

// The plain dims of a convolution's or inner product's tensors, and what their filling reads.
struct weighted_shape {
    dnnl::memory::dims src, wei, dst;
    int64_t ic = 0, oc = 0;
    int64_t fan_in = 0; // the weights' inputs per output channel (fill_wei)
    bool with_bias = false;
};

// Source, weights and bias in the layouts pd chose, filled as the case fills them (fill.hpp;
// an int8 source is the case's own).
template <typename PD>
void bind_weighted_inputs(onednn_state &st, const problem_case &pc, const int8_side &i8,
                          const PD &pd, const weighted_shape &w) {
    std::vector<float> src_data = plain_buffer(w.src), wei_data = plain_buffer(w.wei);
    fill_src(src_data, tensor_id::src);
    fill_wei(wei_data, w.fan_in);
    if (i8.int8) src_data = pc.input(prim::PRIM_ARG_SRC); // the case's own int8 filling
    st.args[DNNL_ARG_SRC] = st.bind(std::move(src_data), w.src, pd.src_desc());
    st.args[DNNL_ARG_WEIGHTS] = st.bind(std::move(wei_data), w.wei, pd.weights_desc());
    if (w.with_bias) {
        std::vector<float> bias_data = plain_buffer({w.oc});
        fill_src(bias_data, tensor_id::bias);
        if (i8.v3_as_output_scales) { // see int8_side
            const std::vector<float> s = i8.v3_output_scales(w.oc);
            for (size_t c = 0; c < bias_data.size(); ++c) bias_data[c] /= s[s.size() > 1 ? c : 0];
        }
        st.args[DNNL_ARG_BIAS] = st.bind(std::move(bias_data), {w.oc}, pd.bias_desc());
    }
}

// dst (holding dst_old), the chain's operands and the zero points.
template <typename PD>
void bind_weighted_outputs(onednn_state &st, const problem_case &pc, const int8_side &i8,
                           const PD &pd, const weighted_shape &w) {
    st.args[DNNL_ARG_DST] = st.bind(pc.dst_old(), w.dst, pd.dst_desc());
    st.bind_operands(pd, pc.dst_dims());
    i8.bind_values(st.eng, st.args, w.ic, w.oc);
    st.dst_dims = w.dst;
}

} // namespace bdl

#endif
