// Batch and layer normalization (inference) through the public API: the JIT, capped to avx512
// and to avx2, against the reference (the same primitive capped to cpu_isa::none), for every
// flag combination; nchw, nhwc, nChw16c, nChw8c and 'any' destinations; channel tails (C 19),
// odd spatial sizes and rows (37), ranks 2 to 5; chains mixing eltwise, sum, binary and prelu
// entries (operands following the destination and one given plain); in place; larger shapes
// that spread the statistics over threads and blocks of rows.
// The JIT computes x * a + b with folded factors (batch) or (x - mean) * rstd (layer) in f32,
// the reference (x - mean) / sqrt(var + eps) * scale + shift in double: they agree to
// |jit - ref| <= 1e-5 * max(1, |ref|) (doc/normalization.md, accuracy).
#include "api_test_util.hpp"

#include <memory>

namespace {

const double tolerance = 1e-5;

std::vector<float> uniform(int64_t n, float lo, float hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = dist(rng);
    return v;
}

std::vector<float> picks(int64_t n, const std::vector<float> &from, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = from[rng() % from.size()];
    return v;
}

// ---- the chains -------------------------------------------------------------------------------

using policy = post_ops::policy;

// Continuous entries only: the JIT is not bit-exact, so a comparison entry could flip on a tie.
// The operand given by the user is in dst's layout (the JIT reads operands laid out as dst, or
// constant along rows); layer normalization also has one per column (its last dim).
std::vector<post_ops> chains(const dims &d, const std::string &layout, bool layer) {
    std::vector<post_ops> out(4);
    out[1].append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    out[2].append_sum(0.5f);
    out[2].append_binary(algorithm::binary_add, policy::per_oc);
    out[2].append_prelu(policy::per_tensor);
    out[2].append_eltwise(algorithm::eltwise_linear, 2.f, -1.f);
    if (layer) out[2].append_binary(algorithm::binary_sub, 1 << (d.size() - 1));
    out[3].append_binary(algorithm::binary_mul, policy::per_mb_spatial);
    out[3].append_binary(algorithm::binary_div, policy::common);
    out[3].append_sum(1.f);
    out[3].append_binary(algorithm::binary_max, memory::desc(d, dt::f32, layout));
    out[3].append_eltwise(algorithm::eltwise_gelu_erf, 0.f, 0.f);
    out[3].append_binary(algorithm::binary_min, policy::per_oc);
    out[3].append_prelu(policy::per_oc);
    out[3].append_eltwise(algorithm::eltwise_relu, 0.25f, 0.f, 1.5f);
    return out;
}

// ---- one case ---------------------------------------------------------------------------------

struct norm_case {
    bool layer = false;       // layer normalization, else batch
    dims d;
    std::string layout;       // src's pattern
    bool dst_any = false;     // dst 'any' (else src's layout)
    normalization_flags flags = normalization_flags::none;
    post_ops chain;
    std::string stat_layout;  // layer normalization: the statistics' pattern ("" = 'any')
    float eps = 1e-5f;
    float src_offset = 0.f;   // added to src's values, uniform in [-3, 5]
};

norm_case make_case(bool layer, const dims &d, const std::string &layout,
                    normalization_flags flags, const post_ops &chain) {
    norm_case c;
    c.layer = layer;
    c.d = d;
    c.layout = layout;
    c.flags = flags;
    c.chain = chain;
    return c;
}

struct created {
    primitive_desc_base pd;
    std::function<void(const exec_args &)> run;
    memory::desc mean, variance, scale, shift;
};

created create(const norm_case &c, cpu_isa isa) {
    primitive_attr attr;
    attr.set_post_ops(c.chain);
    attr.set_max_cpu_isa(isa);
    const memory::desc src(c.d, dt::f32, c.layout);
    const memory::desc dst = c.dst_any ? memory::desc(c.d, dt::f32, tag::any) : src;
    if (c.layer) {
        const dims sd(c.d.begin(), c.d.end() - 1);
        const memory::desc stat = c.stat_layout.empty() ? memory::desc(sd, dt::f32, tag::any)
                                                        : memory::desc(sd, dt::f32, c.stat_layout);
        const layer_normalization_forward::primitive_desc pd(
                {prop_kind::forward_inference, src, dst, stat, c.eps, c.flags}, attr);
        const layer_normalization_forward p(pd);
        return {pd, [p](const exec_args &a) { p.execute(a); }, pd.mean_desc(), pd.variance_desc(),
                pd.scale_desc(), pd.shift_desc()};
    }
    const batch_normalization_forward::primitive_desc pd(
            {prop_kind::forward_inference, src, dst, c.eps, c.flags}, attr);
    const batch_normalization_forward p(pd);
    return {pd, [p](const exec_args &a) { p.execute(a); }, pd.mean_desc(), pd.variance_desc(),
            pd.scale_desc(), pd.shift_desc()};
}

// The plain values of every input, generated once for a case.
struct inputs {
    std::vector<float> src, dst_old, mean, variance, scale, shift;
    std::vector<std::vector<float>> operands; // per chain entry, empty for entries without one
};

inputs make_inputs(const norm_case &c, const created &cr, unsigned seed) {
    inputs in;
    const int64_t n = count(c.d);
    // A mean away from zero and a spread of a few units, as activations.
    in.src = uniform(n, -3.f, 5.f, seed);
    for (float &x : in.src) x += c.src_offset;
    in.dst_old = uniform(n, -2.f, 2.f, seed + 1);
    const int64_t stats = c.layer ? n / c.d.back() : c.d[1];
    const int64_t vec = c.layer ? c.d.back() : c.d[1];
    in.mean = uniform(stats, -1.f, 2.f, seed + 2);
    in.variance = uniform(stats, 0.25f, 4.f, seed + 3);
    in.scale = uniform(vec, -2.f, 2.f, seed + 4);
    in.shift = uniform(vec, -1.f, 1.f, seed + 5);
    const post_ops &chain = c.chain;
    in.operands.resize(static_cast<size_t>(chain.len()));
    for (int i = 0; i < chain.len(); ++i) {
        const post_ops::entry &e = chain.entries()[i];
        const unsigned s = seed + 10 + static_cast<unsigned>(i);
        if (e.kind == post_ops::kind::prelu) {
            const memory::desc md = cr.pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_WEIGHTS);
            in.operands[i] = picks(count(md.get_dims()), {-2.f, -0.5f, 0.f, 0.25f, 1.f}, s);
        } else if (e.kind == post_ops::kind::binary) {
            const memory::desc md = cr.pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1);
            in.operands[i] = e.alg == algorithm::binary_div
                    ? picks(count(md.get_dims()), {1.f, 2.f, -4.f, 0.5f}, s)
                    : uniform(count(md.get_dims()), -2.f, 2.f, s);
        }
    }
    return in;
}

