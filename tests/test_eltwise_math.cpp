// The scalar oracle of every eltwise algorithm (src/attr/eltwise_math.cpp) against values
// computed by hand or with 40-digit arithmetic (mpmath), NaN and infinity behaviour, and the
// numerically careful forms near zero and in the tails.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "attr/eltwise_math.hpp"
#include "prim/error.hpp"

using prim::algorithm;
using prim::impl::eltwise_fwd;

#include "eltwise_test_util.hpp"

using eltwise_test::all_algorithms;

namespace {

const double inf = std::numeric_limits<double>::infinity();
const double qnan = std::numeric_limits<double>::quiet_NaN();

double f(algorithm alg, double x, double alpha = 0, double beta = 0) {
    return eltwise_fwd(alg, x, alpha, beta);
}

// Relative closeness for values computed in double (a few ulps).
Approx near(double want) { return Approx(want).epsilon(1e-14).margin(0); }

} // namespace

TEST_CASE("relu, leaky relu", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_relu, 3.0) == 3.0);
    CHECK(f(algorithm::eltwise_relu, -2.0) == 0.0);
    CHECK(f(algorithm::eltwise_relu, 0.0) == 0.0);
    CHECK(f(algorithm::eltwise_relu, -2.0, 0.1) == near(-0.2));
    CHECK(f(algorithm::eltwise_relu, 2.0, 0.1) == 2.0);
    CHECK(f(algorithm::eltwise_relu, -inf) == 0.0); // the limit, not 0 * -inf
    CHECK(f(algorithm::eltwise_relu, inf) == inf);
    CHECK(f(algorithm::eltwise_relu, -inf, 0.5) == -inf);
}

TEST_CASE("tanh", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_tanh, 0.5) == near(0.46211715726000976));
    CHECK(f(algorithm::eltwise_tanh, -0.5) == near(-0.46211715726000976));
    CHECK(f(algorithm::eltwise_tanh, 1e-10) == near(1e-10));
    CHECK(f(algorithm::eltwise_tanh, -40.0) == -1.0);
    CHECK(f(algorithm::eltwise_tanh, inf) == 1.0);
    CHECK(f(algorithm::eltwise_tanh, -inf) == -1.0);
}

TEST_CASE("elu is accurate near zero", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_elu, 2.0, 1.0) == 2.0);
    CHECK(f(algorithm::eltwise_elu, -1.0, 0.5) == near(-0.31606027941427884));
    // exp(x) - 1 would lose half the digits here; expm1 keeps them.
    CHECK(f(algorithm::eltwise_elu, -1e-8, 1.0) == near(-9.9999999500000002e-9));
    CHECK(f(algorithm::eltwise_elu, -inf, 2.0) == -2.0);
    CHECK(f(algorithm::eltwise_elu, inf, 2.0) == inf);
}

TEST_CASE("square, abs, sqrt, exp, log", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_square, -3.0) == 9.0);
    CHECK(f(algorithm::eltwise_square, -inf) == inf);
    CHECK(f(algorithm::eltwise_abs, -2.5) == 2.5);
    CHECK(f(algorithm::eltwise_abs, -inf) == inf);
    CHECK(f(algorithm::eltwise_sqrt, 2.0) == near(1.4142135623730951));
    CHECK(std::isnan(f(algorithm::eltwise_sqrt, -1.0)));
    CHECK(f(algorithm::eltwise_sqrt, inf) == inf);
    CHECK(f(algorithm::eltwise_exp, 1.0) == near(2.718281828459045));
    CHECK(f(algorithm::eltwise_exp, -inf) == 0.0);
    CHECK(f(algorithm::eltwise_exp, 1000.0) == inf);
    CHECK(f(algorithm::eltwise_log, std::exp(1.0)) == near(1.0));
    CHECK(f(algorithm::eltwise_log, 0.0) == -inf);
    CHECK(std::isnan(f(algorithm::eltwise_log, -1.0)));
    CHECK(f(algorithm::eltwise_log, inf) == inf);
}

