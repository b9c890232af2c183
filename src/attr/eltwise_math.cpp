// The scalar definition of every eltwise algorithm (doc/reference.md §1), in double.
//
// Conventions, applied uniformly so that the oracle is predictable:
// - NaN in gives NaN out for every algorithm, checked once up front (so comparisons such as
//   x > 0 or min/max never swallow a NaN, and pow(NaN, 0) is NaN, not C's 1).
// - At x = +-inf the result is the limit of f(x), not an accidental 0 * inf = NaN: relu(-inf) = 0,
//   softsign(inf) = 1, gelu(-inf) = 0, and so on. The helper times() below does this: a product
//   with an exact zero factor is zero.
// - Forms that stay accurate near zero and in the tails: expm1 (elu, selu, celu), log1p
//   (soft_relu and friends), erfc (gelu_erf), a logistic that never overflows.
#include <cmath>
#include <string>

#include "attr/eltwise_math.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {
namespace {

// a * b, except that an exact zero factor gives 0 even when the other one is infinite. Used
// where the formula is "coefficient times something" and the true value (the limit) is 0.
double times(double a, double b) { return (a == 0.0 || b == 0.0) ? 0.0 : a * b; }

// log(1 + e^z) without overflow for large z and without losing digits for very negative z.
double softplus(double z) {
    if (z > 0) return z + std::log1p(std::exp(-z));
    return std::log1p(std::exp(z));
}

// 1 / (1 + e^-z) without overflow: e^z / (1 + e^z) for negative z.
double logistic(double z) {
    if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);
    return e / (1.0 + e);
}

// min(max(v, lo), hi) written with comparisons (v is never NaN here).
double clamp(double v, double lo, double hi) {
    double r = v < lo ? lo : v;
    return r > hi ? hi : r;
}

bool is_eltwise(algorithm alg) {
    return alg >= algorithm::eltwise_relu && alg <= algorithm::eltwise_logsigmoid;
}

} // namespace

double eltwise_fwd(algorithm alg, double x, double alpha, double beta) {
    if (!is_eltwise(alg))
        throw error(status::invalid_arguments,
                    "eltwise_fwd: algorithm " + std::to_string(static_cast<int>(alg))
                            + " is not an eltwise algorithm");
    // Every algorithm propagates NaN; ruling it out here keeps each formula simple.
    if (std::isnan(x)) return x;

    switch (alg) {
    case algorithm::eltwise_relu: return x > 0 ? x : times(alpha, x);
    case algorithm::eltwise_tanh: return std::tanh(x);
    case algorithm::eltwise_elu: return x > 0 ? x : alpha * std::expm1(x);
    case algorithm::eltwise_square: return x * x;
    case algorithm::eltwise_abs: return std::fabs(x);
    case algorithm::eltwise_sqrt: return std::sqrt(x);
    case algorithm::eltwise_linear: return times(alpha, x) + beta;
    case algorithm::eltwise_clip:
    case algorithm::eltwise_clip_v2: return clamp(x, alpha, beta);
    case algorithm::eltwise_soft_relu:
    case algorithm::eltwise_softplus:
        // log(1 + e^(alpha x)) / alpha; alpha != 0 is the attribute's check.
        return softplus(alpha * x) / alpha;
    case algorithm::eltwise_logistic: return logistic(x);
    case algorithm::eltwise_exp: return std::exp(x);
    case algorithm::eltwise_log: return std::log(x);
    case algorithm::eltwise_gelu_tanh: {
        // 0.5 x (1 + tanh(u)) = x * logistic(2u): no cancellation for negative x.
        const double sqrt_2_over_pi = 0.79788456080286535587989211986876;
        const double u = sqrt_2_over_pi * (x + 0.044715 * x * x * x);
        return times(x, logistic(2.0 * u));
    }
    case algorithm::eltwise_gelu_erf: {
        // 0.5 x (1 + erf(x / sqrt 2)) = 0.5 x erfc(-x / sqrt 2): accurate in the negative tail.
        const double inv_sqrt2 = 0.70710678118654752440084436210485;
        return 0.5 * times(x, std::erfc(-x * inv_sqrt2));
    }
    case algorithm::eltwise_swish: return times(x, logistic(times(alpha, x)));
    case algorithm::eltwise_hardsigmoid: return clamp(times(alpha, x) + beta, 0.0, 1.0);
    case algorithm::eltwise_hardswish: return times(x, clamp(times(alpha, x) + beta, 0.0, 1.0));
    case algorithm::eltwise_mish: return times(x, std::tanh(softplus(x)));
    case algorithm::eltwise_pow: {
        // C's rules for pow and for the product, except that an infinite x with alpha 0 gives
        // the limit 0. With alpha 0 the result is 0 * x^beta, NaN where x^beta is NaN or
        // infinite, i.e. at the pole x = +-0 of a negative beta (0 * inf). Where x^beta merely
        // exceeds double's range at a finite x it is a finite number, and 0 times it is 0.
        const double p = std::pow(x, beta);
        if (alpha == 0.0 && !std::isnan(p) && !(x == 0.0 && beta < 0.0)) return 0.0 * alpha;
        return std::isinf(x) ? times(alpha, p) : alpha * p;
    }
    case algorithm::eltwise_round: return std::nearbyint(x); // half to even in the default mode
    case algorithm::eltwise_celu: {
        // max(0, x) + min(0, alpha (e^(x/alpha) - 1)); alpha != 0 is the attribute's check.
        const double pos = x > 0 ? x : 0.0;
        const double neg = alpha * std::expm1(x / alpha);
        return pos + (neg < 0 ? neg : 0.0);
    }
    case algorithm::eltwise_selu:
        return x > 0 ? times(beta, x) : beta * alpha * std::expm1(x);
    case algorithm::eltwise_softsign:
        return std::isinf(x) ? std::copysign(1.0, x) : x / (1.0 + std::fabs(x));
    case algorithm::eltwise_shrink: return x < -beta ? x + alpha : (x > beta ? x - alpha : 0.0);
    case algorithm::eltwise_thresholded_relu: return x > alpha ? x : 0.0;
    case algorithm::eltwise_scaled_tanh: return alpha * std::tanh(times(beta, x));
    case algorithm::eltwise_parametric_softplus: return times(alpha, softplus(times(beta, x)));
    case algorithm::eltwise_identity: return x;
    case algorithm::eltwise_logsigmoid: return -softplus(-x); // log(logistic(x))
    case algorithm::undef:
    case algorithm::convolution_direct: break; // ruled out above
    }
    throw error(status::invalid_arguments, "eltwise_fwd: unknown algorithm");
}

} // namespace impl
} // namespace prim
