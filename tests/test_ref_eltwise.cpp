// The reference eltwise kernel and primitive: values, in place and out of place, the old dst
// read by sum, and layouts that are dense, padded (blocked) or different between src and dst.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "prim/error.hpp"
#include "prim/memory.hpp"
#include "common/plain_layout.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"

#include "layout_util.hpp"

using prim::algorithm;
using prim::memory;
using prim::post_ops;
using prim::impl::ref_eltwise_fwd;

TEST_CASE("eltwise kernel values, out of place", "[ref_eltwise]") {
    const std::vector<float> src = {-2, -1, 0, 1, 2.5f};
    std::vector<float> dst(5, 100.f);
    ref_eltwise_fwd(algorithm::eltwise_relu, 0.f, 0.f, post_ops(), src.data(), dst.data(), 5);
    CHECK(dst == std::vector<float>{0, 0, 0, 1, 2.5f});
    CHECK(src == std::vector<float>{-2, -1, 0, 1, 2.5f}); // src untouched

    ref_eltwise_fwd(algorithm::eltwise_linear, 2.f, -1.f, post_ops(), src.data(), dst.data(), 5);
    CHECK(dst == std::vector<float>{-5, -3, -1, 1, 4});

    ref_eltwise_fwd(algorithm::eltwise_round, 0.f, 0.f, post_ops(), src.data(), dst.data(), 5);
    CHECK(dst == std::vector<float>{-2, -1, 0, 1, 2});

    // The chain's sum reads what dst held before.
    post_ops po;
    po.append_sum(1.f);
    std::vector<float> old = {10, 20, 30, 40, 50};
    ref_eltwise_fwd(algorithm::eltwise_square, 0.f, 0.f, po, src.data(), old.data(), 5);
    CHECK(old == std::vector<float>{14, 21, 30, 41, 56.25f});
}

TEST_CASE("eltwise kernel in place: dst_old is the source value", "[ref_eltwise]") {
    std::vector<float> x = {-3, 1, 3};
    post_ops po;
    po.append_sum(2.f);
    po.append_eltwise(algorithm::eltwise_abs, 0.f, 0.f);
    // square(x) + 2x, then abs
    ref_eltwise_fwd(algorithm::eltwise_square, 0.f, 0.f, po, x.data(), x.data(), 3);
    CHECK(x == std::vector<float>{3, 3, 15});
}

TEST_CASE("eltwise kernel rounds f(x) to f32 before the chain", "[ref_eltwise]") {
    const float src = 0.5f;
    float dst = 0.f;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_linear, 1.f, -0.5f);
    ref_eltwise_fwd(algorithm::eltwise_linear, 1.f, 1e-9f, po, &src, &dst, 1);
    CHECK(dst == 0.f); // 0.5 + 1e-9 is 0.5f
}

TEST_CASE("eltwise kernel: NaN, empty input, unknown algorithm", "[ref_eltwise]") {
    const float src[] = {std::numeric_limits<float>::quiet_NaN(), 1.f};
    float dst[2] = {0, 0};
    ref_eltwise_fwd(algorithm::eltwise_clip, 0.f, 6.f, post_ops(), src, dst, 2);
    CHECK(std::isnan(dst[0]));
    CHECK(dst[1] == 1.f);
    ref_eltwise_fwd(algorithm::eltwise_relu, 0.f, 0.f, post_ops(), nullptr, nullptr, 0);
    CHECK_THROWS_AS(ref_eltwise_fwd(algorithm::undef, 0.f, 0.f, post_ops(), src, dst, 2),
                    prim::error);
}

// ---- the primitive on any layout -----------------------------------------------------------

using layout_util::from_layout;
using layout_util::to_layout;

