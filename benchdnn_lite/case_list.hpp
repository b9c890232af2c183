// The cases of one descriptor: the cross product of the option lists in benchdnn's order, and
// for each case whether prim can run it or it is SKIPPED, with the reason.
#pragma once
#include <string>
#include <vector>

#include "parser.hpp"

namespace bdl {

struct case_spec {
    settings s;
    chain_spec chain;
    std::string skip; // "" when the case runs
};

// Loops, outermost first (the last one varies fastest): the driver's (driver_info::loops in
// driver_table.cpp), then benchdnn's other driver options in the order of their names.
// The global options (mode, fused, max-ms-per-prb, cmp) are copied into every case.
std::vector<case_spec> expand_cases(const parser_state &st);

// Why prim cannot run the case ("" when it can): backward directions, data types other than
// f32, Winograd, scales, zero points, fpmath modes, the chain's own reason, in-place outside
// eltwise, and for eltwise the alpha/beta values benchdnn skips (a parameter the algorithm does
// not use given non-zero, values the algorithm refuses).
std::string skip_reason(const case_spec &c, driver_kind driver);

} // namespace bdl
