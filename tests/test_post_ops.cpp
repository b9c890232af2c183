// prim::post_ops: building a chain, reading it back, validation of every entry, equality, and
// the algorithm table's check of forbidden parameters.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "attr/algorithm_table.hpp"
#include "prim/attr.hpp"
#include "prim/error.hpp"

using prim::algorithm;
using prim::post_ops;

namespace {

const float nan_f = std::numeric_limits<float>::quiet_NaN();
const float inf_f = std::numeric_limits<float>::infinity();

// The message of the prim::error that f throws (failing the test if it throws nothing or
// another status).
template <typename F>
std::string invalid_argument_message(F f) {
    try {
        f();
    } catch (const prim::error &e) {
        CHECK(e.get_status() == prim::status::invalid_arguments);
        return e.what();
    }
    FAIL("no prim::error thrown");
    return "";
}

bool contains(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("post_ops: append and read back", "[post_ops]") {
    post_ops po;
    CHECK(po.len() == 0);
    CHECK_FALSE(po.has_sum());

    po.append_eltwise(algorithm::eltwise_relu, 0.25f, -3.f, 2.f);
    CHECK_FALSE(po.has_sum());
    po.append_sum(0.5f);
    po.append_eltwise(algorithm::eltwise_linear, 2.f, 1.f); // default scale is 1
    po.append_sum();                                       // default scale is 1
    REQUIRE(po.len() == 4);
    CHECK(po.has_sum());

    CHECK(po.get_kind(0) == post_ops::kind::eltwise);
    CHECK(po.get_kind(1) == post_ops::kind::sum);
    CHECK(po.get_kind(2) == post_ops::kind::eltwise);
    CHECK(po.get_kind(3) == post_ops::kind::sum);

    algorithm alg = algorithm::undef;
    float alpha = 0, beta = 0, scale = 0;
    po.get_params_eltwise(0, alg, alpha, beta, scale);
    CHECK(alg == algorithm::eltwise_relu);
    CHECK(alpha == 0.25f);
    CHECK(beta == -3.f);
    CHECK(scale == 2.f);
    po.get_params_eltwise(2, alg, alpha, beta, scale);
    CHECK(alg == algorithm::eltwise_linear);
    CHECK(alpha == 2.f);
    CHECK(beta == 1.f);
    CHECK(scale == 1.f);

    po.get_params_sum(1, scale);
    CHECK(scale == 0.5f);
    po.get_params_sum(3, scale);
    CHECK(scale == 1.f);

    REQUIRE(po.entries().size() == 4);
    CHECK(po.entries()[1].kind == post_ops::kind::sum);
    CHECK(po.entries()[1].scale == 0.5f);
}

TEST_CASE("post_ops: a long chain keeps its order", "[post_ops]") {
    post_ops po;
    for (int i = 0; i < 40; ++i) {
        if (i % 3 == 0)
            po.append_sum(static_cast<float>(i));
        else
            po.append_eltwise(algorithm::eltwise_linear, static_cast<float>(i), -1.f, 0.5f);
    }
    REQUIRE(po.len() == 40);
    for (int i = 0; i < 40; ++i) {
        if (i % 3 == 0) {
            float scale = -1;
            po.get_params_sum(i, scale);
            CHECK(scale == static_cast<float>(i));
        } else {
            algorithm alg;
            float alpha, beta, scale;
            po.get_params_eltwise(i, alg, alpha, beta, scale);
            CHECK(alpha == static_cast<float>(i));
        }
    }
}

TEST_CASE("post_ops: getters refuse a bad index or the wrong kind", "[post_ops]") {
    post_ops po;
    po.append_sum(2.f);
    po.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f);
    algorithm alg;
    float alpha, beta, scale;

    std::string m = invalid_argument_message([&] { po.get_kind(2); });
    CHECK(contains(m, "get_kind"));
    CHECK(contains(m, "index 2"));
    m = invalid_argument_message([&] { po.get_kind(-1); });
    CHECK(contains(m, "index -1"));
    m = invalid_argument_message([&] { po.get_params_sum(7, scale); });
    CHECK(contains(m, "index 7"));
    m = invalid_argument_message([&] { po.get_params_eltwise(2, alg, alpha, beta, scale); });
    CHECK(contains(m, "index 2"));

    m = invalid_argument_message([&] { po.get_params_eltwise(0, alg, alpha, beta, scale); });
    CHECK(contains(m, "entry 0 is a sum"));
    m = invalid_argument_message([&] { po.get_params_sum(1, scale); });
    CHECK(contains(m, "entry 1 is an eltwise"));

    post_ops empty;
    m = invalid_argument_message([&] { empty.get_kind(0); });
    CHECK(contains(m, "index 0"));
}

TEST_CASE("post_ops: append_eltwise validates", "[post_ops]") {
    post_ops po;
    po.append_sum();
    po.append_sum();

    std::string m = invalid_argument_message(
            [&] { po.append_eltwise(algorithm::eltwise_relu, nan_f, 0.f, 1.f); });
    CHECK(contains(m, "post-op 2"));
    CHECK(contains(m, "relu: alpha is NaN"));
    m = invalid_argument_message(
            [&] { po.append_eltwise(algorithm::eltwise_clip, 0.f, nan_f, 1.f); });
    CHECK(contains(m, "clip: beta is NaN"));
    m = invalid_argument_message(
            [&] { po.append_eltwise(algorithm::eltwise_exp, 0.f, 0.f, nan_f); });
    CHECK(contains(m, "exp: scale is NaN"));

    for (algorithm alg : {algorithm::eltwise_soft_relu, algorithm::eltwise_softplus,
                 algorithm::eltwise_celu}) {
        for (float zero : {0.f, -0.f}) {
            m = invalid_argument_message([&] { po.append_eltwise(alg, zero, 0.f, 1.f); });
            CHECK(contains(m, "post-op " + std::to_string(po.len())));
            CHECK(contains(m, std::string(prim::algorithm_name(alg)) + ": alpha must be non-zero"));
        }
        po.append_eltwise(alg, -0.5f, 0.f, 1.f); // non-zero alpha, negative included, is fine
        po.append_eltwise(alg, 0x1p32f, 0.f, 1.f); // the largest magnitude allowed
        m = invalid_argument_message([&] { po.append_eltwise(alg, inf_f, 0.f, 1.f); });
        CHECK(contains(m, std::string(prim::algorithm_name(alg))
                + ": alpha = inf is out of range: it must be of magnitude in [2^-32, 2^32]"));
    }

    for (algorithm alg : {algorithm::undef, algorithm::convolution_direct,
                 static_cast<algorithm>(999)}) {
        m = invalid_argument_message([&] { po.append_eltwise(alg, 0.f, 0.f, 1.f); });
        CHECK(contains(m, "unknown eltwise algorithm"));
    }
    // Refused entries leave the chain as it was: 2 sums and the 6 good entries above.
    CHECK(po.len() == 8);
}

TEST_CASE("post_ops: zero, infinite and extreme parameters are accepted where allowed",
        "[post_ops]") {
    // The parameters that scale the argument or result of exp, log or tanh are 0 or of
    // magnitude in [2^-32, 2^32]; pow's alpha is finite; every other parameter and every scale
    // takes any value but NaN (doc/reference.md §1, "Valid parameters").
    const auto alpha_bounded = [](algorithm a) {
        return a == algorithm::eltwise_elu || a == algorithm::eltwise_soft_relu
                || a == algorithm::eltwise_softplus || a == algorithm::eltwise_celu
                || a == algorithm::eltwise_swish || a == algorithm::eltwise_selu
                || a == algorithm::eltwise_scaled_tanh || a == algorithm::eltwise_parametric_softplus;
    };
    const auto beta_bounded = [](algorithm a) {
        return a == algorithm::eltwise_selu || a == algorithm::eltwise_scaled_tanh
                || a == algorithm::eltwise_parametric_softplus || a == algorithm::eltwise_pow;
    };
    const float denorm = std::numeric_limits<float>::denorm_min();
    const float big = std::numeric_limits<float>::max();
    post_ops po;
    int refused = 0;
    for (int a = static_cast<int>(algorithm::eltwise_relu);
            a <= static_cast<int>(algorithm::eltwise_logsigmoid); ++a) {
        const algorithm alg = static_cast<algorithm>(a);
        const std::string name = prim::algorithm_name(alg);
        const bool divides_by_alpha = alg == algorithm::eltwise_soft_relu
                || alg == algorithm::eltwise_softplus || alg == algorithm::eltwise_celu;
        if (!divides_by_alpha) po.append_eltwise(alg, 0.f, 0.f, 0.f);
        // the extremes of the bounded range, with extreme scales
        po.append_eltwise(alg, -0x1p32f, 0x1p-32f, -inf_f);
        po.append_eltwise(alg, 0x1p-32f, -0x1p32f, denorm);
        for (float v : {inf_f, -inf_f, denorm, -big}) {
            const bool a_ok = !alpha_bounded(alg) && !(alg == algorithm::eltwise_pow && std::isinf(v));
            std::string m = prim::impl::check_eltwise_params(alg, v, 1.f, 1.f);
            if (a_ok) {
                CHECK(m == "");
                po.append_eltwise(alg, v, 1.f, big);
            } else {
                ++refused;
                INFO(m);
                CHECK(m.rfind(name + ": alpha = ", 0) == 0);
                CHECK(contains(m, "out of range"));
            }
            m = prim::impl::check_eltwise_params(alg, 1.f, v, 1.f);
            if (!beta_bounded(alg)) {
                CHECK(m == "");
            } else {
                ++refused;
                CHECK(m.rfind(name + ": beta = ", 0) == 0);
            }
        }
    }
    po.append_sum(0.f);
    po.append_sum(-inf_f);
    po.append_sum(inf_f);
    CHECK(refused == 4 * 8 + 2 + 4 * 4); // 8 alphas, pow's infinite alpha, 4 betas
    CHECK(po.len() == 28 + 31 * 2 + (31 - 8) * 4 - 2 + 3);
}

TEST_CASE("post_ops: append_sum validates", "[post_ops]") {
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    std::string m = invalid_argument_message([&] { po.append_sum(nan_f); });
    CHECK(contains(m, "post-op 1"));
    CHECK(contains(m, "scale is NaN"));
    CHECK(po.len() == 1);
    CHECK_FALSE(po.has_sum());
}

TEST_CASE("post_ops: equality is exact and order matters", "[post_ops]") {
    post_ops a, b;
    CHECK(a == b);
    a.append_sum(1.f);
    CHECK(a != b);
    a.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    b.append_sum(1.f);
    b.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    CHECK(a == b);

    post_ops relu_then_sum;
    relu_then_sum.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    relu_then_sum.append_sum(1.f);
    CHECK(a != relu_then_sum);

    post_ops other_scale, other_beta, other_alg, negative_zero;
    other_scale.append_sum(1.f);
    other_scale.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f, 1.0000001f);
    other_beta.append_sum(1.f);
    other_beta.append_eltwise(algorithm::eltwise_relu, 0.f, 1e-30f);
    other_alg.append_sum(1.f);
    other_alg.append_eltwise(algorithm::eltwise_elu, 0.f, 0.f);
    // -0 and +0 print differently ("relu:-0"), so they are different chains.
    negative_zero.append_sum(1.f);
    negative_zero.append_eltwise(algorithm::eltwise_relu, -0.f, 0.f);
    CHECK(a != other_scale);
    CHECK(a != other_beta);
    CHECK(a != other_alg);
    CHECK(a != negative_zero);

