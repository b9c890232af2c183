// --cmp=onednn in C and P modes (see compare_onednn.hpp).
#include "onednn/compare_onednn.hpp"

#include <cstdio>
#include <functional>
#include <memory>

#include "compare.hpp"
#include "onednn/onednn_case.hpp"
#include "onednn/onednn_map.hpp"
#include "onednn/rotation.hpp"
#include "operands.hpp"
#include "run_case.hpp"
#include "post_op_entries.hpp"
#include "unfused.hpp"

namespace bdl {

namespace {

std::string fmt(const char *f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

double rate(double work, double ms) { return ms > 0 ? work / (ms * 1e6) : 0.0; }

// Commas would break the CSV lines: a reason or an implementation name never carries one.
std::string no_commas(std::string s) {
    for (char &c : s)
        if (c == ',' || c == '\n') c = ';';
    return s;
}

std::string perf_line(const char *driver, const std::string &impl, const std::string &chain,
                      const std::string &desc, double work, const timing &t) {
    return std::string("perf,") + driver + "," + no_commas(impl) + "," + chain + "," + desc + ","
           + fmt("%.4g", rate(work, t.min_ms)) + "," + fmt("%.4g", t.min_ms) + ","
           + fmt("%.4g", t.median_ms);
}

// "KIND,DRIVER,POST_OPS,DESC,A_RATE,B_RATE,RATIO" with RATIO = B's MIN_MS / A's MIN_MS.
std::string cmp_line(const char *kind, const char *driver, const std::string &chain,
                     const std::string &desc, double work, const timing &a, const timing &b) {
    return std::string(kind) + "," + driver + "," + chain + "," + desc + ","
           + fmt("%.4g", rate(work, a.min_ms)) + "," + fmt("%.4g", rate(work, b.min_ms)) + ","
           + fmt("%.3f", a.min_ms > 0 ? b.min_ms / a.min_ms : 1.0);
}

} // namespace

bool onednn_result(const problem_case &pc, const prim::post_ops &po, const run_options &opts,
                   std::vector<float> &result, std::string &why) {
    try {
        onednn_case theirs(opts.driver, pc, opts.s, po);
        theirs.execute();
        result = theirs.result();
        return true;
    } catch (const onednn_skip &e) {
        why = e.what();
        return false;
    }
}

double onednn_tolerance(const problem_case &pc, const prim::post_ops &po, double tol) {
    constexpr double extra_rounding = 5e-7;
    // oneDNN's own exp/log/tanh/erf polynomials: up to about 6e-6 seen (logsigmoid with scale
    // 1.5); a wrong mapping would be off by far more.
    constexpr double onednn_approximation = 1e-5;
    if (pc.base_tolerance() >= 1e-6) tol += onednn_approximation; // the eltwise driver's own
    for (const prim::post_ops::entry &e : po.entries()) {
        if (e.kind != prim::post_ops::kind::eltwise) continue; // sum, binary, prelu: exact
        std::string why;
        const std::vector<onednn_op> ops = map_eltwise(e.alg, e.alpha, e.beta, e.scale, why);
        const bool inexact = algorithm_tolerance(e.alg) > 0;
        tol += extra_rounding * static_cast<double>(ops.size() > 1 ? ops.size() - 1 : 0);
        // oneDNN rounds f(x) before the scale even where prim rounds once (sqrt:0:0:1.5).
        if (e.scale != 1.f || (inexact && ops.size() == 1 && ops[0].scale != 1.f))
            tol += extra_rounding;
        if (algorithm_tolerance(e.alg) >= 1e-6) tol += onednn_approximation;
    }
    return tol;
}

void measure_against_onednn(problem_case &pc, const prim::post_ops &po, const run_options &opts,
                            reporter &rep) {
    const settings &s = opts.s;
    const char *driver = driver_name(opts.driver);
    const std::string chain = chain_string(po);
    const std::string desc = pc.desc();
    const double work = pc.work(po);

    // Ours: the sides --fused asks for, in the order fused, unfused.
    std::vector<std::function<void()>> sides;
    std::vector<std::string> impls;
    bound_primitive fused;
    std::unique_ptr<unfused_pipeline> unfused;
    if (s.fused != fused_mode::off) {
        prim::primitive_attr attr;
        attr.set_post_ops(po);
        fused = pc.create(attr);
        sides.push_back([&] { fused.execute(); });
        impls.push_back(fused.impl);
    }
    if (s.fused != fused_mode::on) {
        unfused = std::make_unique<unfused_pipeline>(pc, with_runtime_defaults(po));
        sides.push_back([&] { unfused->execute(); });
        impls.push_back(unfused->impl() + ":unfused");
    }
    const size_t n_ours = sides.size();

    std::unique_ptr<onednn_case> theirs;
    try {
        theirs = std::make_unique<onednn_case>(opts.driver, pc, s, with_runtime_defaults(po));
        sides.push_back([&] { theirs->execute(); });
        impls.push_back("onednn:" + theirs->impl());
    } catch (const onednn_skip &e) {
        rep.line(std::string("perf_onednn_skipped,") + driver + "," + chain + "," + desc + ","
                 + no_commas(e.what()));
    }

    const std::vector<timing> t = time_rotating(sides, s.max_ms);
    for (size_t i = 0; i < sides.size(); ++i)
        rep.line(perf_line(driver, impls[i], chain, desc, work, t[i]));
    roof(rep, opts.driver, desc, rate(work, t[0].min_ms), !pc.data_types().empty()); // ours (fused)
    if (n_ours == 2) {
        rep.line(cmp_line("perf_cmp", driver, chain, desc, work, t[0], t[1]));
        rep.record_comparison("perf_cmp", driver, rate(work, t[0].min_ms), rate(work, t[1].min_ms));
    }
    if (theirs) {
        const timing &ours = t[0], &onednn = t[n_ours];
        rep.line(cmp_line("perf_onednn", driver, chain, desc, work, ours, onednn));
        rep.record_comparison("perf_onednn", driver, rate(work, ours.min_ms),
                              rate(work, onednn.min_ms));
    }
    if (opts.verbose >= 1 && theirs) {
        std::string why;
        rep.line("  onednn: post-ops " + to_string(map_chain(po, why)));
    }
}

} // namespace bdl
