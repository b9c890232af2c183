// PRIM_VERBOSE: one line per primitive execution (doc/reference.md §5), plus creation and
// dispatch lines at level 2.
#pragma once
#include <string>

namespace prim {
namespace impl {

// PRIM_VERBOSE's value, read once per process (0 when unset or not a number).
int verbose_level();
// Prints one whole line to stdout; lines from different threads never interleave.
void verbose_print(const std::string &line);
// Milliseconds on a monotonic clock.
double now_ms();

} // namespace impl
} // namespace prim
