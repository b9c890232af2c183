// The inner product driver's oneDNN mapping for --cmp=onednn (onednn_drivers.hpp), int8
// included (onednn/onednn_int8.hpp).
#ifdef PRIM_WITH_ONEDNN

#include "fill.hpp"
#include "onednn/onednn_int8.hpp"
#include "problem_parse.hpp"
#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"

namespace bdl {

using namespace onednn_names;

void onednn_ip(onednn_state &st, const problem_case &pc, const settings &s,
               const prim::post_ops &po) {
    const dnnl::primitive_attr given_attr = st.post_ops_attr(po, pc, "inner product");
    const int8_side i8(s);
    const prim::impl::ip_problem prb = parse_ip_problem(pc.desc());
    const dnnl::primitive_attr attr = i8.attr(given_attr, prb.oc);
    memory::dims src {prb.mb, prb.ic}, wei {prb.oc, prb.ic}, dst {prb.mb, prb.oc};
    for (int sp = 3 - prb.nsp; sp < 3 && prb.nsp > 0; ++sp) {
        src.push_back(prb.i[sp]);
        wei.push_back(prb.i[sp]);
    }
    const bool with_bias = s.dir != direction::fwd_d && i8.q.types.bias != prim::memory::data_type::undef;
    const weighted_types &t = i8.q.types;
    const memory::desc src_md(src, i8.type(t.src), tag::any), wei_md(wei, i8.type(t.wei), tag::any),
            dst_md(dst, i8.type(t.dst), tag::any), bias_md({prb.oc}, i8.type(t.bias), tag::any);
    using ip = dnnl::inner_product_forward;
    const ip::desc d = with_bias ? ip::desc(prop_of(s), src_md, wei_md, bias_md, dst_md)
                                 : ip::desc(prop_of(s), src_md, wei_md, dst_md);
    const ip::primitive_desc pd(d, attr, st.eng);
    st.prim = ip(pd);
    st.impl = pd.impl_info_str();
    std::vector<float> src_data = plain_buffer(src), wei_data = plain_buffer(wei);
    fill_src(src_data, tensor_id::src);
    fill_wei(wei_data, prb.ic * prb.spatial());
    if (i8.int8) src_data = pc.input(prim::PRIM_ARG_SRC); // the case's own int8 filling
    st.args[DNNL_ARG_SRC] = st.bind(std::move(src_data), src, pd.src_desc());
    st.args[DNNL_ARG_WEIGHTS] = st.bind(std::move(wei_data), wei, pd.weights_desc());
    if (with_bias) {
        std::vector<float> bias_data = plain_buffer({prb.oc});
        fill_src(bias_data, tensor_id::bias);
        st.args[DNNL_ARG_BIAS] = st.bind(std::move(bias_data), {prb.oc}, pd.bias_desc());
    }
    st.args[DNNL_ARG_DST] = st.bind(pc.dst_old(), dst, pd.dst_desc());
    st.bind_operands(pd, pc.dst_dims());
    i8.bind_values(st.eng, st.args, prb.ic, prb.oc);
    st.dst_dims = dst;
}

} // namespace bdl

#endif
