// The reference convolution checked independently: tiny convolutions computed by hand, then a
// second implementation built differently (zero-padded input, im2col, plain matrix product in
// single precision) compared exactly on many random shapes, then the reference primitive on
// non-plain layouts.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "prim/memory.hpp"
#include "common/plain_layout.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"

#include "layout_util.hpp"

using prim::algorithm;
using prim::memory;
using prim::post_ops;
using prim::impl::conv_problem;

namespace {

// One spatial dimension of a test problem; o = 0 means "derive it" (doc/reference.md §3).
struct dim_spec {
    int64_t i, k, s = 1, p = 0, d = 0, o = 0;
};

// A complete problem with o and p_end derived as doc/reference.md §3 says. dims: the spatial
// dims in use, outermost first (w last), so 1D is {w}, 2D {h, w}, 3D {d, h, w}.
conv_problem make_problem(int64_t g, int64_t mb, int64_t ic, int64_t oc,
                          const std::vector<dim_spec> &dims) {
    conv_problem p;
    p.g = g;
    p.mb = mb;
    p.ic = ic;
    p.oc = oc;
    p.nsp = static_cast<int>(dims.size());
    for (int j = 0; j < p.nsp; ++j) {
        const int sp = 3 - p.nsp + j;
        const dim_spec &ds = dims[j];
        p.i[sp] = ds.i;
        p.k[sp] = ds.k;
        p.s[sp] = ds.s;
        p.p[sp] = ds.p;
        p.d[sp] = ds.d;
        const int64_t e = (ds.k - 1) * (ds.d + 1) + 1;
        p.o[sp] = ds.o ? ds.o : (ds.i + 2 * ds.p - e) / ds.s + 1;
        p.p_end[sp] = (p.o[sp] - 1) * ds.s - ds.i + e - ds.p;
    }
    return p;
}

int64_t src_size(const conv_problem &p) { return p.mb * p.ic * p.i[0] * p.i[1] * p.i[2]; }
int64_t dst_size(const conv_problem &p) { return p.mb * p.oc * p.o[0] * p.o[1] * p.o[2]; }
int64_t wei_size(const conv_problem &p) { return p.oc * p.icg() * p.k[0] * p.k[1] * p.k[2]; }

std::vector<float> run_ref(const conv_problem &p, const std::vector<float> &src,
                           const std::vector<float> &wei, const float *bias,
                           const post_ops &po = post_ops(),
                           std::vector<float> dst = std::vector<float>()) {
    if (dst.empty()) dst.assign(static_cast<size_t>(dst_size(p)), 0.f);
    prim::impl::ref_conv_fwd(p, src.data(), wei.data(), bias, po, dst.data());
    return dst;
}

void fill_small_ints(std::vector<float> &v, std::mt19937 &rng, int lo = -3, int hi = 3) {
    std::uniform_int_distribution<int> dist(lo, hi);
    for (float &x : v) x = static_cast<float>(dist(rng));
}

// The second implementation: per image and group, materialise the zero-padded input, unroll
// it into a (ic/g * taps) x (output points) column matrix, and multiply by the (oc/g) x
// (ic/g * taps) weight matrix in float. With small-integer data every sum is exact.
std::vector<float> im2col_conv(const conv_problem &p, const std::vector<float> &src,
                               const std::vector<float> &wei, const std::vector<float> &bias) {
    // Padded sizes: start padding before, enough after for every tap that is read.
    int64_t pad_sz[3];
    for (int sp = 0; sp < 3; ++sp)
        pad_sz[sp] = p.p[sp] + p.i[sp] + (p.p_end[sp] > 0 ? p.p_end[sp] : 0);
    const int64_t taps = p.k[0] * p.k[1] * p.k[2];
    const int64_t rows = p.icg() * taps, cols = p.o[0] * p.o[1] * p.o[2];
    std::vector<float> dst(static_cast<size_t>(dst_size(p)));

    for (int64_t n = 0; n < p.mb; ++n)
        for (int64_t g = 0; g < p.g; ++g) {
            // Zero-padded input of this image and group: [ic/g][pd][ph][pw].
            std::vector<float> padded(static_cast<size_t>(p.icg() * pad_sz[0] * pad_sz[1] * pad_sz[2]), 0.f);
            for (int64_t c = 0; c < p.icg(); ++c)
                for (int64_t x0 = 0; x0 < p.i[0]; ++x0)
                    for (int64_t x1 = 0; x1 < p.i[1]; ++x1)
                        for (int64_t x2 = 0; x2 < p.i[2]; ++x2) {
                            const int64_t from = (((n * p.ic + g * p.icg() + c) * p.i[0] + x0) * p.i[1] + x1) * p.i[2] + x2;
                            const int64_t to = ((c * pad_sz[0] + x0 + p.p[0]) * pad_sz[1] + x1 + p.p[1]) * pad_sz[2] + x2 + p.p[2];
                            padded[static_cast<size_t>(to)] = src[static_cast<size_t>(from)];
                        }
            // Column matrix: row (c, k0, k1, k2), column (o0, o1, o2).
            std::vector<float> col(static_cast<size_t>(rows * cols));
            for (int64_t r = 0; r < rows; ++r) {
                const int64_t c = r / taps, t = r % taps;
                const int64_t kk[3] = {t / (p.k[1] * p.k[2]), t / p.k[2] % p.k[1], t % p.k[2]};
                for (int64_t q = 0; q < cols; ++q) {
                    const int64_t oo[3] = {q / (p.o[1] * p.o[2]), q / p.o[2] % p.o[1], q % p.o[2]};
                    int64_t x[3];
                    for (int sp = 0; sp < 3; ++sp) x[sp] = oo[sp] * p.s[sp] + kk[sp] * (p.d[sp] + 1);
                    col[static_cast<size_t>(r * cols + q)] = padded[static_cast<size_t>(
                            ((c * pad_sz[0] + x[0]) * pad_sz[1] + x[1]) * pad_sz[2] + x[2])];
                }
            }
            // dst[oc][q] = W[oc][r] * col[r][q] + bias[oc].
            for (int64_t o = 0; o < p.ocg(); ++o) {
                const int64_t oc = g * p.ocg() + o;
                for (int64_t q = 0; q < cols; ++q) {
                    float acc = 0.f;
                    for (int64_t r = 0; r < rows; ++r)
                        acc += wei[static_cast<size_t>(oc * rows + r)] * col[static_cast<size_t>(r * cols + q)];
                    if (!bias.empty()) acc += bias[static_cast<size_t>(oc)];
                    dst[static_cast<size_t>((n * p.oc + oc) * cols + q)] = acc;
                }
            }
        }
    return dst;
}

// A random valid problem, small enough for the naive check; shapes stress padding on both
// sides (the end padding may be negative), strides, dilations, groups and mb 0.
conv_problem random_problem(std::mt19937 &rng) {
    auto pick = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    for (;;) {
        const int nsp = static_cast<int>(pick(1, 3));
        std::vector<dim_spec> dims(static_cast<size_t>(nsp));
        bool ok = true;
        for (dim_spec &ds : dims) {
            ds.i = pick(1, nsp == 3 ? 5 : 9);
            ds.k = pick(1, 4);
            ds.s = pick(1, 3);
            ds.d = pick(0, 3) == 0 ? pick(1, 2) : 0;
            ds.p = pick(0, 2);
            const int64_t e = (ds.k - 1) * (ds.d + 1) + 1;
            if (pick(0, 2) == 0) {
                // Output size given: the end padding follows from it and may be anything
                // above -s, including negative (unused last rows) or larger than p.
                ds.o = pick(1, ds.i + 2);
            } else {
                if (ds.i + 2 * ds.p < e) ok = false;
            }
            const int64_t o = ds.o ? ds.o : (ds.i + 2 * ds.p - e) / ds.s + 1;
            const int64_t p_end = (o - 1) * ds.s - ds.i + e - ds.p;
            if (o < 1 || p_end <= -ds.s || p_end > 3) ok = false;
        }
        if (!ok) continue;
        const int64_t g = pick(1, 3);
        const int64_t mb = pick(0, 6) == 0 ? 0 : pick(1, 2);
        return make_problem(g, mb, g * pick(1, 4), g * pick(1, 4), dims);
    }
}

} // namespace

