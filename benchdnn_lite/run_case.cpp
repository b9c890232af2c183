// One case: correctness, then performance.
#include "run_case.hpp"

#include <algorithm>
#include <cstdio>
#include <new>
#include <stdexcept>

#include "compare.hpp"
#include "driver_table.hpp"
#include "fma_peak.hpp"
#include "onednn/compare_onednn.hpp"
#include "operands.hpp"
#include "perf.hpp"
#include "post_op_entries.hpp"
#include "ref/ref_chain.hpp"
#include "unfused.hpp"

namespace bdl {

namespace {

std::string fmt(const char *f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// The reference result of the chain: the kernels' own post-ops code (ref_chain) on the kept
// base result, with the operands in plain buffers.
std::vector<float> reference(problem_case &pc, const prim::post_ops &po,
                             const chain_operands &operands) {
    const std::vector<float> &base = pc.ref_base();
    std::vector<float> ref = base;
    if (po.len() > 0) {
        const std::vector<float> &old = pc.dst_old();
        prim::impl::ref_chain chain(po, pc.dst_dims(), operands.pointers());
        chain.set_dst_type(pc.dst_type());
        const int64_t n = volume(pc.dst_dims());
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; ++i) ref[i] = chain.apply(base[i], old[i], i);
    }
    pc.finish_reference(ref);
    return ref;
}

// "(n, c, h, w)" of a plain index.
std::string coords(int64_t index, const prim::memory::dims &dims) {
    std::string s;
    for (int j = static_cast<int>(dims.size()) - 1; j >= 0; --j) {
        const int64_t d = dims[j] > 0 ? dims[j] : 1;
        s = std::to_string(index % d) + (s.empty() ? "" : ",") + s;
        index /= d;
    }
    return "(" + s + ")";
}

// Compares got with ref; adds the details asked for by -v to `details` (printed after the
// status line). True when nothing is off.
bool check(const char *what, const std::vector<float> &got, const std::vector<float> &ref,
           double tol, problem_case &pc, const prim::post_ops &po, const chain_operands &operands,
           const run_options &opts, std::vector<std::string> &details, compare_result &r) {
    // A chain that amplifies errors gets the second chance of within_chain_error.
    const std::vector<float> &base = pc.ref_base(), &old = pc.dst_old();
    const double base_tol = pc.base_tolerance();
    std::vector<float> values(po.entries().size());
    const second_chance retry = [&](int64_t i, float g) {
        operands.values_at(i, values.data());
        return within_chain_error(po, values.data(), base[i], base_tol, old[i], g, tol);
    };
    // An integer destination (int8 cases): within +-1 of the reference (doc/int8.md), the
    // chain's own error budget being far below one unit of the destination, plus the case's
    // base tolerance in units of dst (0 but for a dw pair whose mid may round the other way).
    const bool integer = pc.dst_type() != prim::memory::data_type::f32;
    r = integer ? compare(got.data(), ref.data(), volume(pc.dst_dims()), 1.0 + base_tol, 10,
                          second_chance(), true)
                : compare(got.data(), ref.data(), volume(pc.dst_dims()), tol, 10,
                          po.len() ? retry : second_chance());
    if (opts.verbose >= 1) {
        details.push_back(std::string("  ") + what + ": tol=" + format_error(tol) + " worst="
                 + format_error(r.worst) + " errors=" + std::to_string(r.errors) + "/"
                 + std::to_string(r.total));
        for (const mismatch &m : r.examples)
            details.push_back("    [" + std::to_string(m.index) + "] " + coords(m.index, pc.dst_dims())
                     + " got=" + fmt("%.9g", m.got) + " ref=" + fmt("%.9g", m.ref)
                     + " err=" + format_error(m.err));
    }
    return r.errors == 0;
}

// "create=Xms setup=Yms": the library's creation (primitive_desc and primitive, as a user pays
// it), and the rest of the driver's pc.create() that took total_ms: the reorders of the plain
// inputs into the chosen layouts, the operands. The data were allocated and filled before.
std::string creation_times(const bound_primitive &b, double total_ms) {
    return "create=" + fmt("%.3f", b.create_ms) + "ms setup="
           + fmt("%.3f", std::max(0.0, total_ms - b.create_ms)) + "ms";
}

// GFLOP/s (or GB/s) of `work` done in ms milliseconds.
double rate(double work, double ms) { return ms > 0 ? work / (ms * 1e6) : 0.0; }

std::string perf_line(const char *driver, const std::string &impl, const std::string &chain,
                      const std::string &desc, double work, const timing &t) {
    return std::string("perf,") + driver + "," + impl + "," + chain + "," + desc + ","
           + fmt("%.4g", rate(work, t.min_ms)) + "," + fmt("%.4g", t.min_ms) + ","
           + fmt("%.4g", t.median_ms);
}

// --skip-impl: a case whose implementation name contains one of the patterns is skipped, as
// benchdnn skips it (prim offers no next implementation to fall back to).
struct skipped_impl : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// --impl: the opposite, a case whose implementation contains none of the patterns is skipped.
// --check-ref-impl: a case that runs on the reference fails (a fallback benchdnn reports).
void check_skip_impl(const std::string &impl, const settings &s) {
    for (const std::string &p : s.skip_impl)
        if (impl.find(p) != std::string::npos)
            throw skipped_impl("skip-impl: implementation '" + impl + "' matches '" + p + "'");
    bool wanted = s.knobs.impl.empty();
    for (const std::string &p : s.knobs.impl) wanted = wanted || impl.find(p) != std::string::npos;
    if (!wanted) {
        std::string list;
        for (const std::string &p : s.knobs.impl) list += (list.empty() ? "'" : ", '") + p + "'";
        throw skipped_impl("impl: implementation '" + impl + "' matches none of " + list);
    }
    if (s.knobs.check_ref_impl && impl.compare(0, 3, "ref") == 0)
        throw std::runtime_error("check-ref-impl: the reference implementation '" + impl + "' ran");
}

// The number of timed runs and their budget: --fix-times-per-prb=N runs exactly N (N > 0).
int max_runs_of(const settings &s) { return s.knobs.fix_times > 0 ? s.knobs.fix_times : 5000; }
int max_ms_of(const settings &s) { return s.knobs.fix_times > 0 ? 1 << 30 : s.max_ms; }

case_status status_enum(const std::string &status) {
    if (status == "INVALID_ARGUMENTS") return case_status::invalid_arguments;
    if (status == "UNIMPLEMENTED") return case_status::unimplemented;
    return case_status::failed;
}

// The status word of a case that threw, and its detail.
std::string status_of(const std::exception &e, const std::string &phase, std::string &detail) {
    if (const auto *pe = dynamic_cast<const prim::error *>(&e)) {
        detail = e.what();
        if (pe->get_status() == prim::status::invalid_arguments) return "INVALID_ARGUMENTS";
        if (pe->get_status() == prim::status::unimplemented) return "UNIMPLEMENTED";
    }
    const bool oom = dynamic_cast<const std::bad_alloc *>(&e) != nullptr;
    detail = (phase.empty() ? "" : phase + ": ") + (oom ? "out of memory" : e.what());
    return "FAILED";
}

// C mode: the fused primitive (and with --fused=off|both the unfused pipeline) against the
// reference. Prints the status line; true when the case passed.
bool check_correctness(problem_case &pc, const prim::post_ops &po, const std::string &repro,
                       int64_t index, const run_options &opts, reporter &rep,
                       std::string &phase) {
    prim::primitive_attr attr;
    attr.set_post_ops(po);
    phase = "create";
    const double t0 = now_ms();
    // The reference, the unfused pipeline and oneDNN take runtime parameters' values as constants.
    const prim::post_ops valued = with_runtime_defaults(po);
    const bound_primitive fused = pc.create(attr);
    check_skip_impl(fused.impl, opts.s);
    if (opts.s.knobs.same_pd_check) { // --attr-same-pd-check: the chain must not change the impl
        const std::string plain = pc.create(prim::primitive_attr()).impl;
        if (plain != fused.impl)
            throw std::runtime_error("attr-same-pd-check: '" + fused.impl + "' with the attribute, '"
                                     + plain + "' without");
    }
    const double t1 = now_ms();
    phase = "execute";
    fused.execute();
    const double t2 = now_ms();
    const std::vector<float> got = to_plain(fused.dst(), pc.dst_dims());
    phase = "reference";
    // The part of the chain applied to the reference's base result element by element (a dw
    // post-op's case computes the entries up to the dw itself).
    const prim::post_ops tail = pc.elementwise_chain(valued);
    const chain_operands operands(tail, pc.dst_dims(), valued.len() - tail.len());
    const std::vector<float> ref = reference(pc, tail, operands);
    const double t3 = now_ms();

    const double tol = pc.base_tolerance() + chain_tolerance(tail);
    compare_result r, ru, ro;
    std::vector<std::string> details;
    bool ok = check("fused", got, ref, tol, pc, tail, operands, opts, details, r);
    const bool no_unfused = !pc.data_types().empty() && !pc.int8_unfused();
    if (no_unfused && opts.s.fused != fused_mode::on && opts.verbose >= 1)
        details.push_back("  unfused: not run (the unfused pipeline is f32 only)");
    if (opts.s.fused != fused_mode::on && !no_unfused) {
        // The unfused pipeline must give the same answer, up to its extra roundings.
        phase = "unfused";
        const unfused_pipeline u(pc, valued);
        u.execute();
        const std::vector<float> got_u = to_plain(u.result(), pc.dst_dims());
        if (!check("unfused", got_u, ref, tol + u.extra_tolerance(), pc, tail, operands, opts,
                   details, ru))
            ok = false;
    }
    if (opts.s.cmp_onednn) {
        // oneDNN must compute the same function, or the side-by-side figures mean nothing.
        phase = "onednn";
        std::vector<float> got_o;
        std::string why;
        if (!onednn_result(pc, valued, opts, got_o, why)) {
            if (opts.verbose >= 1) details.push_back("  onednn: skipped (" + why + ")");
        } else if (!check("onednn", got_o, ref, onednn_tolerance(pc, valued, tol), pc, tail, operands,
                          opts, details, ro)) {
            ok = false;
        }
    }
    if (ok) {
        rep.status_line(index, "PASSED", "", repro);
    } else {
        const compare_result &bad = r.errors ? r : ru.errors ? ru : ro;
        rep.status_line(index, "FAILED",
                std::string(r.errors ? "" : ru.errors ? "unfused: " : "onednn: ") + "errors:"
                        + std::to_string(bad.errors)
                        + " total:" + std::to_string(bad.total) + " worst:"
                        + format_error(bad.worst),
                repro);
    }
    for (const std::string &d : details) rep.line(d);
    if (opts.verbose >= 2)
        rep.line("  impl=" + fused.impl + " " + creation_times(fused, t1 - t0) + " exec="
                 + fmt("%.3f", t2 - t1) + "ms reference=" + fmt("%.3f", t3 - t2) + "ms");
    return ok;
}

// P mode: times what --fused asks for and prints the perf lines (and the roof lines).
void measure_performance(problem_case &pc, const prim::post_ops &po, const run_options &opts,
                         reporter &rep) {
    // int8 cases: the fused primitive alone (the unfused pipeline is f32 only, but for a case
    // with its own int8 steps); the rate is GOPS, in the same column.
    const bool int8 = !pc.data_types().empty();
    run_options fused_only = opts;
    if (int8 && !pc.int8_unfused()) fused_only.s.fused = fused_mode::on;
    if (opts.s.cmp_onednn) return measure_against_onednn(pc, po, fused_only, rep);
    const settings &s = fused_only.s;
    const char *driver = driver_name(opts.driver);
    const std::string chain = chain_string(po);
    const std::string desc = pc.desc();
    const double work = pc.work(po);
    prim::primitive_attr attr;
    attr.set_post_ops(po);
    // -v2: what creating the timed primitive cost, the library's part and the driver's apart.
    const auto created = [&](const bound_primitive &b, double t0) {
        if (opts.verbose >= 2) rep.line("  impl=" + b.impl + " " + creation_times(b, now_ms() - t0));
    };
    if (s.fused == fused_mode::on) {
        const double t0 = now_ms();
        const bound_primitive fused = pc.create(attr);
        created(fused, t0);
        check_skip_impl(fused.impl, s);
        const timing t = time_runs([&] { fused.execute(); }, max_ms_of(s), max_runs_of(s));
        rep.line(perf_line(driver, fused.impl, chain, desc, work, t));
        roof(rep, opts.driver, desc, rate(work, t.min_ms), int8);
    } else if (s.fused == fused_mode::off) {
        const unfused_pipeline u(pc, with_runtime_defaults(po));
        const timing t = time_runs([&] { u.execute(); }, max_ms_of(s), max_runs_of(s));
        rep.line(perf_line(driver, u.impl() + ":unfused", chain, desc, work, t));
        roof(rep, opts.driver, desc, rate(work, t.min_ms), int8);
    } else {
        const double t0 = now_ms();
        const bound_primitive fused = pc.create(attr);
        created(fused, t0);
        check_skip_impl(fused.impl, s);
        const unfused_pipeline u(pc, with_runtime_defaults(po));
        timing tf, tu;
        time_alternating([&] { fused.execute(); }, [&] { u.execute(); }, max_ms_of(s), tf, tu,
                         max_runs_of(s));
        rep.line(perf_line(driver, fused.impl, chain, desc, work, tf));
        rep.line(perf_line(driver, u.impl() + ":unfused", chain, desc, work, tu));
        rep.line(std::string("perf_cmp,") + driver + "," + chain + "," + desc + ","
                 + fmt("%.4g", rate(work, tf.min_ms)) + "," + fmt("%.4g", rate(work, tu.min_ms))
                 + "," + fmt("%.3f", tf.min_ms > 0 ? tu.min_ms / tf.min_ms : 1.0));
        rep.record_comparison("perf_cmp", driver, rate(work, tf.min_ms), rate(work, tu.min_ms));
        roof(rep, opts.driver, desc, rate(work, tf.min_ms), int8); // the fused rate
    }
}

} // namespace

// P mode, convolution and inner product: the roof line of a rate (report.hpp), against the FMA
// peak measured at the first such line, or for an int8 case the exact int8 peak: its lines and
// their geometric mean name the driver "conv:int8" / "ip:int8", its peak "ISA:int8".
void roof(reporter &rep, driver_kind driver, const std::string &desc, double gflops, bool int8) {
    if (driver_of(driver).family != driver_family::weighted) return;
    const fma_peak &peak = int8 ? roof_peak_int8() : roof_peak();
    if (peak.isa == prim::cpu_isa::none) return;
    const std::string suffix = int8 ? ":int8" : "";
    rep.roof_line(driver_name(driver) + suffix, desc, gflops, prim::cpu_isa_name(peak.isa) + suffix,
                  peak.threads, peak.gflops);
}

void report_error_case(const std::exception &e, const std::string &repro, reporter &rep) {
    const int64_t index = rep.begin_case();
    std::string detail;
    const std::string status = status_of(e, "", detail);
    rep.status_line(index, status, detail, repro);
    rep.end_case(status_enum(status));
}

void report_other_case(case_status st, const std::string &reason, const std::string &repro,
                       reporter &rep) {
    const int64_t index = rep.begin_case();
    rep.status_line(index, st == case_status::listed ? "LISTED" : "SKIPPED", reason, repro);
    rep.end_case(st);
}

void run_case(problem_case &pc, const prim::post_ops &po, const std::string &repro,
              const run_options &opts, reporter &rep) {
    const int64_t index = rep.begin_case();
    bool passed = true;
    case_status st = case_status::passed;
    std::string phase;
    try {
        if (opts.s.mode_c) passed = check_correctness(pc, po, repro, index, opts, rep, phase);
        phase = "perf";
        if (opts.s.mode_p && passed) measure_performance(pc, po, opts, rep); // a P run passes
        if (!passed) st = case_status::failed;
    } catch (const skipped_impl &e) {
        rep.status_line(index, "SKIPPED", e.what(), repro);
        st = case_status::skipped;
    } catch (const std::exception &e) {
        std::string detail;
        const std::string status = status_of(e, phase, detail);
        rep.status_line(index, status, detail, repro);
        st = status_enum(status);
    }
    rep.end_case(st);
}

} // namespace bdl
