// benchdnn's options beyond those settings.hpp names: the common ones of its knobs_common.md
// (kept across --reset, as benchdnn keeps them) and the driver options prim accepts without
// running anything different for them (crossed like every list, each value either run or a
// skipped case with its reason). doc/benchdnn_lite.md, "Other benchdnn options", lists what
// each does here.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bdl {

// The common options prim honours.
struct common_knobs {
    int64_t start = 0;              // --start=N: cases before N are skipped, not run
    int repeats = 1;                // --repeats-per-prb=N: each case runs N times
    int fix_times = 0;              // --fix-times-per-prb=N: P mode times N runs (0: by time)
    std::vector<std::string> impl;  // --impl=A,B: only implementations whose name holds one
    bool check_ref_impl = false;    // --check-ref-impl: a case run on "ref" fails
    bool same_pd_check = false;     // --attr-same-pd-check: the chain must not change the impl
    std::string engine = "cpu";     // --engine=cpu[:0]; gpu cases are skipped
    std::string cold_cache = "none"; // --cold-cache: P-mode cases other than none are skipped
    bool graph_execution = false;   // --execution-mode=graph (SYCL Graph): cases skipped

    // What a REPRO line needs of them to give the same outcome (start and repeats left out).
    std::string repro() const;
};

// The driver options prim accepts as lists of values, each value run or skipped: --sdt, --ddt,
// --ss_dt (data types: f32 runs; --bia-dt is the int8 option of parser.cpp), --stat_tag (lnorm statistics: any or plain runs),
// --attr-acc-mode, --attr-rounding-mode, --attr-deterministic, --attr (the old attribute string:
// empty runs). Keyed by option name.
using extra_lists = std::map<std::string, std::vector<std::string>>;
using extra_values = std::map<std::string, std::string>;

// Applies token when it is one of these options: a common one to knobs, a driver one to
// extras. False when it is neither; throws option_error for a value that does not parse.
bool apply_other_option(const std::string &token, common_knobs &knobs, extra_lists &extras);

// Why a case with these values is skipped ("" when it runs). mode_p: the case is timed.
std::string knobs_skip_reason(const common_knobs &knobs, bool mode_p);
// types_read: the driver read --sdt and --ddt itself (io_spec.hpp), only the others are checked.
std::string extras_skip_reason(const extra_values &extras, bool types_read = false);

// "--KEY=VALUE " for each extra value that is not its option's default.
std::string extras_repro(const extra_values &extras);

} // namespace bdl
