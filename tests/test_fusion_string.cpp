// Fusion strings (doc/reference.md §2): grammar, defaults, aliases, printing, bit-exact round
// trips, comma lists, and every kind of parse error with its token and position.
#include <catch2/catch.hpp>

#include <algorithm>

#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "attr/algorithm_table.hpp"
#include "prim/attr.hpp"
#include "prim/error.hpp"

using prim::algorithm;
using prim::post_ops;

namespace {

const float inf_f = std::numeric_limits<float>::infinity();

// The table of doc/reference.md §1, written out by hand (independent of
// src/attr/algorithm_table.cpp).
struct expected_algorithm {
    const char *name;
    algorithm alg;
    float alpha, beta; // defaults when a fusion string omits them
};
const expected_algorithm reference_table[] = {
    {"relu", algorithm::eltwise_relu, 0.f, 0.f},
    {"tanh", algorithm::eltwise_tanh, 0.f, 0.f},
    {"elu", algorithm::eltwise_elu, 1.f, 0.f},
    {"square", algorithm::eltwise_square, 0.f, 0.f},
    {"abs", algorithm::eltwise_abs, 0.f, 0.f},
    {"sqrt", algorithm::eltwise_sqrt, 0.f, 0.f},
    {"linear", algorithm::eltwise_linear, 1.f, 0.f},
    {"clip", algorithm::eltwise_clip, -inf_f, inf_f},
    {"clip_v2", algorithm::eltwise_clip_v2, -inf_f, inf_f},
    {"soft_relu", algorithm::eltwise_soft_relu, 1.f, 0.f},
    {"logistic", algorithm::eltwise_logistic, 0.f, 0.f},
    {"exp", algorithm::eltwise_exp, 0.f, 0.f},
    {"log", algorithm::eltwise_log, 0.f, 0.f},
    {"gelu_tanh", algorithm::eltwise_gelu_tanh, 0.f, 0.f},
    {"gelu_erf", algorithm::eltwise_gelu_erf, 0.f, 0.f},
    {"swish", algorithm::eltwise_swish, 1.f, 0.f},
    {"hardsigmoid", algorithm::eltwise_hardsigmoid, 0x1.99999ap-3f /* 0.2 */, 0.5f},
    {"hardswish", algorithm::eltwise_hardswish, 0x1.555556p-3f /* 1/6 */, 0.5f},
    {"mish", algorithm::eltwise_mish, 0.f, 0.f},
    {"pow", algorithm::eltwise_pow, 1.f, 1.f},
    {"round", algorithm::eltwise_round, 0.f, 0.f},
    {"celu", algorithm::eltwise_celu, 1.f, 0.f},
    // The floats nearest 1.6732632423543772 and 1.0507009873554805.
    {"selu", algorithm::eltwise_selu, 0x1.ac5afap+0f, 0x1.0cfabep+0f},
    {"softsign", algorithm::eltwise_softsign, 0.f, 0.f},
    {"shrink", algorithm::eltwise_shrink, 0.f, 0.5f},
    {"thresholded_relu", algorithm::eltwise_thresholded_relu, 1.f, 0.f},
    {"scaled_tanh", algorithm::eltwise_scaled_tanh, 1.f, 1.f},
    {"softplus", algorithm::eltwise_softplus, 1.f, 0.f},
    {"parametric_softplus", algorithm::eltwise_parametric_softplus, 1.f, 1.f},
    {"identity", algorithm::eltwise_identity, 0.f, 0.f},
    {"logsigmoid", algorithm::eltwise_logsigmoid, 0.f, 0.f},
};

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

struct eltwise_params {
    algorithm alg;
    float alpha, beta, scale;
};

eltwise_params eltwise_at(const post_ops &po, int i) {
    eltwise_params p{};
    po.get_params_eltwise(i, p.alg, p.alpha, p.beta, p.scale);
    return p;
}

float sum_scale_at(const post_ops &po, int i) {
    float scale = 0;
    po.get_params_sum(i, scale);
    return scale;
}

// The message parsing s throws; "" (and a failed check) when it parses.
std::string parse_error(const std::string &s, bool as_list = false) {
    try {
        if (as_list)
            prim::parse_post_ops_list(s);
        else
            prim::parse_post_ops(s);
    } catch (const prim::error &e) {
        CHECK(e.get_status() == prim::status::invalid_arguments);
        return e.what();
    }
    FAIL_CHECK("'" << s << "' parsed but should not");
    return "";
}

// Parses s, expecting an error whose message names the whole string, then `what`, then the
// position: "bad fusion string 'S': WHAT at position P".
void check_parse_error(const std::string &s, const std::string &what, size_t position,
        bool as_list = false) {
    INFO("fusion string: '" << s << "'");
    const std::string expected = "bad fusion string '" + s + "': " + what + " at position "
            + std::to_string(position);
    CHECK(parse_error(s, as_list) == expected);
}

// The fewest significant digits (1 to 9) whose "%.Ng" text reads back to v, by trying each: the
// contract's rule, computed independently of the printer (std::to_chars).
int fewest_digits(float v) {
    for (int digits = 1; digits < 9; ++digits) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(v));
        if (bits(std::strtof(buf, nullptr)) == bits(v)) return digits;
    }
    return 9;
}

// The significant digits of a printed number ("0.0125" has 3, "1.5e+30" 2, "100" 1: trailing
// zeros of an integer part are not significant, "inf" and "-0" have 1).
int significant_digits(const std::string &text) {
    std::string mantissa = text.substr(0, text.find_first_of("eE"));
    std::string digits;
    for (const char c : mantissa)
        if (c >= '0' && c <= '9') digits += c;
    const size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) return 1;
    digits = digits.substr(first);
    if (mantissa.find('.') == std::string::npos)
        digits = digits.substr(0, digits.find_last_not_of('0') + 1);
    return static_cast<int>(digits.size());
}