TEST_CASE("hand-computed 2D convolutions", "[ref_conv]") {
    const std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8, 9}; // 3x3
    const std::vector<float> wei = {1, 2, 3, 4};                // 2x2

    SECTION("no padding") {
        const auto p = make_problem(1, 1, 1, 1, {{3, 2}, {3, 2}});
        REQUIRE(p.o[1] == 2);
        CHECK(run_ref(p, src, wei, nullptr) == std::vector<float>{37, 47, 67, 77});
    }
    SECTION("padding 1 on every side") {
        const auto p = make_problem(1, 1, 1, 1, {{3, 2, 1, 1}, {3, 2, 1, 1}});
        REQUIRE(p.o[1] == 4);
        CHECK(run_ref(p, src, wei, nullptr)
              == std::vector<float>{4, 11, 18, 9, 18, 37, 47, 21, 36, 67, 77, 33, 14, 23, 26, 9});
    }
    SECTION("stride 2 with padding 1") {
        const auto p = make_problem(1, 1, 1, 1, {{3, 2, 2, 1}, {3, 2, 2, 1}});
        REQUIRE(p.o[1] == 2);
        REQUIRE(p.p_end[1] == 0);
        CHECK(run_ref(p, src, wei, nullptr) == std::vector<float>{4, 18, 36, 77});
    }
    SECTION("dilation 1 (one gap between taps)") {
        const auto p = make_problem(1, 1, 1, 1, {{3, 2, 1, 0, 1}, {3, 2, 1, 0, 1}});
        REQUIRE(p.o[1] == 1);
        CHECK(run_ref(p, src, wei, nullptr) == std::vector<float>{1 * 1 + 3 * 2 + 7 * 3 + 9 * 4});
    }
    SECTION("bias and two output channels, two input channels, mb 2") {
        // ic 2: channel 1 is channel 0 times 10; oc 2: filters {1,2,3,4} on both channels and
        // {1,0,0,0} on channel 0 only.
        const auto p = make_problem(1, 2, 2, 2, {{3, 2}, {3, 2}});
        std::vector<float> s2;
        for (int n = 0; n < 2; ++n)
            for (int c = 0; c < 2; ++c)
                for (float v : src) s2.push_back(v * (c ? 10.f : 1.f) * (n ? -1.f : 1.f));
        const std::vector<float> w2 = {1, 2, 3, 4, 1, 2, 3, 4, 1, 0, 0, 0, 0, 0, 0, 0};
        const float bias[] = {0.5f, -1.f};
        CHECK(run_ref(p, s2, w2, bias)
              == std::vector<float>{37 * 11 + 0.5f, 47 * 11 + 0.5f, 67 * 11 + 0.5f, 77 * 11 + 0.5f,
                                    1 - 1, 2 - 1, 4 - 1, 5 - 1,
                                    -37 * 11 + 0.5f, -47 * 11 + 0.5f, -67 * 11 + 0.5f, -77 * 11 + 0.5f,
                                    -1 - 1, -2 - 1, -4 - 1, -5 - 1});
    }
}

