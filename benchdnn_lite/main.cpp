// benchdnn_lite: benchdnn's command line for prim (doc/reference.md §4).
//   benchdnn_lite --conv|--ip|--eltwise [OPTION|DESC]...
// Options apply to the descriptors that follow them. Every option (batch files included) is
// checked before the first case runs; a bad one stops the run with exit status 2.
#include <cstdio>
#include <string>
#include <vector>

#include "drivers.hpp"
#include "parser.hpp"
#include "run_case.hpp"

namespace {

using namespace bdl;

const char *usage =
        "usage: benchdnn_lite --conv|--ip|--eltwise [OPTION|DESC]...\n"
        "options: --mode=C|P|CP --attr-post-ops=CHAINS --dir=FWD_B|FWD_D|FWD_I\n"
        "         --alg=ALG[,ALG...] --alpha=A --beta=B --stag=TAG --wtag=TAG --dtag=TAG\n"
        "         --mb=N --match=REGEX --fused=on|off|both --max-ms-per-prb=N --batch=FILE\n"
        "         --cmp=onednn|none\n"
        "         --reset -vN|--verbose=N\n"
        "see doc/benchdnn_lite.md\n";

// Goes through the tokens once. Without a reporter it only checks the options and counts the
// cases; with one it runs them.
int64_t walk(const std::vector<std::string> &tokens, reporter *rep) {
    run_options opts;
    int64_t cases = 0;
    for (const std::string &token : tokens) {
        if (apply_option(token, opts)) continue;
        if (opts.driver == driver_kind::none)
            throw option_error("descriptor '" + token
                               + "' comes before the driver option (--conv, --ip or --eltwise)");
        const settings &s = opts.s;
        if (!s.matches(token)) continue;
        const bool eltwise = opts.driver == driver_kind::eltwise;
        const size_t per_alg = s.chains.size();
        const int64_t n = static_cast<int64_t>(per_alg * (eltwise ? s.algs.size() : 1));
        cases += n;
        if (!rep) continue;

        const std::string head = std::string("--") + driver_name(opts.driver) + " "
                                 + s.repro_options();
        // The descriptor text for REPRO lines when it does not even parse.
        const std::string raw = (s.mb > 0 ? "--mb=" + std::to_string(s.mb) + " " : "") + token;
        const size_t n_algs = eltwise ? s.algs.size() : 1;
        for (size_t a = 0; a < n_algs; ++a) {
            std::unique_ptr<problem_case> pc;
            try {
                pc = eltwise ? make_eltwise_case(token, s.algs[a], s)
                     : opts.driver == driver_kind::conv ? make_conv_case(token, s)
                                                        : make_ip_case(token, s);
            } catch (const std::exception &e) {
                for (const prim::post_ops &po : s.chains) {
                    std::string repro = head;
                    if (eltwise)
                        repro += std::string("--alg=") + prim::algorithm_name(s.algs[a]) + " ";
                    if (po.len()) repro += "--attr-post-ops=" + prim::to_string(po) + " ";
                    report_error_case(e, repro + raw, *rep);
                }
                continue;
            }
            for (const prim::post_ops &po : s.chains) {
                std::string repro = head + pc->repro_options();
                if (po.len()) repro += "--attr-post-ops=" + prim::to_string(po) + " ";
                run_case(*pc, po, repro + pc->desc(), opts, *rep);
            }
        }
    }
    if (opts.driver == driver_kind::none)
        throw option_error("no driver: the first option must be --conv, --ip or --eltwise");
    return cases;
}

} // namespace

int main(int argc, char **argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::fputs(usage, args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
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
