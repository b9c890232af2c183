// The cross product of the option lists, and the cases prim skips.
#include "case_list.hpp"
#include "io_spec.hpp"
#include "quant_spec.hpp"

#include <functional>
#include <map>
#include <stdexcept>

#include "attr_syntax.hpp"
#include "driver_table.hpp"
#include "post_op_entries.hpp"

namespace bdl {

namespace {

// One loop of the cross product: how many values, and how to set the i-th on a case.
struct loop {
    size_t n;
    std::function<void(case_spec &, size_t)> set;
};

template <typename T, typename F>
loop over(const std::vector<T> &v, F set_one) {
    return {v.size(), [&v, set_one](case_spec &c, size_t i) { set_one(c, v[i]); }};
}

// What prim does not run of a chain with a dw post-op (doc/dw_post_op.md); "" when it runs.
std::string dw_skip_reason(const case_spec &c, const driver_info &row) {
    if (c.chain.po.dw_index() < 0) return "";
    if (!row.make_dw_case) return "the dw post-op follows a convolution only";
    return "";
}

} // namespace

std::vector<case_spec> expand_cases(const parser_state &st) {
    const option_lists &l = st.lists;
    static const std::vector<float> no_value {0.f};
    const std::vector<float> &alphas = l.alpha.empty() ? no_value : l.alpha;
    const std::vector<float> &betas = l.beta.empty() ? no_value : l.beta;
    const bool alpha_given = !l.alpha.empty(), beta_given = !l.beta.empty();

    const loop dir = over(l.dir, [](case_spec &c, direction d) { c.s.dir = d; });
    const loop dt = over(l.dt, [](case_spec &c, const std::string &v) { c.s.dt = v; });
    const loop stag = over(l.stag, [](case_spec &c, const std::string &v) { c.s.stag = v; });
    const loop wtag = over(l.wtag, [](case_spec &c, const std::string &v) { c.s.wtag = v; });
    const loop dtag = over(l.dtag, [](case_spec &c, const std::string &v) { c.s.dtag = v; });
    const loop strides = over(l.strides, [](case_spec &c, const std::string &v) { c.s.strides = v; });
    const loop calg = over(l.calg, [](case_spec &c, conv_alg a) { c.s.calg = a; });
    const loop alg = over(l.alg, [](case_spec &c, const eltwise_alg &a) { c.s.alg = a; });
    const loop balg = over(l.balg, [](case_spec &c, prim::algorithm a) { c.s.balg = a; });
    const loop palg = over(l.palg, [](case_spec &c, prim::algorithm a) { c.s.palg = a; });
    const loop flags = over(l.flags, [](case_spec &c, const std::string &v) { c.s.flags = v; });
    const loop salg = over(l.salg, [](case_spec &c, prim::algorithm a) { c.s.salg = a; });
    const loop axis = over(l.axis, [](case_spec &c, int v) { c.s.axis = v; });
    const loop alpha = over(alphas, [alpha_given](case_spec &c, float v) {
        c.s.alpha = v;
        c.s.alpha_given = alpha_given;
    });
    const loop beta = over(betas, [beta_given](case_spec &c, float v) {
        c.s.beta = v;
        c.s.beta_given = beta_given;
    });
    const loop scales = over(l.scales, [](case_spec &c, const std::string &v) { c.s.scales = v; });
    const loop zp = over(l.zero_points, [](case_spec &c, const std::string &v) { c.s.zero_points = v; });
    const loop oscale = over(l.oscale, [](case_spec &c, const std::string &v) { c.s.oscale = v; });
    const loop bia_dt = over(l.bia_dt, [](case_spec &c, const std::string &v) { c.s.bia_dt = v; });
    const loop chains = over(l.chains, [](case_spec &c, const chain_spec &v) { c.chain = v; });
    const loop fpmath = over(l.fpmath, [](case_spec &c, const std::string &v) { c.s.fpmath = v; });
    const loop mb = over(l.mb, [](case_spec &c, int64_t v) { c.s.mb = v; });
    const loop inplace = {l.inplace.size(), [&l](case_spec &c, size_t i) { c.s.inplace = l.inplace[i]; }};
    const loop plan = over(l.plan, [](case_spec &c, const std::string &v) { c.s.plan = v; });

    // The driver's loops, by name (driver_info::loops).
    const std::map<std::string, const loop *> by_name = {
            {"dir", &dir}, {"dt", &dt}, {"stag", &stag}, {"wtag", &wtag}, {"dtag", &dtag},
            {"strides", &strides}, {"conv_alg", &calg}, {"eltwise_alg", &alg},
            {"binary_alg", &balg}, {"pool_alg", &palg}, {"flags", &flags},
            {"softmax_alg", &salg}, {"axis", &axis}, {"alpha", &alpha}, {"beta", &beta},
            {"scales", &scales}, {"zp", &zp}, {"oscale", &oscale}, {"bia_dt", &bia_dt},
            {"chains", &chains}, {"fpmath", &fpmath}, {"mb", &mb}, {"inplace", &inplace},
            {"plan", &plan}};
    std::vector<loop> loops;
    const driver_info &row = driver_of(st.driver);
    for (const std::string &name : split(row.loops, ' ')) {
        const auto found = by_name.find(name);
        if (found == by_name.end())
            throw std::logic_error(std::string("driver_table.cpp: --") + row.name + " names loop '"
                                   + name + "', which case_list.cpp does not have");
        loops.push_back(*found->second);
    }
    // benchdnn's other driver options, innermost, in the order of their names.
    for (const auto &kv : l.extra) {
        const std::string key = kv.first;
        loops.push_back(over(kv.second, [key](case_spec &c, const std::string &v) { c.s.extra[key] = v; }));
    }

    case_spec base;
    base.s.mode_c = st.globals.mode_c;
    base.s.mode_p = st.globals.mode_p;
    base.s.fused = st.globals.fused;
    base.s.max_ms = st.globals.max_ms;
    base.s.cmp_onednn = st.globals.cmp_onednn;
    base.s.skip_impl = st.globals.skip_impl;
    base.s.knobs = st.globals.knobs;

    std::vector<case_spec> out;
    for (const loop &lp : loops)
        if (lp.n == 0) return out;
    std::vector<size_t> idx(loops.size(), 0);
    while (true) {
        case_spec c = base;
        for (size_t j = 0; j < loops.size(); ++j) loops[j].set(c, idx[j]);
        if (c.s.alg.bounded_relu) { // clip(0, alpha); no alpha: benchdnn's default 0
            c.s.beta = c.s.alpha_given ? c.s.alpha : 0.f;
            c.s.alpha = 0.f;
            c.s.alpha_given = c.s.beta_given = true;
            c.s.alg.bounded_relu = false; // from here on it is that clip, REPRO included
        }
        c.skip = skip_reason(c, st.driver);
        out.push_back(c);
        size_t j = loops.size();
        while (j > 0 && ++idx[j - 1] == loops[j - 1].n) idx[--j] = 0;
        if (j == 0) return out;
    }
}

std::string skip_reason(const case_spec &c, driver_kind driver) {
    const settings &s = c.s;
    const driver_info &row = driver_of(driver);
    if (is_backward(s.dir)) return "backward directions are not implemented";
    const bool weighted = row.family == driver_family::weighted;
    const bool norm = row.family == driver_family::normalization;
    quant_spec q;
    io_spec io;
    const bool io_driver = row.family == driver_family::io;
    std::string why = weighted ? parse_quant_spec(s, q)
            : io_driver ? parse_io_spec(driver, s, io) : dt_skip_reason(s.dt);
    if (!why.empty()) return why;
    const bool int8 = q.types.int8() || io.int8();
    const dt dst_type = weighted ? q.types.dst : io.dst;
    if (!int8) {
        if (weighted && (!s.scales.empty() || !s.oscale.empty() || !s.zero_points.empty()))
            return "scales and zero points are supported in int8 inference only";
        if (norm && (!s.scales.empty() || !s.oscale.empty() || !s.zero_points.empty()))
            return "scales and zero points are not supported";
        // The other drivers' reference runs integer operands on f32 data too.
        if (!c.chain.needs_int8.empty() && !io_driver)
            return c.chain.needs_int8 + " needs an int8 convolution or inner product";
    }
    for (const prim::post_ops::entry &e : c.chain.po.entries()) {
        if (e.kind != prim::post_ops::kind::sum) continue;
        if (e.zero_point != 0 && dst_type == dt::f32)
            return "oneDNN refuses: a sum zero point needs an integer dst";
        if (e.dt != dt::undef && e.dt != dst_type && prim::data_type_size(e.dt) != prim::data_type_size(dst_type))
            return std::string("oneDNN refuses: a sum data type (") + prim::data_type_name(e.dt)
                   + ") must have the size of dst's (" + prim::data_type_name(dst_type) + ")";
    }
    if (s.calg == conv_alg::wino) // only the convolution's --alg gives it
        return "Winograd convolution is not implemented";
    if (s.inplace && !row.runs_inplace) return "in-place runs apply to eltwise only";
    if (s.inplace && s.dtag != "any" && s.dtag != s.stag)
        return "in-place needs the same source and destination layouts";
    if (!s.fpmath.empty())
        return "fpmath mode " + s.fpmath + " is not supported (prim computes strict f32)";
    if (!c.chain.skip.empty()) return c.chain.skip;
    why = dw_skip_reason(c, row);
    if (!why.empty()) return why;
    why = knobs_skip_reason(s.knobs, s.mode_p);
    if (why.empty()) why = extras_skip_reason(s.extra, io_driver);
    if (!why.empty()) return why;
    why = row.skip_reason ? row.skip_reason(s) : "";
    if (!why.empty()) return why;
    if (!row.runs_post_ops && c.chain.po.len() > 0)
        return std::string("post-ops are not supported on ") + row.name;
    if (!row.runs_strides && s.strides.find_first_not_of(':') != std::string::npos)
        return std::string("--strides is not implemented for --") + row.name;
    if (norm) {
        char other = 0;
        norm_flags_of(s.flags, &other);
        if (other == 'S') return "flag S (use_scaleshift) is not supported: write C and H";
        if (other == 'R') return "flag R (fuse_norm_relu) is not supported: use a relu post-op";
        if (other) return std::string("flag ") + other + " is not supported (prim runs G, C, H)";
    }
    return "";
}

} // namespace bdl
