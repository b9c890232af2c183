// The public reorder's one-byte fast path (src/common/reorder_int8_tiles.cpp: s8 and u8 copied
// by the tile path) against the generic conversion by offsets (convert_by_offsets), on the int8
// weights' layouts with tails (oc not a multiple of 64 or 48, ic not a multiple of 4), grouped
// weights, 1-D, 3-D and 5-D shapes, both directions, a dst holding garbage in its padding, and
// sizes that run on several threads; then the cases it must leave to reorder_data.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "common/internal_reorder.hpp"
#include "common/reorder_int8_tiles.hpp"
#include "prim/prim.hpp"

using namespace prim;
using md = memory::desc;
using dt = memory::data_type;

namespace {

constexpr uint8_t garbage = 0xA5;

// Distinct bytes in src; garbage in both dsts; the fast path (directly and through the public
// reorder) and the generic conversion must give the same bytes.
void check_pair(const md &src_md, const md &dst_md) {
    INFO(src_md.layout() << " -> " << dst_md.layout() << " " << data_type_name(src_md.get_data_type()));
    std::vector<uint8_t> src(src_md.get_size());
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>((i * 131 + i / 251) % 256);
    std::vector<uint8_t> fast(dst_md.get_size(), garbage), generic = fast, via_reorder = fast;
    const memory s(src_md, src.data()), f(dst_md, fast.data()), r(dst_md, via_reorder.data());
    REQUIRE(impl::reorder_int8_by_tiles(src_md, dst_md, s, f, impl::value_map()));
    impl::convert_by_offsets(src_md, dst_md, src.data(), generic.data(), impl::value_map());
    reorder(src_md, dst_md).execute(s, r);
    size_t differ = 0, differ_public = 0;
    for (size_t i = 0; i < fast.size(); ++i) {
        differ += fast[i] != generic[i];
        differ_public += via_reorder[i] != generic[i];
    }
    CHECK(differ == 0);
    CHECK(differ_public == 0);
}

void check_both_ways(const memory::dims &dims, const std::string &blocked) {
    for (dt t : {dt::s8, dt::u8}) {
        const md b(dims, t, blocked);
        memory::dims strides(dims.size(), 1);
        for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * dims[i + 1];
        const md plain(dims, t, strides);
        check_pair(plain, b);
        check_pair(b, plain);
    }
}

} // namespace

TEST_CASE("int8 reorder tiles: convolution weights AcdB64a4b and AcdB48a4b, tails", "[reorder][tiles][int8]") {
    check_both_ways({64, 256, 1, 1}, "AcdB64a4b");
    check_both_ways({70, 6, 3, 3}, "AcdB64a4b");    // oc tail of 6, ic of 6: one full 4 and a tail
    check_both_ways({1, 1, 1, 1}, "AcdB64a4b");     // a single element, the rest padding
    check_both_ways({50, 7, 3, 3}, "AcdB48a4b");
    check_both_ways({130, 258, 3, 3}, "AcdB64a4b");
    check_both_ways({2048, 2049, 1, 1}, "AcdB64a4b"); // 4.2M elements: two threads
}

TEST_CASE("int8 reorder tiles: inner product, 1-D, 3-D and grouped weights", "[reorder][tiles][int8]") {
    check_both_ways({1000, 2050}, "AB64a4b");       // oc 1000 = 15 x 64 + 40, ic 2050 = 512 x 4 + 2
    check_both_ways({70, 13}, "AB64a4b");
    check_both_ways({100}, "A64a");
    check_both_ways({70, 6, 5}, "AcB64a4b");        // 1-D convolution weights
    check_both_ways({3, 70, 6, 3, 3}, "aBdeC64b4c"); // grouped: g, oc/g, ic/g, kh, kw
    check_both_ways({2, 33, 5, 3, 3, 3}, "aBdefC16b4c");
}

TEST_CASE("int8 reorder tiles: what it leaves to reorder_data", "[reorder][tiles][int8]") {
    const memory::dims d = {70, 6, 3, 3};
    const md plain(d, dt::s8, memory::format_tag::abcd), blocked(d, dt::s8, "AcdB64a4b");
    std::vector<int8_t> a(blocked.get_size()), b(blocked.get_size());
    const memory src(plain, a.data()), dst(blocked, b.data());
    SECTION("another type, or two") {
        const md f32_plain(d, dt::f32, memory::format_tag::abcd), u8_blocked(d, dt::u8, "AcdB64a4b");
        std::vector<float> f(f32_plain.nelems_padded());
        CHECK_FALSE(impl::reorder_int8_by_tiles(f32_plain, blocked, memory(f32_plain, f.data()), dst, impl::value_map()));
        CHECK_FALSE(impl::reorder_int8_by_tiles(plain, u8_blocked, src, memory(u8_blocked, b.data()), impl::value_map()));
    }
    SECTION("a scale or a zero point") {
        const float scale = 2.f;
        impl::value_map scaled;
        scaled.scales = &scale;
        impl::value_map shifted;
        shifted.dst_zp = 3;
        CHECK_FALSE(impl::reorder_int8_by_tiles(plain, blocked, src, dst, scaled));
        CHECK_FALSE(impl::reorder_int8_by_tiles(plain, blocked, src, dst, shifted));
    }
    SECTION("memories of other descs, null or overlapping data") {
        CHECK_FALSE(impl::reorder_int8_by_tiles(plain, blocked, dst, dst, impl::value_map()));
        CHECK_FALSE(impl::reorder_int8_by_tiles(plain, blocked, memory(plain, nullptr), dst, impl::value_map()));
        CHECK_FALSE(impl::reorder_int8_by_tiles(plain, blocked, memory(plain, b.data() + 1), dst, impl::value_map()));
        // The public reorder still names the overlap (reorder_data's check).
        CHECK_THROWS_WITH(reorder(plain, blocked).execute(memory(plain, b.data() + 1), dst),
                          Catch::Contains("overlap"));
    }
    SECTION("a layout the tile path does not take (a dim blocked twice)") {
        const md twice({70, 13}, dt::s8, "AB16b64a4b"), p2({70, 13}, dt::s8, memory::format_tag::ab);
        std::vector<int8_t> x(p2.get_size()), y(twice.get_size());
        CHECK_FALSE(impl::reorder_int8_by_tiles(p2, twice, memory(p2, x.data()), memory(twice, y.data()), impl::value_map()));
    }
}
