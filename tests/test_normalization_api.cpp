// Batch and layer normalization through the public API, beyond JIT against reference
// (test_normalization.cpp): the reference against the formulas written out here; the optional
// arguments' descs; the padding of a blocked destination; the problem descriptors in messages
// and PRIM_VERBOSE lines; every kind of bad input, refused with a message naming it.
#include "api_test_util.hpp"

#include <omp.h>

#include <cstdio>
#include <regex>
#include <thread>
#include <unistd.h>

#include "common/problem.hpp"

namespace {

// The library reads PRIM_VERBOSE once, at its first verbose check: set it before main().
const bool verbose_set = setenv("PRIM_VERBOSE", "1", 1) == 0;

const normalization_flags G = normalization_flags::use_global_stats;
const normalization_flags C = normalization_flags::use_scale;
const normalization_flags H = normalization_flags::use_shift;

std::vector<float> values(int64_t n, float lo, float hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = dist(rng);
    return v;
}

memory wrap(const memory::desc &md, std::vector<float> &v) { return memory(md, v.data()); }

// The "prim_verbose,exec," lines f prints to stdout (fd 1 goes to a file meanwhile).
template <typename fn>
std::vector<std::string> exec_lines(fn f) {
    std::fflush(stdout);
    std::FILE *file = std::tmpfile();
    REQUIRE(file);
    const int saved = dup(1);
    dup2(fileno(file), 1);
    f();
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    std::rewind(file);
    std::vector<std::string> lines;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, file)) {
        std::string line(buf);
        if (!line.empty() && line.back() == '\n') line.pop_back();
        if (line.rfind("prim_verbose,exec,", 0) == 0) lines.push_back(line);
    }
    std::fclose(file);
    return lines;
}

} // namespace

