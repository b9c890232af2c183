// The cross product of the option lists, and the cases prim skips.
#include "case_list.hpp"
#include "io_spec.hpp"
#include "quant_spec.hpp"

#include <cstdio>
#include <functional>

#include "attr/algorithm_table.hpp"
#include "attr_syntax.hpp"

namespace bdl {

namespace {

using prim::algorithm;

// One loop of the cross product: how many values, and how to set the i-th on a case.
struct loop {
    size_t n;
    std::function<void(case_spec &, size_t)> set;
};

template <typename T, typename F>
loop over(const std::vector<T> &v, F set_one) {
    return {v.size(), [&v, set_one](case_spec &c, size_t i) { set_one(c, v[i]); }};
}

std::string number(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// benchdnn skips the alpha/beta values an algorithm does not take, so that lists such as
// --alpha=0,0.25,-0.25 can be given for every algorithm at once.
std::string eltwise_params_reason(const settings &s) {
    const algorithm a = s.alg.alg;
    const std::string name = s.alg.name();
    const prim::impl::algorithm_info *info = prim::impl::find_algorithm(a);
    if (s.alpha_given && s.alpha != 0.f && !info->uses_alpha)
        return name + " does not use alpha (alpha=" + number(s.alpha) + ")";
    if (s.beta_given && s.beta != 0.f && !info->uses_beta)
        return name + " does not use beta (beta=" + number(s.beta) + ")";
    const float alpha = s.alpha_given ? s.alpha : info->default_alpha;
    const float beta = s.beta_given ? s.beta : info->default_beta;
    if (s.alg.dst && (a == algorithm::eltwise_relu || a == algorithm::eltwise_elu) && alpha < 0)
        return name + " needs alpha >= 0";
    if ((a == algorithm::eltwise_clip || a == algorithm::eltwise_clip_v2) && alpha > beta)
        return name + " needs alpha <= beta";
    return prim::impl::check_eltwise_params(a, alpha, beta, 1.f);
}

// What prim does not run of a chain with a dw post-op (doc/dw_post_op.md); "" when it runs.
std::string dw_skip_reason(const case_spec &c, driver_kind driver, bool int8) {
    const prim::post_ops &po = c.chain.po;
    const int dw = po.dw_index();
    if (dw < 0) return "";
    if (driver != driver_kind::conv) return "the dw post-op follows a convolution only";
    if (int8) return "int8 through the dw post-op is not built yet";
    return "";
}

} // namespace

std::vector<case_spec> expand_cases(const parser_state &st) {
    const option_lists &l = st.l;
    const bool conv = st.driver == driver_kind::conv, eltwise = st.driver == driver_kind::eltwise;
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

    std::vector<loop> loops;
    if (eltwise)
        loops = {dir, dt, stag, dtag, strides, alg, alpha, beta, mb, oscale, scales, zp, chains, fpmath, inplace};
    else if (st.driver == driver_kind::binary)
        loops = {dir, dt, stag, dtag, strides, balg, mb, oscale, scales, zp, chains, fpmath, inplace};
    else if (st.driver == driver_kind::softmax)
        loops = {dir, dt, stag, dtag, strides, salg, axis, mb, oscale, scales, zp, chains, fpmath, inplace};
    else if (st.driver == driver_kind::concat)
        loops = {dir, dt, stag, dtag, strides, axis, mb, oscale, scales, zp, chains, fpmath, inplace};
    else if (st.driver == driver_kind::pool)
        loops = {dir, dt, stag, dtag, strides, palg, mb, oscale, scales, zp, chains, fpmath, inplace};
    else if (is_norm(st.driver))
        loops = {dir, dt, stag, dtag, strides, flags, mb, oscale, scales, zp, chains, fpmath, inplace};
    else if (conv)
        loops = {dir, dt, bia_dt, stag, wtag, dtag, strides, calg, oscale, scales, zp, chains, fpmath, mb, inplace, plan};
    else
        loops = {dir, dt, bia_dt, stag, wtag, dtag, strides, oscale, scales, zp, chains, fpmath, mb, inplace};
    // benchdnn's other driver options, innermost, in the order of their names.
    for (const auto &kv : l.extra) {
        const std::string key = kv.first;
        loops.push_back(over(kv.second, [key](case_spec &c, const std::string &v) { c.s.extra[key] = v; }));
    }

    case_spec base;
    base.s.mode_c = st.g.mode_c;
    base.s.mode_p = st.g.mode_p;
    base.s.fused = st.g.fused;
    base.s.max_ms = st.g.max_ms;
    base.s.cmp_onednn = st.g.cmp_onednn;
    base.s.skip_impl = st.g.skip_impl;
    base.s.knobs = st.g.knobs;

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
    if (is_backward(s.dir)) return "backward directions are not implemented";
    const bool weighted = driver == driver_kind::conv || driver == driver_kind::ip;
    quant_spec q;
    io_spec io;
    const bool io_driver = !weighted && !is_norm(driver);
    std::string why = weighted ? parse_quant_spec(s, q)
            : io_driver ? parse_io_spec(driver, s, io) : dt_skip_reason(s.dt);
    if (!why.empty()) return why;
    const bool int8 = q.types.int8() || io.int8();
    const dt dst_type = weighted ? q.types.dst : io.dst;
    if (!int8) {
        if (weighted && (!s.scales.empty() || !s.oscale.empty() || !s.zero_points.empty()))
            return "scales and zero points are supported in int8 inference only";
        if (is_norm(driver) && (!s.scales.empty() || !s.oscale.empty() || !s.zero_points.empty()))
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
    if (driver == driver_kind::conv && s.calg == conv_alg::wino)
        return "Winograd convolution is not implemented";
    if (s.inplace && driver != driver_kind::eltwise) return "in-place runs apply to eltwise only";
    if (s.inplace && s.dtag != "any" && s.dtag != s.stag)
        return "in-place needs the same source and destination layouts";
    if (!s.fpmath.empty())
        return "fpmath mode " + s.fpmath + " is not supported (prim computes strict f32)";
    if (!c.chain.skip.empty()) return c.chain.skip;
    why = dw_skip_reason(c, driver, int8);
    if (!why.empty()) return why;
    why = knobs_skip_reason(s.knobs, s.mode_p);
    if (why.empty()) why = extras_skip_reason(s.extra, io_driver);
    if (!why.empty()) return why;
    if (driver == driver_kind::binary && s.balg == algorithm::undef)
        return "binary SELECT (three sources) is not supported";
    if (driver == driver_kind::eltwise) return eltwise_params_reason(s);
    if (driver == driver_kind::concat && c.chain.po.len() > 0)
        return "post-ops are not supported on concat";
    if ((driver == driver_kind::binary || is_norm(driver) || driver == driver_kind::softmax
         || driver == driver_kind::concat || driver == driver_kind::pool)
        && s.strides.find_first_not_of(':') != std::string::npos)
        return std::string("--strides is not implemented for --") + driver_name(driver);
    if (is_norm(driver)) {
        char other = 0;
        norm_flags_of(s.flags, &other);
        if (other == 'S') return "flag S (use_scaleshift) is not supported: write C and H";
        if (other == 'R') return "flag R (fuse_norm_relu) is not supported: use a relu post-op";
        if (other) return std::string("flag ") + other + " is not supported (prim runs G, C, H)";
    }
    return "";
}

} // namespace bdl
