// What the code generator knows of the values an eltwise entry receives: every value that is not
// NaN lies in [lo, hi]. The injector starts a chain knowing nothing (accumulators, a sum's old
// values and binary operands can be anything) and carries the range through the entries whose
// results it can bound, so that an emitter may leave out a clamp or a flush that no value of the
// range would trigger (logistic's results need no overflow clamp in a following exp). Only what
// cannot change a result is left out: the code for a range gives, bit for bit, what the general
// code gives, NaN included.
#pragma once
#include <cmath>

#include "prim/attr.hpp"

namespace prim {
namespace jit {

struct value_range {
    double lo = -INFINITY, hi = INFINITY; // the whole line: nothing known

    // Whether a value may lie below b (above b): a clamp or test at b is then needed. True when
    // nothing is known, and for a NaN bound.
    bool may_be_below(double b) const { return !(lo >= b); }
    bool may_be_above(double b) const { return !(hi <= b); }
    // The largest magnitude.
    double max_abs() const { return std::fmax(std::fabs(lo), std::fabs(hi)); }
    // The range of k x (k finite and not 0).
    value_range times(double k) const { return {std::fmin(k * lo, k * hi), std::fmax(k * lo, k * hi)}; }
};

// The range of an entry's results, given the range of its inputs: bounds for the algorithms
// that are monotone (or abs and square) with constant parameters, widened past the kernels'
// rounding; the whole line for every other entry (sum, binary, prelu, runtime parameters, the
// non-monotone algorithms).
value_range value_range_after(const post_ops::entry &e, const value_range &in);

} // namespace jit
} // namespace prim
