// plan_kernel_chain (src/jit/inject/kernel_chain_plan.hpp): the chain a JIT kernel runs, its
// spare vectors and why not. No code is generated: these run on any CPU.
#include <catch2/catch.hpp>

#include "jit/inject/kernel_chain_plan.hpp"
#include "jit/inject/post_ops_injector.hpp"

using prim::algorithm;
using prim::cpu_isa;
using prim::memory;
using prim::post_ops;
using prim::jit::kernel_chain_needs;
using prim::jit::kernel_chain_plan;
using prim::jit::plan_kernel_chain;

namespace {

const memory::desc dst({2, 16, 7, 7}, memory::data_type::f32, memory::format_tag::nchw);

memory::desc operand(const memory::dims &dims, memory::data_type dt = memory::data_type::f32) {
    return memory::desc(dims, dt, memory::format_tag::nchw);
}

} // namespace

TEST_CASE("kernel chain plan: each operand's mask becomes its access", "[kernel_chain_plan]") {
    post_ops user;
    user.append_binary(algorithm::binary_add, operand({1, 16, 1, 1}));
    user.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    user.append_binary(algorithm::binary_mul, operand({2, 16, 7, 7}));
    user.append_binary(algorithm::binary_sub, operand({2, 1, 7, 7}));
    user.append_binary(algorithm::binary_max, operand({1, 1, 1, 1}));
    const kernel_chain_plan plan = plan_kernel_chain(cpu_isa::avx512, user, dst, {});
    REQUIRE(plan.why_not.empty());
    REQUIRE(plan.chain.len() == user.len());
    const auto &e = plan.chain.entries();
    CHECK(e[0].mask == post_ops::policy::per_oc);
    CHECK(e[1].kind == post_ops::kind::eltwise);
    CHECK(e[2].mask == post_ops::policy::per_tensor);
    CHECK(e[3].mask == post_ops::policy::per_mb_spatial);
    CHECK(e[4].mask == post_ops::policy::common);
    CHECK(e[0].src1.is_zero()); // the operand's desc stays with the primitive
}

TEST_CASE("kernel chain plan: a batch per call absorbs dim 0", "[kernel_chain_plan]") {
    post_ops user;
    user.append_binary(algorithm::binary_add, operand({2, 1, 1, 1}));
    const kernel_chain_plan per_image = plan_kernel_chain(cpu_isa::avx2, user, dst, {});
    CHECK(per_image.why_not.find("varies along dims {0}") != std::string::npos);
    kernel_chain_needs needs;
    needs.batch_per_call = true;
    const kernel_chain_plan per_call = plan_kernel_chain(cpu_isa::avx2, user, dst, needs);
    REQUIRE(per_call.why_not.empty());
    CHECK(per_call.chain.entries()[0].mask == post_ops::policy::common);
}

TEST_CASE("kernel chain plan: operand types only where the kernel converts", "[kernel_chain_plan]") {
    post_ops user;
    user.append_binary(algorithm::binary_add, operand({1, 16, 1, 1}, memory::data_type::s8));
    const kernel_chain_plan f32 = plan_kernel_chain(cpu_isa::avx512, user, dst, {});
    kernel_chain_needs needs;
    needs.operand_types = true;
    const kernel_chain_plan typed = plan_kernel_chain(cpu_isa::avx512, user, dst, needs);
    CHECK(f32.chain.entries()[0].dt == memory::data_type::undef); // read as f32
    CHECK(typed.chain.entries()[0].dt == memory::data_type::s8);
}

TEST_CASE("kernel chain plan: the spares are the injector's, AVX2's mask on request", "[kernel_chain_plan]") {
    post_ops user;
    user.append_binary(algorithm::binary_add, operand({1, 16, 1, 1}));
    user.append_eltwise(algorithm::eltwise_gelu_erf, 0.f, 0.f);
    kernel_chain_needs masked;
    masked.operand_mask_spare = true;
    for (cpu_isa isa : {cpu_isa::avx2, cpu_isa::avx512}) {
        const kernel_chain_plan plain = plan_kernel_chain(isa, user, dst, {});
        const kernel_chain_plan with_mask = plan_kernel_chain(isa, user, dst, masked);
        REQUIRE(plain.why_not.empty());
        const int injector = isa == cpu_isa::avx512
                ? prim::jit::post_ops_injector<cpu_isa::avx512>::aux_vecs_count(plain.chain)
                : prim::jit::post_ops_injector<cpu_isa::avx2>::aux_vecs_count(plain.chain);
        CHECK(plain.aux_vecs == injector);
        CHECK(with_mask.aux_vecs == injector + (isa == cpu_isa::avx2 ? 1 : 0));
        // gelu_erf is a long sequence: two accumulators' code interleaved need twice the spares.
        CHECK(plain.interleaved_aux_vecs == 2 * injector);
    }
    post_ops no_operand;
    no_operand.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    CHECK(plan_kernel_chain(cpu_isa::avx2, no_operand, dst, masked).aux_vecs
          == prim::jit::post_ops_injector<cpu_isa::avx2>::aux_vecs_count(no_operand));
}

TEST_CASE("kernel chain plan: the injector's refusal is the reason", "[kernel_chain_plan]") {
    // soft_relu's alpha is a constant of its code on the JIT: a runtime one is refused.
    post_ops user;
    user.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    user.append_eltwise(algorithm::eltwise_soft_relu, PRIM_RUNTIME_F32_VAL, 0.f);
    for (cpu_isa isa : {cpu_isa::avx2, cpu_isa::avx512}) {
        const kernel_chain_plan plan = plan_kernel_chain(isa, user, dst, {});
        CHECK(plan.why_not.find("soft_relu takes alpha and beta as constants only") != std::string::npos);
        CHECK(plan.aux_vecs == 0);
    }
}
