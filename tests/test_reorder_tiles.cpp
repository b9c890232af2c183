// The reorder's tile path (src/common/reorder_tiles.cpp) against the generic copy by offsets, for
// every pair of layouts the tile path takes: blocked weights and data layouts (16b16a, 8a8b,
// 16b, 16a, 128a, 48a, three blocked dims) to and from plain, nhwc-like orders and strides with
// gaps, with tails (channels not a multiple of the block, odd spatial sizes, a row of tiles
// longer than 16 but not a multiple of it). A blocked dst's padding must come out zero though it
// held garbage; a linear dst's gaps must keep what they held. A few cases are large enough for
// the copy to run on several threads.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common/internal_reorder.hpp"
#include "common/reorder_tiles.hpp"

using namespace prim;
using md = memory::desc;

namespace {

constexpr float garbage = -7.f;

// Distinct values in src's buffer (its gaps and padding included), garbage in both dsts; then
// the tile path and the generic copy must give the same bytes.
void check_pair(const md &src_md, const md &dst_md) {
    INFO(src_md.layout() << " -> " << dst_md.layout() << " dims " << src_md.get_dims().size());
    std::vector<float> src(static_cast<size_t>(src_md.nelems_padded()));
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i % 8191) + 0.5f;
    std::vector<float> tiles(static_cast<size_t>(dst_md.nelems_padded()), garbage);
    std::vector<float> generic = tiles;
    REQUIRE(impl::reorder_by_tiles(src_md, dst_md, src.data(), tiles.data()));
    impl::copy_by_offsets(src_md, dst_md, src.data(), generic.data());
    size_t differ = 0;
    for (size_t i = 0; i < tiles.size(); ++i) differ += tiles[i] != generic[i];
    CHECK(differ == 0);
}

// Both directions between the blocked pattern and each linear desc.
void check_both_ways(const memory::dims &dims, const std::string &blocked,
                     const std::vector<md> &linear) {
    const md b(dims, memory::data_type::f32, blocked);
    for (const md &l : linear) {
        check_pair(l, b);
        check_pair(b, l);
    }
}

md tag(const memory::dims &d, const std::string &p) { return md(d, memory::data_type::f32, p); }

// Row-major strides with a gap of `gap` elements after each row of the last dim.
md with_gaps(const memory::dims &d, memory::dim gap) {
    memory::dims s(d.size(), 1);
    for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i)
        s[i] = s[i + 1] * (d[i + 1] + (i == static_cast<int>(d.size()) - 2 ? gap : 0));
    return md(d, memory::data_type::f32, s);
}

} // namespace

TEST_CASE("reorder tiles: conv weights 16b16a and 8a8b, full blocks and tails", "[reorder][tiles]") {
    for (const memory::dims &d : std::vector<memory::dims>{
             {32, 16, 1, 1}, {32, 32, 3, 3}, {64, 3, 7, 7}, {19, 21, 3, 5}, {17, 33, 1, 2},
             {256, 70, 3, 3}}) { // the last above reorder_parallel_elements: rows over threads
        check_both_ways(d, "ABcd16b16a", {tag(d, "abcd"), tag(d, "acdb"), tag(d, "cdba"), with_gaps(d, 3)});
        check_both_ways(d, "ABcd8a8b", {tag(d, "abcd"), tag(d, "acdb")});
    }
}

TEST_CASE("reorder tiles: data aBcd16b (nchw, nhwc), odd spatial sizes", "[reorder][tiles]") {
    for (const memory::dims &d : std::vector<memory::dims>{
             {1, 64, 7, 7}, {2, 21, 5, 3}, {3, 16, 1, 17}, {1, 5, 9, 1}, {1, 40, 57, 57}}) {
        check_both_ways(d, "aBcd16b", {tag(d, "abcd"), tag(d, "acdb"), with_gaps(d, 2)});
        check_both_ways(d, "aBcd8b", {tag(d, "abcd"), tag(d, "acdb")});
    }
}

TEST_CASE("reorder tiles: grouped weights Abcde16a (depthwise)", "[reorder][tiles]") {
    for (const memory::dims &d : std::vector<memory::dims>{{32, 1, 1, 3, 3}, {21, 1, 1, 3, 3}, {16, 2, 3, 1, 5}})
        check_both_ways(d, "Abcde16a", {tag(d, "abcde"), with_gaps(d, 1)});
}

TEST_CASE("reorder tiles: inner product Ab128a and Ab48a, rows of 16 tiles and their tails", "[reorder][tiles]") {
    // 2048 columns: whole groups of 16 tiles; 37: two groups and a rest of 5; 15: no group.
    for (const memory::dims &d : std::vector<memory::dims>{{1000, 64}, {130, 37}, {128, 15}, {250, 2048}}) {
        check_both_ways(d, "Ab128a", {tag(d, "ab"), tag(d, "ba"), with_gaps(d, 3)});
        check_both_ways(d, "Ab48a", {tag(d, "ab"), tag(d, "ba")});
    }
}

TEST_CASE("reorder tiles: three blocked dims (the tile table path)", "[reorder][tiles]") {
    const memory::dims d{9, 6, 5, 2};
    check_both_ways(d, "ABCd4a2b4c", {tag(d, "abcd"), tag(d, "dcba"), with_gaps(d, 1)});
}

TEST_CASE("reorder tiles: pairs left to the generic copy", "[reorder][tiles]") {
    const memory::dims d{4, 32, 3, 3};
    std::vector<float> src(static_cast<size_t>(tag(d, "ABcd16b16a").nelems_padded()), 1.f);
    std::vector<float> dst(src.size(), garbage);
    // Blocked on both sides, neither blocked, tiles under 8 elements: nothing written.
    CHECK_FALSE(impl::reorder_by_tiles(tag(d, "aBcd16b"), tag(d, "ABcd16b16a"), src.data(), dst.data()));
    CHECK_FALSE(impl::reorder_by_tiles(tag(d, "abcd"), tag(d, "acdb"), src.data(), dst.data()));
    CHECK_FALSE(impl::reorder_by_tiles(tag(d, "abcd"), tag(d, "aBcd4b"), src.data(), dst.data()));
    const memory::dims empty{0, 32, 3, 3};
    CHECK_FALSE(impl::reorder_by_tiles(tag(empty, "abcd"), tag(empty, "aBcd16b"), src.data(), dst.data()));
    for (float v : dst) CHECK(v == garbage);
}