// Random floats of every kind except NaN: any bit pattern, small "nice" values, and specials.
float random_param(std::mt19937 &rng) {
    static const float specials[] = {0.f, -0.f, inf_f, -inf_f, 1.f, -1.f,
            std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
            std::numeric_limits<float>::min(), std::numeric_limits<float>::max(),
            -std::numeric_limits<float>::max(), 0.1f, 1.f / 3.f};
    switch (rng() % 3) {
    case 0: {
        float f;
        do {
            const uint32_t u = static_cast<uint32_t>(rng());
            std::memcpy(&f, &u, sizeof f);
        } while (std::isnan(f));
        return f;
    }
    case 1: return std::uniform_real_distribution<float>(-10.f, 10.f)(rng);
    default: return specials[rng() % (sizeof specials / sizeof specials[0])];
    }
}

bool divides_by_alpha(algorithm alg) {
    return alg == algorithm::eltwise_soft_relu || alg == algorithm::eltwise_softplus
            || alg == algorithm::eltwise_celu;
}

} // namespace

TEST_CASE("fusion string: the reference's table covers every algorithm", "[fusion_string]") {
    // Every eltwise value of prim::algorithm is in the hand-written table above, once.
    const int first = static_cast<int>(algorithm::eltwise_relu);
    const int last = static_cast<int>(algorithm::eltwise_logsigmoid);
    REQUIRE(sizeof reference_table / sizeof reference_table[0] == size_t(last - first + 1));
    for (int a = first; a <= last; ++a) {
        int found = 0;
        for (const expected_algorithm &e : reference_table)
            if (static_cast<int>(e.alg) == a) ++found;
        CHECK(found == 1);
    }
    for (const expected_algorithm &e : reference_table) {
        INFO(e.name);
        REQUIRE(prim::algorithm_name(e.alg) != nullptr);
        CHECK(std::string(prim::algorithm_name(e.alg)) == e.name);
        const prim::impl::algorithm_info *by_name = prim::impl::find_algorithm(e.name);
        REQUIRE(by_name != nullptr);
        CHECK(by_name->alg == e.alg);
        const prim::impl::algorithm_info *by_alg = prim::impl::find_algorithm(e.alg);
        REQUIRE(by_alg != nullptr);
        CHECK(bits(by_alg->default_alpha) == bits(e.alpha));
        CHECK(bits(by_alg->default_beta) == bits(e.beta));
    }
    CHECK(prim::algorithm_name(algorithm::undef) == nullptr);
    CHECK(prim::algorithm_name(algorithm::convolution_direct) == nullptr);
    CHECK(prim::impl::find_algorithm(algorithm::undef) == nullptr);
    // The table knows main names only; aliases are the parser's.
    for (const char *alias : {"leaky_relu", "bounded_relu", "gelu", "sigmoid", "srelu", "sum"})
        CHECK(prim::impl::find_algorithm(alias) == nullptr);
}

TEST_CASE("fusion string: the reference's examples", "[fusion_string]") {
    post_ops po = prim::parse_post_ops("sum+relu");
    REQUIRE(po.len() == 2);
    CHECK(po.get_kind(0) == post_ops::kind::sum);
    CHECK(sum_scale_at(po, 0) == 1.f);
    eltwise_params p = eltwise_at(po, 1);
    CHECK(p.alg == algorithm::eltwise_relu);
    CHECK(bits(p.alpha) == bits(0.f));
    CHECK(p.scale == 1.f);
    CHECK(prim::to_string(po) == "sum+relu");

    po = prim::parse_post_ops("relu:0.1");
    REQUIRE(po.len() == 1);
    CHECK(eltwise_at(po, 0).alpha == 0.1f);
    CHECK(prim::to_string(po) == "relu:0.1"); // the shortest text that reads back to 0.1f

    // The chain: "linear:0.699999988:-0.200000003:3" before; the fewest digits now.
    po = prim::parse_post_ops("linear:0.7:-0.2:3+sum:0.1+relu:0.3333333");
    CHECK(prim::to_string(po) == "linear:0.7:-0.2:3+sum:0.1+relu:0.3333333");
    po = post_ops();
    po.append_eltwise(algorithm::eltwise_linear, 1.f / 3.f, 16777216.f, 1e-7f);
    CHECK(prim::to_string(po) == "linear:0.33333334:1.6777216e+07:1e-07");

    po = prim::parse_post_ops("sum:0.5+gelu_erf+linear:2:1:0.5");
    REQUIRE(po.len() == 3);
    CHECK(sum_scale_at(po, 0) == 0.5f);
    CHECK(eltwise_at(po, 1).alg == algorithm::eltwise_gelu_erf);
    p = eltwise_at(po, 2);
    CHECK(p.alg == algorithm::eltwise_linear);
    CHECK(p.alpha == 2.f);
    CHECK(p.beta == 1.f);
    CHECK(p.scale == 0.5f);
    CHECK(prim::to_string(po) == "sum:0.5+gelu_erf+linear:2:1:0.5");

    // benchdnn's own parser test: sums anywhere, several of them.
    po = prim::parse_post_ops("sum:2+relu+sum:3");
    REQUIRE(po.len() == 3);
    CHECK(sum_scale_at(po, 0) == 2.f);
    CHECK(eltwise_at(po, 1).alg == algorithm::eltwise_relu);
    CHECK(sum_scale_at(po, 2) == 3.f);
    CHECK(prim::to_string(po) == "sum:2+relu+sum:3");

    post_ops built;
    built.append_sum(2.f);
    built.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    built.append_sum(3.f);
    CHECK(po == built);
}