// Runs cr on in; dst is src's memory when in_place. Returns dst, plain.
std::vector<float> run(const created &cr, const norm_case &c, const inputs &in, bool in_place) {
    const memory src = from_plain(in.src, cr.pd.src_desc());
    const memory dst = in_place ? src : from_plain(in.dst_old, cr.pd.dst_desc());
    exec_args args {{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}};
    if (!cr.mean.is_zero()) args[PRIM_ARG_MEAN] = from_plain(in.mean, cr.mean);
    if (!cr.variance.is_zero()) args[PRIM_ARG_VARIANCE] = from_plain(in.variance, cr.variance);
    if (!cr.scale.is_zero()) args[PRIM_ARG_SCALE] = from_plain(in.scale, cr.scale);
    if (!cr.shift.is_zero()) args[PRIM_ARG_SHIFT] = from_plain(in.shift, cr.shift);
    for (int i = 0; i < c.chain.len(); ++i) {
        const post_ops::entry &e = c.chain.entries()[i];
        if (e.kind != post_ops::kind::binary && e.kind != post_ops::kind::prelu) continue;
        const int arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i)
                        | (e.kind == post_ops::kind::prelu ? PRIM_ARG_WEIGHTS : PRIM_ARG_SRC_1);
        args[arg] = from_plain(in.operands[i], cr.pd.query_md(arg));
    }
    cr.run(args);
    return to_plain(dst);
}

std::string flags_name(normalization_flags f) {
    std::string s;
    if (has_flags(f, normalization_flags::use_global_stats)) s += "G";
    if (has_flags(f, normalization_flags::use_scale)) s += "C";
    if (has_flags(f, normalization_flags::use_shift)) s += "H";
    return s.empty() ? "none" : s;
}

const normalization_flags all_flags[] = {
    normalization_flags::none,
    normalization_flags::use_global_stats,
    normalization_flags::use_scale,
    normalization_flags::use_shift,
    normalization_flags::use_scale | normalization_flags::use_shift,
    normalization_flags::use_global_stats | normalization_flags::use_scale,
    normalization_flags::use_global_stats | normalization_flags::use_shift,
    normalization_flags::use_global_stats | normalization_flags::use_scale | normalization_flags::use_shift,
};

