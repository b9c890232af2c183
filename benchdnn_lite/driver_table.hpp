// benchdnn_lite's drivers, one row each (driver_table.cpp): what the command line, the case
// list, the runner and --cmp=onednn need to know about a driver. Adding a driver is a
// driver_kind, a row, and its own folder (its case in DRIVER/DRIVER_case.cpp, its oneDNN
// mapping in DRIVER/DRIVER_onednn.cpp); doc/benchdnn_lite.md, "Adding a driver".
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "problem_case.hpp"
#include "settings.hpp"

namespace bdl {

struct onednn_state; // onednn/onednn_state.hpp, only where oneDNN is found

// What decides a driver's data types, scales and skips (case_list.cpp).
enum class driver_family {
    weighted,      // conv, ip: quant_spec.hpp (int8 with scales and zero points)
    io,            // one source and one destination each of a type: io_spec.hpp
    normalization, // bnorm, lnorm: f32 only, --flags
};

// The options only some drivers take (driver_info::takes); the others refuse them.
enum driver_option : unsigned {
    takes_flags = 1u << 0, // --flags
    takes_axis = 1u << 1,  // --axis
    takes_tag = 1u << 2,   // --tag (the data layout)
    takes_plan = 1u << 3,  // --plan
};

// A row; the defaults are what most drivers have.
struct driver_info {
    driver_kind kind = driver_kind::none;
    const char *name = ""; // "conv": the option --conv, and the name REPRO and the perf lines write
    driver_family family = driver_family::io;
    // The loops of the case list (case_list.cpp), outermost first, by their option's name.
    const char *loops = "";
    unsigned takes = 0; // driver_option bits

    // --alg=VALUE into the lists (throws option_error); nullptr: the driver has no --alg.
    void (*parse_alg)(const std::string &token, const std::string &value, option_lists &l) = nullptr;
    // What REPRO writes for the algorithm after the settings ("--alg=mul "); nullptr when the
    // settings write it themselves (conv, softmax) or there is none.
    std::string (*repro_alg)(const settings &s) = nullptr;
    // --stag holds one tag per source joined by ':' (binary, concat; the normalizations' SRC[:DST]).
    bool stag_per_source = false;
    // --strides: the count of ':'-separated parts it takes (2: SRC:DST, 3: SRC:WEI:DST), and
    // whether the driver runs them (the others skip such cases).
    int strides_parts = 3;
    bool runs_strides = false;
    bool runs_inplace = false;  // --inplace=true
    bool runs_post_ops = true;  // an --attr-post-ops chain

    // The canonical descriptor of a case (--mb applied) without creating it, for --mode=L, and
    // the case itself (drivers.hpp); both throw prim::error for a descriptor that does not parse.
    std::string (*case_desc)(const std::string &desc, const settings &s) = nullptr;
    std::unique_ptr<problem_case> (*make_case)(const std::string &desc, const settings &s) = nullptr;
    // A case whose chain has a dw post-op (its reference runs the entries up to the dw);
    // nullptr: the driver takes no dw post-op.
    std::unique_ptr<problem_case> (*make_dw_case)(const std::string &desc, const settings &s,
                                                  const prim::post_ops &po) = nullptr;
    // The driver's own reason to skip a case, checked after the common ones ("" when it runs).
    std::string (*skip_reason)(const settings &s) = nullptr;

    // --cmp=onednn: builds the oneDNN primitive of the case into st (throws onednn_skip, or
    // dnnl::error when oneDNN refuses); nullptr where benchdnn_lite is built without oneDNN.
    void (*onednn)(onednn_state &st, const problem_case &pc, const settings &s,
                   const prim::post_ops &po) = nullptr;
};

// Every driver, in the order the usage and the messages list them.
const std::vector<driver_info> &all_drivers();
// The row of a driver (d is not driver_kind::none).
const driver_info &driver_of(driver_kind d);
// The row whose option is `option` ("--conv"), nullptr when none is.
const driver_info *find_driver_option(const std::string &option);
// "--conv, --ip, ..., --concat or --pool": the options of the drivers that have every bit of
// `takes` (0: all), joined by `separator`, by `last` before the final one.
std::string driver_options_text(unsigned takes, const char *separator, const char *last);

// bnorm and lnorm.
inline bool is_norm(driver_kind d) {
    return d != driver_kind::none && driver_of(d).family == driver_family::normalization;
}

} // namespace bdl
