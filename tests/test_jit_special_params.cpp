// Extreme parameters (issue 11): every eltwise algorithm with every parameter value the table
// accepts among +-0, +-denormal, +-FLT_MIN, +-0.5, +-1, +-2, +-FLT_MAX, +-inf (and a few
// algorithm-specific ones: pow's integer and half-integer betas), over the special inputs
// (+-0, +-denormal, +-FLT_MIN, +-1, +-FLT_MAX, +-inf, NaN, ...), JIT on both ISAs against the
// double reference prim::impl::eltwise_fwd rounded to f32.
//
// Rule: NaN exactly where the reference is NaN; elsewhere the f32 distance of
// test_jit_accuracy.cpp (ulps on the f32 number line, so inf against FLT_MAX is 1; below 2^-20
// in magnitude the absolute floor) within the algorithm's bound. Refused parameters are
// refused with a message naming the algorithm, the parameter and the value.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attr/algorithm_table.hpp"
#include "attr/eltwise_math.hpp"
#include "isa_under_test.hpp"
#include "jit/gen/cpu_isa_detect.hpp"
#include "jit/eltwise/eltwise_kernel.hpp"
#include "ref/ref_kernels.hpp"

using namespace prim;
using prim::jit::eltwise_call_args;
using prim::jit::eltwise_kernel_fn;

#include "eltwise_test_util.hpp"

using eltwise_test::all_algorithms;
using eltwise_test::ulp_error;

namespace {

const float denorm = 1e-42f;

std::vector<float> special_inputs() {
    std::vector<float> in = {NAN};
    for (float v : {0.f, denorm, 1e-40f, FLT_MIN, 1e-30f, 1e-7f, 0.5f, 1.f, 1.5f, 2.f, 3.f, 10.f,
                    88.8f, 100.f, 1e20f, FLT_MAX, INFINITY}) {
        in.push_back(v);
        in.push_back(-v);
    }
    return in;
}

std::vector<float> special_params() {
    std::vector<float> p;
    for (float v : {0.f, denorm, FLT_MIN, 0.5f, 1.f, 2.f, FLT_MAX, INFINITY}) {
        p.push_back(v);
        p.push_back(-v);
    }
    return p;
}

// The bound of doc/injector.md's accuracy table, the largest row of the algorithm (pow: see
// pow_bound).
double bound_of(algorithm a) {
    switch (a) {
    case algorithm::eltwise_hardsigmoid: case algorithm::eltwise_hardswish:
    case algorithm::eltwise_softsign: return 1;
    case algorithm::eltwise_exp: return 2;
    case algorithm::eltwise_elu: case algorithm::eltwise_tanh: case algorithm::eltwise_logistic:
    case algorithm::eltwise_log: case algorithm::eltwise_gelu_tanh: case algorithm::eltwise_swish:
    case algorithm::eltwise_scaled_tanh: case algorithm::eltwise_selu:
    case algorithm::eltwise_celu: return 3;
    case algorithm::eltwise_soft_relu: case algorithm::eltwise_softplus: case algorithm::eltwise_mish:
    case algorithm::eltwise_parametric_softplus: case algorithm::eltwise_logsigmoid: return 4;
    case algorithm::eltwise_gelu_erf: return 5;
    default: return 0;
    }
}
double pow_bound(float beta) {
    if (std::fabs(beta) <= 3.f) return 8;
    return std::max(4.0, std::fabs(static_cast<double>(beta)) + 1);
}

std::string name_of(algorithm a, float alpha, float beta, float scale = 1.f) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s:%.9g:%.9g:%.9g", algorithm_name(a), alpha, beta, scale);
    return buf;
}

// doc/injector.md, "Where f32 evaluation differs": pow with alpha != +-1 forms x^|beta| in f32
// before alpha joins, so where that intermediate leaves f32's normal range at a finite x != 0
// the result may be +-inf or 0 where the double reference is finite (NaN still matches).
bool pow_intermediate_out_of_range(float alpha, float beta, float x) {
    if (alpha == 1.f || alpha == -1.f || alpha == 0.f || x == 0.f || !std::isfinite(x)) return false;
    const double m = std::pow(std::fabs(static_cast<double>(x)), std::fabs(static_cast<double>(beta)));
    return m > FLT_MAX || m < FLT_MIN;
}

// The class of a result: NaN, +inf, -inf, zero (|v| < FLT_MIN: the JIT makes no denormal, it
// flushes them, doc/injector.md), or finite.
enum class value_class { nan, plus_inf, minus_inf, zero, finite };
value_class class_of(float v) {
    if (std::isnan(v)) return value_class::nan;
    if (std::isinf(v)) return v > 0 ? value_class::plus_inf : value_class::minus_inf;
    return std::fabs(v) < FLT_MIN ? value_class::zero : value_class::finite;
}
const char *class_name(value_class c) {
    switch (c) {
    case value_class::nan: return "NaN";
    case value_class::plus_inf: return "+inf";
    case value_class::minus_inf: return "-inf";
    case value_class::zero: return "0";
    default: return "finite";
    }
}