TEST_CASE("linear", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_linear, 2.0, 3.0, 1.0) == 7.0);
    CHECK(f(algorithm::eltwise_linear, -2.0, 0.5, -1.0) == -2.0);
    CHECK(f(algorithm::eltwise_linear, inf, 0.0, 5.0) == 5.0); // constant function
    CHECK(f(algorithm::eltwise_linear, -inf, 2.0, 5.0) == -inf);
}

TEST_CASE("clip and clip_v2", "[eltwise_math]") {
    for (algorithm alg : {algorithm::eltwise_clip, algorithm::eltwise_clip_v2}) {
        CHECK(f(alg, -5.0, -1.0, 2.0) == -1.0);
        CHECK(f(alg, 5.0, -1.0, 2.0) == 2.0);
        CHECK(f(alg, 0.5, -1.0, 2.0) == 0.5);
        CHECK(f(alg, 2.0, -1.0, 2.0) == 2.0);
        CHECK(f(alg, inf, -1.0, 2.0) == 2.0);
        CHECK(f(alg, -inf, -1.0, 2.0) == -1.0);
        CHECK(f(alg, 7.0, -inf, inf) == 7.0); // the fusion-string defaults
        CHECK(f(alg, 1.0, 0.0, 6.0) == 1.0);  // bounded_relu:6
    }
}

TEST_CASE("soft_relu and softplus are stable for large |x|", "[eltwise_math]") {
    for (algorithm alg : {algorithm::eltwise_soft_relu, algorithm::eltwise_softplus}) {
        CHECK(f(alg, 0.0, 1.0) == near(0.69314718055994531));
        CHECK(f(alg, 100.0, 1.0) == near(100.0));
        CHECK(f(alg, -100.0, 1.0) == near(3.720075976020836e-44));
        CHECK(f(alg, 1000.0, 1.0) == near(1000.0)); // not log(inf)
        CHECK(f(alg, 1.0, 2.0) == near(1.0634640055214862));
        CHECK(f(alg, -1.0, -1.0) == near(-1.3132616875182228));
        CHECK(f(alg, inf, 1.0) == inf);
        CHECK(f(alg, -inf, 1.0) == 0.0);
    }
}

TEST_CASE("logistic never overflows", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_logistic, 0.0) == 0.5);
    CHECK(f(algorithm::eltwise_logistic, 2.0) == near(0.88079707797788244));
    CHECK(f(algorithm::eltwise_logistic, -2.0) == near(1 - 0.88079707797788244));
    CHECK(f(algorithm::eltwise_logistic, -700.0) == near(9.8596765437597709e-305));
    CHECK(f(algorithm::eltwise_logistic, -1000.0) == 0.0); // e^-1000 underflows double
    CHECK(f(algorithm::eltwise_logistic, 1000.0) == 1.0);
    CHECK(f(algorithm::eltwise_logistic, -inf) == 0.0);
    CHECK(f(algorithm::eltwise_logistic, inf) == 1.0);
}

TEST_CASE("gelu_tanh and gelu_erf, including the negative tail", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_gelu_tanh, 1.0) == near(0.8411919906082767));
    CHECK(f(algorithm::eltwise_gelu_tanh, 0.5) == near(0.34571400982514392));
    CHECK(f(algorithm::eltwise_gelu_tanh, -3.0) == Approx(-0.0036373920817730188).epsilon(1e-13));
    // 1 + tanh(u) cancels to 0 in double here; the logistic form keeps the value.
    CHECK(f(algorithm::eltwise_gelu_tanh, -10.0) == Approx(-1.204092348209806e-37).epsilon(1e-12));
    CHECK(f(algorithm::eltwise_gelu_tanh, 1000.0) == 1000.0);
    CHECK(f(algorithm::eltwise_gelu_tanh, -inf) == 0.0);
    CHECK(f(algorithm::eltwise_gelu_tanh, inf) == inf);

    CHECK(f(algorithm::eltwise_gelu_erf, 1.0) == near(0.8413447460685429));
    CHECK(f(algorithm::eltwise_gelu_erf, -3.0) == Approx(-0.0040496940948902836).epsilon(1e-13));
    CHECK(f(algorithm::eltwise_gelu_erf, -10.0) == Approx(-7.6198530241605261e-23).epsilon(1e-12));
    CHECK(f(algorithm::eltwise_gelu_erf, 0.0) == 0.0);
    CHECK(f(algorithm::eltwise_gelu_erf, -inf) == 0.0);
    CHECK(f(algorithm::eltwise_gelu_erf, inf) == inf);
}

