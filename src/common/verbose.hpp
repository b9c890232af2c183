// PRIM_VERBOSE: one line per primitive execution (doc/reference.md §5), plus creation and
// dispatch lines at level 2.
#pragma once
#include <string>

#include "prim/memory.hpp"

namespace prim {
namespace impl {

// PRIM_VERBOSE's value, read once per process (0 when unset or not a number).
int verbose_level();
// Prints one whole line to stdout; lines from different threads never interleave.
void verbose_print(const std::string &line);
// Milliseconds on a monotonic clock.
double now_ms();
// The line of one execution that started at start_ms (now_ms()'s clock):
// prim_verbose,exec,KIND,IMPL,DESC,POST_OPS,MS.
void verbose_print_exec(const char *kind, const std::string &impl, const std::string &desc,
                        const std::string &post_ops, double start_ms);

// Dims as verbose lines and messages print them: "2x64x56x56".
std::string dims_str(const memory::dims &dims);
// A desc as verbose lines and messages print it: "aBcd16b:2x64x56x56".
std::string md_str(const memory::desc &md);

} // namespace impl
} // namespace prim
