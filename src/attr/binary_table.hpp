// Facts about each binary algorithm (binary post-ops and the binary primitive): its name in
// fusion strings and benchdnn's --alg, and its one scalar definition, the oracle's.
#pragma once
#include <string>

#include "prim/attr.hpp"

namespace prim {
namespace impl {

struct binary_info {
    algorithm alg;
    const char *name; // "add", "ge", ... as benchdnn spells them
};

// nullptr when alg is not a binary algorithm / name is not a binary algorithm's name.
const binary_info *find_binary(algorithm alg);
const binary_info *find_binary(const std::string &name);

// a op b in f32, as every kernel computes it: one correctly rounded operation (add, sub, mul,
// div), x86's maxps/minps rule for max and min (a NaN in either operand gives b), and 1.0 or 0.0
// for the comparisons (ordered, so false on NaN, except ne which is true on NaN).
float binary_fwd(algorithm alg, float a, float b);

} // namespace impl
} // namespace prim
