// The reference post-ops chain (src/ref/ref_post_ops.cpp): order, sums reading dst_old, scales,
// and rounding to f32 after each entry; binary and prelu entries through ref_chain: operands
// broadcast by every policy, each binary algorithm's NaN, tie and signed-zero rules, prelu's
// slopes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "prim/attr.hpp"
#include "prim/error.hpp"
#include "ref/ref_chain.hpp"
#include "ref/ref_kernels.hpp"

using prim::algorithm;
using prim::post_ops;
using prim::impl::ref_apply_post_ops;

TEST_CASE("an empty chain leaves the value alone", "[ref_post_ops]") {
    const post_ops po;
    CHECK(ref_apply_post_ops(po, 1.25f, 7.f) == 1.25f);
    CHECK(ref_apply_post_ops(po, -3.f, 7.f) == -3.f);
}

TEST_CASE("relu+sum differs from sum+relu", "[ref_post_ops]") {
    post_ops relu_sum, sum_relu;
    relu_sum.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    relu_sum.append_sum();
    sum_relu.append_sum();
    sum_relu.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    // x = -3, dst_old = 2: relu first gives 0 + 2; sum first gives relu(-1).
    CHECK(ref_apply_post_ops(relu_sum, -3.f, 2.f) == 2.f);
    CHECK(ref_apply_post_ops(sum_relu, -3.f, 2.f) == 0.f);
    // And with dst_old negative: relu(-3) + -2 = -2; relu(-3 + -2) = 0.
    CHECK(ref_apply_post_ops(relu_sum, -3.f, -2.f) == -2.f);
    CHECK(ref_apply_post_ops(sum_relu, -3.f, -2.f) == 0.f);
}

TEST_CASE("every sum reads the same dst_old", "[ref_post_ops]") {
    post_ops po;
    po.append_sum(1.f);
    po.append_sum(2.f);
    // 1 + 1*10 + 2*10 (a second sum reading the running value would give 1 + 10 + 2*11).
    CHECK(ref_apply_post_ops(po, 1.f, 10.f) == 31.f);

    post_ops mid;
    mid.append_sum(1.f);
    mid.append_eltwise(algorithm::eltwise_linear, 2.f, 0.f);
    mid.append_sum(-1.f);
    // ((1 + 10) * 2) - 10
    CHECK(ref_apply_post_ops(mid, 1.f, 10.f) == 12.f);
}

TEST_CASE("scales apply to sums and to every eltwise", "[ref_post_ops]") {
    post_ops sum_half;
    sum_half.append_sum(0.5f);
    CHECK(ref_apply_post_ops(sum_half, 3.f, 4.f) == 5.f);

    post_ops lin;
    lin.append_eltwise(algorithm::eltwise_linear, 2.f, 1.f, 0.5f); // 0.5 * (2x + 1)
    CHECK(ref_apply_post_ops(lin, 3.f, 0.f) == 3.5f);

    post_ops relu;
    relu.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f, -2.f);
    CHECK(ref_apply_post_ops(relu, 3.f, 0.f) == -6.f);
    CHECK(ref_apply_post_ops(relu, -3.f, 0.f) == 0.f);

    post_ops clip;
    clip.append_eltwise(algorithm::eltwise_clip, 0.f, 6.f, 3.f);
    CHECK(ref_apply_post_ops(clip, 10.f, 0.f) == 18.f);

    post_ops lg;
    lg.append_eltwise(algorithm::eltwise_logistic, 0.f, 0.f, 4.f);
    CHECK(ref_apply_post_ops(lg, 0.f, 0.f) == 2.f);
}

