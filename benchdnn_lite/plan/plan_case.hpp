// --conv --plan=CBNA: the descriptor's convolution as a prim::fusion_plan with the operators the
// letters name, run as a MIOpen user would (compile once, arguments set at run time):
//   C convolution (first), B bias, N batch norm inference (spatial), A activation (relu),
//   S sum (a residual in the output), D binary add of a tensor of the output's dims.
// C mode: against the reference convolution and the operators computed in double. P mode: the
// plan's execute timed, and with --fused=both side by side with the equivalent convolution
// primitive (the same chain given as post-ops): "perf_cmp,conv,plan:CBNA,DESC,PLAN_GFLOPS,
// PRIMITIVE_GFLOPS,RATIO".
#pragma once
#include <string>

#include "prim/attr.hpp"
#include "report.hpp"
#include "settings.hpp"

namespace bdl {

// desc: the canonical convolution descriptor; chain: --attr-post-ops (must be empty: the plan's
// letters are its chain).
void run_plan_case(const std::string &desc, const settings &s, const prim::post_ops &chain,
                   const std::string &repro, reporter &rep);

} // namespace bdl
