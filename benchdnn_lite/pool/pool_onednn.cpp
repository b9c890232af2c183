// The pooling driver's oneDNN mapping for --cmp=onednn (onednn_drivers.hpp).
#ifdef PRIM_WITH_ONEDNN

#include <algorithm>
#include <unordered_map>

#include "pool/pool_parse.hpp"
#include "tags.hpp"
#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"

namespace bdl {

using namespace onednn_names;

// Pooling: oneDNN 2.6's pooling_v2, forward inference, on the case's own source (plain), dst in
// oneDNN's choice.
void onednn_pool(onednn_state &st, const problem_case &pc, const settings &s,
                 const prim::post_ops &po) {
    const dnnl::primitive_attr attr = st.post_ops_attr(po, pc);
    for (const onednn_op &op : st.ops) {
        if (op.what == onednn_op::kind::sum)
            throw onednn_skip("oneDNN 2.6's pooling has no sum post-op");
        // As its inner product and binary: "could not execute a primitive" for any prelu mask.
        if (op.what == onednn_op::kind::prelu)
            throw onednn_skip("oneDNN 2.6's pooling fails to execute prelu post-ops");
    }
    const prim::impl::pool_problem prb = parse_pool_problem(pc.desc(), s);
    memory::dims src {prb.mb, prb.ic}, dst {prb.mb, prb.ic}, strides, kernel, dilation, pad_l, pad_r;
    for (int sp = 3 - prb.nsp; sp < 3; ++sp) {
        src.push_back(prb.i[sp]);
        dst.push_back(prb.o[sp]);
        strides.push_back(prb.s[sp]);
        kernel.push_back(prb.k[sp]);
        dilation.push_back(prb.d[sp]); // 0 is dense, as benchdnn
        pad_l.push_back(prb.p[sp]);
        pad_r.push_back(std::max<int64_t>(0, prb.p_end[sp])); // as the pool driver gives prim
    }
    const dnnl::algorithm alg = prb.is_max() ? dnnl::algorithm::pooling_max
            : prb.alg == prim::algorithm::pooling_avg_include_padding
                    ? dnnl::algorithm::pooling_avg_include_padding
                    : dnnl::algorithm::pooling_avg_exclude_padding;
    using pool = dnnl::pooling_v2_forward;
    // src in the layout prim runs on ('any': channels-last, as prim's JIT chooses).
    const std::string pattern = s.stag == "any"
            ? std::string(src.size() == 3 ? "acb" : src.size() == 4 ? "acdb" : "acdeb")
            : make_desc(src, s.stag, "--tag").layout();
    static const std::unordered_map<std::string, tag> tags = {
            {"abc", tag::abc}, {"acb", tag::acb}, {"abcd", tag::abcd}, {"acdb", tag::acdb},
            {"abcde", tag::abcde}, {"acdeb", tag::acdeb}, {"aBc8b", tag::aBc8b},
            {"aBcd8b", tag::aBcd8b}, {"aBcde8b", tag::aBcde8b}, {"aBc16b", tag::aBc16b},
            {"aBcd16b", tag::aBcd16b}, {"aBcde16b", tag::aBcde16b}};
    const auto src_tag = tags.find(pattern);
    if (src_tag == tags.end()) throw onednn_skip("layout " + pattern + " is not mapped to oneDNN");
    const pool::primitive_desc pd(
            pool::desc(dnnl::prop_kind::forward_inference, alg,
                       memory::desc(src, f32, src_tag->second), memory::desc(dst, f32, tag::any),
                       strides, kernel, dilation, pad_l, pad_r),
            attr, st.eng);
    st.prim = pool(pd);
    st.impl = pd.impl_info_str();
    st.args[DNNL_ARG_SRC] = st.bind(pc.input(prim::PRIM_ARG_SRC), src, pd.src_desc());
    st.args[DNNL_ARG_DST] = st.bind(pc.dst_old(), dst, pd.dst_desc());
    st.bind_operands(pd, pc.dst_dims());
    st.dst_dims = dst;
}

} // namespace bdl

#endif