TEST_CASE("fusion string: omitted parameters take the reference's defaults", "[fusion_string]") {
    for (const expected_algorithm &e : reference_table) {
        INFO(e.name);
        post_ops po = prim::parse_post_ops(e.name);
        REQUIRE(po.len() == 1);
        eltwise_params p = eltwise_at(po, 0);
        CHECK(p.alg == e.alg);
        CHECK(bits(p.alpha) == bits(e.alpha));
        CHECK(bits(p.beta) == bits(e.beta));
        CHECK(bits(p.scale) == bits(1.f));
        CHECK(prim::to_string(po) == e.name); // nothing but defaults: the name alone

        // Alpha given, beta still its default.
        po = prim::parse_post_ops(std::string(e.name) + ":3");
        p = eltwise_at(po, 0);
        CHECK(p.alpha == 3.f);
        CHECK(bits(p.beta) == bits(e.beta));
        CHECK(p.scale == 1.f);
    }
    // Spelled-out defaults print as the bare name; a scale of 1 is the default too.
    CHECK(prim::to_string(prim::parse_post_ops("clip:-inf:inf:1")) == "clip");
    CHECK(prim::to_string(prim::parse_post_ops("linear:1:0:1")) == "linear");
    CHECK(prim::to_string(prim::parse_post_ops("hardswish:0.16666667:0.5")) == "hardswish");
    CHECK(prim::to_string(prim::parse_post_ops("selu:1.67326324:1.05070099")) == "selu");
    CHECK(prim::to_string(prim::parse_post_ops("sum:1")) == "sum");
    // Print up to the last parameter that differs.
    CHECK(prim::to_string(prim::parse_post_ops("clip:0")) == "clip:0");
    CHECK(prim::to_string(prim::parse_post_ops("clip:-inf:6")) == "clip:-inf:6");
    CHECK(prim::to_string(prim::parse_post_ops("clip:-inf:inf:2")) == "clip:-inf:inf:2");
    CHECK(prim::to_string(prim::parse_post_ops("relu:0:0:-1")) == "relu:0:0:-1");
    CHECK(prim::to_string(prim::parse_post_ops("hardsigmoid:0.2:0.25")) == "hardsigmoid:0.2:0.25");
    // -0 is not +0: it prints, so the round trip keeps the sign.
    CHECK(prim::to_string(prim::parse_post_ops("relu:-0")) == "relu:-0");
    CHECK(prim::to_string(prim::parse_post_ops("sum:-0")) == "sum:-0");
    CHECK(prim::to_string(post_ops()) == "");
}

TEST_CASE("fusion string: aliases", "[fusion_string]") {
    struct alias_case {
        const char *text;
        algorithm alg;
        float alpha, beta, scale;
        const char *printed;
    };
    const alias_case cases[] = {
        {"leaky_relu", algorithm::eltwise_relu, 0.f, 0.f, 1.f, "relu"},
        {"leaky_relu:0.5", algorithm::eltwise_relu, 0.5f, 0.f, 1.f, "relu:0.5"},
        {"leaky_relu:0.5:2:3", algorithm::eltwise_relu, 0.5f, 2.f, 3.f, "relu:0.5:2:3"},
        {"gelu", algorithm::eltwise_gelu_tanh, 0.f, 0.f, 1.f, "gelu_tanh"},
        {"gelu:0:0:2", algorithm::eltwise_gelu_tanh, 0.f, 0.f, 2.f, "gelu_tanh:0:0:2"},
        {"sigmoid", algorithm::eltwise_logistic, 0.f, 0.f, 1.f, "logistic"},
        {"srelu", algorithm::eltwise_soft_relu, 1.f, 0.f, 1.f, "soft_relu"},
        {"srelu:2", algorithm::eltwise_soft_relu, 2.f, 0.f, 1.f, "soft_relu:2"},
        {"logsigmoid", algorithm::eltwise_logsigmoid, 0.f, 0.f, 1.f, "logsigmoid"},
        // bounded_relu:A = clip:0:A; a further beta is ignored; the third field is the scale.
        {"bounded_relu:6", algorithm::eltwise_clip, 0.f, 6.f, 1.f, "clip:0:6"},
        {"bounded_relu:6:100", algorithm::eltwise_clip, 0.f, 6.f, 1.f, "clip:0:6"},
        {"bounded_relu:6:100:0.5", algorithm::eltwise_clip, 0.f, 6.f, 0.5f, "clip:0:6:0.5"},
        {"bounded_relu", algorithm::eltwise_clip, 0.f, inf_f, 1.f, "clip:0"},
    };
    for (const alias_case &c : cases) {
        INFO(c.text);
        post_ops po = prim::parse_post_ops(c.text);
        REQUIRE(po.len() == 1);
        eltwise_params p = eltwise_at(po, 0);
        CHECK(p.alg == c.alg);
        CHECK(bits(p.alpha) == bits(c.alpha));
        CHECK(bits(p.beta) == bits(c.beta));
        CHECK(bits(p.scale) == bits(c.scale));
        CHECK(prim::to_string(po) == c.printed);
        CHECK(prim::parse_post_ops(c.printed) == po);
    }
    // Aliases inside chains.
    CHECK(prim::to_string(prim::parse_post_ops("sum+leaky_relu:0.25+bounded_relu:1+sigmoid"))
            == "sum+relu:0.25+clip:0:1+logistic");
}

