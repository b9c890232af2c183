// The binary driver's oneDNN mapping for --cmp=onednn (onednn_drivers.hpp).
#ifdef PRIM_WITH_ONEDNN

#include "attr/binary_table.hpp"
#include "problem_parse.hpp"
#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"

namespace bdl {

using namespace onednn_names;

// Binary: the case's own sources, plain; dst in oneDNN's choice.
void onednn_binary(onednn_state &st, const problem_case &pc, const settings &s,
                   const prim::post_ops &po) {
    const dnnl::primitive_attr attr = st.post_ops_attr(po, pc, "binary");
    const prim::impl::binary_problem prb = parse_binary_problem_named(pc.desc(), nullptr);
    const memory::dims src0 = onednn_dims(prb.src0), src1 = onednn_dims(prb.src1);
    const memory::desc src0_md(src0, f32, plain_tag(src0.size())),
            src1_md(src1, f32, plain_tag(src1.size())), dst_md(src0, f32, tag::any);
    const dnnl::binary::desc d(onednn_binary_alg(prim::impl::find_binary(s.balg)->name), src0_md,
                               src1_md, dst_md);
    const dnnl::binary::primitive_desc pd(d, attr, st.eng);
    st.prim = dnnl::binary(pd);
    st.impl = pd.impl_info_str();
    st.args[DNNL_ARG_SRC_0] = st.bind(pc.input(prim::PRIM_ARG_SRC_0), src0, pd.src_desc(0));
    st.args[DNNL_ARG_SRC_1] = st.bind(pc.input(prim::PRIM_ARG_SRC_1), src1, pd.src_desc(1));
    st.args[DNNL_ARG_DST] = st.bind(pc.dst_old(), src0, pd.dst_desc());
    st.bind_operands(pd, pc.dst_dims());
    st.dst_dims = src0;
}

} // namespace bdl

#endif
