// Same-type moves between layouts without inner blocks (src/common/move_unblocked.cpp: runs,
// pixel interleaves, tile transposes) against the element-by-element copy (convert_by_offsets),
// bit for bit, for u8, s8, s32 and f32: every permutation of 4-D and 5-D shapes into every other
// (or into plain), 3-D, sizes that leave tails (1, 3, 17, 65), strides with gaps (which must keep
// what they held), zero-size dims, one element, and shapes large enough to run on two threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "common/internal_reorder.hpp"
#include "common/move_unblocked.hpp"
#include "prim/prim.hpp"

using namespace prim;
using md = memory::desc;
using dt = memory::data_type;
using dims_t = memory::dims;

namespace {

constexpr uint8_t garbage = 0xA5;
const dt all_types[] = {dt::u8, dt::s8, dt::s32, dt::f32};

// The strides that lay dims out in `order` (outermost first), each dim's stride `gap` elements
// beyond dense (and the innermost's 1 + gap, so that it is strided too when gap > 0).
dims_t strides_of(const dims_t &dims, const std::vector<int> &order, memory::dim gap) {
    dims_t s(dims.size());
    memory::dim next = 1 + gap;
    for (int k = static_cast<int>(order.size()) - 1; k >= 0; --k) {
        s[order[k]] = next;
        next = next * std::max<memory::dim>(dims[order[k]], 1) + gap;
    }
    return s;
}

std::vector<int> identity_order(size_t n) {
    std::vector<int> o(n);
    std::iota(o.begin(), o.end(), 0);
    return o;
}

// Distinct bytes in src; garbage in the dsts (gaps included); the fast path, directly and
// through the public reorder, must give the bytes of the element-by-element copy.
void check_pair(const md &src_md, const md &dst_md) {
    INFO(src_md.layout() << " -> " << dst_md.layout() << " " << data_type_name(src_md.get_data_type()));
    std::vector<uint8_t> src(std::max<size_t>(src_md.get_size(), 1));
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>((i * 131 + i / 251) % 256);
    std::vector<uint8_t> fast(std::max<size_t>(dst_md.get_size(), 1), garbage), generic = fast, via_reorder = fast;
    REQUIRE(impl::move_unblocked(src_md, dst_md, src.data(), fast.data()));
    impl::convert_by_offsets(src_md, dst_md, src.data(), generic.data(), impl::value_map());
    reorder(src_md, dst_md).execute(memory(src_md, src.data()), memory(dst_md, via_reorder.data()));
    CHECK(fast == generic);
    CHECK(via_reorder == generic);
}

// src laid out in src_order, dst in dst_order, each with the given gap.
void check_orders(const dims_t &dims, dt t, const std::vector<int> &src_order, const std::vector<int> &dst_order,
                  memory::dim src_gap = 0, memory::dim dst_gap = 0) {
    check_pair(md(dims, t, strides_of(dims, src_order, src_gap)), md(dims, t, strides_of(dims, dst_order, dst_gap)));
}

} // namespace

TEST_CASE("permute reorder: every 4-D permutation into every other, tails", "[reorder][permute]") {
    const dims_t dims = {3, 17, 2, 65};
    for (dt t : all_types) {
        std::vector<int> from = identity_order(4);
        do {
            std::vector<int> to = identity_order(4);
            do check_orders(dims, t, from, to);
            while (std::next_permutation(to.begin(), to.end()));
        } while (std::next_permutation(from.begin(), from.end()));
    }
}

TEST_CASE("permute reorder: the BERT attention's shapes", "[reorder][permute]") {
    for (dt t : all_types) {
        const dims_t bshd = {1, 128, 12, 64};
        const md plain(bshd, t, strides_of(bshd, identity_order(4), 0));
        // K transposed per head, heads split, heads merged: views of one plain tensor.
        const dims_t k_dims = {1, 12, 64, 128}, h_dims = {1, 12, 128, 64};
        const auto &s = plain.strides();
        check_pair(md(k_dims, t, dims_t{s[0], s[2], s[3], s[1]}), md(k_dims, t, strides_of(k_dims, identity_order(4), 0)));
        check_pair(md(h_dims, t, dims_t{s[0], s[2], s[1], s[3]}), md(h_dims, t, strides_of(h_dims, identity_order(4), 0)));
        check_orders(bshd, t, {0, 2, 1, 3}, identity_order(4));
    }
}

