// The concat driver's oneDNN mapping for --cmp=onednn (onednn_drivers.hpp).
#ifdef PRIM_WITH_ONEDNN

#include "attr_syntax.hpp"
#include "problem_parse.hpp"
#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"

namespace bdl {

using namespace onednn_names;

// Concat: the case's own plain inputs (their dims from the descriptor SRC0:SRC1:...), dst in
// oneDNN's choice.
void onednn_concat(onednn_state &st, const problem_case &pc, const settings &s,
                   const prim::post_ops &po) {
    (void)po; // concat takes no post-ops (the case list skips such cases)
    const std::string text = pc.desc().substr(0, pc.desc().find("_n\""));
    std::vector<memory::desc> mds;
    std::vector<memory::dims> srcs;
    for (const std::string &part : split(text, ':')) {
        srcs.push_back(onednn_dims(parse_eltwise_problem(part).dims));
        mds.emplace_back(srcs.back(), f32, plain_tag(srcs.back().size()));
    }
    const dnnl::concat::primitive_desc pd(s.axis, mds, st.eng);
    st.prim = dnnl::concat(pd);
    st.impl = pd.impl_info_str();
    for (size_t i = 0; i < srcs.size(); ++i)
        st.args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] =
                st.bind(pc.input(prim::PRIM_ARG_MULTIPLE_SRC + static_cast<int>(i)), srcs[i],
                     pd.src_desc(static_cast<int>(i)));
    st.dst_dims = onednn_dims(pc.dst_dims());
    st.args[DNNL_ARG_DST] = st.bind(pc.dst_old(), st.dst_dims, pd.dst_desc());
}

} // namespace bdl

#endif
