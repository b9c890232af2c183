// Comparison against the reference: |got - ref| <= tol * max(1, |ref|), NaN equal to NaN,
// infinities equal when of the same sign. The tolerance comes from the chain (doc/benchdnn_lite.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "prim/attr.hpp"

namespace bdl {

// Error budget of one eltwise algorithm as the JIT computes it: 0 for exact ones (relu, abs,
// clip, round, ...), a few ulp for plain arithmetic (linear, hardswish, ...), 1e-6 for those
// built on exp/log/tanh/erf/pow.
double algorithm_tolerance(prim::algorithm alg);
// The sum of the budgets of the chain's entries; a scale != 1 (sum or eltwise) adds arithmetic.
double chain_tolerance(const prim::post_ops &po);

struct mismatch {
    int64_t index;
    float got, ref;
    double err; // |got - ref| / max(1, |ref|); inf when only one side is NaN or inf
};

struct compare_result {
    int64_t errors = 0, total = 0;
    double worst = 0;               // the largest err over all elements
    std::vector<mismatch> examples; // the worst mismatches, largest first (at most `keep`)
};

compare_result compare(const float *got, const float *ref, int64_t n, double tol, int keep = 10);

// "3.2e-05", "0", "inf": how the worst error is printed.
std::string format_error(double err);

} // namespace bdl