// The case on isa (the JIT, expected unless expect_jit is false) against the reference.
void check(const norm_case &c, cpu_isa isa, bool expect_jit, unsigned seed, bool in_place = false) {
    INFO((c.layer ? "layer" : "batch") << " normalization, dims " << c.d.size() << "D layout "
         << c.layout << (c.dst_any ? " dst any" : "") << " flags " << flags_name(c.flags)
         << " stat " << c.stat_layout << " chain '" << to_string(c.chain) << "' isa "
         << cpu_isa_name(isa) << (in_place ? " in place" : ""));
    const created jit = create(c, isa), ref = create(c, cpu_isa::none);
    REQUIRE(ref.pd.impl_name() == "ref");
    const cpu_isa effective = std::min(isa, get_effective_cpu_isa());
    if (expect_jit && effective != cpu_isa::none)
        CHECK(jit.pd.impl_name() == std::string("jit:") + cpu_isa_name(effective));
    CHECK(jit.pd.dst_desc() == ref.pd.dst_desc());
    const inputs in = make_inputs(c, jit, seed);
    const std::vector<float> got = run(jit, c, in, in_place);
    const std::vector<float> want = run(ref, c, in, in_place);
    REQUIRE(got.size() == want.size());
    int64_t bad = 0;
    double worst = 0.0;
    for (size_t e = 0; e < got.size(); ++e) {
        const double err = std::fabs(static_cast<double>(got[e]) - want[e])
                           / std::max(1.0, std::fabs(static_cast<double>(want[e])));
        worst = std::max(worst, err);
        if (!(err <= tolerance) && ++bad <= 3) {
            INFO("element " << e << ": jit " << got[e] << ", ref " << want[e]);
            CHECK(err <= tolerance);
        }
    }
    INFO("worst relative error " << worst);
    CHECK(bad == 0);
}

const std::vector<cpu_isa> isas = prim_test::jit_isas_under_test();

} // namespace

TEST_CASE("batch normalization: JIT against the reference, every flag, layout and chain",
          "[normalization][bnorm]") {
    // C 19: a tail of 3 in nChw16c, 3 in nChw8c; 7x5 planes: an odd row per plane in nchw.
    const dims d = {2, 19, 7, 5};
    unsigned seed = 1;
    for (const cpu_isa isa : isas)
        for (const char *layout : {"abcd", "acdb", "aBcd16b", "aBcd8b"})
            for (const normalization_flags flags : all_flags)
                for (const post_ops &chain : chains(d, layout, false)) {
                    const norm_case c = make_case(false, d, layout, flags, chain);
                    // nChw8c rows are 8 floats: shorter than an AVX-512 vector (the reference).
                    const bool jit = !(isa == cpu_isa::avx512 && c.layout == "aBcd8b");
                    check(c, isa, jit, seed++);
                }
}

TEST_CASE("batch normalization: 'any' dst, 2D, 3D and 5D", "[normalization][bnorm]") {
    unsigned seed = 1000;
    for (const cpu_isa isa : isas) {
        for (const normalization_flags flags : all_flags) {
            // 'any' dst takes src's layout.
            const dims d = {2, 19, 7, 5};
            for (const char *layout : {"abcd", "acdb", "aBcd16b"}) {
                norm_case c = make_case(false, d, layout, flags, chains(d, layout, false)[2]);
                c.dst_any = true;
                check(c, isa, true, seed++);
            }
            // N x C, N x C x W, N x C x D x H x W.
            const std::pair<dims, std::vector<const char *>> shapes[] = {
                {{3, 40}, {"ab"}},
                {{2, 19, 17}, {"abc", "acb", "aBc16b"}},
                {{2, 19, 2, 3, 5}, {"abcde", "acdeb", "aBcde16b"}},
            };
            for (const auto &shape : shapes)
                for (const char *layout : shape.second)
                    for (const int k : {0, 3}) {
                        const norm_case c = make_case(false, shape.first, layout, flags,
                                chains(shape.first, layout, false)[static_cast<size_t>(k)]);
                        check(c, isa, true, seed++);
                    }
        }
    }
}