TEST_CASE("fusion string: numbers", "[fusion_string]") {
    struct number_case {
        const char *text;
        float value;
    };
    const number_case cases[] = {
        {"1", 1.f},
        {"-1", -1.f},
        {"+1", 1.f},
        {"1.", 1.f},
        {".5", 0.5f},
        {"-.5", -0.5f},
        {"0.25", 0.25f},
        {"00012", 12.f},
        {"1.5e3", 1500.f},
        {"1E-3", 1e-3f},
        {"1e+2", 100.f},
        {"2.e1", 20.f},
        {"inf", inf_f},
        {"+inf", inf_f},
        {"-inf", -inf_f},
        {"0.1", 0.1f},
        {"3.40282347e+38", std::numeric_limits<float>::max()},
        {"1.40129846e-45", std::numeric_limits<float>::denorm_min()},
        // Correct rounding: ties go to even, the neighbour just above a tie goes up.
        {"16777217", 16777216.f},
        {"16777219", 16777220.f},
        {"16777217.000000001", 16777218.f},
        {"0.100000001490116119384765625", 0.1f},
        // Out of range rounds to infinity or zero, as correctly rounded conversion does.
        {"1e50", inf_f},
        {"-1e50", -inf_f},
        {"1e-50", 0.f},
        {"-0", -0.f},
        {"0e0", 0.f},
    };
    for (const number_case &c : cases) {
        INFO(c.text);
        post_ops po = prim::parse_post_ops(std::string("linear:") + c.text);
        CHECK(bits(eltwise_at(po, 0).alpha) == bits(c.value));
        po = prim::parse_post_ops(std::string("sum:") + c.text);
        CHECK(bits(sum_scale_at(po, 0)) == bits(c.value));
    }
}

TEST_CASE("fusion string: bad numbers name the token and its position", "[fusion_string]") {
    // strtof would take most of these; the grammar does not.
    for (const char *bad : {"nan", "NaN", "-nan", "NAN", "infinity", "Inf", "INF", "-Infinity",
                 "0x10", "0x1p3", " 1", "1 ", "\t1", ".", "-", "+", "e5", "1e", "1e+", "1e-",
                 "1.2.3", "--1", "+-1", "1f", "1.0f", "inff", "in", "1e5.0", "1_000", "١"}) {
        check_parse_error(std::string("relu:") + bad, "bad number '" + std::string(bad) + "'", 5);
        check_parse_error(std::string("sum+linear:1:") + bad,
                "bad number '" + std::string(bad) + "'", 13);
        check_parse_error(std::string("sum:") + bad, "bad number '" + std::string(bad) + "'", 4);
    }
    check_parse_error("relu:", "missing number", 5);
    check_parse_error("relu::1", "missing number", 5);
    check_parse_error("linear:1:", "missing number", 9);
    check_parse_error("linear:1::2", "missing number", 9);
    check_parse_error("sum:", "missing number", 4);
    // After ':' a '+' is the number's sign, not a separator.
    check_parse_error("relu+sum:+relu", "bad number '+relu'", 9);
    check_parse_error("relu:1e+tanh", "bad number '1e+tanh'", 5);
}

TEST_CASE("fusion string: '+' as a sign inside numbers", "[fusion_string]") {
    post_ops po = prim::parse_post_ops("sum:1e+2+relu:+0.5:-1E+1:+inf+linear:+1:2.e+0");
    REQUIRE(po.len() == 3);
    CHECK(sum_scale_at(po, 0) == 100.f);
    eltwise_params p = eltwise_at(po, 1);
    CHECK(p.alg == algorithm::eltwise_relu);
    CHECK(p.alpha == 0.5f);
    CHECK(p.beta == -10.f);
    CHECK(p.scale == inf_f);
    p = eltwise_at(po, 2);
    CHECK(p.alg == algorithm::eltwise_linear);
    CHECK(p.alpha == 1.f);
    CHECK(p.beta == 2.f);
    // Large and tiny numbers print with "e+NN": those strings must parse back.
    po = prim::parse_post_ops("relu:3.40282347e+38+sum:1e+30");
    REQUIRE(po.len() == 2);
    CHECK(eltwise_at(po, 0).alpha == std::numeric_limits<float>::max());
    CHECK(sum_scale_at(po, 1) == 1e30f);
    CHECK(prim::to_string(po) == "relu:3.4028235e+38+sum:1e+30");
    // A '+' after a complete number separates post-ops.
    po = prim::parse_post_ops("relu:1+sum:2");
    REQUIRE(po.len() == 2);
    CHECK(prim::to_string(po) == "relu:1+sum:2");
    check_parse_error("relu:1+", "empty post-op", 7);
    // In a name, '+' always separates ("relue+1" is not a number).
    check_parse_error("relue+1", "unknown algorithm 'relue'", 0);
}

TEST_CASE("fusion string: unknown names, case-sensitive", "[fusion_string]") {
    // The example of the brief, to the letter.
    CHECK(parse_error("sum+relux")
            == "bad fusion string 'sum+relux': unknown algorithm 'relux' at position 4");
    check_parse_error("ReLU", "unknown algorithm 'ReLU'", 0);
    check_parse_error("sum+Sum", "unknown algorithm 'Sum'", 4);
    check_parse_error("SUM:2", "unknown algorithm 'SUM'", 0);
    check_parse_error("relu+GELU_ERF:1", "unknown algorithm 'GELU_ERF'", 5);
    check_parse_error(" relu", "unknown algorithm ' relu'", 0);
    check_parse_error("relu ", "unknown algorithm 'relu '", 0);
    check_parse_error("sum+relu+tanh+eltwise_relu", "unknown algorithm 'eltwise_relu'", 14);
    check_parse_error(":1", "unknown algorithm ''", 0);
    check_parse_error("sum+:1", "unknown algorithm ''", 4);
    check_parse_error("relu6", "unknown algorithm 'relu6'", 0);
    check_parse_error("gelu_tanh+swish+abc:1:2", "unknown algorithm 'abc'", 16);
}