    post_ops infinite_1, infinite_2;
    infinite_1.append_eltwise(algorithm::eltwise_clip, -inf_f, inf_f);
    infinite_2.append_eltwise(algorithm::eltwise_clip, -inf_f, inf_f);
    CHECK(infinite_1 == infinite_2);
}

TEST_CASE("check_eltwise_params: messages", "[post_ops]") {
    using prim::impl::check_eltwise_params;
    CHECK(check_eltwise_params(algorithm::eltwise_relu, 0.f, 0.f, 1.f) == "");
    CHECK(check_eltwise_params(algorithm::eltwise_relu, nan_f, 0.f, 1.f) == "relu: alpha is NaN");
    CHECK(check_eltwise_params(algorithm::eltwise_gelu_erf, 0.f, nan_f, 1.f)
            == "gelu_erf: beta is NaN");
    CHECK(check_eltwise_params(algorithm::eltwise_pow, 1.f, 1.f, nan_f) == "pow: scale is NaN");
    CHECK(check_eltwise_params(algorithm::eltwise_soft_relu, 0.f, 0.f, 1.f)
            == "soft_relu: alpha must be non-zero");
    CHECK(check_eltwise_params(algorithm::eltwise_softplus, -0.f, 0.f, 1.f)
            == "softplus: alpha must be non-zero");
    CHECK(check_eltwise_params(algorithm::eltwise_celu, 0.f, 5.f, 1.f)
            == "celu: alpha must be non-zero");
    CHECK(check_eltwise_params(algorithm::eltwise_celu, 0x1p-32f, 5.f, 1.f) == "");
    CHECK(check_eltwise_params(algorithm::eltwise_celu, 1e-38f, 5.f, 1.f)
            == "celu: alpha = 9.99999935e-39 is out of range: it must be of magnitude in "
               "[2^-32, 2^32]");
    CHECK(check_eltwise_params(algorithm::eltwise_parametric_softplus, 1.f, 1e-42f, 1.f)
            == "parametric_softplus: beta = 1.0005271e-42 is out of range: it must be 0 or of "
               "magnitude in [2^-32, 2^32]");
    CHECK(check_eltwise_params(algorithm::eltwise_selu, -3.40282347e+38f, 1.f, 1.f)
            == "selu: alpha = -3.40282347e+38 is out of range: it must be 0 or of magnitude in "
               "[2^-32, 2^32]");
    CHECK(check_eltwise_params(algorithm::eltwise_pow, -inf_f, 2.f, 1.f)
            == "pow: alpha = -inf is out of range: it must be finite");
    CHECK(check_eltwise_params(algorithm::eltwise_pow, 0.f, inf_f, 1.f)
            == "pow: beta = inf is out of range: it must be 0 or of magnitude in [2^-32, 2^32]");
    // still valid: clip to +inf, clip with alpha > beta, relu/hardswish with infinite alphas
    CHECK(check_eltwise_params(algorithm::eltwise_clip, 0.f, inf_f, inf_f) == "");
    CHECK(check_eltwise_params(algorithm::eltwise_clip, 2.f, 1.f, 1.f) == "");
    CHECK(check_eltwise_params(algorithm::eltwise_relu, -inf_f, 0.f, 1.f) == "");
    CHECK(check_eltwise_params(algorithm::eltwise_hardswish, inf_f, -inf_f, 1.f) == "");
    // Only alpha is special: a zero beta or scale is fine for the same algorithms.
    CHECK(check_eltwise_params(algorithm::eltwise_soft_relu, 1.f, 0.f, 0.f) == "");
    CHECK(check_eltwise_params(algorithm::eltwise_logsigmoid, 0.f, 0.f, 1.f) == "");
    CHECK(check_eltwise_params(algorithm::undef, 0.f, 0.f, 1.f) == "unknown eltwise algorithm");
    CHECK(check_eltwise_params(algorithm::convolution_direct, 0.f, 0.f, 1.f)
            == "unknown eltwise algorithm");
}
