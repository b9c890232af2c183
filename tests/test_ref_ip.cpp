// The reference inner product checked independently: hand-computed cases, a naive dot product
// written here (indexing src and weights by logical (n, c, d, h, w) rather than flat rows) on
// random shapes, and the reference primitive on non-plain layouts.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "prim/memory.hpp"
#include "common/plain_layout.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"

using prim::algorithm;
using prim::memory;
using prim::post_ops;
using prim::impl::ip_problem;

namespace {

// sp: the spatial sizes in use, outermost first (empty for a 2D source).
ip_problem make_problem(int64_t mb, int64_t ic, int64_t oc, const std::vector<int64_t> &sp) {
    ip_problem p;
    p.mb = mb;
    p.ic = ic;
    p.oc = oc;
    p.nsp = static_cast<int>(sp.size());
    for (int j = 0; j < p.nsp; ++j) p.i[3 - p.nsp + j] = sp[static_cast<size_t>(j)];
    return p;
}

std::vector<float> run_ref(const ip_problem &p, const std::vector<float> &src,
                           const std::vector<float> &wei, const float *bias,
                           const post_ops &po = post_ops(),
                           std::vector<float> dst = std::vector<float>()) {
    if (dst.empty()) dst.assign(static_cast<size_t>(p.mb * p.oc), 0.f);
    prim::impl::ref_ip_fwd(p, src.data(), wei.data(), bias, po, dst.data());
    return dst;
}

void fill_small_ints(std::vector<float> &v, std::mt19937 &rng) {
    std::uniform_int_distribution<int> dist(-4, 4);
    for (float &x : v) x = static_cast<float>(dist(rng));
}

// dst[n][o] = sum over (c, d, h, w) of src[n][c][d][h][w] * wei[o][c][d][h][w] + bias[o], in
// float (exact for small integers).
std::vector<float> naive_ip(const ip_problem &p, const std::vector<float> &src,
                            const std::vector<float> &wei, const std::vector<float> &bias) {
    const int64_t D = p.i[0], H = p.i[1], W = p.i[2];
    std::vector<float> dst(static_cast<size_t>(p.mb * p.oc));
    for (int64_t n = 0; n < p.mb; ++n)
        for (int64_t o = 0; o < p.oc; ++o) {
            float acc = bias.empty() ? 0.f : bias[static_cast<size_t>(o)];
            for (int64_t c = 0; c < p.ic; ++c)
                for (int64_t d = 0; d < D; ++d)
                    for (int64_t h = 0; h < H; ++h)
                        for (int64_t w = 0; w < W; ++w) {
                            const int64_t sp = (d * H + h) * W + w;
                            acc += src[static_cast<size_t>((n * p.ic + c) * D * H * W + sp)]
                                    * wei[static_cast<size_t>((o * p.ic + c) * D * H * W + sp)];
                        }
            dst[static_cast<size_t>(n * p.oc + o)] = acc;
        }
    return dst;
}

} // namespace

TEST_CASE("hand-computed inner products", "[ref_ip]") {
    SECTION("2D source, with and without bias") {
        const auto p = make_problem(1, 3, 2, {});
        const std::vector<float> src = {1, 2, 3}, wei = {1, 1, 1, 1, -1, 2};
        CHECK(run_ref(p, src, wei, nullptr) == std::vector<float>{6, 5});
        const float bias[] = {0.5f, -1.f};
        CHECK(run_ref(p, src, wei, bias) == std::vector<float>{6.5f, 4.f});
    }
    SECTION("mb 2") {
        const auto p = make_problem(2, 2, 1, {});
        CHECK(run_ref(p, {1, 2, 3, 4}, {10, 1}, nullptr) == std::vector<float>{12, 34});
    }
    SECTION("spatial source: every (c, h, w) pairs with the same weight position") {
        // mb1 ic2 ih2 iw2: src channel 0 = {1,2,3,4}, channel 1 = {5,6,7,8}.
        const auto p = make_problem(1, 2, 2, {2, 2});
        const std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8};
        const std::vector<float> wei = {1, 0, 0, 0, 0, 0, 0, 1,   // picks src[0][0][0], src[1][1][1]
                                        1, 1, 1, 1, 1, 1, 1, 1};
        CHECK(run_ref(p, src, wei, nullptr) == std::vector<float>{9, 36});
    }
    SECTION("1D and 3D sources") {
        const auto p1 = make_problem(1, 1, 1, {3});
        CHECK(run_ref(p1, {1, 2, 3}, {3, 2, 1}, nullptr) == std::vector<float>{10});
        const auto p3 = make_problem(1, 1, 1, {2, 1, 2});
        CHECK(run_ref(p3, {1, 2, 3, 4}, {1, -1, 1, -1}, nullptr) == std::vector<float>{-2});
    }
    SECTION("post-ops: sum reads the old dst, then relu") {
        const auto p = make_problem(1, 2, 3, {});
        post_ops po;
        po.append_sum(0.5f);
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        CHECK(run_ref(p, {1, 1}, {1, 2, -3, 1, 0, 0}, nullptr, po, {2, -10, 4})
              == std::vector<float>{4, 0, 2});
    }
    SECTION("mb 0 is a no-op") {
        const auto p = make_problem(0, 4, 3, {});
        float dst = 5.f;
        prim::impl::ref_ip_fwd(p, nullptr, nullptr, nullptr, post_ops(), &dst);
        CHECK(dst == 5.f);
    }
}