TEST_CASE("fusion string: structure errors", "[fusion_string]") {
    check_parse_error("sum++relu", "empty post-op", 4);
    check_parse_error("sum+", "empty post-op", 4);
    check_parse_error("+relu", "empty post-op", 0);
    check_parse_error("+", "empty post-op", 0);
    check_parse_error("relu+tanh+", "empty post-op", 10);
    // Too many parameters: the first extra one is named.
    check_parse_error("sum:1:2:u8:9", "extra parameter '9' (sum takes at most a scale, a zero point and a data type)", 11);
    check_parse_error("relu+sum:0.5:0.5", "sum's zero point must be an integer of 32 bits", 13);
    check_parse_error("sum:1:2:f16", "unsupported data type 'f16' (f32, s32, s8 or u8)", 8);
    check_parse_error("relu:1:2:3:4",
            "extra parameter '4' (an eltwise takes at most alpha, beta and scale)", 11);
    check_parse_error("sum+linear:1:2:3::",
            "extra parameter '' (an eltwise takes at most alpha, beta and scale)", 17);
    check_parse_error("bounded_relu:1:2:3:4",
            "extra parameter '4' (bounded_relu takes at most alpha, beta and scale)", 19);
    // One chain has no commas.
    check_parse_error("sum,relu", "unexpected ',' (one chain expected, not a list)", 3);
}

TEST_CASE("fusion string: parameters the algorithm forbids", "[fusion_string]") {
    check_parse_error("soft_relu:0", "soft_relu: alpha must be non-zero in 'soft_relu:0'", 0);
    check_parse_error("sum+srelu:-0", "soft_relu: alpha must be non-zero in 'srelu:-0'", 4);
    check_parse_error("relu+celu:0:1:2", "celu: alpha must be non-zero in 'celu:0:1:2'", 5);
    check_parse_error("softplus:0.0e5", "softplus: alpha must be non-zero in 'softplus:0.0e5'", 0);
    check_parse_error("celu:1e-40", "celu: alpha = 1e-40 is out of range: it must be of "
                      "magnitude in [2^-32, 2^32] in 'celu:1e-40'", 0);
    check_parse_error("relu+pow:1:inf", "pow: beta = inf is out of range: it must be 0 or of "
                      "magnitude in [2^-32, 2^32] in 'pow:1:inf'", 5);
    // Underflow to zero is zero.
    check_parse_error("celu:1e-60", "celu: alpha must be non-zero in 'celu:1e-60'", 0);
    // The same zero is fine elsewhere.
    CHECK(prim::parse_post_ops("soft_relu:1:0:0").len() == 1);
    CHECK(prim::parse_post_ops("elu:0").len() == 1);
}

TEST_CASE("fusion string: comma lists", "[fusion_string]") {
    std::vector<post_ops> list = prim::parse_post_ops_list("");
    REQUIRE(list.size() == 1);
    CHECK(list[0].len() == 0);

    CHECK(prim::parse_post_ops_list(",").size() == 2);
    list = prim::parse_post_ops_list(",,");
    REQUIRE(list.size() == 3);
    for (const post_ops &po : list)
        CHECK(po.len() == 0);

    list = prim::parse_post_ops_list(",sum+relu");
    REQUIRE(list.size() == 2);
    CHECK(list[0].len() == 0);
    CHECK(prim::to_string(list[1]) == "sum+relu");

    list = prim::parse_post_ops_list("sum+relu,");
    REQUIRE(list.size() == 2);
    CHECK(prim::to_string(list[0]) == "sum+relu");
    CHECK(list[1].len() == 0);

    list = prim::parse_post_ops_list("relu:0.5,sum:2,,gelu+sum");
    REQUIRE(list.size() == 4);
    CHECK(prim::to_string(list[0]) == "relu:0.5");
    CHECK(prim::to_string(list[1]) == "sum:2");
    CHECK(list[2].len() == 0);
    CHECK(prim::to_string(list[3]) == "gelu_tanh+sum");

    // Positions count from the start of the whole list.
    check_parse_error("relu,sum+relux", "unknown algorithm 'relux'", 9, true);
    check_parse_error(",,sum:x", "bad number 'x'", 6, true);
    check_parse_error("relu,+relu", "empty post-op", 5, true);
    check_parse_error("relu,sum+", "empty post-op", 9, true);
    check_parse_error("sum,relu:1:2:3:4,tanh",
            "extra parameter '4' (an eltwise takes at most alpha, beta and scale)", 15, true);
    check_parse_error("tanh,tanh,soft_relu:0", "soft_relu: alpha must be non-zero in 'soft_relu:0'",
            10, true);
}

TEST_CASE("fusion string: long chains with sums anywhere", "[fusion_string]") {
    // 40 entries: every algorithm once plus sums first, in the middle, twice in a row and last.
    std::string text = "sum:0.5";
    for (const expected_algorithm &e : reference_table) {
        text += std::string("+") + e.name;
        if (e.alg == algorithm::eltwise_exp) text += "+sum+sum:-2";
    }
    text += "+linear:2:1:0.5+relu:0.25+sum:3+tanh:0:0:-1+sum:0.125";
    post_ops po = prim::parse_post_ops(text);
    REQUIRE(po.len() == 1 + 31 + 2 + 5);
    CHECK(po.get_kind(0) == post_ops::kind::sum);
    CHECK(po.get_kind(po.len() - 1) == post_ops::kind::sum);
    CHECK(sum_scale_at(po, po.len() - 1) == 0.125f);
    int sums = 0;
    for (int i = 0; i < po.len(); ++i)
        sums += po.get_kind(i) == post_ops::kind::sum;
    CHECK(sums == 5);
    CHECK(prim::to_string(po) == text); // already in printed form
    CHECK(prim::parse_post_ops(prim::to_string(po)) == po);
}

