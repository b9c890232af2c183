// The tile reorder with per-channel factors (a folded batch norm's scale applied while the
// weights go into their blocked layout) against scaling a copy first, list by list, and then
// reordering it with the generic copy: the bytes must be identical (same products, same order),
// for every path of the tile copy (two blocks, one block, rows of 16 tiles, three blocks), with
// tails, padding (which must come out zero), unblocked sources with gaps or permuted dims,
// grouped weights (channel = g, oc/g), several factor lists, and on several threads. Then
// impl::reorder_scaled, which falls back to scaling a scratch copy for the pairs the tile path
// refuses, the same way, and refuses bad input with a message.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "common/internal_reorder.hpp"
#include "common/reorder_tiles.hpp"
#include "prim/error.hpp"

using namespace prim;
using md = memory::desc;

namespace {

constexpr float garbage = -7.f;

md tag(const memory::dims &d, const std::string &p) { return md(d, memory::data_type::f32, p); }

// Row-major strides with a gap of one element after each row of the last dim.
md with_gap(const memory::dims &d) {
    memory::dims s(d.size(), 1);
    for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i)
        s[i] = s[i + 1] * (d[i + 1] + (i == static_cast<int>(d.size()) - 2 ? 1 : 0));
    return md(d, memory::data_type::f32, s);
}

// Values whose products round (not small integers): a wrong order of factors shows.
float value(size_t i) { return std::sin(static_cast<float>(i) * 0.37f) * 3.1f + 0.013f * static_cast<float>(i % 97); }

// Every element of src_md scaled by its channel's factors in turn, in src's own layout.
std::vector<float> scale_first(const md &src_md, const std::vector<float> &src, int leading,
                               const std::vector<std::vector<float>> &lists) {
    std::vector<float> out = src;
    const memory::dims &d = src_md.get_dims();
    std::vector<memory::dim> idx(d.size(), 0);
    memory::dim total = 1;
    for (auto x : d) total *= x;
    for (memory::dim e = 0; e < total; ++e) {
        memory::dim rest = e, channel = 0, stride = 1;
        for (int k = static_cast<int>(d.size()) - 1; k >= 0; --k) {
            idx[k] = rest % d[k];
            rest /= d[k];
        }
        for (int k = leading - 1; k >= 0; --k) {
            channel += idx[k] * stride;
            stride *= d[k];
        }
        float &v = out[static_cast<size_t>(src_md.offset(idx.data()))];
        for (const auto &l : lists) v *= l[static_cast<size_t>(channel)];
    }
    return out;
}

// Through reorder_scaled when via_entry_point (a scratch handed out only when used).
void check_scaled(const md &src_md, const md &dst_md, int leading, int n_lists, bool via_entry_point = false) {
    INFO(src_md.layout() << " -> " << dst_md.layout() << ", leading dims " << leading << ", lists " << n_lists);
    memory::dim channels = 1;
    for (int k = 0; k < leading; ++k) channels *= src_md.get_dims()[k];
    std::vector<std::vector<float>> lists(n_lists);
    impl::channel_factors f;
    f.leading_dims = leading;
    for (int l = 0; l < n_lists; ++l) {
        for (memory::dim c = 0; c < channels; ++c) lists[l].push_back(value(static_cast<size_t>(c * 7 + l + 1)));
        f.lists.push_back(lists[l].data());
    }
    std::vector<float> src(static_cast<size_t>(src_md.nelems_padded()));
    for (size_t i = 0; i < src.size(); ++i) src[i] = value(i);
    std::vector<float> tiles(static_cast<size_t>(dst_md.nelems_padded()), garbage), generic = tiles;
    std::vector<float> scratch;
    if (via_entry_point)
        impl::reorder_scaled(src_md, dst_md, src.data(), tiles.data(), f, [&](size_t n) {
            scratch.assign(n, garbage);
            return scratch.data();
        });
    else
        REQUIRE(impl::reorder_by_tiles(src_md, dst_md, src.data(), tiles.data(), &f));
    impl::copy_by_offsets(src_md, dst_md, scale_first(src_md, src, leading, lists).data(), generic.data());
    size_t differ = 0;
    for (size_t i = 0; i < tiles.size(); ++i) differ += tiles[i] != generic[i];
    CHECK(differ == 0);
}

} // namespace

TEST_CASE("scaled reorder tiles: conv weights 16b16a and 8a8b, tails and padding", "[reorder][tiles][scaled]") {
    for (const memory::dims &d : std::vector<memory::dims>{
             {32, 16, 1, 1}, {19, 21, 3, 5}, {17, 33, 1, 2}, {64, 3, 7, 7},
             {256, 70, 3, 3}}) { // the last on several threads
        const md b16 = tag(d, "ABcd16b16a"), b8 = tag(d, "ABcd8a8b");
        for (const md &lin : {tag(d, "abcd"), tag(d, "acdb"), with_gap(d)}) {
            check_scaled(lin, b16, 1, 1);
            check_scaled(lin, b8, 1, 1);
        }
        check_scaled(tag(d, "abcd"), b16, 1, 2); // two folds: one factor list after the other
        check_scaled(tag(d, "abcd"), tag(d, "aBcd16b"), 1, 1);
    }
}