TEST_CASE("the reference computes the formulas", "[normalization][ref]") {
    // Batch: 2x3x2x2, per channel over n, h, w; then relu. Both with given and computed stats.
    const dims d = {2, 3, 2, 2};
    std::vector<float> src = values(24, -3.f, 5.f, 1), mean = {0.5f, -1.f, 2.f},
                       var = {1.f, 0.25f, 4.f}, scale = {2.f, -1.f, 0.5f}, shift = {0.f, 1.f, -2.f};
    const float eps = 0.0625f;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    attr.set_max_cpu_isa(cpu_isa::none);
    for (const bool given : {true, false}) {
        INFO("statistics " << (given ? "given" : "computed"));
        std::vector<double> m(3), v(3);
        for (int c = 0; c < 3; ++c) {
            if (given) {
                m[c] = mean[c];
                v[c] = var[c];
                continue;
            }
            double s = 0, q = 0;
            for (int n = 0; n < 2; ++n)
                for (int k = 0; k < 4; ++k) s += src[(n * 3 + c) * 4 + k];
            m[c] = s / 8;
            for (int n = 0; n < 2; ++n)
                for (int k = 0; k < 4; ++k) q += (src[(n * 3 + c) * 4 + k] - m[c]) * (src[(n * 3 + c) * 4 + k] - m[c]);
            v[c] = q / 8;
        }
        const batch_normalization_forward::primitive_desc pd(
                {prop_kind::forward_inference, plain(d), eps, (given ? G : normalization_flags::none) | C | H},
                attr);
        REQUIRE(pd.impl_name() == "ref");
        std::vector<float> dst(24);
        exec_args args {{PRIM_ARG_SRC, wrap(pd.src_desc(), src)}, {PRIM_ARG_DST, wrap(pd.dst_desc(), dst)},
                        {PRIM_ARG_SCALE, wrap(pd.scale_desc(), scale)},
                        {PRIM_ARG_SHIFT, wrap(pd.shift_desc(), shift)}};
        if (given) {
            args[PRIM_ARG_MEAN] = wrap(pd.mean_desc(), mean);
            args[PRIM_ARG_VARIANCE] = wrap(pd.variance_desc(), var);
        }
        batch_normalization_forward(pd).execute(args);
        for (int e = 0; e < 24; ++e) {
            const int c = e / 4 % 3;
            const double y = (src[e] - m[c]) / std::sqrt(v[c] + eps) * scale[c] + shift[c];
            CHECK(dst[e] == Approx(std::max(0.0, y)).epsilon(1e-6).margin(1e-6));
        }
    }
    // Layer: 3x4x5, per row of 5, statistics given in 'ba' order (a 4x3 buffer) or computed.
    const dims ld = {3, 4, 5};
    std::vector<float> lsrc = values(60, -3.f, 5.f, 2), lmean = values(12, -1.f, 1.f, 3),
                       lvar = values(12, 0.5f, 2.f, 4), lscale = values(5, -2.f, 2.f, 5);
    for (const bool given : {true, false}) {
        INFO("statistics " << (given ? "given" : "computed"));
        const memory::desc stat({3, 4}, dt::f32, std::string("ba"));
        const layer_normalization_forward::primitive_desc pd(
                {prop_kind::forward_inference, plain(ld), stat, eps, (given ? G : normalization_flags::none) | C},
                attr);
        REQUIRE(pd.impl_name() == "ref");
        std::vector<float> dst(60);
        exec_args args {{PRIM_ARG_SRC, wrap(pd.src_desc(), lsrc)}, {PRIM_ARG_DST, wrap(pd.dst_desc(), dst)},
                        {PRIM_ARG_SCALE, wrap(pd.scale_desc(), lscale)}};
        if (given) {
            CHECK(pd.mean_desc() == stat);
            args[PRIM_ARG_MEAN] = wrap(pd.mean_desc(), lmean);
            args[PRIM_ARG_VARIANCE] = wrap(pd.variance_desc(), lvar);
        }
        layer_normalization_forward(pd).execute(args);
        for (int r = 0; r < 12; ++r) {
            double m = 0, v = 0;
            if (given) {
                m = lmean[(r % 4) * 3 + r / 4]; // (t, n) at n * 3 + t
                v = lvar[(r % 4) * 3 + r / 4];
            } else {
                for (int c = 0; c < 5; ++c) m += lsrc[r * 5 + c] / 5.0;
                for (int c = 0; c < 5; ++c) v += (lsrc[r * 5 + c] - m) * (lsrc[r * 5 + c] - m) / 5.0;
            }
            for (int c = 0; c < 5; ++c) {
                const double y = (lsrc[r * 5 + c] - m) / std::sqrt(v + eps) * lscale[c];
                CHECK(dst[r * 5 + c] == Approx(std::max(0.0, y)).epsilon(1e-6).margin(1e-6));
            }
        }
    }
}

TEST_CASE("the optional arguments' descs follow the flags", "[normalization][query_md]") {
    const memory::desc src({2, 19, 7, 5}, dt::f32, tag::nhwc);
    const memory::desc vec({19}, dt::f32, tag::a);
    for (const normalization_flags f : {normalization_flags::none, G, C, H, G | C | H}) {
        const batch_normalization_forward::primitive_desc pd({prop_kind::forward_inference, src, 1e-5f, f});
        CHECK(pd.dst_desc() == src);
        CHECK(pd.mean_desc() == (has_flags(f, G) ? vec : memory::desc()));
        CHECK(pd.variance_desc() == (has_flags(f, G) ? vec : memory::desc()));
        CHECK(pd.scale_desc() == (has_flags(f, C) ? vec : memory::desc()));
        CHECK(pd.shift_desc() == (has_flags(f, H) ? vec : memory::desc()));
        CHECK(pd.query_md(PRIM_ARG_MEAN) == pd.mean_desc());
        CHECK(pd.query_md(PRIM_ARG_SHIFT) == pd.shift_desc());
        CHECK(pd.weights_desc().is_zero());
    }
    // Layer: statistics 'any' or not given are plain; scale and shift 1D of the last dim.
    const memory::desc lsrc({8, 4, 32}, dt::f32, tag::abc);
    const layer_normalization_forward::primitive_desc pd(
            {prop_kind::forward_inference, lsrc, 1e-5f, G | C | H});
    CHECK(pd.mean_desc() == memory::desc({8, 4}, dt::f32, tag::ab));
    CHECK(pd.variance_desc() == memory::desc({8, 4}, dt::f32, tag::ab));
    CHECK(pd.scale_desc() == memory::desc({32}, dt::f32, tag::a));
    CHECK(pd.shift_desc() == memory::desc({32}, dt::f32, tag::a));
    // Flags are bit sets.
    normalization_flags f = G;
    f |= H;
    CHECK(static_cast<unsigned>(f) == 0x11);
    CHECK(has_flags(f, G));
    CHECK(!has_flags(f, C));
    CHECK(static_cast<unsigned>(G | C | H) == 0x19);
}