TEST_CASE("fusion string: random round trips are bit-identical", "[fusion_string]") {
    std::mt19937 rng(20261122);
    // Every algorithm with random parameters, alone.
    for (const expected_algorithm &e : reference_table) {
        for (int rep = 0; rep < 300; ++rep) {
            float alpha = random_param(rng), beta = random_param(rng), scale = random_param(rng);
            if (divides_by_alpha(e.alg) && alpha == 0.f) alpha = 2.f;
            // the bounded parameters of the exp-based algorithms (doc/fusion_strings.md)
            if (!prim::impl::check_eltwise_params(e.alg, alpha, beta, scale).empty()) continue;
            post_ops po;
            po.append_eltwise(e.alg, alpha, beta, scale);
            const std::string text = prim::to_string(po);
            INFO(text);
            const post_ops back = prim::parse_post_ops(text);
            REQUIRE(back.len() == 1);
            const eltwise_params p = eltwise_at(back, 0);
            CHECK(p.alg == e.alg);
            CHECK(bits(p.alpha) == bits(alpha));
            CHECK(bits(p.beta) == bits(beta));
            CHECK(bits(p.scale) == bits(scale));
            CHECK(back == po);
            CHECK(prim::to_string(back) == text);
        }
    }
    // Each number prints with the fewest significant digits that read back to it: a fully
    // non-default linear entry, each of its three numbers against fewest_digits.
    for (int rep = 0; rep < 2000; ++rep) {
        const float alpha = random_param(rng), beta = random_param(rng), scale = random_param(rng);
        if (bits(scale) == bits(1.f)) continue; // would be left out
        post_ops po;
        po.append_eltwise(algorithm::eltwise_linear, alpha, beta, scale);
        const std::string text = prim::to_string(po);
        INFO(text);
        REQUIRE(text.rfind("linear:", 0) == 0);
        const float values[3] = {alpha, beta, scale};
        size_t at = 7;
        for (const float v : values) {
            const size_t end = std::min(text.find(':', at), text.size());
            const std::string number = text.substr(at, end - at);
            INFO(number);
            CHECK(bits(std::strtof(number.c_str(), nullptr)) == bits(v));
            if (!std::isinf(v)) CHECK(significant_digits(number) == fewest_digits(v));
            at = end + 1;
        }
    }
    // Random chains of 1 to 48 entries mixing sums and every algorithm.
    for (int rep = 0; rep < 200; ++rep) {
        post_ops po;
        const int n = 1 + static_cast<int>(rng() % 48);
        for (int i = 0; i < n; ++i) {
            if (rng() % 4 == 0) {
                po.append_sum(random_param(rng));
                continue;
            }
            const expected_algorithm &e =
                    reference_table[rng() % (sizeof reference_table / sizeof reference_table[0])];
            float alpha = random_param(rng);
            if (divides_by_alpha(e.alg) && alpha == 0.f) alpha = -1.f;
            const float beta = random_param(rng), scale = random_param(rng);
            if (!prim::impl::check_eltwise_params(e.alg, alpha, beta, scale).empty()) continue;
            po.append_eltwise(e.alg, alpha, beta, scale);
        }
        const std::string text = prim::to_string(po);
        INFO(text);
        CHECK(prim::parse_post_ops(text) == po);
        // The same chain twice in a list, with an empty chain between.
        const std::vector<post_ops> list = prim::parse_post_ops_list(text + ",," + text);
        REQUIRE(list.size() == 3);
        CHECK(list[0] == po);
        CHECK(list[1].len() == 0);
        CHECK(list[2] == po);
    }
}

TEST_CASE("fusion string: independent of the host program's locale", "[fusion_string]") {
    // A locale whose decimal point is ',' would break a locale-sensitive strtof or printf.
    const char *candidates[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "ru_RU.UTF-8"};
    const char *chosen = nullptr;
    for (const char *name : candidates)
        if (std::setlocale(LC_NUMERIC, name)) {
            chosen = name;
            break;
        }
    if (!chosen) {
        WARN("no locale with a ',' decimal point is installed; test skipped");
        return;
    }
    const post_ops po = prim::parse_post_ops("relu:0.5+sum:1.25");
    std::setlocale(LC_NUMERIC, "C");
    CHECK(eltwise_at(po, 0).alpha == 0.5f);
    CHECK(sum_scale_at(po, 1) == 1.25f);
    std::setlocale(LC_NUMERIC, chosen);
    const std::string printed = prim::to_string(po);
    std::setlocale(LC_NUMERIC, "C");
    CHECK(printed == "relu:0.5+sum:1.25");
}

// ---- binary and prelu entries ---------------------------------------------------------------

namespace {

struct binary_name {
    const char *name;
    algorithm alg;
};
const binary_name binary_algs[] = {
    {"add", algorithm::binary_add}, {"sub", algorithm::binary_sub},
    {"mul", algorithm::binary_mul}, {"div", algorithm::binary_div},
    {"max", algorithm::binary_max}, {"min", algorithm::binary_min},
    {"ge", algorithm::binary_ge},   {"gt", algorithm::binary_gt},
    {"le", algorithm::binary_le},   {"lt", algorithm::binary_lt},
    {"eq", algorithm::binary_eq},   {"ne", algorithm::binary_ne},
};

// Policy spellings: what each parses to and how it prints ("" = left out, the default).
struct policy_spelling {
    const char *text;
    int mask;
    const char *printed;
};
const policy_spelling policies[] = {
    {"common", post_ops::policy::common, ""},
    {"per_oc", post_ops::policy::per_oc, ":per_oc"},
    {"per_dim_0", 1, ":per_dim_0"},
    {"per_dim_1", post_ops::policy::per_oc, ":per_oc"}, // an alias
    {"per_dim_01", 3, ":per_dim_01"},
    {"per_mb_spatial", post_ops::policy::per_mb_spatial, ":per_mb_spatial"},
    {"per_tensor", post_ops::policy::per_tensor, ":per_tensor"},
    {"mask0", 0, ""},
    {"mask1", 1, ":per_dim_0"},
    {"mask2", post_ops::policy::per_oc, ":per_oc"},
    {"mask3", 3, ":per_dim_01"},
    {"mask5", 5, ":mask5"},
    {"mask12", 12, ":mask12"},
    {"mask007", 7, ":mask7"},
};

int binary_mask_at(const post_ops &po, int i, algorithm *alg = nullptr) {
    algorithm a = algorithm::undef;
    int mask = -12345;
    po.get_params_binary(i, a, mask);
    if (alg) *alg = a;
    return mask;
}

int prelu_mask_at(const post_ops &po, int i) {
    int mask = -12345;
    po.get_params_prelu(i, mask);
    return mask;
}

} // namespace