TEST_CASE("hand-computed 1D, 3D, grouped and negative end padding", "[ref_conv]") {
    SECTION("1D with bias") {
        const auto p = make_problem(1, 1, 1, 1, {{5, 3}});
        const float bias[] = {0.5f};
        CHECK(run_ref(p, {1, 2, 3, 4, 5}, {1, 0, -1}, bias)
              == std::vector<float>{-1.5f, -1.5f, -1.5f});
    }
    SECTION("3D 2x2x2 input and kernel") {
        const auto p = make_problem(1, 1, 1, 2, {{2, 2}, {2, 2}, {2, 2}});
        REQUIRE(p.o[0] == 1);
        const std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8};
        const std::vector<float> wei = {1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8};
        CHECK(run_ref(p, src, wei, nullptr) == std::vector<float>{36, 204});
    }
    SECTION("3D with depth padding only") {
        const auto p = make_problem(1, 1, 1, 1, {{2, 2, 1, 1}, {1, 1}, {1, 1}});
        REQUIRE(p.o[0] == 3);
        CHECK(run_ref(p, {1, 2}, {10, 1}, nullptr) == std::vector<float>{1, 12, 20});
    }
    SECTION("groups: each output channel sees only its group's inputs") {
        // g 2, ic 4, oc 2, 1x1 kernel over 1D width 2; weights [g][oc/g=1][ic/g=2].
        const auto p = make_problem(2, 1, 4, 2, {{2, 1}});
        const std::vector<float> src = {1, 2, 10, 20, 100, 200, 1000, 2000};
        const std::vector<float> wei = {1, 2, 3, 4};
        CHECK(run_ref(p, src, wei, nullptr)
              == std::vector<float>{21, 42, 4300, 8600});
    }
    SECTION("depthwise: g = ic = oc") {
        const auto p = make_problem(3, 1, 3, 3, {{3, 2}});
        const std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        const std::vector<float> wei = {1, 1, 1, -1, 0, 2};
        CHECK(run_ref(p, src, wei, nullptr) == std::vector<float>{3, 5, -1, -1, 16, 18});
    }
    SECTION("negative end padding: the last input column is never read") {
        // iw4 kw1 sw2 ow2: p_end = (2-1)*2 - 4 + 1 - 0 = -1.
        const auto p = make_problem(1, 1, 1, 1, {{4, 1, 2, 0, 0, 2}});
        REQUIRE(p.p_end[2] == -1);
        CHECK(run_ref(p, {1, 2, 3, 4}, {2}, nullptr) == std::vector<float>{2, 6});
    }
    SECTION("asymmetric padding: ih19oh10kh4sh2ph1 pads 1 on top, 2 at the bottom") {
        const auto p = make_problem(1, 1, 1, 1, {{19, 4, 2, 1, 0, 10}, {1, 1}});
        REQUIRE(p.p_end[1] == 2);
        std::vector<float> src(19);
        for (int x = 0; x < 19; ++x) src[static_cast<size_t>(x)] = static_cast<float>(x + 1);
        const auto out = run_ref(p, src, {1, 1, 1, 1}, nullptr);
        CHECK(out[0] == 1 + 2 + 3);            // rows -1..2
        CHECK(out[9] == 18 + 19);              // rows 17..20: 19 and 20 are padding
    }
    SECTION("mb 0 is a no-op") {
        const auto p = make_problem(1, 0, 1, 1, {{3, 2}, {3, 2}});
        float dst = 42.f;
        prim::impl::ref_conv_fwd(p, nullptr, nullptr, nullptr, post_ops(), &dst);
        CHECK(dst == 42.f);
    }
}

