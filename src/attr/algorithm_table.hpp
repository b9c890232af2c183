// Facts about each eltwise algorithm, one row each: its fusion-string name, its default
// parameters, which parameters it reads and which values it forbids, its scalar definition (the
// reference and the oracle of every test), how closely a kernel can follow it (benchdnn_lite's
// tolerance class), and what its shape tells of a range of inputs (the JIT's value ranges).
// The JIT's own facts (emitter, register needs, long sequence, runtime parameters) are the rows
// of src/jit/inject/eltwise_emitter.cpp, keyed by the same algorithm.
#pragma once
#include <string>
#include <vector>

#include "prim/attr.hpp"

namespace prim {
namespace impl {

// How closely a correct kernel follows the reference (benchdnn_lite's tolerances, compare.cpp).
enum class accuracy_class {
    exact,         // one rounding or none, the same in the reference and in any correct kernel
    arithmetic,    // several roundings of plain arithmetic
    transcendental // the JIT's exp / log / tanh / erf approximations
};

// What f's shape tells of its values over a range of inputs (jit/inject/value_range.cpp).
enum class range_rule {
    none,                  // neither non-decreasing nor non-increasing, or not known here
    increasing,            // non-decreasing over the whole line
    increasing_alpha_flush,// as increasing; the kernel flushes a term of up to e^-87 / |alpha|
    increasing_if_alpha_nonneg, // non-decreasing for a finite alpha >= 0
    by_sign_of_alpha,      // monotone for finite parameters, in the direction of alpha's sign
    by_sign_of_alpha_beta, // the same with the slope alpha * beta
    of_magnitude,          // f(|x|), non-decreasing in |x| (abs, square)
    increasing_from_zero   // non-decreasing on [0, inf], NaN below 0 (sqrt, log)
};

struct algorithm_info {
    algorithm alg;
    const char *name;        // main name, as printed
    float default_alpha;     // value used when a fusion string omits alpha
    float default_beta;      // value used when a fusion string omits beta
    bool uses_alpha;         // f reads alpha (else it is ignored)
    bool uses_beta;          // f reads beta
    // The parameters that scale the argument or the result of exp, log or tanh: 0 or of a
    // magnitude in [2^-32, 2^32] (doc/reference.md §1, "Valid parameters").
    bool bounded_alpha, bounded_beta;
    bool alpha_nonzero; // f divides by alpha
    bool alpha_finite;  // an infinite alpha has no use (pow: +-inf or NaN everywhere)
    // f(x; alpha, beta) in double, for x not NaN (eltwise_fwd() handles NaN).
    double (*f)(double x, double alpha, double beta);
    accuracy_class accuracy;
    range_rule range;
};

// The table entry for an eltwise algorithm, or nullptr if alg is not one.
const algorithm_info *find_algorithm(algorithm alg);
// By main name only ("relu"); aliases are the parser's business. nullptr if unknown.
const algorithm_info *find_algorithm(const std::string &name);
// Every eltwise algorithm, in the table's order.
std::vector<algorithm> eltwise_algorithms();
// "" when the parameters are allowed for alg, else a message naming the problem
// ("soft_relu: alpha must be non-zero", "relu: alpha is NaN").
std::string check_eltwise_params(algorithm alg, float alpha, float beta, float scale);

} // namespace impl
} // namespace prim