TEST_CASE("a blocked destination's channel padding stays zero", "[normalization][bnorm][padding]") {
    // exp(0) = 1: the padding lanes would hold 1 (or the operand's NaN) had they been left so.
    const memory::desc md({2, 19, 3, 7}, dt::f32, std::string("aBcd16b"));
    post_ops po;
    po.append_eltwise(algorithm::eltwise_exp, 0.f, 0.f);
    po.append_binary(algorithm::binary_div, post_ops::policy::per_oc);
    for (const cpu_isa isa : prim_test::isas_under_test()) {
        INFO("isa " << cpu_isa_name(isa));
        primitive_attr attr;
        attr.set_post_ops(po);
        attr.set_max_cpu_isa(isa);
        const batch_normalization_forward::primitive_desc pd(
                {prop_kind::forward_inference, md, 1e-5f, normalization_flags::none}, attr);
        const int op_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_SRC_1;
        memory src(md), dst(md), op(pd.query_md(op_arg));
        std::vector<float> plain_src = values(2 * 19 * 3 * 7, -1.f, 1.f, 7);
        reorder(plain({2, 19, 3, 7}), md).execute(memory(plain({2, 19, 3, 7}), plain_src.data()), src);
        float *o = static_cast<float *>(op.get_data_handle());
        for (int c = 0; c < 19; ++c) o[c] = 2.f; // its padding stays 0: 1/0 there
        batch_normalization_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}, {op_arg, op}});
        const float *y = static_cast<const float *>(dst.get_data_handle());
        int64_t nonzero = 0;
        for (int64_t i = 0; i < md.nelems_padded(); ++i)
            if (i / (3 * 7 * 16) % 2 == 1 && i % 16 >= 3) nonzero += y[i] != 0.f;
        CHECK(nonzero == 0);
    }
}

TEST_CASE("normalization descriptors: benchdnn's forms", "[normalization][problem_string]") {
    impl::bnorm_problem b;
    b.mb = 2;
    b.ic = 64;
    b.i[1] = b.i[2] = 56;
    CHECK(impl::to_string(b) == "mb2ic64ih56");
    b.i[2] = 55;
    b.eps = 1e-5f;
    b.flags = 0x19;
    CHECK(impl::to_string(b) == "--flags=GCH mb2ic64ih56iw55eps1e-05");
    CHECK(impl::descriptor_string(b) == "mb2ic64ih56iw55eps1e-05");
    b.nsp = 3;
    b.i[0] = b.i[1] = b.i[2] = 7;
    b.flags = 0x10;
    b.eps = 0.001f;
    CHECK(impl::to_string(b) == "--flags=H mb2ic64id7eps0.001");
    b.nsp = 1;
    b.i[0] = b.i[1] = 1;
    b.mb = 0;
    CHECK(impl::to_string(b) == "--flags=H mb0ic64iw7eps0.001");
    b.nsp = 0;
    b.i[2] = 1;
    b.flags = 0;
    b.eps = 1.f / 16;
    CHECK(impl::to_string(b) == "mb0ic64");
    impl::lnorm_problem l {{8, 128, 768}, 1e-5f, 0x1};
    CHECK(impl::to_string(l) == "--flags=G 8x128x768");
    CHECK(impl::descriptor_string(l) == "8x128x768");
    CHECK(impl::normalization_flags_string(0x9) == "GC");
}