TEST_CASE("each entry is rounded to f32 before the next", "[ref_post_ops]") {
    // 0.5 + 1e-9 rounds to 0.5f, so the second entry gives exactly 0; a chain kept in double
    // would give 1e-9.
    post_ops po;
    po.append_eltwise(algorithm::eltwise_linear, 1.f, 1e-9f);
    po.append_eltwise(algorithm::eltwise_linear, 1.f, -0.5f);
    CHECK(ref_apply_post_ops(po, 0.5f, 0.f) == 0.f);

    // The rounded value decides round's branch: 2.5f + tiny rounds to 2.5f, then to even 2.
    post_ops rnd;
    rnd.append_eltwise(algorithm::eltwise_linear, 1.f, 1e-8f);
    rnd.append_eltwise(algorithm::eltwise_round, 0.f, 0.f);
    CHECK(ref_apply_post_ops(rnd, 2.5f, 0.f) == 2.f);

    // The accumulated sum is rounded too: 16777216 + 1 is not representable in f32.
    post_ops sum;
    sum.append_sum(1.f);
    sum.append_sum(-1.f);
    CHECK(ref_apply_post_ops(sum, 16777216.f, 1.f) == 16777216.f - 1.f);
}

TEST_CASE("a long chain runs every entry in order", "[ref_post_ops]") {
    post_ops po;
    for (int i = 0; i < 32; ++i) {
        if (i % 8 == 3)
            po.append_sum(1.f);
        else
            po.append_eltwise(algorithm::eltwise_linear, 1.f, 1.f);
    }
    // 28 linear steps of +1 and 4 sums of dst_old = 100.
    CHECK(ref_apply_post_ops(po, 0.f, 100.f) == 428.f);

    post_ops mul;
    for (int i = 0; i < 33; ++i) mul.append_eltwise(algorithm::eltwise_linear, 2.f, 0.f);
    CHECK(ref_apply_post_ops(mul, 1.f, 0.f) == std::ldexp(1.f, 33));
}

TEST_CASE("NaN flows through any chain", "[ref_post_ops]") {
    const float qnan = std::numeric_limits<float>::quiet_NaN();
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_eltwise(algorithm::eltwise_clip, -1.f, 1.f);
    po.append_sum(1.f);
    po.append_eltwise(algorithm::eltwise_round, 0.f, 0.f);
    CHECK(std::isnan(ref_apply_post_ops(po, qnan, 1.f)));
    CHECK(std::isnan(ref_apply_post_ops(po, 0.5f, qnan))); // through the sum
}

// ---- binary and prelu entries (ref_chain) ---------------------------------------------------

namespace {

using prim::memory;
using prim::impl::ref_chain;

const float qnan = std::numeric_limits<float>::quiet_NaN();
const float inf = std::numeric_limits<float>::infinity();

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// Same value, or both NaN; +0 and -0 differ.
bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b); }

// One binary entry (operand of one value) on x.
float binary1(algorithm alg, float x, float b) {
    post_ops po;
    po.append_binary(alg, post_ops::policy::common);
    const std::vector<const float *> operands = {&b};
    return ref_chain(po, {1}, operands).apply(x, 0.f, 0);
}

float prelu1(float x, float slope) {
    post_ops po;
    po.append_prelu(post_ops::policy::common);
    const std::vector<const float *> operands = {&slope};
    return ref_chain(po, {1}, operands).apply(x, 0.f, 0);
}

// Row-major index -> coordinates, computed here independently of ref_chain.
std::vector<int64_t> coords_of(int64_t index, const memory::dims &dims) {
    std::vector<int64_t> c(dims.size());
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
        c[d] = index % dims[d];
        index /= dims[d];
    }
    return c;
}

// The operand's element for a destination coordinate: its own row-major offset with every
// broadcast dim (size 1) at 0.
int64_t operand_offset(const std::vector<int64_t> &c, const memory::dims &op_dims) {
    int64_t off = 0;
    for (size_t d = 0; d < op_dims.size(); ++d) off = off * op_dims[d] + (op_dims[d] == 1 ? 0 : c[d]);
    return off;
}

int64_t count(const memory::dims &dims) {
    int64_t n = 1;
    for (const auto d : dims) n *= d;
    return n;
}

} // namespace

