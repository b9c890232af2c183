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
    for (const algorithm alg : prim::impl::eltwise_algorithms()) {
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
            == "celu: alpha = 1e-38 is out of range: it must be of magnitude in "
               "[2^-32, 2^32]");
    CHECK(check_eltwise_params(algorithm::eltwise_parametric_softplus, 1.f, 1e-42f, 1.f)
            == "parametric_softplus: beta = 1e-42 is out of range: it must be 0 or of "
               "magnitude in [2^-32, 2^32]");
    CHECK(check_eltwise_params(algorithm::eltwise_selu, -3.40282347e+38f, 1.f, 1.f)
            == "selu: alpha = -3.4028235e+38 is out of range: it must be 0 or of magnitude in "
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

// ---- binary and prelu entries ---------------------------------------------------------------

namespace {

using prim::memory;
using md = prim::memory::desc;
const auto f32 = prim::memory::data_type::f32;

} // namespace

TEST_CASE("post_ops: binary and prelu entries append and read back", "[post_ops][binary]") {
    post_ops po;
    CHECK_FALSE(po.has_operands());
    const md src1({1, 19, 1, 1}, f32, memory::format_tag::nchw);
    po.append_binary(algorithm::binary_add, src1);
    CHECK(po.has_operands());
    po.append_sum(0.5f);
    po.append_binary(algorithm::binary_max, post_ops::policy::per_mb_spatial);
    po.append_prelu(post_ops::policy::per_oc);
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_prelu(5); // a custom mask: dims 0 and 2
    REQUIRE(po.len() == 6);
    CHECK(po.get_kind(0) == post_ops::kind::binary);
    CHECK(po.get_kind(2) == post_ops::kind::binary);
    CHECK(po.get_kind(3) == post_ops::kind::prelu);
    CHECK(po.get_kind(5) == post_ops::kind::prelu);
    CHECK(po.has_sum());

    algorithm alg = algorithm::undef;
    md got;
    int mask = -42;
    po.get_params_binary(0, alg, got);
    CHECK(alg == algorithm::binary_add);
    CHECK(got == src1);
    // The policy of a given src1 is derived from its dims: 1x19x1x1 varies along dim 1 only.
    po.get_params_binary(0, alg, mask);
    CHECK(mask == post_ops::policy::per_oc);

    po.get_params_binary(2, alg, got);
    CHECK(alg == algorithm::binary_max);
    CHECK(got.is_zero()); // follows the destination
    po.get_params_binary(2, alg, mask);
    CHECK(mask == post_ops::policy::per_mb_spatial);

    po.get_params_prelu(3, mask);
    CHECK(mask == post_ops::policy::per_oc);
    po.get_params_prelu(5, mask);
    CHECK(mask == 5);

    // The entries carry the same: kind, alg, mask and src1.
    const post_ops::entry &e = po.entries()[0];
    CHECK(e.kind == post_ops::kind::binary);
    CHECK(e.alg == algorithm::binary_add);
    CHECK(e.mask == post_ops::policy::per_oc);
    CHECK(e.src1 == src1);
    CHECK(po.entries()[3].src1.is_zero());

    // Only binary and prelu entries count as operands.
    post_ops plain_chain;
    plain_chain.append_sum();
    plain_chain.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f);
    CHECK_FALSE(plain_chain.has_operands());
    post_ops prelu_only;
    prelu_only.append_prelu(post_ops::policy::common);
    CHECK(prelu_only.has_operands());
    CHECK_FALSE(prelu_only.has_sum());
}

TEST_CASE("post_ops: every binary algorithm is accepted and named", "[post_ops][binary]") {
    const struct {
        algorithm alg;
        const char *name;
    } algs[] = {
        {algorithm::binary_add, "add"}, {algorithm::binary_sub, "sub"},
        {algorithm::binary_mul, "mul"}, {algorithm::binary_div, "div"},
        {algorithm::binary_max, "max"}, {algorithm::binary_min, "min"},
        {algorithm::binary_ge, "ge"},   {algorithm::binary_gt, "gt"},
        {algorithm::binary_le, "le"},   {algorithm::binary_lt, "lt"},
        {algorithm::binary_eq, "eq"},   {algorithm::binary_ne, "ne"},
    };
    post_ops po;
    for (const auto &a : algs) {
        INFO(a.name);
        REQUIRE(prim::algorithm_name(a.alg) != nullptr);
        CHECK(std::string(prim::algorithm_name(a.alg)) == a.name);
        po.append_binary(a.alg, post_ops::policy::common);
        algorithm got = algorithm::undef;
        int mask = -1;
        po.get_params_binary(po.len() - 1, got, mask);
        CHECK(got == a.alg);
        CHECK(mask == post_ops::policy::common);
    }
    CHECK(po.len() == 12);
}

