// The softmax driver's oneDNN mapping for --cmp=onednn (onednn_drivers.hpp).
#ifdef PRIM_WITH_ONEDNN


#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"

namespace bdl {

using namespace onednn_names;

// Softmax (softmax_v2, forward inference): the case's own plain source, dst in oneDNN's choice.
void onednn_softmax(onednn_state &st, const problem_case &pc, const settings &s,
                    const prim::post_ops &po) {
    const dnnl::primitive_attr attr = st.post_ops_attr(po, pc);
    const memory::dims dims = onednn_dims(pc.dst_dims());
    const memory::desc src_md(dims, f32, plain_tag(dims.size())), dst_md(dims, f32, tag::any);
    using sm = dnnl::softmax_v2_forward;
    const auto alg = s.salg == prim::algorithm::softmax_log ? dnnl::algorithm::softmax_log
                                                            : dnnl::algorithm::softmax_accurate;
    const sm::primitive_desc pd(sm::desc(dnnl::prop_kind::forward_inference, alg, src_md, dst_md,
                                         s.axis), attr, st.eng);
    st.prim = sm(pd);
    st.impl = pd.impl_info_str();
    st.args[DNNL_ARG_SRC] = st.bind(pc.input(prim::PRIM_ARG_SRC), dims, pd.src_desc());
    st.args[DNNL_ARG_DST] = st.bind(pc.dst_old(), dims, pd.dst_desc());
    st.bind_operands(pd, pc.dst_dims());
    st.dst_dims = dims;
}

} // namespace bdl

#endif