TEST_CASE("ref_chain: operands broadcast by every policy", "[ref_post_ops][binary]") {
    const memory::dims dst = {2, 3, 4, 5};
    struct policy_case {
        const char *name;
        int mask;
        memory::dims op_dims;
    };
    const policy_case cases[] = {
        {"common", post_ops::policy::common, {1, 1, 1, 1}},
        {"per_oc", post_ops::policy::per_oc, {1, 3, 1, 1}},
        {"per_mb_spatial", post_ops::policy::per_mb_spatial, {2, 1, 4, 5}},
        {"per_tensor", post_ops::policy::per_tensor, {2, 3, 4, 5}},
        {"mask1 (per_dim_0)", 1, {2, 1, 1, 1}},
        {"mask3 (per_dim_01)", 3, {2, 3, 1, 1}},
        {"mask5", 5, {2, 1, 4, 1}},
        {"mask8", 8, {1, 1, 1, 5}},
        {"mask6 plus bits beyond the rank", 6 | (1 << 9), {1, 3, 4, 1}},
        {"~4 (every dim but 2)", ~4, {2, 3, 1, 5}},
    };
    for (const policy_case &c : cases) {
        INFO(c.name);
        // Integer values: every result below is exact.
        std::vector<float> op(static_cast<size_t>(count(c.op_dims)));
        for (size_t i = 0; i < op.size(); ++i) op[i] = static_cast<float>(3 * i + 1);
        std::vector<float> slopes(op.size());
        for (size_t i = 0; i < slopes.size(); ++i) slopes[i] = static_cast<float>(int(i % 5) - 2);

        post_ops po;
        po.append_binary(algorithm::binary_add, c.mask); // x + op
        po.append_prelu(c.mask);                         // then the slopes
        po.append_sum(2.f);
        const std::vector<const float *> operands = {op.data(), slopes.data(), nullptr};
        const ref_chain chain(po, dst, operands);
        int mismatches = 0;
        for (int64_t i = 0; i < count(dst); ++i) {
            const std::vector<int64_t> co = coords_of(i, dst);
            const int64_t o = operand_offset(co, c.op_dims);
            const float x = static_cast<float>(i % 7) - 40.f;
            const float dst_old = static_cast<float>(i % 3);
            float expect = x + op[o];
            if (!(expect > 0)) expect *= slopes[o];
            expect += 2.f * dst_old;
            const float got = chain.apply(x, dst_old, i);
            if (!same(got, expect) && ++mismatches <= 5) {
                INFO("index " << i << " x " << x << " operand " << op[o] << " slope " << slopes[o]);
                CHECK(got == expect);
            }
        }
        CHECK(mismatches == 0);
    }
}

TEST_CASE("ref_chain: a given src1 is read in its own dims", "[ref_post_ops][binary]") {
    // src1 given by desc: its dims decide the broadcast, whatever the policy they map to.
    const memory::dims dst = {3, 4};
    const memory::desc per_oc({1, 4}, memory::data_type::f32, memory::format_tag::ab);
    const memory::desc per_mb({3, 1}, memory::data_type::f32, memory::format_tag::ab);
    post_ops po;
    po.append_binary(algorithm::binary_mul, per_oc);
    po.append_binary(algorithm::binary_sub, per_mb);
    const float oc_vals[] = {1.f, 2.f, 3.f, 4.f};
    const float mb_vals[] = {100.f, 200.f, 300.f};
    const ref_chain chain(po, dst, {oc_vals, mb_vals});
    for (int64_t n = 0; n < 3; ++n)
        for (int64_t c = 0; c < 4; ++c) {
            const float x = static_cast<float>(10 * n + c);
            CHECK(chain.apply(x, 0.f, n * 4 + c) == x * oc_vals[c] - mb_vals[n]);
        }
}

