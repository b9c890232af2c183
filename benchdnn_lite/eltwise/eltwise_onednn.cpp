// The eltwise driver's oneDNN mapping for --cmp=onednn (onednn_drivers.hpp).
#ifdef PRIM_WITH_ONEDNN

#include <cstdlib>

#include "attr/algorithm_table.hpp"
#include "fill.hpp"
#include "io_spec.hpp"
#include "problem_parse.hpp"
#include "onednn/onednn_drivers.hpp"
#include "onednn/onednn_state.hpp"

namespace bdl {

using namespace onednn_names;

// The eltwise case's algorithm comes back from its REPRO options ("--alg=NAME [--alpha=X]
// [--beta=Y] "), which eltwise_case writes from the algorithm's main name and exact values.
void onednn_eltwise(onednn_state &st, const problem_case &pc, const settings &s,
                    const prim::post_ops &po) {
    const std::string opts = pc.repro_options();
    auto value_of = [&](const std::string &key) -> std::string {
        const size_t at = opts.find(key);
        if (at == std::string::npos) return "";
        const size_t begin = at + key.size();
        return opts.substr(begin, opts.find(' ', begin) - begin);
    };
    const prim::impl::algorithm_info *info = prim::impl::find_algorithm(value_of("--alg="));
    if (!info) throw onednn_skip("cannot read the eltwise algorithm from '" + opts + "'");
    const std::string a = value_of("--alpha="), b = value_of("--beta=");
    const float alpha = a.empty() ? info->default_alpha : std::strtof(a.c_str(), nullptr);
    const float beta = b.empty() ? info->default_beta : std::strtof(b.c_str(), nullptr);

    // oneDNN 2.6's eltwise primitive (ref:any) accepts post-ops but computes them wrongly: a sum
    // gives garbage, and so does any chain on a 1D tensor (found by the C-mode check). So only
    // an algorithm that is one oneDNN op, without a chain, is compared.
    if (po.len() > 0)
        throw onednn_skip(
                "oneDNN 2.6's eltwise primitive gets post-ops wrong (a sum; any chain on 1D)");
    std::string why;
    const std::vector<onednn_op> main_ops = map_eltwise(info->alg, alpha, beta, 1.f, why);
    if (main_ops.empty()) throw onednn_skip(why);
    if (main_ops.size() > 1 || main_ops[0].scale != 1.f)
        throw onednn_skip(std::string("oneDNN 2.6 has no single algorithm for ") + info->name
                          + " with these parameters");
    const onednn_op first = main_ops.front();
    const dnnl::primitive_attr attr;

    // Integer data (io_spec.hpp): oneDNN 2.6's eltwise has one type for src and dst and no scales.
    io_spec io;
    const std::string bad_io = parse_io_spec(driver_kind::eltwise, s, io);
    if (!bad_io.empty()) throw onednn_skip(bad_io);
    if (io.any_scale()) throw onednn_skip("oneDNN 2.6's eltwise takes no scales");
    if (io.src[0] != io.dst)
        throw onednn_skip("oneDNN 2.6's eltwise has one data type for src and dst");

    const prim::impl::eltwise_problem prb = parse_eltwise_problem(pc.desc());
    const memory::dims dims(prb.dims.begin(), prb.dims.end());
    const memory::desc md(dims, onednn_type(io.dst), plain_tag(dims.size()));
    using elt = dnnl::eltwise_forward;
    const elt::desc d(prop_of(s), onednn_eltwise_alg(first.alg), md, first.alpha, first.beta);
    const elt::primitive_desc pd(d, attr, st.eng);
    st.prim = elt(pd);
    st.impl = pd.impl_info_str();
    std::vector<float> src_data = plain_buffer(dims);
    fill_eltwise_src(src_data, info->alg);
    io_quant(io).fill_src(src_data, tensor_id::src); // the case's own values (an integer type's range)
    st.args[DNNL_ARG_SRC] = st.bind(std::move(src_data), dims, pd.src_desc());
    st.nan_source = static_cast<int>(st.keep.size()) - 1;
    st.args[DNNL_ARG_DST] = st.bind(pc.dst_old(), dims, pd.dst_desc());
    st.dst_dims = dims;
}

} // namespace bdl

#endif
