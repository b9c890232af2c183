// The reference post-ops chain (src/ref/ref_post_ops.cpp): order, sums reading dst_old, scales,
// and rounding to f32 after each entry.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "prim/attr.hpp"
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