TEST_CASE("ref_chain: every binary algorithm, NaN, ties and signed zeros",
        "[ref_post_ops][binary]") {
    struct binary_case {
        algorithm alg;
        float x, b, expect;
    };
    const binary_case cases[] = {
        {algorithm::binary_add, 1.f, 2.f, 3.f},
        {algorithm::binary_add, -0.f, -0.f, -0.f},
        {algorithm::binary_add, -0.f, 0.f, 0.f},
        {algorithm::binary_add, inf, -inf, qnan},
        {algorithm::binary_add, qnan, 1.f, qnan},
        {algorithm::binary_add, 16777216.f, 1.f, 16777216.f}, // one rounding to f32
        {algorithm::binary_sub, 1.f, 2.f, -1.f},
        {algorithm::binary_sub, 0.f, 0.f, 0.f},
        {algorithm::binary_sub, -0.f, 0.f, -0.f},
        {algorithm::binary_sub, inf, inf, qnan},
        {algorithm::binary_mul, 3.f, -2.f, -6.f},
        {algorithm::binary_mul, -0.f, 5.f, -0.f},
        {algorithm::binary_mul, inf, 0.f, qnan},
        {algorithm::binary_mul, 1.f, qnan, qnan},
        {algorithm::binary_div, 1.f, 4.f, 0.25f},
        {algorithm::binary_div, 1.f, 3.f, 1.f / 3.f},
        {algorithm::binary_div, 1.f, 0.f, inf},
        {algorithm::binary_div, 1.f, -0.f, -inf},
        {algorithm::binary_div, 0.f, 0.f, qnan},
        {algorithm::binary_div, -6.f, 2.f, -3.f},
        // max and min follow maxps/minps: x > b ? x : b, so a NaN in either and a tie of
        // zeros give b.
        {algorithm::binary_max, 1.f, 2.f, 2.f},
        {algorithm::binary_max, 2.f, 1.f, 2.f},
        {algorithm::binary_max, -inf, -3.f, -3.f},
        {algorithm::binary_max, qnan, 1.f, 1.f},
        {algorithm::binary_max, 1.f, qnan, qnan},
        {algorithm::binary_max, -0.f, 0.f, 0.f},
        {algorithm::binary_max, 0.f, -0.f, -0.f},
        {algorithm::binary_min, 1.f, 2.f, 1.f},
        {algorithm::binary_min, 2.f, 1.f, 1.f},
        {algorithm::binary_min, qnan, 1.f, 1.f},
        {algorithm::binary_min, 1.f, qnan, qnan},
        {algorithm::binary_min, -0.f, 0.f, 0.f},
        {algorithm::binary_min, 0.f, -0.f, -0.f},
        {algorithm::binary_min, inf, 5.f, 5.f},
        // Comparisons give 1 or 0; ordered, so false on NaN, except ne.
        {algorithm::binary_ge, 1.f, 1.f, 1.f},
        {algorithm::binary_ge, 1.f, 2.f, 0.f},
        {algorithm::binary_ge, 2.f, 1.f, 1.f},
        {algorithm::binary_ge, qnan, 1.f, 0.f},
        {algorithm::binary_ge, -0.f, 0.f, 1.f},
        {algorithm::binary_gt, 1.f, 1.f, 0.f},
        {algorithm::binary_gt, 2.f, 1.f, 1.f},
        {algorithm::binary_gt, inf, inf, 0.f},
        {algorithm::binary_gt, 1.f, qnan, 0.f},
        {algorithm::binary_le, 1.f, 1.f, 1.f},
        {algorithm::binary_le, 2.f, 1.f, 0.f},
        {algorithm::binary_le, -inf, -inf, 1.f},
        {algorithm::binary_le, qnan, qnan, 0.f},
        {algorithm::binary_lt, 1.f, 1.f, 0.f},
        {algorithm::binary_lt, 1.f, 2.f, 1.f},
        {algorithm::binary_lt, -0.f, 0.f, 0.f},
        {algorithm::binary_lt, qnan, 1.f, 0.f},
        {algorithm::binary_eq, 1.f, 1.f, 1.f},
        {algorithm::binary_eq, 1.f, 2.f, 0.f},
        {algorithm::binary_eq, -0.f, 0.f, 1.f},
        {algorithm::binary_eq, qnan, qnan, 0.f},
        {algorithm::binary_eq, inf, inf, 1.f},
        {algorithm::binary_ne, 1.f, 1.f, 0.f},
        {algorithm::binary_ne, 1.f, 2.f, 1.f},
        {algorithm::binary_ne, -0.f, 0.f, 0.f},
        {algorithm::binary_ne, qnan, qnan, 1.f},
        {algorithm::binary_ne, 1.f, qnan, 1.f},
    };
    for (const binary_case &c : cases) {
        const float got = binary1(c.alg, c.x, c.b);
        INFO(prim::algorithm_name(c.alg) << "(" << c.x << ", " << c.b << ") = " << got
                                         << ", expected " << c.expect);
        CHECK(same(got, c.expect));
    }
    // The comparisons' results are exactly +1 and +0 (never -0).
    for (const binary_case &c : cases)
        if (c.alg >= algorithm::binary_ge) CHECK((bits(binary1(c.alg, c.x, c.b)) == bits(1.f)
                                                  || bits(binary1(c.alg, c.x, c.b)) == 0u));
}