TEST_CASE("normalizations print exec lines with their kind and descriptor", "[normalization][verbose]") {
    REQUIRE(verbose_set);
    const memory::desc md({2, 19, 7, 5}, dt::f32, tag::nchw);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    const batch_normalization_forward::primitive_desc bpd(
            {prop_kind::forward_inference, md, 1e-5f, G | C}, attr);
    memory src(md), dst(md), stat(bpd.mean_desc()), var(bpd.variance_desc()), sc(bpd.scale_desc());
    static_cast<float *>(var.get_data_handle())[0] = 1.f;
    std::vector<std::string> lines = exec_lines([&] {
        batch_normalization_forward(bpd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst},
                {PRIM_ARG_MEAN, stat}, {PRIM_ARG_VARIANCE, var}, {PRIM_ARG_SCALE, sc}});
    });
    REQUIRE(lines.size() == 1);
    const std::string impl = bpd.impl_name();
    CHECK(std::regex_match(lines[0], std::regex("prim_verbose,exec,batch_normalization," + impl
                                                + ",--flags=GC mb2ic19ih7iw5eps1e-05,relu,[0-9.]+")));
    const memory::desc lmd({8, 12, 64}, dt::f32, tag::abc);
    const layer_normalization_forward::primitive_desc lpd(
            {prop_kind::forward_inference, lmd, 1.f / 16, normalization_flags::none});
    memory lsrc(lmd), ldst(lmd);
    lines = exec_lines([&] {
        layer_normalization_forward(lpd).execute({{PRIM_ARG_SRC, lsrc}, {PRIM_ARG_DST, ldst}});
    });
    REQUIRE(lines.size() == 1);
    CHECK(std::regex_match(lines[0], std::regex("prim_verbose,exec,layer_normalization,"
                                                + lpd.impl_name() + ",8x12x64,,[0-9.]+")));
    if (get_effective_cpu_isa() != cpu_isa::none) {
        CHECK(bpd.impl_name().rfind("jit:", 0) == 0);
        CHECK(lpd.impl_name().rfind("jit:", 0) == 0);
    }
}

