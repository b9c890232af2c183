// The inner product driver's oneDNN mapping for --cmp=onednn (onednn_drivers.hpp), int8
// included (onednn/onednn_weighted.hpp).
#ifdef PRIM_WITH_ONEDNN

#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"
#include "onednn/onednn_weighted.hpp"
#include "problem_parse.hpp"

namespace bdl {

using namespace onednn_names;

void onednn_ip(onednn_state &st, const problem_case &pc, const settings &s,
               const prim::post_ops &po) {
    const dnnl::primitive_attr given_attr = st.post_ops_attr(po, pc, "inner product");
    const int8_side i8(s);
    const prim::impl::ip_problem prb = parse_ip_problem(pc.desc());
    const dnnl::primitive_attr attr = i8.attr(given_attr, prb.oc);
    weighted_shape w;
    memory::dims &src = w.src, &wei = w.wei, &dst = w.dst;
    src = {prb.mb, prb.ic};
    wei = {prb.oc, prb.ic};
    dst = {prb.mb, prb.oc};
    for (int sp = 3 - prb.nsp; sp < 3 && prb.nsp > 0; ++sp) {
        src.push_back(prb.i[sp]);
        wei.push_back(prb.i[sp]);
    }
    w.with_bias = i8.with_bias(s);
    w.ic = prb.ic;
    w.oc = prb.oc;
    w.fan_in = prb.ic * prb.spatial();
    const weighted_types &t = i8.q.types;
    const memory::desc src_md(src, i8.type(t.src), tag::any), wei_md(wei, i8.type(t.wei), tag::any),
            dst_md(dst, i8.type(t.dst), tag::any), bias_md({prb.oc}, i8.type(t.bias), tag::any);
    using ip = dnnl::inner_product_forward;
    const ip::desc d = w.with_bias ? ip::desc(prop_of(s), src_md, wei_md, bias_md, dst_md)
                                 : ip::desc(prop_of(s), src_md, wei_md, dst_md);
    const ip::primitive_desc pd(d, attr, st.eng);
    st.prim = ip(pd);
    st.impl = pd.impl_info_str();
    bind_weighted_inputs(st, pc, i8, pd, w);
    bind_weighted_outputs(st, pc, i8, pd, w);
}

} // namespace bdl

#endif