TEST_CASE("swish", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_swish, 2.0, 1.0) == near(1.7615941559557649));
    CHECK(f(algorithm::eltwise_swish, 1.0, 2.0) == near(0.88079707797788244));
    CHECK(f(algorithm::eltwise_swish, 3.0, 0.0) == 1.5); // x / 2
    CHECK(f(algorithm::eltwise_swish, -1000.0, 1.0) == 0.0);
    CHECK(f(algorithm::eltwise_swish, -inf, 1.0) == 0.0);
    CHECK(f(algorithm::eltwise_swish, inf, 1.0) == inf);
    CHECK(f(algorithm::eltwise_swish, inf, -1.0) == 0.0);
}

TEST_CASE("hardsigmoid and hardswish", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_hardsigmoid, 1.0, 0.2, 0.5) == near(0.7));
    CHECK(f(algorithm::eltwise_hardsigmoid, 10.0, 0.2, 0.5) == 1.0);
    CHECK(f(algorithm::eltwise_hardsigmoid, -10.0, 0.2, 0.5) == 0.0);
    CHECK(f(algorithm::eltwise_hardsigmoid, inf, 0.0, 0.25) == 0.25);
    const double a = 1.0 / 6.0;
    CHECK(f(algorithm::eltwise_hardswish, 1.0, a, 0.5) == near(2.0 / 3.0));
    CHECK(f(algorithm::eltwise_hardswish, 4.0, a, 0.5) == 4.0);
    CHECK(f(algorithm::eltwise_hardswish, -4.0, a, 0.5) == 0.0);
    CHECK(f(algorithm::eltwise_hardswish, -1.5, a, 0.5) == near(-1.5 * 0.25));
    CHECK(f(algorithm::eltwise_hardswish, -inf, a, 0.5) == 0.0);
    CHECK(f(algorithm::eltwise_hardswish, inf, a, 0.5) == inf);
}

TEST_CASE("mish", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_mish, 1.0) == near(0.86509838826731035));
    CHECK(f(algorithm::eltwise_mish, -30.0) == Approx(-2.807286890651921e-12).epsilon(1e-12));
    CHECK(f(algorithm::eltwise_mish, 100.0) == 100.0);
    CHECK(f(algorithm::eltwise_mish, 1e30) == 1e30);
    CHECK(f(algorithm::eltwise_mish, -inf) == 0.0);
    CHECK(f(algorithm::eltwise_mish, inf) == inf);
}

TEST_CASE("pow follows C's rules", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_pow, 2.0, 1.0, 3.0) == 8.0);
    CHECK(f(algorithm::eltwise_pow, -2.0, 1.0, 3.0) == -8.0);     // integer beta: real
    CHECK(f(algorithm::eltwise_pow, -2.0, 1.0, 2.0) == 4.0);
    CHECK(std::isnan(f(algorithm::eltwise_pow, -8.0, 1.0, 1.0 / 3))); // else NaN
    CHECK(f(algorithm::eltwise_pow, 0.0, 1.0, -1.0) == inf);      // 0^negative = +inf
    CHECK(f(algorithm::eltwise_pow, 4.0, 0.5, 0.5) == 1.0);
    CHECK(f(algorithm::eltwise_pow, 0.0, 3.0, 0.0) == 3.0);       // x^0 = 1
    CHECK(f(algorithm::eltwise_pow, 4.0, -2.0, -0.5) == -1.0);
    CHECK(f(algorithm::eltwise_pow, inf, 1.0, -1.0) == 0.0);
    CHECK(f(algorithm::eltwise_pow, -inf, 1.0, 3.0) == -inf);
    CHECK(f(algorithm::eltwise_pow, inf, 0.0, 2.0) == 0.0);       // alpha 0: the limit
}

