// The batch and layer normalization drivers' oneDNN mappings for --cmp=onednn
// (onednn_drivers.hpp).
#ifdef PRIM_WITH_ONEDNN

#include "common/problem.hpp"
#include "problem_parse.hpp"
#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"

namespace bdl {

using namespace onednn_names;

namespace {

// Batch and layer normalization, forward inference, plain data (oneDNN's own choice for a
// given src), the flags as oneDNN 2.6 spells them.
void normalization(driver_kind driver, onednn_state &st, const problem_case &pc, const settings &s,
                   const prim::post_ops &po) {
    const dnnl::primitive_attr attr = st.post_ops_attr(po, pc);
    const unsigned f = norm_flags_of(s.flags);
    using nf = dnnl::normalization_flags;
    nf flags = nf::none;
    if (f & prim::impl::norm_flags::global_stats) flags |= nf::use_global_stats;
    if (f & prim::impl::norm_flags::scale) flags |= nf::use_scale;
    if (f & prim::impl::norm_flags::shift) flags |= nf::use_shift;
    const memory::dims dims = onednn_dims(pc.dst_dims());
    const memory::desc md(dims, f32, plain_tag(dims.size()));
    const auto prop = dnnl::prop_kind::forward_inference;
    memory::dims stat_dims, c_dims;
    dnnl::primitive_desc_base pd_any;
    if (driver == driver_kind::bnorm) {
        const prim::impl::bnorm_problem prb = parse_bnorm_problem(pc.desc());
        using bn = dnnl::batch_normalization_forward;
        const bn::primitive_desc pd(bn::desc(prop, md, prb.eps, flags), attr, st.eng);
        st.prim = bn(pd);
        pd_any = pd;
        stat_dims = c_dims = {dims[1]};
    } else {
        std::string name;
        const prim::impl::lnorm_problem prb = parse_lnorm_problem_named(pc.desc(), &name);
        using ln = dnnl::layer_normalization_forward;
        const ln::primitive_desc pd(ln::desc(prop, md, prb.eps, flags), attr, st.eng);
        st.prim = ln(pd);
        pd_any = pd;
        stat_dims = memory::dims(dims.begin(), dims.end() - 1);
        c_dims = {dims.back()};
    }
    st.impl = pd_any.impl_info_str();
    auto md_of = [&](int arg) { return pd_any.query_md(dnnl::query::exec_arg_md, arg); };
    st.args[DNNL_ARG_SRC] = st.bind(pc.input(prim::PRIM_ARG_SRC), dims, md_of(DNNL_ARG_SRC));
    if (f & prim::impl::norm_flags::global_stats) {
        st.args[DNNL_ARG_MEAN] = st.bind(pc.input(prim::PRIM_ARG_MEAN), stat_dims, md_of(DNNL_ARG_MEAN));
        st.args[DNNL_ARG_VARIANCE] = st.bind(pc.input(prim::PRIM_ARG_VARIANCE), stat_dims, md_of(DNNL_ARG_VARIANCE));
    }
    if (f & prim::impl::norm_flags::scale)
        st.args[DNNL_ARG_SCALE] = st.bind(pc.input(prim::PRIM_ARG_SCALE), c_dims, md_of(DNNL_ARG_SCALE));
    if (f & prim::impl::norm_flags::shift)
        st.args[DNNL_ARG_SHIFT] = st.bind(pc.input(prim::PRIM_ARG_SHIFT), c_dims, md_of(DNNL_ARG_SHIFT));
    st.args[DNNL_ARG_DST] = st.bind(pc.dst_old(), dims, md_of(DNNL_ARG_DST));
    st.bind_operands(pd_any, pc.dst_dims());
    st.dst_dims = dims;
}

} // namespace

void onednn_bnorm(onednn_state &st, const problem_case &pc, const settings &s,
                  const prim::post_ops &po) {
    normalization(driver_kind::bnorm, st, pc, s, po);
}

void onednn_lnorm(onednn_state &st, const problem_case &pc, const settings &s,
                  const prim::post_ops &po) {
    normalization(driver_kind::lnorm, st, pc, s, po);
}

} // namespace bdl

#endif
