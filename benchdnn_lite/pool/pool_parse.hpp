// benchdnn's pool descriptor (mb2ic64_ih56oh28kh3sh2ph1): the convolution's fields without g
// and oc, in any order, with its copying and derivation rules (doc/reference.md §3).
#pragma once
#include <string>

#include "common/pool_problem.hpp"
#include "settings.hpp"

namespace bdl {

// The problem of a descriptor with --alg (s.palg) and --mb applied. Throws
// prim::error(invalid_arguments) naming the problem.
prim::impl::pool_problem parse_pool_problem(const std::string &text, const settings &s);

} // namespace bdl
