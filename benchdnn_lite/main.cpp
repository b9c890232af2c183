// benchdnn_lite: benchdnn's command line for prim (doc/reference.md §4).
//   benchdnn_lite --conv|--ip|--eltwise|--binary|--bnorm|--lnorm|--softmax|--concat|--pool [OPTION|DESC]...
// Options apply to the descriptors that follow them. Every option (batch files included) is
// checked before the first case runs; a bad one stops the run with exit status 2.
#include <cstdio>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "attr/algorithm_table.hpp"
#include "attr/binary_table.hpp"
#include "attr/float_text.hpp"
#include "common/pool_problem.hpp"
#include "case_list.hpp"
#include "drivers.hpp"
#include "onnx/onnx_driver.hpp"
#include "parser.hpp"
#include "plan/plan_case.hpp"
#include "run_case.hpp"

namespace {

using namespace bdl;

const char *usage =
        "usage: benchdnn_lite --conv|--ip|--eltwise|--binary|--bnorm|--lnorm|--softmax|--concat|--pool [OPTION|DESC]...\n"
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

std::string case_desc(driver_kind d, const std::string &token, const settings &s) {
    switch (d) {
    case driver_kind::conv: return conv_case_desc(token, s);
    case driver_kind::ip: return ip_case_desc(token, s);
    case driver_kind::binary: return binary_case_desc(token, s);
    case driver_kind::bnorm: return bnorm_case_desc(token, s);
    case driver_kind::lnorm: return lnorm_case_desc(token, s);
    case driver_kind::softmax: return softmax_case_desc(token, s);
    case driver_kind::concat: return concat_case_desc(token, s);
    case driver_kind::pool: return pool_case_desc(token, s);
    default: return eltwise_case_desc(token, s);
    }
}

std::unique_ptr<problem_case> make_case(driver_kind d, const std::string &token,
                                        const settings &s) {
    switch (d) {
    case driver_kind::conv: return make_conv_case(token, s);
    case driver_kind::ip: return make_ip_case(token, s);
    case driver_kind::binary: return make_binary_case(token, s);
    case driver_kind::bnorm: return make_bnorm_case(token, s);
    case driver_kind::lnorm: return make_lnorm_case(token, s);
    case driver_kind::softmax: return make_softmax_case(token, s);
    case driver_kind::concat: return make_concat_case(token, s);
    case driver_kind::pool: return make_pool_case(token, s);
    default: return make_eltwise_case(token, s);
    }
}

// The REPRO options of a case before the chain: the driver, the settings, for eltwise --alg and
// the non-default --alpha/--beta (the problem_case writes those when it exists).
std::string repro_head(driver_kind d, const settings &s) {
    std::string r = std::string("--") + driver_name(d) + " " + s.repro_options();
    if (d == driver_kind::binary)
        return r + "--alg="
               + (s.balg == prim::algorithm::undef ? "SELECT" : prim::impl::find_binary(s.balg)->name) + " ";
    if (d == driver_kind::pool)
        return r + "--alg=" + prim::impl::pool_alg_name(s.palg) + " ";
    if (d != driver_kind::eltwise) return r;
    r += "--alg=" + s.alg.name() + " ";
    const prim::impl::algorithm_info *info = prim::impl::find_algorithm(s.alg.alg);
    auto number = [](float v) { return prim::impl::float_text(v); };
    if (s.alpha_given && s.alpha != info->default_alpha) r += "--alpha=" + number(s.alpha) + " ";
    if (s.beta_given && s.beta != info->default_beta) r += "--beta=" + number(s.beta) + " ";
    return r;
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
            desc = case_desc(st.driver, token, c.s);
        } catch (const std::exception &e) {
            report_error_case(e, repro_head(st.driver, c.s) + chain + raw, rep);
            continue;
        }
        if (rep.next_index() < st.g.knobs.start) { // --start=N: the cases before N do not run
            report_other_case(case_status::skipped,
                              "before --start=" + std::to_string(st.g.knobs.start),
                              repro_head(st.driver, c.s) + chain + desc, rep);
            continue;
        }
        if (!c.skip.empty() || st.g.mode_list) {
            const std::string repro = repro_head(st.driver, c.s) + chain + desc;
            report_other_case(c.skip.empty() ? case_status::listed : case_status::skipped, c.skip,
                              repro, rep);
            continue;
        }
        // The case's key: its REPRO options without the chain (with it for a dw post-op, whose
        // case computes the entries up to the dw in its reference).
        const bool dw = st.driver == driver_kind::conv && c.chain.po.dw_index() >= 0;
        const std::string key = repro_head(st.driver, c.s) + desc + (dw ? " " + chain : "");
        std::shared_ptr<problem_case> pc;
        for (const auto &m : made)
            if (m.first == key) pc = m.second;
        if (!pc) {
            try {
                pc = dw ? make_conv_dw_case(token, c.s, c.chain.po) : make_case(st.driver, token, c.s);
            } catch (const std::exception &e) {
                report_error_case(e, repro_head(st.driver, c.s) + chain + raw, rep);
                continue;
            }
            made.emplace_back(key, pc);
        }
        const std::string head = std::string("--") + driver_name(st.driver) + " "
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
            throw option_error("descriptor '" + token
                               + "' comes before the driver option (--conv, --ip, --eltwise, --binary, --bnorm, --lnorm, --softmax, --concat or --pool)");
        if (!st.l.matches(token)) continue;
        std::vector<case_spec> cases;
        for (const case_spec &c : expand_cases(st)) // --repeats-per-prb=N: each case N times
            cases.insert(cases.end(), static_cast<size_t>(st.g.knobs.repeats), c);
        count += static_cast<int64_t>(cases.size());
        if (rep) run_descriptor(token, st, cases, *rep);
    }
    if (st.driver == driver_kind::none)
        throw option_error("no driver: the first option must be --conv, --ip, --eltwise, --binary, --bnorm, --lnorm, --softmax, --concat or --pool");
    return count;
}

} // namespace

int main(int argc, char **argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::fputs(usage, args.empty() ? stderr : stdout);
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