TEST_CASE("fusion string: every binary algorithm with every policy", "[fusion_string][binary]") {
    for (const binary_name &b : binary_algs) {
        // The policy omitted is common.
        post_ops po = prim::parse_post_ops(std::string(b.name) + ":f32");
        REQUIRE(po.len() == 1);
        CHECK(po.get_kind(0) == post_ops::kind::binary);
        algorithm alg = algorithm::undef;
        CHECK(binary_mask_at(po, 0, &alg) == post_ops::policy::common);
        CHECK(alg == b.alg);
        prim::memory::desc src1;
        po.get_params_binary(0, alg, src1);
        CHECK(src1.is_zero()); // the operand follows the destination
        CHECK(prim::to_string(po) == std::string(b.name) + ":f32");

        for (const policy_spelling &p : policies) {
            const std::string text = std::string(b.name) + ":f32:" + p.text;
            INFO(text);
            po = prim::parse_post_ops(text);
            REQUIRE(po.len() == 1);
            CHECK(binary_mask_at(po, 0, &alg) == p.mask);
            CHECK(alg == b.alg);
            const std::string printed = prim::to_string(po);
            CHECK(printed == std::string(b.name) + ":f32" + p.printed);
            CHECK(prim::parse_post_ops(printed) == po);

            post_ops built;
            built.append_binary(b.alg, p.mask);
            CHECK(built == po);
        }
    }
}

TEST_CASE("fusion string: prelu forms", "[fusion_string][binary]") {
    post_ops po = prim::parse_post_ops("prelu");
    REQUIRE(po.len() == 1);
    CHECK(po.get_kind(0) == post_ops::kind::prelu);
    CHECK(prelu_mask_at(po, 0) == post_ops::policy::common);
    CHECK(prim::to_string(po) == "prelu");
    for (const policy_spelling &p : policies) {
        const std::string text = std::string("prelu:") + p.text;
        INFO(text);
        po = prim::parse_post_ops(text);
        REQUIRE(po.len() == 1);
        CHECK(prelu_mask_at(po, 0) == p.mask);
        CHECK(prim::to_string(po) == std::string("prelu") + p.printed);
        post_ops built;
        built.append_prelu(p.mask);
        CHECK(built == po);
        CHECK(prim::parse_post_ops(prim::to_string(po)) == po);
    }
}

TEST_CASE("fusion string: binary and prelu mixed with eltwise and sum in any order",
        "[fusion_string][binary]") {
    const char *chains[] = {
        "add:f32:per_oc+relu",
        "sum+add:f32:per_oc+relu",
        "relu+sum:0.5+mul:f32:per_tensor",
        "prelu:per_oc+sum+tanh+prelu",
        "max:f32:per_mb_spatial+min:f32+sum:2+linear:2:1:0.5+ge:f32:mask5",
        "sum+sum:-1+div:f32:per_dim_01+prelu:per_tensor+clip:0:6+eq:f32+ne:f32:per_oc",
        "sub:f32:per_dim_0+lt:f32+le:f32:mask12+gt:f32:per_tensor+relu:1e+30+sum:100",
    };
    for (const char *text : chains) {
        INFO(text);
        const post_ops po = prim::parse_post_ops(text);
        CHECK(prim::to_string(po) == text); // each is already in printed form
        CHECK(prim::parse_post_ops(prim::to_string(po)) == po);
    }
    // The last one in detail: '+' after a policy or a data type separates; inside a number it
    // is a sign ("relu:1e+30").
    const post_ops po = prim::parse_post_ops(chains[6]);
    REQUIRE(po.len() == 6);
    algorithm alg;
    CHECK(binary_mask_at(po, 0, &alg) == 1);
    CHECK(alg == algorithm::binary_sub);
    CHECK(binary_mask_at(po, 1, &alg) == post_ops::policy::common);
    CHECK(alg == algorithm::binary_lt);
    CHECK(binary_mask_at(po, 2, &alg) == 12);
    CHECK(binary_mask_at(po, 3, &alg) == post_ops::policy::per_tensor);
    CHECK(alg == algorithm::binary_gt);
    CHECK(eltwise_at(po, 4).alpha == 1e30f);
    CHECK(sum_scale_at(po, 5) == 100.f);

    // The same chain built by hand equals the parsed one.
    post_ops built;
    built.append_sum();
    built.append_binary(algorithm::binary_add, post_ops::policy::per_oc);
    built.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    CHECK(prim::parse_post_ops(chains[1]) == built);
    CHECK(prim::to_string(built) == chains[1]);

    // Comma lists with binary chains.
    const std::vector<post_ops> list = prim::parse_post_ops_list("add:f32,,prelu:per_oc+sum");
    REQUIRE(list.size() == 3);
    CHECK(prim::to_string(list[0]) == "add:f32");
    CHECK(list[1].len() == 0);
    CHECK(prim::to_string(list[2]) == "prelu:per_oc+sum");
}