TEST_CASE("post-ops are applied per point, sum reading the old dst", "[ref_conv]") {
    const auto p = make_problem(1, 1, 1, 1, {{3, 2}, {3, 2}});
    post_ops po;
    po.append_sum(2.f);
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    const auto out = run_ref(p, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4}, nullptr, po,
                             {1, -20, -40, 0});
    CHECK(out == std::vector<float>{39, 7, 0, 77});
}

TEST_CASE("reference equals im2col on random shapes", "[ref_conv]") {
    std::mt19937 rng(2026);
    int checked = 0;
    for (int iter = 0; iter < 1500; ++iter) {
        const conv_problem p = random_problem(rng);
        INFO("problem g" << p.g << " mb" << p.mb << " ic" << p.ic << " oc" << p.oc << " nsp "
                         << p.nsp << " i " << p.i[0] << "," << p.i[1] << "," << p.i[2] << " k "
                         << p.k[0] << "," << p.k[1] << "," << p.k[2] << " s " << p.s[0] << ","
                         << p.s[1] << "," << p.s[2] << " p " << p.p[0] << "," << p.p[1] << ","
                         << p.p[2] << " p_end " << p.p_end[0] << "," << p.p_end[1] << ","
                         << p.p_end[2] << " d " << p.d[0] << "," << p.d[1] << "," << p.d[2]);
        std::vector<float> src(static_cast<size_t>(src_size(p))), wei(static_cast<size_t>(wei_size(p)));
        std::vector<float> bias(static_cast<size_t>(iter % 2 ? p.oc : 0));
        std::vector<float> dst_old(static_cast<size_t>(dst_size(p)));
        fill_small_ints(src, rng);
        fill_small_ints(wei, rng);
        fill_small_ints(bias, rng);
        fill_small_ints(dst_old, rng);

        // With a sum of scale 2 the result must be conv + 2 * dst_old, exactly.
        post_ops po;
        po.append_sum(2.f);
        const auto got = run_ref(p, src, wei, bias.empty() ? nullptr : bias.data(), po, dst_old);
        auto want = im2col_conv(p, src, wei, bias);
        for (size_t e = 0; e < want.size(); ++e) want[e] += 2.f * dst_old[e];
        REQUIRE(got == want);
        checked += p.mb > 0;
    }
    CHECK(checked > 1100);
}

// ---- the reference primitive on any layout ------------------------------------------------

using layout_util::from_layout;
using layout_util::to_layout;

