// The constant table's layout (src/jit/gen/const_table.hpp): on AVX-512 an area of single 32-bit
// constants for embedded broadcasts comes first, within reach of an 8-bit displacement, then the
// vectors; past the area's 128 scalars a vector entry's first lane serves. Runtime parameters
// are filled in wherever they landed. And a chain with more constants than the area holds gives,
// bit for bit, what its entries give one kernel at a time.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "attr/runtime_params.hpp"
#include "eltwise_test_util.hpp"
#include "jit/gen/const_table.hpp"

using namespace prim;
using namespace prim::jit;

namespace {

uint32_t word_at(const std::vector<uint32_t> &words, int byte_offset) {
    return words.at(static_cast<size_t>(byte_offset / 4));
}

std::vector<uint32_t> contents(const const_table &t, const std::vector<float> &values = {}) {
    std::vector<uint32_t> words(t.bytes() / 4);
    t.write_with_values(words.data(), values);
    return words;
}

} // namespace

TEST_CASE("AVX-512 tables put single constants first, vectors after them", "[jit][const_table]") {
    const_table t(64);
    const int s1 = t.scalar_offset_of_bits(0x3f800000u);
    const int v1 = t.offset_of_bits(0x40000000u);
    const int s2 = t.scalar_offset_of_bits(0x40400000u);
    CHECK(s1 == 0);
    CHECK(s2 == 4);
    CHECK(t.scalar_offset_of_bits(0x3f800000u) == s1); // deduplicated
    CHECK(v1 == 512);                                   // after the 128-word area
    const std::vector<uint32_t> w = contents(t);
    CHECK(word_at(w, s1) == 0x3f800000u);
    CHECK(word_at(w, s2) == 0x40400000u);
    for (int lane = 0; lane < 16; ++lane) CHECK(word_at(w, v1 + 4 * lane) == 0x40000000u);

    // the area holds 128; the 129th scalar is a vector's first lane
    for (uint32_t i = 0; i < 126; ++i) CHECK(t.scalar_offset_of_bits(0x1000u + i) == 8 + 4 * static_cast<int>(i));
    const int past = t.scalar_offset_of_bits(0x2000u);
    CHECK(past >= 512);
    CHECK(past % 64 == 0);
    CHECK(word_at(contents(t), past) == 0x2000u);
}

TEST_CASE("AVX2 tables have no scalar area", "[jit][const_table]") {
    const_table t(32);
    CHECK(t.offset_of_bits(0x3f800000u) == 0);
    CHECK(t.bytes() == 32);
}

TEST_CASE("runtime parameters are written into scalars and vectors alike", "[jit][const_table]") {
    const_table t(64);
    uint32_t slot0, slot1_negated;
    const float v0 = impl::runtime_slot_value(0), v1 = -impl::runtime_slot_value(1);
    std::memcpy(&slot0, &v0, 4);
    std::memcpy(&slot1_negated, &v1, 4);
    const int s = t.scalar_offset_of_bits(slot0);
    const int v = t.offset_of_bits(slot1_negated);
    const std::vector<uint32_t> w = contents(t, {2.5f, 4.f});
    CHECK(word_at(w, s) == const_table::bits_of(2.5f));
    for (int lane = 0; lane < 16; ++lane) CHECK(word_at(w, v + 4 * lane) == const_table::bits_of(-4.f));
}

TEST_CASE("a chain with more constants than the scalar area holds", "[jit][const_table][avx512]") {
    // 70 linear entries with their own alpha and beta (140 constants), then entries whose
    // polynomials add more; each entry alone must give what the chain gives.
    post_ops chain;
    for (int i = 0; i < 70; ++i)
        chain.append_eltwise(algorithm::eltwise_linear, 1.f + 1e-3f * static_cast<float>(i),
                             1e-4f * static_cast<float>(i));
    chain.append_eltwise(algorithm::eltwise_gelu_erf, 0.f, 0.f);
    chain.append_eltwise(algorithm::eltwise_soft_relu, 1.f, 0.f);
    chain.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f);
    std::vector<float> in;
    for (int i = -2000; i <= 2000; ++i) in.push_back(static_cast<float>(i) * 3e-3f);
    const std::vector<float> fused = eltwise_test::run_eltwise_kernel<cpu_isa::avx512>(chain, in);
    std::vector<float> stepwise = in;
    for (const post_ops::entry &e : chain.entries()) {
        post_ops one;
        one.append_eltwise(e.alg, e.alpha, e.beta, e.scale);
        stepwise = eltwise_test::run_eltwise_kernel<cpu_isa::avx512>(one, stepwise);
    }
    for (size_t i = 0; i < in.size(); ++i) {
        INFO("x = " << in[i]);
        REQUIRE(std::memcmp(&fused[i], &stepwise[i], sizeof(float)) == 0);
    }
}
