// The row plan of the JIT eltwise pass (jit/eltwise/eltwise_rows.hpp), on descriptors alone: how each
// binary operand is read along the destination's rows, and strides that stay exact past 2^31
// elements (a fuzzed model's Expand to 2 x 2^30 overflowed an int there).
#include <catch2/catch.hpp>

#include "jit/eltwise/eltwise_rows.hpp"
#include "prim/attr.hpp"
#include "prim/memory.hpp"

using prim::memory;

namespace {

// The plan for dst with one binary entry whose operand is op.
prim::jit::eltwise_rows plan_with(const memory::desc &dst, prim::algorithm alg, const memory::desc &op,
                                  int simd_w) {
    prim::post_ops chain;
    chain.append_binary(alg, op);
    prim::jit::eltwise_rows plan;
    prim::post_ops kernel_chain;
    REQUIRE(prim::jit::plan_eltwise_rows(dst, chain, {op}, simd_w, plan, kernel_chain).empty());
    return plan;
}

} // namespace

TEST_CASE("eltwise rows: a destination of 2^31 elements and more", "[eltwise_rows]") {
    const int64_t big = int64_t(1) << 30;
    for (int64_t outer : {int64_t(2), int64_t(6)}) {
        INFO("dst " << outer << " x 2^30");
        const memory::desc dst({outer, big}, memory::data_type::f32, memory::format_tag::ab);
        const memory::desc row({1, big}, memory::data_type::f32, memory::format_tag::ab);
        const prim::jit::eltwise_rows plan = plan_with(dst, prim::algorithm::binary_add, row, 16);
        // One row per outer index, 2^30 long, the operand the same row each time.
        CHECK(plan.row_len == big);
        CHECK(plan.rows == outer);
        CHECK(plan.outer_count() == 1);
        REQUIRE(plan.operands.size() == 1);
        CHECK(plan.operands[0].how == prim::jit::eltwise_rows::read::follows_dst);
        CHECK(plan.operands[0].row_step == 0);
    }
}

TEST_CASE("eltwise rows: an outer stride of 2^31 elements", "[eltwise_rows]") {
    // dst 3 x 2 x 2^30 with an operand 3 x 1 x 2^30: rows of 2^30 along the last dim, 2 of them
    // (the operand repeats its row), then 3 outer steps of 2^31 elements in dst.
    const int64_t big = int64_t(1) << 30;
    const memory::desc dst({3, 2, big}, memory::data_type::f32, memory::format_tag::abc);
    const memory::desc op({3, 1, big}, memory::data_type::f32, memory::format_tag::abc);
    const prim::jit::eltwise_rows plan = plan_with(dst, prim::algorithm::binary_mul, op, 8);
    CHECK(plan.row_len == big);
    CHECK(plan.rows == 2);
    REQUIRE(plan.dst_outer.size() == 1);
    CHECK(plan.dst_outer[0] == 2 * big);
    REQUIRE(plan.operands.size() == 1);
    CHECK(plan.operands[0].row_step == 0);
    CHECK(plan.operands[0].outer == std::vector<int64_t>{big});
}