TEST_CASE("round is half to even", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_round, 2.5) == 2.0);
    CHECK(f(algorithm::eltwise_round, 3.5) == 4.0);
    CHECK(f(algorithm::eltwise_round, -2.5) == -2.0);
    CHECK(f(algorithm::eltwise_round, 0.5) == 0.0);
    CHECK(f(algorithm::eltwise_round, 1.4999999) == 1.0);
    CHECK(f(algorithm::eltwise_round, -0.6) == -1.0);
    CHECK(f(algorithm::eltwise_round, inf) == inf);
}

TEST_CASE("celu and selu", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_celu, 2.0, 1.0) == 2.0);
    CHECK(f(algorithm::eltwise_celu, -1.0, 1.0) == near(-0.63212055882855768));
    CHECK(f(algorithm::eltwise_celu, -1.0, 2.0) == near(-0.78693868057473315));
    CHECK(f(algorithm::eltwise_celu, -1e-9, 1.0) == near(std::expm1(-1e-9)));
    CHECK(f(algorithm::eltwise_celu, -inf, 2.0) == -2.0);
    CHECK(f(algorithm::eltwise_celu, inf, 2.0) == inf);
    CHECK(f(algorithm::eltwise_celu, 1.0, -1.0) == 1.0); // negative alpha: min(0, +) = 0

    const double a = 1.6732632423543772, b = 1.0507009873554805;
    CHECK(f(algorithm::eltwise_selu, 1.0, a, b) == near(b));
    CHECK(f(algorithm::eltwise_selu, -1.0, a, b) == near(-1.1113307378125627));
    CHECK(f(algorithm::eltwise_selu, -1e-10, a, b) == near(a * b * std::expm1(-1e-10)));
    CHECK(f(algorithm::eltwise_selu, -inf, a, b) == near(-a * b));
    CHECK(f(algorithm::eltwise_selu, inf, a, b) == inf);
}

TEST_CASE("softsign, shrink, thresholded_relu", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_softsign, 3.0) == 0.75);
    CHECK(f(algorithm::eltwise_softsign, -1.0) == -0.5);
    CHECK(f(algorithm::eltwise_softsign, inf) == 1.0);
    CHECK(f(algorithm::eltwise_softsign, -inf) == -1.0);

    // shrink: alpha = 0.5 is the shift, beta = 1 the threshold.
    CHECK(f(algorithm::eltwise_shrink, 2.0, 0.5, 1.0) == 1.5);
    CHECK(f(algorithm::eltwise_shrink, -2.0, 0.5, 1.0) == -1.5);
    CHECK(f(algorithm::eltwise_shrink, 0.5, 0.5, 1.0) == 0.0);
    CHECK(f(algorithm::eltwise_shrink, 1.0, 0.5, 1.0) == 0.0);  // not > beta
    CHECK(f(algorithm::eltwise_shrink, -1.0, 0.5, 1.0) == 0.0); // not < -beta
    CHECK(f(algorithm::eltwise_shrink, inf, 0.5, 1.0) == inf);

    CHECK(f(algorithm::eltwise_thresholded_relu, 2.0, 1.0) == 2.0);
    CHECK(f(algorithm::eltwise_thresholded_relu, 1.0, 1.0) == 0.0);
    CHECK(f(algorithm::eltwise_thresholded_relu, 0.5, 1.0) == 0.0);
    CHECK(f(algorithm::eltwise_thresholded_relu, -3.0, -5.0) == -3.0);
}