TEST_CASE("normalizations refuse bad descriptors", "[normalization][bad_input]") {
    const memory::desc md({2, 19, 7, 5}, dt::f32, tag::nchw);
    const auto bnorm = [](const memory::desc &src, const memory::desc &dst, float eps,
                          normalization_flags f, prop_kind pk = prop_kind::forward_inference) {
        batch_normalization_forward::primitive_desc pd({pk, src, dst, eps, f});
    };
    const auto lnorm = [](const memory::desc &src, const memory::desc &stat, float eps,
                          normalization_flags f, prop_kind pk = prop_kind::forward_inference) {
        layer_normalization_forward::primitive_desc pd({pk, src, stat, eps, f});
    };
    const memory::desc none;
    CHECK_INVALID(bnorm(md, none, 1e-5f, G, prop_kind::forward_training),
                  "batch_normalization: prop_kind forward_training is not supported");
    CHECK_INVALID(lnorm(plain({4, 8}), none, 1e-5f, G, prop_kind::forward_training),
                  "layer_normalization: prop_kind forward_training is not supported");
    CHECK_INVALID(bnorm(md, none, 1e-5f, G, static_cast<prop_kind>(7)), "prop_kind 7");
    CHECK_INVALID(bnorm(none, none, 1e-5f, G), "batch_normalization: src desc is empty");
    CHECK_INVALID(bnorm(plain({5}), none, 1e-5f, G), "src must have 2 to 5 dims (N x C");
    CHECK_INVALID(bnorm(plain({1, 2, 3, 4, 5, 6}), none, 1e-5f, G), "it has 6");
    CHECK_INVALID(lnorm(plain({5}), none, 1e-5f, G), "a layer normalization has 2 to 5 dims, not 1");
    CHECK_INVALID(bnorm(md, plain({2, 19, 7, 6}), 1e-5f, G),
                  "dst dims 2x19x7x6 differ from src dims 2x19x7x5");
    for (const float eps : {0.f, -1e-5f, nan_f, std::numeric_limits<float>::infinity()}) {
        CHECK_INVALID(bnorm(md, none, eps, G), "must be positive and finite");
        CHECK_INVALID(lnorm(plain({4, 8}), none, eps, G), "must be positive and finite");
    }
    CHECK_INVALID(bnorm(md, none, 0.f, G), "epsilon=0 must be positive");
    CHECK_INVALID(bnorm(md, none, 1e-5f, static_cast<normalization_flags>(0x2)),
                  "flags 0x2 are not supported");
    CHECK_INVALID(lnorm(plain({4, 8}), none, 1e-5f, static_cast<normalization_flags>(0x25)),
                  "flags 0x24 are not supported");
    CHECK_INVALID(bnorm(plain({2, 0, 3, 3}), none, 1e-5f, G), "ic=0 must be positive");
    CHECK_INVALID(bnorm(plain({2, 3, 0, 3}), none, 1e-5f, G), "ih=0 must be positive");
    CHECK_INVALID(lnorm(plain({4, 0}), none, 1e-5f, G), "dim 1 is 0");
    CHECK_INVALID(lnorm(plain({4, 6, 8}), plain({4, 8}), 1e-5f, G),
                  "stat dims 4x8 must be 4x6 (src dims without the last)");
    CHECK_INVALID(bnorm({{huge, huge, 1, 1}, dt::f32, tag::any}, none, 1e-5f, G), "too large");
    // A given post-op operand is checked against the destination.
    post_ops po;
    po.append_binary(algorithm::binary_add, plain({1, 5, 1, 1}));
    primitive_attr attr;
    attr.set_post_ops(po);
    CHECK_INVALID(batch_normalization_forward::primitive_desc(
                          {prop_kind::forward_inference, md, 1e-5f, G}, attr),
                  "batch_normalization --flags=G mb2ic19ih7iw5eps1e-05: post-op 0 (add) src1 dims "
                  "1x5x1x1 do not broadcast");
}

