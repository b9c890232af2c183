// The unfused pipeline of --fused=off|both: what a user without fusion runs. The primitive
// without post-ops, then each post-op as its own pass of the eltwise primitive:
//   eltwise(alg, alpha, beta, scale): eltwise_forward(alg, alpha, beta) in place, with a
//       linear(scale, 0) post-op when scale != 1;
//   sum(scale), the last sum of the chain: eltwise_forward(identity) from the running value into
//       dst with a sum(scale) post-op, so dst = x + scale * dst_old;
//   sum(scale), an earlier sum: eltwise_forward(linear: scale, 0) from dst (which still holds
//       dst_old) into the running value with a sum(1) post-op, so x = scale * dst_old + x;
//   binary(alg) and prelu: eltwise_forward(identity) in place with that one entry as its chain,
//       its operand (argument PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | ...) holding the same data as
//       the fused primitive's operand of that entry.
// Without sums the primitive writes dst directly and every pass runs in place on dst; with sums
// it writes a temporary, so dst keeps dst_old until the last sum reads it. No copy is needed.
// A case may give its own steps instead (problem_case::unfused_steps): a dw post-op's are the 1x1
// convolution with the entries before the dw, then the depthwise convolution with the rest.
#pragma once
#include <vector>

#include "problem_case.hpp"

namespace bdl {

class unfused_pipeline {
public:
    // Creates every primitive (throws prim::error as creation does).
    unfused_pipeline(const problem_case &pc, const prim::post_ops &po);
    void execute() const;
    // The memory that holds the result after execute(): the base primitive's dst (the last
    // step's for a case's own steps).
    const prim::memory &result() const { return dst_; }
    // The base primitive's implementation name.
    const std::string &impl() const { return base_.impl; }
    // What the extra roundings of separate passes may add to the chain's tolerance (a scale
    // applied after an inexact algorithm, scale * dst_old rounded before the add).
    double extra_tolerance() const { return extra_tol_; }

private:
    bound_primitive base_;
    std::vector<bound_primitive> passes_;
    prim::memory dst_;
    double extra_tol_ = 0;
};

} // namespace bdl
