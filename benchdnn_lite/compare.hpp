// Comparison against the reference: |got - ref| <= tol * max(1, |ref|), NaN equal to NaN,
// infinities equal when of the same sign. The tolerance comes from the chain (doc/benchdnn_lite.md).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "prim/attr.hpp"

namespace bdl {

// Error budget of one eltwise algorithm as the JIT computes it: 0 for exact ones (relu, abs,
// clip, round, ...), a few ulp for plain arithmetic (linear, hardswish, ...), 1e-6 for those
// built on exp/log/tanh/erf/pow: the algorithm's accuracy class, in its row of
// src/attr/algorithm_table.cpp.
double algorithm_tolerance(prim::algorithm alg);
// The budget of one entry: its algorithm's, plus arithmetic for a scale != 1 (sum or eltwise).
// Binary entries (one correctly rounded operation, or an exact one: max, min, the comparisons)
// and prelu (one product) are exact.
double entry_tolerance(const prim::post_ops::entry &e);
// The sum of the budgets of the chain's entries.
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

// A second chance for an element whose error exceeds tol (see within_chain_error).
using second_chance = std::function<bool(int64_t index, float got)>;

// An element passes when it is within tol of ref, or when `retry` accepts it. absolute:
// |got - ref| <= tol (an integer destination: the contract's +-1).
compare_result compare(const float *got, const float *ref, int64_t n, double tol, int keep = 10,
                       const second_chance &retry = nullptr, bool absolute = false);

// True when got is what the chain can give if every inexact step errs by its own budget: the
// chain run on two bounds of the running value, each step's results ordered (a decreasing step,
// a product with a negative operand, swaps them) and moved apart by budget * max(|x|, 2^-20).
// Budgets add up along a chain, but some chains amplify an error far beyond its size: in
// gelu_erf+sqrt, a difference of 1e-23 before sqrt decides between NaN and 0; in exp+exp the
// second exp multiplies the first one's relative error by its argument. A comparison (ge, eq,
// ...) whose input is within the error accumulated so far of its operand may honestly give 0 or
// 1: both continuations are tried. base is the primitive's result before the chain, exact up to
// base_tol; operands holds each entry's operand value for this element (read for binary and
// prelu entries; may be null for a chain without them).
bool within_chain_error(const prim::post_ops &po, const float *operands, float base,
                        double base_tol, float dst_old, float got, double tol);

// "3.2e-05", "0", "inf": how the worst error is printed.
std::string format_error(double err);

} // namespace bdl