TEST_CASE("batch normalization in place", "[normalization][bnorm][in_place]") {
    // The sum reads the source value (dst_old is src); the statistics are those of src.
    unsigned seed = 2000;
    for (const cpu_isa isa : isas)
        for (const char *layout : {"abcd", "acdb", "aBcd16b"})
            for (const normalization_flags flags :
                 {normalization_flags::none, normalization_flags::use_global_stats
                                                     | normalization_flags::use_scale}) {
                const dims d = {2, 19, 7, 5};
                check(make_case(false, d, layout, flags, chains(d, layout, false)[2]), isa, true,
                      seed++, true);
            }
}

TEST_CASE("batch normalization on larger shapes: statistics over threads",
          "[normalization][bnorm][large]") {
    unsigned seed = 3000;
    for (const cpu_isa isa : isas)
        for (const char *layout : {"abcd", "acdb", "aBcd16b"})
            // C 150 channels-last: statistics by 64, 16 and single lanes.
            for (const dims &d : {dims {4, 40, 29, 31}, dims {2, 150, 9, 11}}) {
                const normalization_flags flags = normalization_flags::use_scale
                                                  | normalization_flags::use_shift;
                check(make_case(false, d, layout, flags, chains(d, layout, false)[1]), isa, true,
                      seed++);
            }
}

TEST_CASE("layer normalization: JIT against the reference, every flag, layout and chain",
          "[normalization][lnorm]") {
    struct shape {
        dims d;
        const char *layout, *stat_layout;
    };
    // Rows of 37 (a tail), 64, 20 and 17; 'tnc' and 'ntc' (bac) 3D layouts with statistics in
    // either order; the statistics 'any' (plain).
    const shape shapes[] = {
        {{3, 5, 37}, "abc", "ab"}, {{3, 5, 37}, "bac", "ab"}, {{3, 5, 37}, "bac", "ba"},
        {{6, 64}, "ab", ""},       {{2, 3, 4, 20}, "abcd", "abc"}, {{2, 2, 2, 3, 17}, "abcde", ""},
    };
    unsigned seed = 4000;
    for (const cpu_isa isa : isas)
        for (const shape &s : shapes)
            for (const normalization_flags flags : all_flags)
                for (const post_ops &chain : chains(s.d, s.layout, true)) {
                    norm_case c = make_case(true, s.d, s.layout, flags, chain);
                    c.stat_layout = s.stat_layout;
                    c.dst_any = seed % 2 == 0;
                    // Rows shorter than an AVX-512 vector go to the reference.
                    check(c, isa, !(isa == cpu_isa::avx512 && s.d.back() < 16), seed++);
                }
}

TEST_CASE("layer normalization in place and on larger shapes", "[normalization][lnorm]") {
    unsigned seed = 5000;
    for (const cpu_isa isa : isas) {
        for (const normalization_flags flags :
             {normalization_flags::none, normalization_flags::use_global_stats
                                                 | normalization_flags::use_shift}) {
            const dims d = {4, 7, 100};
            check(make_case(true, d, "abc", flags, chains(d, "abc", true)[2]), isa, true, seed++,
                  true);
        }
        // Many blocks of rows over the threads; one long row; rows of 8 on avx2.
        for (const dims &d : {dims {384, 1024}, dims {2, 70000}, dims {9, 8}}) {
            const norm_case c = make_case(true, d, "ab", normalization_flags::use_scale
                                                                 | normalization_flags::use_shift,
                                          chains(d, "ab", true)[1]);
            check(c, isa, d.back() >= (isa == cpu_isa::avx512 ? 16 : 8), seed++);
        }
    }
}

TEST_CASE("computed statistics of data far from zero", "[normalization][accuracy]") {
    // Layer: rows in the cache are summed in f32 lanes shifted by their first value, then by
    // their mean: a mean of 1000 with a spread of 2 costs nothing (x - mean is exact in f32).
    // Batch: x * a + b rounds x * a, of magnitude mean / sigma: an offset of 20 (10 sigma) still
    // keeps within the tolerance.
    unsigned seed = 6000;
    for (const cpu_isa isa : isas) {
        for (const dims &d : {dims {64, 1024}, dims {16, 37}, dims {3, 4, 3000}}) {
            norm_case c = make_case(true, d, d.size() == 2 ? "ab" : "abc", normalization_flags::none,
                                    post_ops());
            c.src_offset = 1000.f;
            check(c, isa, !(isa == cpu_isa::avx512 && d.back() < 16), seed++);
        }
        for (const char *layout : {"abcd", "acdb", "aBcd16b"}) {
            norm_case c = make_case(false, {3, 19, 9, 7}, layout, normalization_flags::none,
                                    post_ops());
            c.src_offset = 20.f;
            check(c, isa, true, seed++);
        }
    }
}