TEST_CASE("normalizations refuse bad arguments at execute", "[normalization][bad_input]") {
    const memory::desc md({2, 19, 7, 5}, dt::f32, tag::nchw);
    const batch_normalization_forward::primitive_desc pd(
            {prop_kind::forward_inference, md, 1e-5f, G | C | H});
    const batch_normalization_forward bn(pd);
    memory src(md), dst(md), mean(pd.mean_desc()), var(pd.variance_desc()), sc(pd.scale_desc()),
            sh(pd.shift_desc());
    const memory wrong(memory::desc({20}, dt::f32, tag::a));
    exec_args args {{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}, {PRIM_ARG_MEAN, mean},
                    {PRIM_ARG_VARIANCE, var}, {PRIM_ARG_SCALE, sc}, {PRIM_ARG_SHIFT, sh}};
    static_cast<float *>(var.get_data_handle())[0] = 1.f;
    CHECK_NOTHROW(bn.execute(args));
    const std::string who = "batch_normalization --flags=GCH mb2ic19ih7iw5eps1e-05: ";
    for (const int arg : {PRIM_ARG_MEAN, PRIM_ARG_VARIANCE, PRIM_ARG_SCALE, PRIM_ARG_SHIFT}) {
        exec_args missing = args;
        missing.erase(arg);
        const char *name = arg == PRIM_ARG_MEAN ? "mean" : arg == PRIM_ARG_VARIANCE ? "variance"
                                                 : arg == PRIM_ARG_SCALE            ? "scale"
                                                                                    : "shift";
        CHECK_INVALID(bn.execute(missing), who + name + " argument is missing");
        exec_args bad = args;
        bad[arg] = wrong;
        CHECK_INVALID(bn.execute(bad), who + name + " memory desc a:20 differs");
    }
    // dst over the statistics: refused; in place (dst = src): fine. dst and mean share a buffer
    // of their own, so that what dst overlaps does not depend on where the heap put the others.
    std::vector<float> dst_and_mean(static_cast<size_t>(md.nelems_padded()));
    exec_args overlap = args;
    overlap[PRIM_ARG_MEAN] = memory(pd.mean_desc(), dst_and_mean.data());
    overlap[PRIM_ARG_DST] = memory(md, dst_and_mean.data());
    CHECK_INVALID(bn.execute(overlap), who + "dst and mean overlap in memory");
    exec_args in_place = args;
    in_place[PRIM_ARG_DST] = src;
    CHECK_NOTHROW(bn.execute(in_place));
    exec_args shifted = args;
    std::vector<float> big(static_cast<size_t>(md.nelems_padded() + 1));
    shifted[PRIM_ARG_SRC] = memory(md, big.data());
    shifted[PRIM_ARG_DST] = memory(md, big.data() + 1);
    CHECK_INVALID(bn.execute(shifted), "in place needs one layout and one buffer");

    // Layer normalization: its statistics' desc is the one given at creation.
    const memory::desc lmd({4, 6, 32}, dt::f32, tag::abc), stat({4, 6}, dt::f32, tag::ba);
    const layer_normalization_forward::primitive_desc lpd(
            {prop_kind::forward_inference, lmd, stat, 1e-5f, G});
    memory lsrc(lmd), ldst(lmd), lmean(stat), lvar(stat);
    const layer_normalization_forward ln(lpd);
    CHECK_INVALID(ln.execute({{PRIM_ARG_SRC, lsrc}, {PRIM_ARG_DST, ldst}, {PRIM_ARG_MEAN, lmean}}),
                  "layer_normalization --flags=G 4x6x32: variance argument is missing");
    CHECK_INVALID(ln.execute({{PRIM_ARG_SRC, lsrc}, {PRIM_ARG_DST, ldst}, {PRIM_ARG_MEAN, lmean},
                              {PRIM_ARG_VARIANCE, memory(plain({4, 6}))}}),
                  "variance memory desc ab:4x6 differs from the primitive's ba:4x6");
}

TEST_CASE("mb0 normalizations execute as no-ops", "[normalization][empty]") {
    const batch_normalization_forward::primitive_desc pd(
            {prop_kind::forward_inference, plain({0, 19, 7, 5}), 1e-5f, normalization_flags::none});
    CHECK_NOTHROW(batch_normalization_forward(pd).execute(
            {{PRIM_ARG_SRC, memory(pd.src_desc(), nullptr)}, {PRIM_ARG_DST, memory(pd.dst_desc(), nullptr)}}));
    const layer_normalization_forward::primitive_desc lpd(
            {prop_kind::forward_inference, plain({0, 64}), 1e-5f, normalization_flags::none});
    CHECK_NOTHROW(layer_normalization_forward(lpd).execute(
            {{PRIM_ARG_SRC, memory(lpd.src_desc(), nullptr)}, {PRIM_ARG_DST, memory(lpd.dst_desc(), nullptr)}}));
}

