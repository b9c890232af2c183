// The one table of eltwise algorithms (algorithm_table.hpp): one row each, with the main
// fusion-string name and the defaults a fusion string uses for an omitted alpha or beta
// (doc/reference.md §1), the valid parameters, the scalar definition in double, the tolerance
// class and the range rule. Also the check of forbidden parameters.
//
// The definitions follow the conventions of eltwise_math.cpp (NaN is handled there, before a row
// is called; at x = +-inf the limit, through times(); forms that stay accurate near zero and in
// the tails).
#include "attr/algorithm_table.hpp"
#include "attr/binary_table.hpp"
#include "attr/float_text.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace prim {
namespace impl {

namespace {

constexpr float inf = std::numeric_limits<float>::infinity();

// ---- helpers of the definitions ----

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

// ---- the definitions longer than a line ----

double gelu_tanh(double x, double, double) {
    // 0.5 x (1 + tanh(u)) = x * logistic(2u): no cancellation for negative x.
    const double sqrt_2_over_pi = 0.79788456080286535587989211986876;
    const double u = sqrt_2_over_pi * (x + 0.044715 * x * x * x);
    return times(x, logistic(2.0 * u));
}

double gelu_erf(double x, double, double) {
    // 0.5 x (1 + erf(x / sqrt 2)) = 0.5 x erfc(-x / sqrt 2): accurate in the negative tail.
    const double inv_sqrt2 = 0.70710678118654752440084436210485;
    return 0.5 * times(x, std::erfc(-x * inv_sqrt2));
}

double pow_f(double x, double alpha, double beta) {
    // C's rules for pow and for the product, except that an infinite x with alpha 0 gives
    // the limit 0. With alpha 0 the result is 0 * x^beta, NaN where x^beta is NaN or
    // infinite, i.e. at the pole x = +-0 of a negative beta (0 * inf). Where x^beta merely
    // exceeds double's range at a finite x it is a finite number, and 0 times it is 0.
    const double p = std::pow(x, beta);
    if (alpha == 0.0 && !std::isnan(p) && !(x == 0.0 && beta < 0.0)) return 0.0 * alpha;
    return std::isinf(x) ? times(alpha, p) : alpha * p;
}

double celu(double x, double alpha, double) {
    // max(0, x) + min(0, alpha (e^(x/alpha) - 1)); alpha != 0 is the attribute's check.
    const double pos = x > 0 ? x : 0.0;
    const double neg = alpha * std::expm1(x / alpha);
    return pos + (neg < 0 ? neg : 0.0);
}

// ---- the rows ----

// Which parameters a row reads and which values it refuses.
enum params : unsigned {
    none = 0,
    alpha = 1,          // f reads alpha (a "–" column of doc/reference.md §1 is one it does not)
    beta = 2,           // f reads beta
    bounded_alpha = 4,  // 0 or of magnitude in [2^-32, 2^32]
    bounded_beta = 8,
    nonzero_alpha = 16, // f divides by alpha
    finite_alpha = 32,
};

using ref_fn = double (*)(double x, double alpha, double beta);
using acc = accuracy_class;
using rr = range_rule;
using a = algorithm;

constexpr algorithm_info row(algorithm alg, const char *name, float default_alpha,
                             float default_beta, unsigned p, ref_fn f, accuracy_class accuracy,
                             range_rule range) {
    return {alg, name, default_alpha, default_beta, (p & alpha) != 0, (p & beta) != 0,
            (p & bounded_alpha) != 0, (p & bounded_beta) != 0, (p & nonzero_alpha) != 0,
            (p & finite_alpha) != 0, f, accuracy, range};
}

// Bounded parameters scale the argument or the result of exp, log or tanh; every other one takes
// any value but NaN: thresholds, bounds, additive terms and slopes of the piecewise-linear
// algorithms (relu, linear, clip, hardsigmoid, hardswish, shrink, thresholded_relu) and pow's
// alpha, whose infinite values have a meaning (clip:0:inf) but for pow's.
constexpr algorithm_info algorithm_table[] = {
    row(a::eltwise_relu, "relu", 0.f, 0.f, alpha,
        [](double x, double al, double) { return x > 0 ? x : times(al, x); },
        acc::exact, rr::increasing_if_alpha_nonneg),
    row(a::eltwise_tanh, "tanh", 0.f, 0.f, none,
        [](double x, double, double) { return std::tanh(x); }, acc::transcendental, rr::increasing),
    row(a::eltwise_elu, "elu", 1.f, 0.f, alpha | bounded_alpha,
        [](double x, double al, double) { return x > 0 ? x : al * std::expm1(x); },
        acc::transcendental, rr::increasing_if_alpha_nonneg),
    row(a::eltwise_square, "square", 0.f, 0.f, none,
        [](double x, double, double) { return x * x; }, acc::exact, rr::of_magnitude),
    row(a::eltwise_abs, "abs", 0.f, 0.f, none,
        [](double x, double, double) { return std::fabs(x); }, acc::exact, rr::of_magnitude),
    // sqrt is correctly rounded in hardware and in the reference
    row(a::eltwise_sqrt, "sqrt", 0.f, 0.f, none,
        [](double x, double, double) { return std::sqrt(x); }, acc::exact, rr::increasing_from_zero),
    row(a::eltwise_linear, "linear", 1.f, 0.f, alpha | beta,
        [](double x, double al, double be) { return times(al, x) + be; },
        acc::arithmetic, rr::by_sign_of_alpha),
    row(a::eltwise_clip, "clip", -inf, inf, alpha | beta,
        [](double x, double al, double be) { return clamp(x, al, be); }, acc::exact, rr::increasing),
    row(a::eltwise_clip_v2, "clip_v2", -inf, inf, alpha | beta,
        [](double x, double al, double be) { return clamp(x, al, be); }, acc::exact, rr::increasing),
    // log(1 + e^(alpha x)) / alpha: slope logistic(alpha x) > 0
    row(a::eltwise_soft_relu, "soft_relu", 1.f, 0.f, alpha | bounded_alpha | nonzero_alpha,
        [](double x, double al, double) { return softplus(al * x) / al; },
        acc::transcendental, rr::increasing_alpha_flush),
    row(a::eltwise_logistic, "logistic", 0.f, 0.f, none,
        [](double x, double, double) { return logistic(x); }, acc::transcendental, rr::increasing),
    row(a::eltwise_exp, "exp", 0.f, 0.f, none,
        [](double x, double, double) { return std::exp(x); }, acc::transcendental, rr::increasing),
    row(a::eltwise_log, "log", 0.f, 0.f, none,
        [](double x, double, double) { return std::log(x); }, acc::transcendental,
        rr::increasing_from_zero),
    row(a::eltwise_gelu_tanh, "gelu_tanh", 0.f, 0.f, none, gelu_tanh, acc::transcendental, rr::none),
    row(a::eltwise_gelu_erf, "gelu_erf", 0.f, 0.f, none, gelu_erf, acc::transcendental, rr::none),
    row(a::eltwise_swish, "swish", 1.f, 0.f, alpha | bounded_alpha,
        [](double x, double al, double) { return times(x, logistic(times(al, x))); },
        acc::transcendental, rr::none),
    row(a::eltwise_hardsigmoid, "hardsigmoid", 0.2f, 0.5f, alpha | beta,
        [](double x, double al, double be) { return clamp(times(al, x) + be, 0.0, 1.0); },
        acc::arithmetic, rr::increasing_if_alpha_nonneg),
    // 1.f / 6.f is an IEEE division, so it is the float nearest to 1/6.
    row(a::eltwise_hardswish, "hardswish", 1.f / 6.f, 0.5f, alpha | beta,
        [](double x, double al, double be) { return times(x, clamp(times(al, x) + be, 0.0, 1.0)); },
        acc::arithmetic, rr::none),
    row(a::eltwise_mish, "mish", 0.f, 0.f, none,
        [](double x, double, double) { return times(x, std::tanh(softplus(x))); },
        acc::transcendental, rr::none),
    // beta is the exponent; alpha only scales the result
    row(a::eltwise_pow, "pow", 1.f, 1.f, alpha | beta | bounded_beta | finite_alpha, pow_f,
        acc::transcendental, rr::none),
    // half to even in the default rounding mode
    row(a::eltwise_round, "round", 0.f, 0.f, none,
        [](double x, double, double) { return std::nearbyint(x); }, acc::exact, rr::increasing),
    row(a::eltwise_celu, "celu", 1.f, 0.f, alpha | bounded_alpha | nonzero_alpha, celu,
        acc::transcendental, rr::none),
    // The literals are the constants in full; the compiler rounds them to the nearest float.
    row(a::eltwise_selu, "selu", 1.6732632423543772f, 1.0507009873554805f,
        alpha | beta | bounded_alpha | bounded_beta,
        [](double x, double al, double be) { return x > 0 ? times(be, x) : be * al * std::expm1(x); },
        acc::transcendental, rr::none),
    row(a::eltwise_softsign, "softsign", 0.f, 0.f, none,
        [](double x, double, double) {
            return std::isinf(x) ? std::copysign(1.0, x) : x / (1.0 + std::fabs(x));
        },
        acc::arithmetic, rr::increasing),
    row(a::eltwise_shrink, "shrink", 0.f, 0.5f, alpha | beta,
        [](double x, double al, double be) { return x < -be ? x + al : (x > be ? x - al : 0.0); },
        acc::exact, rr::none),
    row(a::eltwise_thresholded_relu, "thresholded_relu", 1.f, 0.f, alpha,
        [](double x, double al, double) { return x > al ? x : 0.0; }, acc::exact, rr::none),
    row(a::eltwise_scaled_tanh, "scaled_tanh", 1.f, 1.f, alpha | beta | bounded_alpha | bounded_beta,
        [](double x, double al, double be) { return al * std::tanh(times(be, x)); },
        acc::transcendental, rr::by_sign_of_alpha_beta),
    // soft_relu's definition under ONNX's name
    row(a::eltwise_softplus, "softplus", 1.f, 0.f, alpha | bounded_alpha | nonzero_alpha,
        [](double x, double al, double) { return softplus(al * x) / al; },
        acc::transcendental, rr::increasing_alpha_flush),
    row(a::eltwise_parametric_softplus, "parametric_softplus", 1.f, 1.f,
        alpha | beta | bounded_alpha | bounded_beta,
        [](double x, double al, double be) { return times(al, softplus(times(be, x))); },
        acc::transcendental, rr::none),
    row(a::eltwise_identity, "identity", 0.f, 0.f, none,
        [](double x, double, double) { return x; }, acc::exact, rr::increasing),
    // log(logistic(x))
    row(a::eltwise_logsigmoid, "logsigmoid", 0.f, 0.f, none,
        [](double x, double, double) { return -softplus(-x); }, acc::transcendental, rr::increasing),
};

} // namespace

const algorithm_info *find_algorithm(algorithm alg) {
    // Indexed by the algorithm's value, built from the rows (whatever the enum's order).
    static const std::vector<const algorithm_info *> by_value = [] {
        std::vector<const algorithm_info *> v;
        for (const algorithm_info &info : algorithm_table) {
            const size_t i = static_cast<size_t>(info.alg);
            if (v.size() <= i) v.resize(i + 1, nullptr);
            v[i] = &info;
        }
        return v;
    }();
    const size_t i = static_cast<size_t>(alg);
    return i < by_value.size() ? by_value[i] : nullptr;
}

const algorithm_info *find_algorithm(const std::string &name) {
    for (const algorithm_info &info : algorithm_table)
        if (name == info.name) return &info;
    return nullptr;
}

std::vector<algorithm> eltwise_algorithms() {
    std::vector<algorithm> v;
    for (const algorithm_info &info : algorithm_table) v.push_back(info.alg);
    return v;
}

namespace {

// 0, or a magnitude in [2^-32, 2^32] (so never denormal, huge or infinite).
bool in_bounded_range(float v) {
    const float m = std::fabs(v);
    return v == 0.f || (m >= 0x1p-32f && m <= 0x1p32f);
}

std::string value_text(float v) { return float_text(v); }

} // namespace

std::string check_eltwise_params(algorithm alg, float alpha, float beta, float scale) {
    const algorithm_info *info = find_algorithm(alg);
    if (!info) return "unknown eltwise algorithm";
    const std::string name = info->name;
    if (std::isnan(alpha)) return name + ": alpha is NaN";
    if (std::isnan(beta)) return name + ": beta is NaN";
    if (std::isnan(scale)) return name + ": scale is NaN";
    if (info->alpha_nonzero && alpha == 0.f) return name + ": alpha must be non-zero";
    // A parameter that scales the argument or the result of exp, log or tanh is bounded: an
    // infinite one makes inf * 0 = NaN of ordinary inputs (elu's alpha (e^0 - 1)), and a huge or
    // denormal one makes f32 evaluation leave the range where it can follow the definition
    // (x / alpha or alpha * beta underflowing or overflowing).
    const char *bounded = " must be 0 or of magnitude in [2^-32, 2^32]";
    if (info->bounded_alpha && !in_bounded_range(alpha))
        return name + ": alpha = " + value_text(alpha) + " is out of range: it"
                + (info->alpha_nonzero ? " must be of magnitude in [2^-32, 2^32]" : bounded);
    // pow: alpha x^beta with alpha = +-inf is +-inf or NaN (inf * 0) everywhere: no use, and f32
    // cannot follow it where x^beta underflows. Any finite alpha, 0 included, is valid.
    if (info->alpha_finite && std::isinf(alpha))
        return name + ": alpha = " + value_text(alpha) + " is out of range: it must be finite";
    if (info->bounded_beta && !in_bounded_range(beta))
        return name + ": beta = " + value_text(beta) + " is out of range: it" + bounded;
    return "";
}

} // namespace impl

const char *algorithm_name(algorithm alg) {
    if (const impl::algorithm_info *info = impl::find_algorithm(alg)) return info->name;
    if (const impl::binary_info *info = impl::find_binary(alg)) return info->name;
    return nullptr;
}

} // namespace prim