TEST_CASE("reference equals a naive dot product on random shapes", "[ref_ip]") {
    std::mt19937 rng(11);
    auto pick = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    for (int iter = 0; iter < 300; ++iter) {
        std::vector<int64_t> sp(static_cast<size_t>(pick(0, 3)));
        for (int64_t &x : sp) x = pick(1, 5);
        const auto p = make_problem(pick(0, 5) == 0 ? 0 : pick(1, 9), pick(1, 40), pick(1, 40), sp);
        INFO("mb" << p.mb << " ic" << p.ic << " oc" << p.oc << " nsp " << p.nsp << " i "
                  << p.i[0] << "x" << p.i[1] << "x" << p.i[2]);
        std::vector<float> src(static_cast<size_t>(p.mb * p.ic * p.spatial()));
        std::vector<float> wei(static_cast<size_t>(p.oc * p.ic * p.spatial()));
        std::vector<float> bias(static_cast<size_t>(iter % 2 ? p.oc : 0));
        fill_small_ints(src, rng);
        fill_small_ints(wei, rng);
        fill_small_ints(bias, rng);
        const auto want = naive_ip(p, src, wei, bias);
        REQUIRE(run_ref(p, src, wei, bias.empty() ? nullptr : bias.data()) == want);
    }
}

TEST_CASE("reference ip primitive on any layout", "[ref_ip]") {
    const auto f32 = memory::data_type::f32;
    std::mt19937 rng(3);
    auto reorder_to = [](const std::vector<float> &plain, const memory::desc &md) {
        std::vector<float> out(static_cast<size_t>(md.nelems_padded()), -7.f);
        const memory::desc pl = prim::impl::plain_desc(md.get_dims());
        prim::reorder(pl, md).execute(memory(pl, const_cast<float *>(plain.data())),
                                      memory(md, out.data()));
        return out;
    };
    auto reorder_from = [](const std::vector<float> &buf, const memory::desc &md) {
        const memory::desc pl = prim::impl::plain_desc(md.get_dims());
        std::vector<float> out(static_cast<size_t>(pl.nelems_padded()));
        prim::reorder(md, pl).execute(memory(md, const_cast<float *>(buf.data())),
                                      memory(pl, out.data()));
        return out;
    };

    struct layouts {
        memory::dims src_dims, wei_dims;
        const char *src, *wei, *dst;
        bool bias;
    };
    const layouts cases[] = {
            {{3, 5}, {7, 5}, "any", "any", "any", true},
            {{3, 5}, {7, 5}, "ab", "ba", "ba", false},           // weights io, dst transposed
            {{3, 5, 2, 3}, {7, 5, 2, 3}, "acdb", "cdba", "ab", true}, // nhwc, hwio
            {{3, 5, 2, 3}, {7, 5, 2, 3}, "aBcd4b", "Abcd8a", "aB8b", true},
            {{2, 4, 2, 2, 3}, {6, 4, 2, 2, 3}, "any", "acdeb", "any", false},
    };
    for (const layouts &l : cases) {
        INFO("src " << l.src << " wei " << l.wei << " dst " << l.dst);
        const int nsp = static_cast<int>(l.src_dims.size()) - 2;
        std::vector<int64_t> sp(l.src_dims.begin() + 2, l.src_dims.end());
        const auto p = make_problem(l.src_dims[0], l.src_dims[1], l.wei_dims[0], sp);
        REQUIRE(p.nsp == nsp);
        std::vector<float> src(static_cast<size_t>(p.mb * p.ic * p.spatial()));
        std::vector<float> wei(static_cast<size_t>(p.oc * p.ic * p.spatial()));
        std::vector<float> bias(static_cast<size_t>(p.oc)), dst_old(static_cast<size_t>(p.mb * p.oc));
        fill_small_ints(src, rng);
        fill_small_ints(wei, rng);
        fill_small_ints(bias, rng);
        fill_small_ints(dst_old, rng);
        post_ops po;
        po.append_sum(3.f);
        const auto want = run_ref(p, src, wei, l.bias ? bias.data() : nullptr, po, dst_old);

        auto md = [&](const memory::dims &d, const char *tag) {
            return std::string(tag) == "any" ? memory::desc(d, f32, memory::format_tag::any)
                                             : memory::desc(d, f32, tag);
        };
        prim::impl::ip_request req;
        req.prb = p;
        req.with_bias = l.bias;
        req.src = md(l.src_dims, l.src);
        req.wei = md(l.wei_dims, l.wei);
        if (l.bias) req.bias = md({p.oc}, "a");
        req.dst = md({p.mb, p.oc}, l.dst);
        req.attr.set_post_ops(po);
        std::string why_not;
        auto impl = prim::impl::create_ref_ip(req, prim::cpu_isa::none, why_not);
        REQUIRE(impl);
        CHECK(impl->name() == "ref");
        CHECK(impl->src_md() == (req.src.is_any() ? prim::impl::plain_desc(l.src_dims) : req.src));
        CHECK(impl->wei_md() == (req.wei.is_any() ? prim::impl::plain_desc(l.wei_dims) : req.wei));
        CHECK(impl->bias_md().is_zero() == !l.bias);
        CHECK(impl->dst_md()
              == (req.dst.is_any() ? prim::impl::plain_desc({p.mb, p.oc}) : req.dst));

        const auto s = reorder_to(src, impl->src_md());
        const auto w = reorder_to(wei, impl->wei_md());
        auto d = reorder_to(dst_old, impl->dst_md());
        prim::impl::exec_ptrs args;
        args.src = s.data();
        args.wei = w.data();
        args.bias = l.bias ? bias.data() : nullptr;
        args.dst = d.data();
        impl->execute(args);
        CHECK(reorder_from(d, impl->dst_md()) == want);
    }
}