TEST_CASE("post_ops: the policy of a given src1 follows its dims", "[post_ops][binary]") {
    const struct {
        prim::memory::dims dims;
        int mask;
    } cases[] = {
        {{1, 1, 1, 1}, post_ops::policy::common},
        {{1, 19, 1, 1}, post_ops::policy::per_oc},
        {{2, 19, 3, 5}, post_ops::policy::per_tensor},
        {{2, 1, 3, 5}, post_ops::policy::per_mb_spatial},
        {{2, 1, 1, 1}, 1},
        {{1, 19, 3, 1}, 6},
        {{7}, post_ops::policy::per_tensor},
        {{1}, post_ops::policy::common},
        {{3, 1}, post_ops::policy::per_mb_spatial},
        {{1, 7}, post_ops::policy::per_oc},
        {{3, 7}, post_ops::policy::per_tensor},
    };
    for (const auto &c : cases) {
        std::string pattern;
        for (size_t i = 0; i < c.dims.size(); ++i) pattern += static_cast<char>('a' + i);
        INFO("dims rank " << c.dims.size() << ", expected mask " << c.mask);
        post_ops po;
        po.append_binary(algorithm::binary_mul, md(c.dims, f32, pattern));
        algorithm alg;
        int mask = -42;
        po.get_params_binary(0, alg, mask);
        CHECK(mask == c.mask);
    }
}

TEST_CASE("post_ops: binary and prelu equality compares algorithm, mask and src1",
        "[post_ops][binary]") {
    const md per_oc_nchw({1, 19, 1, 1}, f32, memory::format_tag::nchw);
    const md per_oc_nhwc({1, 19, 1, 1}, f32, memory::format_tag::nhwc);
    const md per_oc_blocked({1, 19, 1, 1}, f32, std::string("aBcd16b"));
    const md full({2, 19, 3, 3}, f32, memory::format_tag::nchw);
    const auto binary = [](algorithm alg, const md &src1) {
        post_ops po;
        po.append_binary(alg, src1);
        return po;
    };
    const auto by_mask = [](algorithm alg, int mask) {
        post_ops po;
        po.append_binary(alg, mask);
        return po;
    };
    const auto prelu = [](int mask) {
        post_ops po;
        po.append_prelu(mask);
        return po;
    };
    CHECK(binary(algorithm::binary_add, per_oc_nchw) == binary(algorithm::binary_add, per_oc_nchw));
    CHECK(binary(algorithm::binary_add, per_oc_nchw) != binary(algorithm::binary_sub, per_oc_nchw));
    CHECK(binary(algorithm::binary_add, per_oc_nchw) != binary(algorithm::binary_add, full));
    // Equal dims, another layout: src1 compares as a desc (memory::desc::operator==).
    const md full_nhwc({2, 19, 3, 3}, f32, memory::format_tag::nhwc);
    CHECK(binary(algorithm::binary_add, full) != binary(algorithm::binary_add, full_nhwc));
    CHECK(binary(algorithm::binary_add, full_nhwc) == binary(algorithm::binary_add, full_nhwc));
    CHECK(binary(algorithm::binary_add, per_oc_nchw)
            != binary(algorithm::binary_add, per_oc_blocked));
    CHECK((per_oc_nchw == per_oc_nhwc)
            == (binary(algorithm::binary_add, per_oc_nchw)
                    == binary(algorithm::binary_add, per_oc_nhwc)));
    // A given src1 and an operand that follows the destination differ even with the same mask.
    CHECK(binary(algorithm::binary_add, per_oc_nchw)
            != by_mask(algorithm::binary_add, post_ops::policy::per_oc));
    CHECK(by_mask(algorithm::binary_add, post_ops::policy::per_oc)
            == by_mask(algorithm::binary_add, post_ops::policy::per_oc));
    CHECK(by_mask(algorithm::binary_add, post_ops::policy::per_oc)
            != by_mask(algorithm::binary_add, post_ops::policy::per_tensor));
    CHECK(by_mask(algorithm::binary_ge, 5) != by_mask(algorithm::binary_gt, 5));
    // prelu: the mask alone; a prelu is never a binary with the same mask.
    CHECK(prelu(post_ops::policy::per_oc) == prelu(post_ops::policy::per_oc));
    CHECK(prelu(post_ops::policy::per_oc) != prelu(post_ops::policy::common));
    CHECK(prelu(post_ops::policy::common) != by_mask(algorithm::binary_mul, 0));
    // Order matters as for every entry.
    post_ops a = prelu(2), b = by_mask(algorithm::binary_add, 0);
    a.append_binary(algorithm::binary_add, 0);
    b.append_prelu(2);
    CHECK(a != b);
}