TEST_CASE("reference eltwise primitive, in place and out of place, any layout",
          "[ref_eltwise]") {
    const auto f32 = memory::data_type::f32;
    const memory::dims dims = {2, 5, 3, 4};
    const size_t n = 2 * 5 * 3 * 4;
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> dist(-6, 6);
    std::vector<float> src(n), dst_old(n);
    for (float &v : src) v = static_cast<float>(dist(rng)) * 0.5f;
    for (float &v : dst_old) v = static_cast<float>(dist(rng));

    post_ops po;
    po.append_sum(-1.f);
    po.append_eltwise(algorithm::eltwise_relu, 0.1f, 0.f);
    const algorithm alg = algorithm::eltwise_elu;
    const float alpha = 0.5f, beta = 0.f;
    // Element by element from the plain data, written out here rather than through the kernel.
    auto expect = [&](float x, float old) {
        const double f = x > 0 ? x : alpha * std::expm1(static_cast<double>(x));
        const float y = static_cast<float>(static_cast<float>(f) - static_cast<double>(old));
        return y > 0 ? y : static_cast<float>(0.1f * static_cast<double>(y));
    };
    std::vector<float> want_out(n), want_in_place(n);
    for (size_t i = 0; i < n; ++i) {
        want_out[i] = expect(src[i], dst_old[i]);
        want_in_place[i] = expect(src[i], src[i]);
    }

    struct layouts {
        const char *src, *dst;
    };
    const layouts cases[] = {
            {"abcd", "abcd"},     // plain
            {"acdb", "acdb"},     // dense, not plain: walked flat
            {"aBcd4b", "aBcd4b"}, // padded: reordered
            {"abcd", "acdb"},     // different layouts
            {"aBcd4b", "abcd"},
            {"acdb", "any"},      // dst takes src's layout
    };
    for (const layouts &l : cases) {
        INFO("src " << l.src << " dst " << l.dst);
        prim::impl::eltwise_request req;
        req.prb.dims = dims;
        req.alg = alg;
        req.alpha = alpha;
        req.beta = beta;
        req.src = memory::desc(dims, f32, l.src);
        req.dst = std::string(l.dst) == "any" ? memory::desc(dims, f32, memory::format_tag::any)
                                              : memory::desc(dims, f32, l.dst);
        req.attr.set_post_ops(po);
        std::string why_not;
        auto impl = prim::impl::create_ref_eltwise(req, prim::cpu_isa::none, why_not);
        REQUIRE(impl);
        CHECK(impl->name() == "ref");
        CHECK(impl->src_md() == req.src);
        CHECK(impl->dst_md() == (req.dst.is_any() ? req.src : req.dst));
        CHECK(impl->wei_md().is_zero());

        // Out of place.
        const auto s = to_layout(src, impl->src_md());
        auto d = to_layout(dst_old, impl->dst_md());
        prim::impl::exec_ptrs args;
        args.src = s.data();
        args.dst = d.data();
        impl->execute(args);
        CHECK(from_layout(d, impl->dst_md()) == want_out);
        CHECK(from_layout(s, impl->src_md()) == src);

        // In place (same buffer, so only when the layouts agree).
        if (impl->src_md() == impl->dst_md()) {
            auto x = to_layout(src, impl->src_md());
            args.src = x.data();
            args.dst = x.data();
            impl->execute(args);
            CHECK(from_layout(x, impl->dst_md()) == want_in_place);
        }
    }
}

TEST_CASE("reference eltwise primitive over a large buffer", "[ref_eltwise]") {
    // Enough elements for every thread to get a share.
    const auto f32 = memory::data_type::f32;
    const memory::dims dims = {3, 7, 61, 67};
    prim::impl::eltwise_request req;
    req.prb.dims = dims;
    req.alg = algorithm::eltwise_abs;
    req.src = memory::desc(dims, f32, "acdb");
    req.dst = req.src;
    std::string why_not;
    auto impl = prim::impl::create_ref_eltwise(req, prim::cpu_isa::none, why_not);
    REQUIRE(impl);
    std::vector<float> x(static_cast<size_t>(3 * 7 * 61 * 67));
    for (size_t i = 0; i < x.size(); ++i) x[i] = (i % 2 ? -1.f : 1.f) * static_cast<float>(i % 1000);
    prim::impl::exec_ptrs args;
    args.src = x.data();
    args.dst = x.data();
    impl->execute(args);
    bool all = true;
    for (size_t i = 0; i < x.size(); ++i) all = all && x[i] == static_cast<float>(i % 1000);
    CHECK(all);
}
