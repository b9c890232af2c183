// The command line: options (doc/reference.md §4) and batch files.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "settings.hpp"

namespace bdl {

// An option that cannot be parsed or is unknown: the run stops before any case, exit status 2.
struct option_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The whole run's state that options change: the per-descriptor settings, the driver and the
// verbosity (which --reset leaves alone).
struct run_options {
    settings s;
    driver_kind driver = driver_kind::none;
    int verbose = 0;
};

// True when token is an option (starts with '-'); applies it to opts. Throws option_error for an
// unknown option or a value that does not parse. --batch is not handled here (see expand_batches).
bool apply_option(const std::string &token, run_options &opts);

// The tokens of args with every --batch=FILE replaced by the tokens of FILE: whitespace
// separated, '#' to the end of the line is a comment, a nested --batch is relative to the folder
// of the file that names it. base_dir is the folder for the top-level --batch ("" = current).
std::vector<std::string> expand_batches(const std::vector<std::string> &args,
                                        const std::string &base_dir = "", int depth = 0);

} // namespace bdl