TEST_CASE("post_ops: getters refuse binary and prelu entries of the wrong kind",
        "[post_ops][binary]") {
    post_ops po;
    po.append_sum();
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_binary(algorithm::binary_add, post_ops::policy::per_oc);
    po.append_prelu(post_ops::policy::common);
    algorithm alg;
    float alpha, beta, scale;
    int mask;
    prim::memory::desc src1;

    std::string m = invalid_argument_message([&] { po.get_params_binary(0, alg, mask); });
    CHECK(m == "post_ops::get_params_binary: entry 0 is a sum, not a binary");
    m = invalid_argument_message([&] { po.get_params_binary(1, alg, src1); });
    CHECK(m == "post_ops::get_params_binary: entry 1 is an eltwise, not a binary");
    m = invalid_argument_message([&] { po.get_params_binary(3, alg, mask); });
    CHECK(m == "post_ops::get_params_binary: entry 3 is a prelu, not a binary");
    m = invalid_argument_message([&] { po.get_params_prelu(2, mask); });
    CHECK(m == "post_ops::get_params_prelu: entry 2 is a binary, not a prelu");
    m = invalid_argument_message([&] { po.get_params_prelu(0, mask); });
    CHECK(m == "post_ops::get_params_prelu: entry 0 is a sum, not a prelu");
    m = invalid_argument_message([&] { po.get_params_eltwise(2, alg, alpha, beta, scale); });
    CHECK(m == "post_ops::get_params_eltwise: entry 2 is a binary, not an eltwise");
    m = invalid_argument_message([&] { po.get_params_sum(3, scale); });
    CHECK(m == "post_ops::get_params_sum: entry 3 is a prelu, not a sum");
    m = invalid_argument_message([&] { po.get_params_prelu(4, mask); });
    CHECK(contains(m, "get_params_prelu: index 4 is out of range"));
    m = invalid_argument_message([&] { po.get_params_binary(-1, alg, src1); });
    CHECK(contains(m, "get_params_binary: index -1 is out of range"));
}

TEST_CASE("post_ops: append_binary refuses other algorithms and incomplete src1",
        "[post_ops][binary]") {
    post_ops po;
    po.append_sum();
    const md good({1, 8}, f32, memory::format_tag::ab);
    for (algorithm alg : {algorithm::eltwise_relu, algorithm::undef,
                 algorithm::convolution_direct, static_cast<algorithm>(999)}) {
        std::string m = invalid_argument_message([&] { po.append_binary(alg, 0); });
        CHECK(contains(m, "post-op 1 (binary): algorithm"));
        CHECK(contains(m, "is not a binary algorithm"));
        m = invalid_argument_message([&] { po.append_binary(alg, good); });
        CHECK(contains(m, "is not a binary algorithm"));
    }
    // The name is given when the algorithm has one.
    CHECK(contains(invalid_argument_message([&] {
        po.append_binary(algorithm::eltwise_relu, 0);
    }), "algorithm 'relu' is not a binary algorithm"));
    // Eltwise entries refuse binary algorithms.
    CHECK(contains(invalid_argument_message([&] {
        po.append_eltwise(algorithm::binary_add, 0.f, 0.f);
    }), "unknown eltwise algorithm"));

    std::string m = invalid_argument_message([&] { po.append_binary(algorithm::binary_add, md()); });
    CHECK(contains(m, "post-op 1 (binary): src1 must be a complete desc (not zero, not 'any')"));
    m = invalid_argument_message([&] {
        po.append_binary(algorithm::binary_add, md({1, 8}, f32, memory::format_tag::any));
    });
    CHECK(contains(m, "src1 must be a complete desc (not zero, not 'any')"));
    // A desc of a type prim does not know cannot be built; every type it knows may be an operand.
    m = invalid_argument_message(
            [&] { md({1, 8}, prim::memory::data_type::undef, memory::format_tag::ab); });
    CHECK(contains(m, "is not one of f32, s32, s8, u8"));
    m = invalid_argument_message(
            [&] { po.append_binary(algorithm::binary_add, 2, static_cast<prim::memory::data_type>(9)); });
    CHECK(contains(m, "post-op 1 (binary): operand data type 9 is not one of f32, s32, s8, u8"));
    CHECK(po.len() == 1); // nothing refused was appended
}