// Runs chain (one eltwise) on both ISAs against the reference chain; returns the failures.
// exempt(x): the documented points where f32 evaluation differs: 1 = only NaN-ness must match,
// 2 = anything goes (pow's intermediate out of range, below, times an extreme scale: its 0 or
// infinity where the reference is finite becomes NaN or a wrong class there), 3 = only the class
// (class_of) must match: the reference rounds f to f32 before the scale, so
// where f is an f32 denormal its few bits, times a huge scale, set the result; the JIT must
// still give the reference's NaN, infinity, zero or finite value (issue 30).
template <class Exempt>
int check_chain(const post_ops &chain, double bound, const std::string &name, Exempt exempt) {
    const std::vector<float> in = special_inputs();
    std::vector<float> ref(in.size());
    for (size_t i = 0; i < in.size(); ++i) ref[i] = impl::ref_apply_post_ops(chain, in[i], 0.f);
    std::vector<std::pair<const char *, std::vector<float>>> outs;
    prim_test::for_each_isa_under_test([&](auto isa) {
        outs.push_back({cpu_isa_name(isa()), eltwise_test::run_eltwise_kernel<isa()>(chain, in)});
    });
    int failures = 0;
    for (const auto &o : outs)
        for (size_t i = 0; i < in.size(); ++i) {
            const double e = ulp_error(o.second[i], ref[i]);
            if (e <= bound) continue;
            const int ex = exempt(in[i]);
            if (ex == 2 || (ex == 1 && std::isnan(o.second[i]) == std::isnan(ref[i]))) continue;
            if (ex == 3 && class_of(o.second[i]) == class_of(ref[i])) continue;
            if (failures++ < 4)
                std::printf("  %s %s x=%g: got %g (%s), ref %g (%s) (%g ulp)\n", o.first,
                            name.c_str(), in[i], o.second[i], class_name(class_of(o.second[i])),
                            ref[i], class_name(class_of(ref[i])), e);
        }
    return failures;
}

} // namespace

TEST_CASE("jit eltwise: every accepted extreme parameter agrees with the reference at the "
          "special inputs, both ISAs, with scales 1, FLT_MAX and -inf", "[jit][accuracy][special]") {
    const std::vector<float> params = special_params();
    int cases = 0, refused = 0, failed = 0;
    for (algorithm a : all_algorithms()) {
        std::vector<float> alphas = impl::find_algorithm(a)->uses_alpha ? params : std::vector<float>{impl::find_algorithm(a)->default_alpha};
        std::vector<float> betas = impl::find_algorithm(a)->uses_beta ? params : std::vector<float>{impl::find_algorithm(a)->default_beta};
        if (a == algorithm::eltwise_pow)
            for (float b : {3.f, -3.f, 0.5f, -0.5f, 2.5f, -2.5f, 7.f, 25.f, -25.f, 1e10f})
                betas.push_back(b);
        for (float alpha : alphas)
            for (float beta : betas) {
                const std::string problem = impl::check_eltwise_params(a, alpha, beta, 1.f);
                const std::string name = name_of(a, alpha, beta);
                if (!problem.empty()) {
                    ++refused;
                    INFO(name << ": " << problem);
                    CHECK(problem.find(algorithm_name(a)) == 0);
                    continue;
                }
                // The scales that lift a denormal f back into range or to an infinity, where
                // only the class must match (check_chain), as for the scale sweep below.
                for (float scale : {1.f, FLT_MAX, -INFINITY}) {
                    post_ops chain;
                    chain.append_eltwise(a, alpha, beta, scale);
                    ++cases;
                    const double bound = a == algorithm::eltwise_pow ? pow_bound(beta) : bound_of(a);
                    const bool is_pow = a == algorithm::eltwise_pow;
                    const std::string scaled = scale == 1.f ? name : name_of(a, alpha, beta, scale);
                    const int f = check_chain(chain, bound, scaled, [&](float x) {
                        if (is_pow && pow_intermediate_out_of_range(alpha, beta, x))
                            return scale == 1.f ? 1 : 2;
                        const float fx = static_cast<float>(impl::eltwise_fwd(a, x, alpha, beta));
                        return scale != 1.f && std::fpclassify(fx) == FP_SUBNORMAL ? 3 : 0;
                    });
                    if (f) ++failed;
                    INFO(scaled);
                    CHECK(f == 0);
                }
            }
    }
    std::printf("extreme parameters: %d cases, %d refused, %d failed\n", cases, refused, failed);
}

// Scales: every value but NaN is valid (scale:inf, sum:inf included), on the f32 value of f,
// with the same result on both ISAs and in the reference: the sweep of the parameters above, for
// the scale, over every algorithm at its default parameters.
TEST_CASE("jit eltwise: extreme scales and sum scales agree with the reference, both ISAs",
          "[jit][accuracy][special]") {
    int cases = 0;
    for (algorithm a : all_algorithms())
        for (float scale : special_params()) {
            const impl::algorithm_info *info = impl::find_algorithm(a);
            REQUIRE(impl::check_eltwise_params(a, info->default_alpha, info->default_beta, scale) == "");
            post_ops chain;
            chain.append_eltwise(a, info->default_alpha, info->default_beta, scale);
            ++cases;
            const std::string name = name_of(a, info->default_alpha, info->default_beta, scale);
            INFO(name);
            // Where f is an f32 denormal, only the class of scale * f must match (check_chain).
            const auto denormal = [&](float x) {
                const float f = static_cast<float>(
                        impl::eltwise_fwd(a, x, info->default_alpha, info->default_beta));
                return std::fpclassify(f) == FP_SUBNORMAL ? 3 : 0;
            };
            const double bound = a == algorithm::eltwise_pow ? pow_bound(info->default_beta)
                                                             : std::max(4.0, bound_of(a));
            CHECK(check_chain(chain, bound, name, denormal) == 0);
        }
    // sum:inf and friends, after an eltwise (dst_old = 0 here: inf * 0 = NaN on every side)
    for (float scale : special_params()) {
        post_ops chain;
        chain.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f, 1.f);
        chain.append_sum(scale);
        INFO("relu+sum:" << scale);
        CHECK(check_chain(chain, 0, "relu+sum", [](float) { return 0; }) == 0);
        ++cases;
    }
    std::printf("extreme scales: %d cases\n", cases);
}
