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

// The whole run's state that options change: the driver options (their lists), the global ones
// and the driver and verbosity, which --reset leaves alone.
struct parser_state {
    option_lists lists;
    global_options globals;
    driver_kind driver = driver_kind::none;
    int verbose = 0;
};

// Throws option_error "bad option 'TOKEN': WHY" (a long token shown by its start).
[[noreturn]] void bad_option(const std::string &token, const std::string &why);
// The items of an option's comma list; in a list of several items none may be empty unless
// allow_empty (a single empty value is left to the item's own parser, which says what is
// missing).
std::vector<std::string> option_items(const std::string &token, const std::string &value,
                                      bool allow_empty = false);

// What one case runs with: its settings, the driver, the verbosity.
struct run_options {
    settings s;
    driver_kind driver = driver_kind::none;
    int verbose = 0;
};

// The longest --match pattern and the deepest nesting of parentheses accepted: std::regex
// compiles and matches recursively, so an unbounded pattern could overflow the stack.
constexpr size_t max_match_length = 1000;
constexpr int max_match_depth = 32;

// True when token is an option (starts with '-'); applies it to st. Throws option_error for an
// unknown option or a value that does not parse. --batch is not handled here (see expand_batches).
bool apply_option(const std::string &token, parser_state &st);

// The tokens of args with every --batch=FILE replaced by the tokens of FILE: whitespace
// separated, '#' to the end of the line is a comment, a nested --batch is relative to the folder
// of the file that names it. A '\' ending a line continues it on the next one: inside a list (the
// text before ends with ',', '+', ':' or '=', or the next line starts with ',' or '+') the two
// are glued without the whitespace around the break, otherwise they are joined with a space.
// base_dir is the folder for the top-level --batch ("" = current).
std::vector<std::string> expand_batches(const std::vector<std::string> &args,
                                        const std::string &base_dir = "", int depth = 0);

} // namespace bdl
