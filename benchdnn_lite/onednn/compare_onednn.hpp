// --cmp=onednn: what run_case does with oneDNN in each mode.
//   C mode: oneDNN's result is checked against the same reference as ours (a sanity check that
//           both libraries compute the same function: the mapping of onednn_map.hpp is right).
//   P mode: ours (fused, unfused or both, as --fused says) and oneDNN are timed in rotation
//           (rotation.hpp) and printed as perf lines, then
//             perf_cmp,DRIVER,POST_OPS,DESC,FUSED_RATE,UNFUSED_RATE,RATIO     (--fused=both)
//             perf_onednn,DRIVER,POST_OPS,DESC,OURS_RATE,ONEDNN_RATE,RATIO
//           RATIO = oneDNN MIN_MS / ours MIN_MS (above 1: ours is faster); "ours" is the fused
//           primitive, or the unfused pipeline with --fused=off. A case oneDNN cannot run prints
//             perf_onednn_skipped,DRIVER,POST_OPS,DESC,REASON
//           and ours alone is timed as without --cmp. Both comparisons feed the geometric-mean
//           lines at the end of the run (reporter::summary).
#pragma once
#include <string>
#include <vector>

#include "parser.hpp"
#include "problem_case.hpp"
#include "report.hpp"

namespace bdl {

// oneDNN's result for the case in the plain dst layout. False, with why, when oneDNN cannot
// run it (onednn_skip).
bool onednn_result(const problem_case &pc, const prim::post_ops &po, const run_options &opts,
                   std::vector<float> &result, std::string &why);

// The tolerance of oneDNN's result against the reference: ours (tol), plus 5e-7 for each op the
// mapping adds (a linear op before the algorithm rounds its argument once more) and for a scale
// (oneDNN rounds f(x) first), plus 1e-5 for each exp/log/tanh/erf-based algorithm: oneDNN's
// polynomials are looser than prim's 1e-6 budget (the eltwise driver's algorithm included).
double onednn_tolerance(const problem_case &pc, const prim::post_ops &po, double tol);

// P mode with --cmp=onednn (replaces the plain timing of run_case).
void measure_against_onednn(problem_case &pc, const prim::post_ops &po, const run_options &opts,
                            reporter &rep);

} // namespace bdl
