// Problem strings (doc/reference.md §3) parsed with benchdnn's rules into the library's problem
// shapes. The library only prints and checks problems (src/common/problem.hpp); parsing is the
// driver's, and the tests compile this file directly.
#pragma once
#include <string>

#include "common/problem.hpp"

namespace bdl {

// The result is complete (o, p and p_end derived) and valid. Throw
// prim::error(invalid_arguments) with a message naming the problem
// ("oc=16 is not divisible by g=3", "unknown field 'xx' at position 7").
prim::impl::conv_problem parse_conv_problem(const std::string &s);
prim::impl::ip_problem parse_ip_problem(const std::string &s);
// Eltwise dims may be followed by a name (16x16x2x1_n"eltwise_ci_2d:0"); the library's problem
// has no name, so it is returned in *name when asked for.
prim::impl::eltwise_problem parse_eltwise_problem(const std::string &s);
prim::impl::eltwise_problem parse_eltwise_problem_named(const std::string &s, std::string *name);

// Binary: SRC0:SRC1 dims (2x64x56x56:1x64x1x1), the same rank, each src1 dim src0's or 1, then
// an optional name as eltwise's.
prim::impl::binary_problem parse_binary_problem_named(const std::string &s, std::string *name);
// Batch normalization: benchdnn's mb2ic64ih56 (fields mb, ic, id, ih, iw in any order, spatial
// copies as inner product's, eps given as a float: eps1e-05), an optional name (n"NAME").
prim::impl::bnorm_problem parse_bnorm_problem(const std::string &s);
// Layer normalization: dims 8x128x768 (2 to 5), an optional name as eltwise's.
prim::impl::lnorm_problem parse_lnorm_problem_named(const std::string &s, std::string *name);

} // namespace bdl