TEST_CASE("src and dst in different layouts", "[normalization][layouts]") {
    // The JIT declines (one layout for both); the reference reorders around its kernel. The
    // result, read back plain, is the same as with one layout.
    const dims d = {2, 19, 7, 5};
    const std::vector<float> x = values(2 * 19 * 7 * 5, -3.f, 5.f, 11);
    const auto run = [&](const char *src_layout, const char *dst_layout, bool layer) {
        const memory::desc s(d, dt::f32, std::string(src_layout)), o(d, dt::f32, std::string(dst_layout));
        memory src(s), dst(o);
        reorder(plain(d), s).execute(memory(plain(d), const_cast<float *>(x.data())), src);
        std::string impl;
        if (layer) {
            const layer_normalization_forward::primitive_desc pd(
                    {prop_kind::forward_inference, s, o, memory::desc(), 1e-5f, normalization_flags::none});
            impl = pd.impl_name();
            layer_normalization_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
        } else {
            const batch_normalization_forward::primitive_desc pd(
                    {prop_kind::forward_inference, s, o, 1e-5f, normalization_flags::none});
            impl = pd.impl_name();
            batch_normalization_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
        }
        std::vector<float> out(x.size());
        reorder(o, plain(d)).execute(dst, memory(plain(d), out.data()));
        return std::make_pair(impl, out);
    };
    for (const bool layer : {false, true}) {
        INFO((layer ? "layer" : "batch"));
        const auto same = run("abcd", "abcd", layer);
        for (const char *dst_layout : {"acdb", "aBcd16b"}) {
            const auto other = run("abcd", dst_layout, layer);
            CHECK(other.first == "ref");
            int64_t differ = 0;
            for (size_t i = 0; i < x.size(); ++i)
                differ += !(std::fabs(other.second[i] - same.second[i])
                            <= 1e-5 * std::max(1.f, std::fabs(same.second[i])));
            CHECK(differ == 0);
        }
    }
}

TEST_CASE("one normalization runs from many threads at once, whatever the OpenMP threads",
          "[normalization][threads]") {
    // Computed statistics: their sums are split in slices that do not depend on the threads, so
    // every run gives the same bits: 1 or 2 OpenMP threads, 4 callers at once.
    const dims d = {4, 64, 17, 19};
    const std::vector<float> x = values(4 * 64 * 17 * 19, -3.f, 5.f, 21);
    for (const char *layout : {"abcd", "acdb", "aBcd16b"})
        for (const bool layer : {false, true}) {
            INFO((layer ? "layer" : "batch") << " normalization, " << layout);
            const memory::desc md(d, dt::f32, std::string(layout));
            std::function<void(const memory &, const memory &)> execute;
            if (layer) {
                const layer_normalization_forward p(layer_normalization_forward::primitive_desc(
                        {prop_kind::forward_inference, md, 1e-5f, normalization_flags::none}));
                execute = [p](const memory &src, const memory &dst) {
                    p.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
                };
            } else {
                const batch_normalization_forward p(batch_normalization_forward::primitive_desc(
                        {prop_kind::forward_inference, md, 1e-5f, normalization_flags::none}));
                execute = [p](const memory &src, const memory &dst) {
                    p.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
                };
            }
            memory src(md);
            reorder(plain(d), md).execute(memory(plain(d), const_cast<float *>(x.data())), src);
            const auto bytes = [](const memory &m) {
                const float *p = static_cast<const float *>(m.get_data_handle());
                return std::vector<float>(p, p + m.get_desc().get_size() / sizeof(float));
            };
            const int saved = omp_get_max_threads();
            omp_set_num_threads(1);
            memory one(md);
            execute(src, one);
            omp_set_num_threads(std::max(2, saved));
            memory two(md);
            execute(src, two);
            omp_set_num_threads(saved);
            CHECK(bytes(one) == bytes(two));
            std::vector<memory> outs;
            for (int t = 0; t < 4; ++t) outs.emplace_back(md);
            std::vector<std::thread> callers;
            for (int t = 0; t < 4; ++t) callers.emplace_back([&, t] { execute(src, outs[t]); });
            for (std::thread &c : callers) c.join();
            for (const memory &m : outs) CHECK(bytes(m) == bytes(one));
        }
}
