// benchdnn_lite: benchdnn's command line for prim (doc/reference.md §4).
//   benchdnn_lite --DRIVER [OPTION|DESC]...   (the drivers: driver_table.cpp)
// Options apply to the descriptors that follow them. Every option (batch files included) is
// checked before the first case runs; a bad one stops the run with exit status 2.
#include <cstdio>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "case_list.hpp"
#include "driver_table.hpp"
#include "onnx/onnx_driver.hpp"
#include "parser.hpp"
#include "plan/plan_case.hpp"
#include "run_case.hpp"

namespace {

using namespace bdl;

std::string usage() {
    return "usage: benchdnn_lite " + driver_options_text(0, "|", "|") + " [OPTION|DESC]...\n"
        "       benchdnn_lite --onnx [--mode=C|P|CP] [--fused=on|off|both] [--data=DIR] [--mb=N] MODEL...\n"
        "options (most take comma lists; the cases are their cross product):\n"
        "         --mode=C|P|CP|L --attr-post-ops=CHAINS --dir=FWD_B|FWD_D|FWD_I|BWD_*\n"
        "         --dt=DT --cfg=CFG --alg=ALG --alpha=A --beta=B --flags=GCH --axis=N --stag=TAG\n"
        "         --wtag=TAG"
        " --dtag=TAG --tag=TAG --mb=N --inplace=BOOL --match=REGEX --skip-impl=STR\n"
        "         --attr-scales=S --attr-zero-points=Z --attr-fpmath=M --attr-scratchpad=M\n"
        "         --fused=on|off|both --max-ms-per-prb=N --cmp=onednn|none --batch=FILE\n"
        "         --reset -vN|--verbose=N\n"
        "see doc/benchdnn_lite.md\n";
}

// The REPRO options of a case before the chain: the driver, the settings, the driver's
// algorithm (the problem_case writes the rest when it exists).
std::string repro_head(const driver_info &row, const settings &s) {
    const std::string r = std::string("--") + row.name + " " + s.repro_options();
    return row.repro_alg ? r + row.repro_alg(s) : r;
}

std::string chain_repro(const chain_spec &c) {
    const std::string text = c.repro();
    return text.empty() ? "" : "--attr-post-ops=" + text + " ";
}

// The cases of one descriptor: skipped ones reported with their reason, listed ones in
// --mode=L, the others run. Cases that differ only in what the reference does not depend on
// (the chain) share one problem_case, so its reference result is computed once.
void run_descriptor(const std::string &token, const parser_state &st,
                    const std::vector<case_spec> &cases, reporter &rep) {
    const driver_info &row = driver_of(st.driver);
    std::vector<std::pair<std::string, std::shared_ptr<problem_case>>> made;
    for (const case_spec &c : cases) {
        run_options opts;
        opts.s = c.s;
        opts.driver = st.driver;
        opts.verbose = st.verbose;
        const std::string chain = chain_repro(c.chain);
        // The descriptor text for REPRO lines when it does not parse.
        const std::string raw = (c.s.mb > 0 ? "--mb=" + std::to_string(c.s.mb) + " " : "") + token;
        std::string desc;
        try {
            desc = row.case_desc(token, c.s);
        } catch (const std::exception &e) {
            report_error_case(e, repro_head(row, c.s) + chain + raw, rep);
            continue;
        }
        if (rep.next_index() < st.globals.knobs.start) { // --start=N: the cases before N do not run
            report_other_case(case_status::skipped,
                              "before --start=" + std::to_string(st.globals.knobs.start),
                              repro_head(row, c.s) + chain + desc, rep);
            continue;
        }
        if (!c.skip.empty() || st.globals.mode_list) {
            const std::string repro = repro_head(row, c.s) + chain + desc;
            report_other_case(c.skip.empty() ? case_status::listed : case_status::skipped, c.skip,
                              repro, rep);
            continue;
        }
        // The case's key: its REPRO options without the chain (with it for a dw post-op, whose
        // case computes the entries up to the dw in its reference).
        const bool dw = row.make_dw_case && c.chain.po.dw_index() >= 0;
        const std::string key = repro_head(row, c.s) + desc + (dw ? " " + chain : "");
        std::shared_ptr<problem_case> pc;
        for (const auto &m : made)
            if (m.first == key) pc = m.second;
        if (!pc) {
            try {
                pc = dw ? row.make_dw_case(token, c.s, c.chain.po) : row.make_case(token, c.s);
            } catch (const std::exception &e) {
                report_error_case(e, repro_head(row, c.s) + chain + raw, rep);
                continue;
            }
            made.emplace_back(key, pc);
        }
        const std::string head = std::string("--") + row.name + " "
                                 + c.s.repro_options() + pc->repro_options();
        prim::post_ops po;
        try {
            po = c.chain.for_dst(pc->dst_dims()); // a binary operand's TAG may not fit the rank
        } catch (const std::exception &e) {
            report_error_case(e, head + chain + pc->desc(), rep);
            continue;
        }
        if (!c.s.plan.empty()) {
            run_plan_case(pc->desc(), c.s, po, head + chain + pc->desc(), rep); // a fusion plan
            continue;
        }
        run_case(*pc, po, head + chain + pc->desc(), opts, rep);
    }
}

// Goes through the tokens once. Without a reporter it only checks the options and counts the
// cases; with one it runs them.
int64_t walk(const std::vector<std::string> &tokens, reporter *rep) {
    parser_state st;
    int64_t count = 0;
    for (const std::string &token : tokens) {
        if (apply_option(token, st)) continue;
        if (st.driver == driver_kind::none)
            throw option_error("descriptor '" + token + "' comes before the driver option ("
                               + driver_options_text(0, ", ", " or ") + ")");
        if (!st.lists.matches(token)) continue;
        std::vector<case_spec> cases;
        for (const case_spec &c : expand_cases(st)) // --repeats-per-prb=N: each case N times
            cases.insert(cases.end(), static_cast<size_t>(st.globals.knobs.repeats), c);
        count += static_cast<int64_t>(cases.size());
        if (rep) run_descriptor(token, st, cases, *rep);
    }
    if (st.driver == driver_kind::none)
        throw option_error("no driver: the first option must be " + driver_options_text(0, ", ", " or "));
    return count;
}

} // namespace

int main(int argc, char **argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::fputs(usage().c_str(), args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--onnx") {
#if PRIM_WITH_ONNX
        return run_onnx_driver(args);
#else
        std::fputs("benchdnn_lite: --onnx needs the ONNX front end, which this build lacks: install "
                   "libonnx-dev and libprotobuf-dev (README) and build again\n", stderr);
        return 2;
#endif
    }
    std::vector<std::string> tokens;
    int64_t total = 0;
    try {
        tokens = expand_batches(args);
        total = walk(tokens, nullptr); // every option checked before any case runs
    } catch (const option_error &e) {
        std::fprintf(stderr, "benchdnn_lite: %s\n", e.what());
        return 2;
    }
    reporter rep(total);
    walk(tokens, &rep);
    rep.summary();
    return rep.failed() == 0 ? 0 : 1;
}
