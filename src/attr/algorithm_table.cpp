// The one table of eltwise algorithms: main fusion-string name and the defaults a fusion string
// uses for an omitted alpha or beta (doc/reference.md §1). Also the check of forbidden parameters.
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

// name, default alpha, default beta, whether f reads alpha, beta (doc/reference.md §1: a "–"
// column is a parameter the algorithm does not read; its default 0 is never used).
const algorithm_info algorithm_table[] = {
    {algorithm::eltwise_relu, "relu", 0.f, 0.f, true, false},
    {algorithm::eltwise_tanh, "tanh", 0.f, 0.f, false, false},
    {algorithm::eltwise_elu, "elu", 1.f, 0.f, true, false},
    {algorithm::eltwise_square, "square", 0.f, 0.f, false, false},
    {algorithm::eltwise_abs, "abs", 0.f, 0.f, false, false},
    {algorithm::eltwise_sqrt, "sqrt", 0.f, 0.f, false, false},
    {algorithm::eltwise_linear, "linear", 1.f, 0.f, true, true},
    {algorithm::eltwise_clip, "clip", -inf, inf, true, true},
    {algorithm::eltwise_clip_v2, "clip_v2", -inf, inf, true, true},
    {algorithm::eltwise_soft_relu, "soft_relu", 1.f, 0.f, true, false},
    {algorithm::eltwise_logistic, "logistic", 0.f, 0.f, false, false},
    {algorithm::eltwise_exp, "exp", 0.f, 0.f, false, false},
    {algorithm::eltwise_log, "log", 0.f, 0.f, false, false},
    {algorithm::eltwise_gelu_tanh, "gelu_tanh", 0.f, 0.f, false, false},
    {algorithm::eltwise_gelu_erf, "gelu_erf", 0.f, 0.f, false, false},
    {algorithm::eltwise_swish, "swish", 1.f, 0.f, true, false},
    {algorithm::eltwise_hardsigmoid, "hardsigmoid", 0.2f, 0.5f, true, true},
    // 1.f / 6.f is an IEEE division, so it is the float nearest to 1/6.
    {algorithm::eltwise_hardswish, "hardswish", 1.f / 6.f, 0.5f, true, true},
    {algorithm::eltwise_mish, "mish", 0.f, 0.f, false, false},
    {algorithm::eltwise_pow, "pow", 1.f, 1.f, true, true},
    {algorithm::eltwise_round, "round", 0.f, 0.f, false, false},
    {algorithm::eltwise_celu, "celu", 1.f, 0.f, true, false},
    // The literals are the constants in full; the compiler rounds them to the nearest float.
    {algorithm::eltwise_selu, "selu", 1.6732632423543772f, 1.0507009873554805f, true, true},
    {algorithm::eltwise_softsign, "softsign", 0.f, 0.f, false, false},
    {algorithm::eltwise_shrink, "shrink", 0.f, 0.5f, true, true},
    {algorithm::eltwise_thresholded_relu, "thresholded_relu", 1.f, 0.f, true, false},
    {algorithm::eltwise_scaled_tanh, "scaled_tanh", 1.f, 1.f, true, true},
    {algorithm::eltwise_softplus, "softplus", 1.f, 0.f, true, false},
    {algorithm::eltwise_parametric_softplus, "parametric_softplus", 1.f, 1.f, true, true},
    {algorithm::eltwise_identity, "identity", 0.f, 0.f, false, false},
    {algorithm::eltwise_logsigmoid, "logsigmoid", 0.f, 0.f, false, false},
};

} // namespace

const algorithm_info *find_algorithm(algorithm alg) {
    for (const algorithm_info &info : algorithm_table)
        if (info.alg == alg) return &info;
    return nullptr;
}

const algorithm_info *find_algorithm(const std::string &name) {
    for (const algorithm_info &info : algorithm_table)
        if (name == info.name) return &info;
    return nullptr;
}

namespace {

// Which parameters of an algorithm scale the argument or the result of exp, log or tanh, and so
// must be 0 or of a magnitude in [2^-32, 2^32] (doc/reference.md §1, "Valid parameters").
struct bounded_params {
    bool alpha, beta;
};

// Every other parameter takes any value but NaN: thresholds, bounds, additive terms and slopes
// of the piecewise-linear algorithms (relu, linear, clip, hardsigmoid, hardswish, shrink,
// thresholded_relu) and pow's alpha, whose infinite values have a meaning (clip:0:inf).
bounded_params bounded_of(algorithm alg) {
    using a = algorithm;
    switch (alg) {
    case a::eltwise_elu: case a::eltwise_soft_relu: case a::eltwise_softplus: case a::eltwise_celu:
    case a::eltwise_swish: return {true, false};
    case a::eltwise_selu: case a::eltwise_scaled_tanh: case a::eltwise_parametric_softplus:
        return {true, true};
    case a::eltwise_pow: return {false, true}; // the exponent; alpha only scales the result
    default: return {false, false};
    }
}

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
    // These three divide by alpha.
    const bool divides_by_alpha = alg == algorithm::eltwise_soft_relu
            || alg == algorithm::eltwise_softplus || alg == algorithm::eltwise_celu;
    if (divides_by_alpha && alpha == 0.f) return name + ": alpha must be non-zero";
    // A parameter that scales the argument or the result of exp, log or tanh is bounded: an
    // infinite one makes inf * 0 = NaN of ordinary inputs (elu's alpha (e^0 - 1)), and a huge or
    // denormal one makes f32 evaluation leave the range where it can follow the definition
    // (x / alpha or alpha * beta underflowing or overflowing).
    const bounded_params bounded_param = bounded_of(alg);
    const char *bounded = " must be 0 or of magnitude in [2^-32, 2^32]";
    if (bounded_param.alpha && !in_bounded_range(alpha))
        return name + ": alpha = " + value_text(alpha) + " is out of range: it"
                + (divides_by_alpha ? " must be of magnitude in [2^-32, 2^32]" : bounded);
    // pow: alpha x^beta with alpha = +-inf is +-inf or NaN (inf * 0) everywhere: no use, and f32
    // cannot follow it where x^beta underflows. Any finite alpha, 0 included, is valid.
    if (alg == algorithm::eltwise_pow && std::isinf(alpha))
        return name + ": alpha = " + value_text(alpha) + " is out of range: it must be finite";
    if (bounded_param.beta && !in_bounded_range(beta))
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