TEST_CASE("scaled reorder tiles: grouped weights, channel over g and oc/g", "[reorder][tiles][scaled]") {
    for (const memory::dims &d : std::vector<memory::dims>{{32, 1, 1, 3, 3}, {21, 1, 1, 3, 3}, {4, 6, 3, 1, 5}}) {
        check_scaled(tag(d, "abcde"), tag(d, "Abcde16a"), 2, 1);
        check_scaled(with_gap(d), tag(d, "Abcde16a"), 2, 2);
        check_scaled(tag(d, "abcde"), tag(d, "aBCde16c16b"), 2, 1);
    }
}

TEST_CASE("scaled reorder tiles: one block across rows (Ab128a) and three blocks", "[reorder][tiles][scaled]") {
    for (const memory::dims &d : std::vector<memory::dims>{{130, 37}, {128, 15}, {250, 2048}})
        check_scaled(tag(d, "ab"), tag(d, "Ab128a"), 1, 1);
    const memory::dims d{9, 6, 5, 2};
    check_scaled(tag(d, "abcd"), tag(d, "ABCd4a2b4c"), 1, 1);
    check_scaled(tag(d, "dcba"), tag(d, "ABCd4a2b4c"), 2, 2);
}

TEST_CASE("scaled reorder tiles: pairs refused write nothing", "[reorder][tiles][scaled]") {
    const memory::dims d{16, 32, 3, 3};
    std::vector<float> src(static_cast<size_t>(tag(d, "ABcd16b16a").nelems_padded()), 1.f);
    std::vector<float> dst(src.size(), garbage);
    const std::vector<float> ones(16 * 32, 1.f);
    impl::channel_factors f;
    f.lists.push_back(ones.data());
    // Factors only into a blocked layout; a leading-dims count outside the rank.
    CHECK_FALSE(impl::reorder_by_tiles(tag(d, "ABcd16b16a"), tag(d, "abcd"), src.data(), dst.data(), &f));
    f.leading_dims = 0;
    CHECK_FALSE(impl::reorder_by_tiles(tag(d, "abcd"), tag(d, "ABcd16b16a"), src.data(), dst.data(), &f));
    f.leading_dims = 5;
    CHECK_FALSE(impl::reorder_by_tiles(tag(d, "abcd"), tag(d, "ABcd16b16a"), src.data(), dst.data(), &f));
    for (float v : dst) CHECK(v == garbage);
}

TEST_CASE("reorder_scaled: the tile path, and a scaled copy for the pairs it refuses", "[reorder][tiles][scaled]") {
    for (const memory::dims &d : std::vector<memory::dims>{{19, 21, 3, 5}, {256, 70, 3, 3}}) {
        const md plain = tag(d, "abcd");
        for (int lists : {1, 2}) {
            check_scaled(plain, tag(d, "ABcd16b16a"), 1, lists, true); // tiles
            check_scaled(plain, tag(d, "acdb"), 1, lists, true);       // no blocks: scratch + generic copy
            check_scaled(plain, tag(d, "aBcd4b"), 1, lists, true);     // tiles under 8: the same
            check_scaled(plain, plain, 2, lists, true);                // equal descs: into dst itself
        }
    }
}

TEST_CASE("reorder_scaled: bad input is refused with a message", "[reorder][tiles][scaled]") {
    const memory::dims d{16, 8, 3, 3};
    std::vector<float> src(16 * 8 * 9, 1.f), dst(16 * 16 * 9, garbage);
    const std::vector<float> ones(16, 1.f);
    impl::channel_factors f;
    f.lists.push_back(ones.data());
    const auto no_scratch = [](size_t) -> float * { return nullptr; };
    const auto refused = [&](const md &s, const md &t, const std::string &what) {
        try {
            impl::reorder_scaled(s, t, src.data(), dst.data(), f, no_scratch);
            FAIL("accepted: " << what);
        } catch (const error &e) {
            CHECK(e.get_status() == status::invalid_arguments);
            CHECK(std::string(e.what()).find(what) != std::string::npos);
        }
    };
    refused(tag(d, "acdb"), tag(d, "ABcd16b16a"), "src must be plain");
    refused(tag(d, "abcd"), tag({16, 8, 3, 1}, "ABcd16b16a"), "differ from dst dims");
    try {
        impl::reorder_scaled(tag(d, "abcd"), tag(d, "ABcd16b16a"), src.data(), nullptr, f, no_scratch);
        FAIL("accepted a null dst");
    } catch (const error &e) {
        CHECK(std::string(e.what()).find("null data pointer") != std::string::npos);
    }
    f.leading_dims = 0;
    refused(tag(d, "abcd"), tag(d, "ABcd16b16a"), "leading dims 0");
    for (float v : dst) CHECK(v == garbage);
}