TEST_CASE("fusion string: every mask prints to a string that parses back",
        "[fusion_string][binary]") {
    // Masks are rank-free bit sets: per_tensor and per_mb_spatial are negative, and a user may
    // build others the same way (every dim but 2: ~4). Whatever the chain holds, to_string
    // must print something parse_post_ops reads back to the same chain.
    std::mt19937 rng(7);
    std::vector<int> masks = {0, 1, 2, 3, 4, 5, 63, 64, 1 << 20, 1 << 30, ~4, ~1, ~0, ~2, -12,
                              std::numeric_limits<int>::max(), std::numeric_limits<int>::min()};
    for (int i = 0; i < 200; ++i) masks.push_back(static_cast<int>(rng()));
    for (const int mask : masks) {
        post_ops po;
        po.append_binary(algorithm::binary_mul, mask);
        po.append_prelu(mask);
        const std::string text = prim::to_string(po);
        INFO("mask " << mask << ": " << text);
        post_ops back;
        CHECK_NOTHROW(back = prim::parse_post_ops(text));
        CHECK(back == po);
        CHECK(prim::to_string(back) == text);
    }
}

TEST_CASE("fusion string: binary and prelu errors name the token", "[fusion_string][binary]") {
    check_parse_error("add", "binary post-op 'add' needs a data type (add:f32)", 3);
    check_parse_error("relu+mul", "binary post-op 'mul' needs a data type (mul:f32)", 8);
    check_parse_error("add:f16", "unsupported data type 'f16' (f32, s32, s8 or u8)", 4);
    check_parse_error("sum+add:F32", "unsupported data type 'F32' (f32, s32, s8 or u8)", 8);
    check_parse_error("add:", "unsupported data type '' (f32, s32, s8 or u8)", 4);
    check_parse_error("add:f32:per_nothing",
            "unknown policy 'per_nothing' (common, per_oc, per_dim_0, per_dim_01, "
            "per_mb_spatial, per_tensor or maskN)", 8);
    check_parse_error("relu+prelu:per_nothing",
            "unknown policy 'per_nothing' (common, per_oc, per_dim_0, per_dim_01, "
            "per_mb_spatial, per_tensor or maskN)", 11);
    for (const char *bad : {"", "Per_oc", "PER_TENSOR", "mask", "maskx", "mask1x", "mask 1",
                            "mask99999999999", "f32", "per_dim_2"}) {
        INFO(bad);
        CHECK_THAT(parse_error(std::string("add:f32:") + bad),
                Catch::Contains("unknown policy '" + std::string(bad) + "'"));
        CHECK_THAT(parse_error(std::string("prelu:") + bad),
                Catch::Contains("unknown policy '" + std::string(bad) + "'"));
    }
    // Too many fields: the first extra one is named.
    check_parse_error("add:f32:per_oc:abcd",
            "extra parameter 'abcd' (a binary post-op takes a data type and a policy)", 15);
    check_parse_error("sum+max:f32:common:x:y",
            "extra parameter 'x' (a binary post-op takes a data type and a policy)", 19);
    check_parse_error("prelu:per_oc:1", "extra parameter '1' (prelu takes at most a policy)", 13);
    check_parse_error("prelu::", "extra parameter '' (prelu takes at most a policy)", 7);
    // Names are case-sensitive and exact.
    check_parse_error("Add:f32", "unknown algorithm 'Add'", 0);
    check_parse_error("PRELU", "unknown algorithm 'PRELU'", 0);
    check_parse_error("binary_add:f32", "unknown algorithm 'binary_add'", 0);
    check_parse_error("relu+pow+and:f32", "unknown algorithm 'and'", 9);
    // In a list, positions count from the start of the whole list.
    check_parse_error("relu,add:f64", "unsupported data type 'f64' (f32, s32, s8 or u8)", 9, true);
}

// ---- int8 forms (doc/int8.md): sum's zero point and type, binary operands' types -------------

TEST_CASE("fusion string: sum with a zero point and a data type, typed binary operands",
          "[fusion_string][int8]") {
    using dt = prim::memory::data_type;
    const post_ops po = prim::parse_post_ops("sum:0.5:3:u8+add:s8:per_oc+mul:u8+sub:s32+sum:2:-7");
    REQUIRE(po.len() == 5);
    float scale = 0.f;
    int32_t zp = 0;
    dt type = dt::undef;
    po.get_params_sum(0, scale, zp, type);
    CHECK(scale == 0.5f);
    CHECK(zp == 3);
    CHECK(type == dt::u8);
    po.get_params_sum(4, scale, zp, type);
    CHECK(zp == -7);
    CHECK(type == dt::undef);
    CHECK(po.entries()[1].dt == dt::s8);
    CHECK(po.entries()[2].dt == dt::u8);
    CHECK(po.entries()[3].dt == dt::s32);
    // Each prints back as written, and "sum:1:0" loses its default zero point.
    for (const char *s : {"sum:0.5:3:u8+add:s8:per_oc+mul:u8+sub:s32+sum:2:-7", "sum:1:0:s8",
                          "sum:1:5", "add:f32", "sum"})
        CHECK(prim::to_string(prim::parse_post_ops(s)) == s);
    CHECK(prim::to_string(prim::parse_post_ops("sum:1:0")) == "sum");
    CHECK(prim::to_string(prim::parse_post_ops("sum:0.25:0")) == "sum:0.25");
    // The API builds the same entries: f32 binary operands compare equal however appended.
    post_ops api;
    api.append_sum(0.5f, 3, dt::u8);
    api.append_binary(algorithm::binary_add, post_ops::policy::per_oc, dt::s8);
    api.append_binary(algorithm::binary_mul, post_ops::policy::common, dt::u8);
    api.append_binary(algorithm::binary_sub, post_ops::policy::common, dt::s32);
    api.append_sum(2.f, -7);
    CHECK(api == po);
    CHECK(prim::parse_post_ops("add:f32") == [] {
        post_ops p;
        p.append_binary(algorithm::binary_add, post_ops::policy::common);
        return p;
    }());
    check_parse_error("sum:1:2.5", "sum's zero point must be an integer of 32 bits", 6);
    check_parse_error("sum:1:3000000000", "sum's zero point must be an integer of 32 bits", 6);
    check_parse_error("sum:1:0:bf16", "unsupported data type 'bf16' (f32, s32, s8 or u8)", 8);
}