TEST_CASE("ref_chain: prelu, negative slopes, signed zeros and NaN", "[ref_post_ops][binary]") {
    struct prelu_case {
        float x, slope, expect;
    };
    const prelu_case cases[] = {
        {3.f, 0.5f, 3.f},       {3.f, -2.f, 3.f},        {-3.f, 0.5f, -1.5f},
        {-3.f, -2.f, 6.f},      {-3.f, 0.f, -0.f},       {-3.f, -0.f, 0.f},
        // Zero is not > 0: it is multiplied, so its sign follows the slope's.
        {0.f, 2.f, 0.f},        {0.f, -2.f, -0.f},       {-0.f, 2.f, -0.f},
        {-0.f, -2.f, 0.f},      {inf, -1.f, inf},        {-inf, 0.5f, -inf},
        {-inf, -1.f, inf},      {-inf, 0.f, qnan},       // -inf * 0
        {qnan, 1.f, qnan},      {qnan, -1.f, qnan},      {qnan, 0.f, qnan},
        {2.f, qnan, 2.f},       {-2.f, qnan, qnan},      {-1e30f, 1e30f, -inf},
    };
    for (const prelu_case &c : cases) {
        const float got = prelu1(c.x, c.slope);
        INFO("prelu(" << c.x << ", slope " << c.slope << ") = " << got << ", expected "
                      << c.expect);
        CHECK(same(got, c.expect));
    }
}

TEST_CASE("ref_chain: binary and prelu in order with sums and eltwise", "[ref_post_ops][binary]") {
    // relu, then x - b, then prelu, then sum: order changes the result.
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_binary(algorithm::binary_sub, post_ops::policy::common);
    po.append_prelu(post_ops::policy::common);
    po.append_sum(1.f);
    po.append_binary(algorithm::binary_mul, post_ops::policy::common);
    const float b = 5.f, slope = -2.f, scale = 3.f;
    const ref_chain chain(po, {1}, {nullptr, &b, &slope, nullptr, &scale});
    // x = -1: relu 0, 0 - 5 = -5, prelu 10, + dst_old 1 = 11, * 3 = 33.
    CHECK(chain.apply(-1.f, 1.f, 0) == 33.f);
    // x = 8: 8, 3, 3, 4, 12.
    CHECK(chain.apply(8.f, 1.f, 0) == 12.f);

    // A chain with operands needs them.
    CHECK_THROWS_WITH(ref_chain(po), Catch::Contains("operands are needed"));
    CHECK_THROWS_WITH(ref_chain(po, {1}, {nullptr, &b, nullptr, nullptr, &scale}),
            Catch::Contains("no data for post-op 2 (prelu) weights"));
    CHECK_THROWS_WITH(ref_chain(po, {1}, {nullptr, nullptr}),
            Catch::Contains("no data for post-op 1 (sub) src1"));
    CHECK_THROWS_WITH(prim::impl::ref_apply_post_ops(po, 1.f, 1.f), Catch::Contains("use ref_chain"));
    // A chain without operands runs the same through either.
    post_ops plain_chain;
    plain_chain.append_sum(2.f);
    plain_chain.append_eltwise(algorithm::eltwise_linear, 3.f, 1.f);
    CHECK(ref_chain(plain_chain).apply(1.f, 4.f, 17) == ref_apply_post_ops(plain_chain, 1.f, 4.f));
    CHECK(ref_chain(plain_chain, {2, 3}, {}).apply(1.f, 4.f, 5) == 28.f);
}