TEST_CASE("scaled_tanh, parametric_softplus, identity, logsigmoid", "[eltwise_math]") {
    CHECK(f(algorithm::eltwise_scaled_tanh, 1.0, 2.0, 0.5) == near(0.92423431452001952));
    CHECK(f(algorithm::eltwise_scaled_tanh, inf, 2.0, 0.5) == 2.0);
    CHECK(f(algorithm::eltwise_scaled_tanh, inf, 2.0, 0.0) == 0.0);

    CHECK(f(algorithm::eltwise_parametric_softplus, 1.0, 2.0, 3.0) == near(6.0971747031474841));
    CHECK(f(algorithm::eltwise_parametric_softplus, 100.0, 2.0, 3.0) == near(600.0));
    CHECK(f(algorithm::eltwise_parametric_softplus, -100.0, 2.0, 3.0)
          == near(1.0296400444824028e-130));
    CHECK(f(algorithm::eltwise_parametric_softplus, inf, 1.0, 1.0) == inf);
    CHECK(f(algorithm::eltwise_parametric_softplus, inf, 0.0, 1.0) == 0.0);

    CHECK(f(algorithm::eltwise_identity, 5.5) == 5.5);
    CHECK(f(algorithm::eltwise_identity, -inf) == -inf);

    CHECK(f(algorithm::eltwise_logsigmoid, 0.0) == near(-0.69314718055994531));
    CHECK(f(algorithm::eltwise_logsigmoid, 1.0) == near(-0.31326168751822283));
    CHECK(f(algorithm::eltwise_logsigmoid, 100.0) == near(-3.720075976020836e-44));
    CHECK(f(algorithm::eltwise_logsigmoid, -1000.0) == near(-1000.0)); // not log(0)
    CHECK(f(algorithm::eltwise_logsigmoid, -inf) == -inf);
    CHECK(f(algorithm::eltwise_logsigmoid, inf) == 0.0);
}

TEST_CASE("NaN in gives NaN out for every algorithm and parameters", "[eltwise_math]") {
    const double params[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {-inf, inf}, {0.2, 0.5}, {2, -3}};
    for (algorithm alg : all_algorithms())
        for (const auto &p : params) {
            INFO("algorithm " << static_cast<int>(alg) << " alpha " << p[0] << " beta " << p[1]);
            CHECK(std::isnan(f(alg, qnan, p[0], p[1])));
            CHECK(std::isnan(f(alg, -qnan, p[0], p[1])));
        }
}

TEST_CASE("infinite inputs give the limit, never NaN, where it exists", "[eltwise_math]") {
    // Parameters that keep every algorithm's limit at both infinities defined.
    for (algorithm alg : all_algorithms()) {
        if (alg == algorithm::eltwise_sqrt || alg == algorithm::eltwise_log) continue;
        INFO("algorithm " << static_cast<int>(alg));
        const double alpha = alg == algorithm::eltwise_pow ? 1.0 : 0.5;
        const double beta = alg == algorithm::eltwise_pow ? 2.0 : 1.5;
        CHECK_FALSE(std::isnan(f(alg, inf, alpha, beta)));
        CHECK_FALSE(std::isnan(f(alg, -inf, alpha, beta)));
    }
}

TEST_CASE("aliases of the reference agree", "[eltwise_math]") {
    for (double x : {-50.0, -3.0, -0.25, 0.0, 0.7, 4.0, 60.0}) {
        CHECK(f(algorithm::eltwise_softplus, x, 0.5) == f(algorithm::eltwise_soft_relu, x, 0.5));
        CHECK(f(algorithm::eltwise_clip_v2, x, -1, 2) == f(algorithm::eltwise_clip, x, -1, 2));
        if (std::fabs(x) < 5) // beyond, logistic(x) rounds to 1 and its log to 0
            CHECK(f(algorithm::eltwise_logsigmoid, x)
                  == near(std::log(f(algorithm::eltwise_logistic, x))));
        CHECK(f(algorithm::eltwise_logsigmoid, x) == -f(algorithm::eltwise_soft_relu, -x, 1.0));
        CHECK(f(algorithm::eltwise_parametric_softplus, x, 1, 1)
              == near(f(algorithm::eltwise_soft_relu, x, 1.0)));
    }
}

TEST_CASE("a non-eltwise algorithm is rejected", "[eltwise_math]") {
    for (algorithm alg : {algorithm::undef, algorithm::convolution_direct,
                          static_cast<algorithm>(999)}) {
        try {
            f(alg, 1.0);
            FAIL("no exception");
        } catch (const prim::error &e) {
            CHECK(e.get_status() == prim::status::invalid_arguments);
        }
        CHECK_THROWS_AS(f(alg, qnan), prim::error);
    }
}