TEST_CASE("reference conv primitive: 'any' becomes plain, other layouts are honoured",
          "[ref_conv]") {
    const auto f32 = memory::data_type::f32;
    // g2 mb2 ic4 ih5 iw6 oc6 k3x2 pad 1, strided height.
    const conv_problem p = make_problem(2, 2, 4, 6, {{5, 3, 2, 1}, {6, 2, 1, 1}});
    const memory::dims src_dims {2, 4, 5, 6}, wei_dims {2, 3, 2, 3, 2}, dst_dims {2, 6, p.o[1], p.o[2]};

    std::mt19937 rng(7);
    std::vector<float> src(static_cast<size_t>(src_size(p))), wei(static_cast<size_t>(wei_size(p)));
    std::vector<float> bias(6), dst_old(static_cast<size_t>(dst_size(p)));
    fill_small_ints(src, rng);
    fill_small_ints(wei, rng);
    fill_small_ints(bias, rng);
    fill_small_ints(dst_old, rng);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_linear, 1.f, 0.5f);
    po.append_sum(-1.f);
    const auto want = run_ref(p, src, wei, bias.data(), po, dst_old);

    struct layouts {
        const char *src, *wei, *dst;
    };
    const layouts cases[] = {
            {"any", "any", "any"},
            {"acdb", "abcde", "acdb"},         // nhwc, goihw, nhwc
            {"abcd", "adebc", "aBcd8b"},       // nchw, weights "g h w o i", blocked dst (padded)
            {"aBcd8b", "aBCde2b2c", "abcd"},
    };
    for (const layouts &l : cases) {
        INFO("src " << l.src << " wei " << l.wei << " dst " << l.dst);
        auto md = [&](const memory::dims &d, const char *tag) {
            return std::string(tag) == "any" ? memory::desc(d, f32, prim::memory::format_tag::any)
                                             : memory::desc(d, f32, tag);
        };
        prim::impl::conv_request req;
        req.prb = p;
        req.with_bias = true;
        req.src = md(src_dims, l.src);
        req.wei = md(wei_dims, l.wei);
        req.bias = md({6}, "any");
        req.dst = md(dst_dims, l.dst);
        req.attr.set_post_ops(po);
        std::string why_not;
        auto impl = prim::impl::create_ref_conv(req, prim::cpu_isa::none, why_not);
        REQUIRE(impl);
        CHECK(impl->name() == "ref");
        // 'any' resolves to plain; anything else is kept.
        CHECK(impl->src_md() == (req.src.is_any() ? prim::impl::plain_desc(src_dims) : req.src));
        CHECK(impl->wei_md() == (req.wei.is_any() ? prim::impl::plain_desc(wei_dims) : req.wei));
        CHECK(impl->bias_md() == prim::impl::plain_desc({6}));
        CHECK(impl->dst_md() == (req.dst.is_any() ? prim::impl::plain_desc(dst_dims) : req.dst));

        const auto s = to_layout(src, impl->src_md());
        const auto w = to_layout(wei, impl->wei_md());
        auto d = to_layout(dst_old, impl->dst_md());
        prim::impl::exec_ptrs args;
        args.src = s.data();
        args.wei = w.data();
        args.bias = bias.data();
        args.dst = d.data();
        impl->execute(args);
        CHECK(from_layout(d, impl->dst_md()) == want);
    }

    SECTION("ungrouped weights of rank nsp + 2") {
        const conv_problem q = make_problem(1, 1, 2, 3, {{4, 3, 1, 1}});
        std::vector<float> s(8), w(18), dold(12, 0.f);
        fill_small_ints(s, rng);
        fill_small_ints(w, rng);
        const auto want1 = run_ref(q, s, w, nullptr);
        prim::impl::conv_request req;
        req.prb = q;
        req.src = memory::desc({1, 2, 4}, f32, "acb");     // nwc
        req.wei = memory::desc({3, 2, 3}, f32, "cba");     // wio
        req.dst = memory::desc({1, 3, 4}, f32, "acb");
        std::string why_not;
        auto impl = prim::impl::create_ref_conv(req, prim::cpu_isa::none, why_not);
        REQUIRE(impl);
        CHECK(impl->bias_md().is_zero());
        const auto sl = to_layout(s, req.src), wl = to_layout(w, req.wei);
        auto dl = to_layout(dold, req.dst);
        prim::impl::exec_ptrs args;
        args.src = sl.data();
        args.wei = wl.data();
        args.dst = dl.data();
        impl->execute(args);
        CHECK(from_layout(dl, req.dst) == want1);
    }
}
