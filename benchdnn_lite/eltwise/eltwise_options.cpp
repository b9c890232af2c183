// The eltwise driver's --alg, what REPRO writes of it, and the alpha/beta values it skips
// (driver_table.hpp).
#include <cstdio>

#include "attr/algorithm_table.hpp"
#include "attr/float_text.hpp"
#include "attr_syntax.hpp"
#include "drivers.hpp"
#include "parser.hpp"

namespace bdl {

namespace {

using prim::algorithm;

eltwise_alg eltwise_alg_of(const std::string &token, const std::string &name) {
    if (name.empty()) bad_option(token, "an algorithm name is needed");
    if (lower(name) == "bounded_relu") { // oneDNN 2.x: clip(0, alpha), run as such (case_list.cpp)
        eltwise_alg a;
        a.alg = prim::algorithm::eltwise_clip;
        a.bounded_relu = true;
        return a;
    }
    const std::optional<eltwise_alg> a = find_eltwise_alg(name);
    if (!a) bad_option(token, "unknown eltwise algorithm '" + name + "'");
    return *a;
}

std::string number(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

} // namespace

void parse_eltwise_alg(const std::string &token, const std::string &value, option_lists &l) {
    std::vector<eltwise_alg> algs;
    for (const std::string &v : split(value, ',')) algs.push_back(eltwise_alg_of(token, v));
    l.alg = algs;
}

// --alg and the non-default --alpha/--beta (the problem_case writes those when it exists).
std::string eltwise_repro_alg(const settings &s) {
    std::string r = "--alg=" + s.alg.name() + " ";
    const prim::impl::algorithm_info *info = prim::impl::find_algorithm(s.alg.alg);
    using prim::impl::float_text;
    if (s.alpha_given && s.alpha != info->default_alpha) r += "--alpha=" + float_text(s.alpha) + " ";
    if (s.beta_given && s.beta != info->default_beta) r += "--beta=" + float_text(s.beta) + " ";
    return r;
}

// benchdnn skips the alpha/beta values an algorithm does not take, so that lists such as
// --alpha=0,0.25,-0.25 can be given for every algorithm at once.
std::string eltwise_skip_reason(const settings &s) {
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

} // namespace bdl