TEST_CASE("permute reorder: strides with gaps on either side or both", "[reorder][permute]") {
    const dims_t dims = {2, 19, 3, 33};
    for (dt t : all_types) {
        std::vector<int> from = identity_order(4);
        do {
            for (const std::vector<int> &to : {identity_order(4), std::vector<int>{0, 2, 3, 1}, std::vector<int>{3, 2, 1, 0}}) {
                check_orders(dims, t, from, to, 1, 0);
                check_orders(dims, t, from, to, 0, 3);
                check_orders(dims, t, from, to, 2, 1);
            }
        } while (std::next_permutation(from.begin(), from.end()));
    }
}

TEST_CASE("permute reorder: 3-D and 5-D shapes, every permutation into plain and back", "[reorder][permute]") {
    for (dt t : all_types) {
        for (const dims_t &dims : {dims_t{17, 3, 65}, dims_t{1, 16, 16}, dims_t{64, 1, 129}}) {
            std::vector<int> p = identity_order(3);
            do {
                check_orders(dims, t, p, identity_order(3));
                check_orders(dims, t, identity_order(3), p);
            } while (std::next_permutation(p.begin(), p.end()));
        }
        const dims_t dims5 = {2, 3, 1, 5, 17};
        std::vector<int> p = identity_order(5);
        do {
            check_orders(dims5, t, p, identity_order(5));
            check_orders(dims5, t, identity_order(5), p, 0, 1);
        } while (std::next_permutation(p.begin(), p.end()));
    }
}

TEST_CASE("permute reorder: images into channels-last and back (1 to 4 channels, 16-pixel tails)", "[reorder][permute]") {
    for (dt t : all_types)
        for (memory::dim c : {1, 2, 3, 4, 5})
            for (memory::dim w : {1, 15, 16, 37}) {
                const dims_t dims = {2, c, 3, w};
                check_orders(dims, t, {0, 1, 2, 3}, {0, 2, 3, 1});
                check_orders(dims, t, {0, 2, 3, 1}, {0, 1, 2, 3});
                check_orders(dims, t, {0, 1, 2, 3}, {0, 2, 3, 1}, 0, 1); // channels-last with gaps
            }
}

TEST_CASE("permute reorder: zero-size dims, one element, one dim", "[reorder][permute]") {
    for (dt t : all_types) {
        for (const dims_t &dims : {dims_t{2, 0, 3, 4}, dims_t{0}, dims_t{5, 3, 0}}) {
            const md a(dims, t, strides_of(dims, identity_order(dims.size()), 0));
            std::vector<int> rev = identity_order(dims.size());
            std::reverse(rev.begin(), rev.end());
            const md b(dims, t, strides_of(dims, rev, 0));
            std::vector<uint8_t> src(64, 1), dst(64, garbage);
            REQUIRE(impl::move_unblocked(a, b, src.data(), dst.data()));
            CHECK(std::count(dst.begin(), dst.end(), garbage) == 64); // nothing written
        }
        check_orders({1, 1, 1, 1}, t, {3, 2, 1, 0}, identity_order(4));
        check_orders({1000}, t, {0}, {0}, 2, 0);
        check_orders({1000}, t, {0}, {0}, 0, 0);
    }
}

TEST_CASE("permute reorder: shapes large enough for two threads", "[reorder][permute]") {
    for (dt t : all_types) {
        check_orders({1, 4, 300, 301}, t, {0, 1, 3, 2}, identity_order(4));          // transposes
        check_orders({1, 300, 4, 301}, t, {0, 2, 1, 3}, identity_order(4));          // runs
        check_orders({2, 64, 57, 55}, t, {0, 2, 3, 1}, identity_order(4), 0, 1);     // nhwc -> nchw with gaps
    }
    check_orders({1 << 20}, dt::u8, {0}, {0}, 1, 0); // one strided run, pieces across threads
}

TEST_CASE("permute reorder: what it leaves to the other paths", "[reorder][permute]") {
    const dims_t d = {16, 16, 3, 3};
    std::vector<float> a(16 * 16 * 9 * 2), b(a.size());
    const md plain(d, dt::f32, memory::format_tag::abcd);
    CHECK_FALSE(impl::move_unblocked(plain, md(d, dt::f32, "ABcd16b16a"), a.data(), b.data())); // blocked
    CHECK_FALSE(impl::move_unblocked(md(d, dt::f32, "ABcd16b16a"), plain, a.data(), b.data()));
    CHECK_FALSE(impl::move_unblocked(plain, md(d, dt::s32, memory::format_tag::acdb), a.data(), b.data())); // two types
}
