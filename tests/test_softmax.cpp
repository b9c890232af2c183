// The softmax primitive through the public API: the JIT (avx2, avx512) against the reference on
// shapes the kernels were not tuned on (tails of both vector widths, 1 to 5 dims, every axis),
// both algorithms, layouts (plain, channels last, blocked, strided, in place), post-ops (eltwise,
// sum, binary operands of several policies), special values (NaN, -inf, all -inf rows), and bad
// input with its messages. The reference itself is checked against plain loops here.
#include "api_test_util.hpp"

namespace {

// Multiples of 1/8 in [-8, 8]: x - max is exact in f32, so the JIT and the reference differ only
// by exp's and the division's rounding.
std::vector<float> eighths(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<float> v(n);
    for (float &x : v) x = static_cast<float>(static_cast<int>(rng() % 129) - 64) / 8.f;
    return v;
}

memory::desc layout(const dims &d, const std::string &pattern) {
    return pattern == "any" ? memory::desc(d, dt::f32, tag::any) : memory::desc(d, dt::f32, pattern);
}

struct run_result {
    std::vector<float> got;
    std::string impl;
};

struct softmax_run {
    dims d;
    int axis = 1;
    algorithm alg = algorithm::softmax_accurate;
    std::string src_layout = "any", dst_layout = "any";
    std::string chain;
    cpu_isa isa = cpu_isa::all;
    bool in_place = false;
};

// Runs softmax on plain values src (dst_old = old), the post-op operands filled from seed 7 on.
run_result run_softmax(const softmax_run &r, const std::vector<float> &src,
                       const std::vector<float> &old) {
    primitive_attr attr;
    attr.set_post_ops(parse_post_ops(r.chain));
    attr.set_max_cpu_isa(r.isa);
    const memory::desc src_md = r.src_layout == "any" ? plain(r.d) : layout(r.d, r.src_layout);
    const softmax_forward::desc d(prop_kind::forward_inference, r.alg, src_md,
                                  r.in_place ? src_md : layout(r.d, r.dst_layout), r.axis);
    const softmax_forward::primitive_desc pd(d, attr);
    memory s = from_plain(src, pd.src_desc());
    memory dst = r.in_place ? s : old.empty() ? memory(pd.dst_desc()) : from_plain(old, pd.dst_desc());
    exec_args args = {{PRIM_ARG_SRC, s}, {PRIM_ARG_DST, dst}};
    const post_ops &po = attr.get_post_ops();
    for (int i = 0; i < po.len(); ++i) {
        const int arg = po.get_kind(i) == post_ops::kind::prelu
                ? (PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_WEIGHTS)
                : (PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1);
        if (po.get_kind(i) != post_ops::kind::binary && po.get_kind(i) != post_ops::kind::prelu)
            continue;
        const memory::desc md = pd.query_md(arg);
        args[arg] = from_plain(eighths(static_cast<size_t>(count(md.get_dims())), 7 + i), md);
    }
    softmax_forward(pd).execute(args);
    return {to_plain(dst), pd.impl_name()};
}

// Elements of got and want that differ by more than tol * max(|want|, floor) (NaN must meet NaN).
int64_t mismatches(const std::vector<float> &got, const std::vector<float> &want, double tol,
                   double floor = 1e-30) {
    int64_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        if (std::isnan(want[i]) || std::isnan(got[i])) {
            bad += std::isnan(want[i]) != std::isnan(got[i]);
            continue;
        }
        const double w = want[i], g = got[i];
        if (std::isinf(w) || std::isinf(g)) {
            bad += w != g;
            continue;
        }
        bad += std::abs(g - w) > tol * std::max(std::abs(w), floor);
    }
    return bad;
}

// Softmax of plain values along axis, in double, without post-ops: the test's own oracle for
// the reference.
std::vector<float> plain_softmax(const std::vector<float> &x, const dims &d, int axis, bool log) {
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= d[i];
    for (size_t i = static_cast<size_t>(axis) + 1; i < d.size(); ++i) inner *= d[i];
    const int64_t len = d[static_cast<size_t>(axis)];
    std::vector<float> y(x.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            auto at = [&](int64_t a) { return (o * len + a) * inner + i; };
            double m = -INFINITY, s = 0;
            for (int64_t a = 0; a < len; ++a) m = std::max(m, static_cast<double>(x[at(a)]));
            for (int64_t a = 0; a < len; ++a) s += std::exp(x[at(a)] - m);
            for (int64_t a = 0; a < len; ++a)
                y[at(a)] = static_cast<float>(log ? x[at(a)] - m - std::log(s) : std::exp(x[at(a)] - m) / s);
        }
    return y;
}

const algorithm both_algs[] = {algorithm::softmax_accurate, algorithm::softmax_log};

} // namespace

TEST_CASE("softmax: the reference against plain loops, every axis", "[softmax]") {
    const dims d = {3, 5, 7, 4};
    const auto x = eighths(static_cast<size_t>(count(d)), 1);
    for (algorithm alg : both_algs)
        for (int axis = 0; axis < 4; ++axis)
            for (const char *lay : {"abcd", "acdb", "aBcd8b"}) {
                INFO(algorithm_name(alg) << " axis " << axis << " " << lay);
                softmax_run r {d, axis, alg, lay, "any", "", cpu_isa::none};
                const run_result got = run_softmax(r, x, {});
                CHECK(got.impl == "ref");
                CHECK(mismatches(got.got, plain_softmax(x, d, axis, alg == algorithm::softmax_log),
                                 1e-6, 1e-6) == 0);
            }
}

TEST_CASE("softmax: JIT against the reference, shapes with tails, both ISAs", "[softmax][jit]") {
    struct shape_case {
        dims d;
        int axis;
        const char *lay;
    };
    const shape_case shapes[] = {
            {{128, 1000}, 1, "ab"},         {{3, 37, 129}, 2, "abc"},   {{2, 5, 7, 33}, 3, "abcd"},
            {{17}, 0, "a"},                 {{5, 3}, 1, "ab"},          {{2, 19, 5, 3}, 1, "acdb"},
            {{4, 23, 17}, 1, "acb"},        {{2, 3, 2, 2, 47}, 4, "abcde"},
            {{2, 8, 16}, 2, "abc"},         {{1, 2, 12, 16, 31}, 1, "acdeb"},
            {{4, 1000, 1, 1}, 1, "abcd"},   // a classifier's head: only size-1 dims inside
    };
    for (cpu_isa isa : jit_isas())
        for (algorithm alg : both_algs)
            for (const shape_case &sc : shapes) {
                INFO(cpu_isa_name(isa) << " " << algorithm_name(alg) << " axis " << sc.axis << " "
                     << sc.lay << " rows of " << sc.d[static_cast<size_t>(sc.axis)]);
                const auto x = eighths(static_cast<size_t>(count(sc.d)), 2);
                softmax_run r {sc.d, sc.axis, alg, sc.lay, "any", "", isa};
                const run_result jit = run_softmax(r, x, {});
                r.isa = cpu_isa::none;
                const run_result ref = run_softmax(r, x, {});
                CHECK(jit.impl == std::string("jit:") + cpu_isa_name(isa));
                CHECK(mismatches(jit.got, ref.got, 1e-5, alg == algorithm::softmax_log ? 1 : 1e-30) == 0);
            }
}

TEST_CASE("softmax: an axis that is not innermost, plain layout, on the JIT", "[softmax][jit]") {
    // Few slabs (the threads share each one: 1 x 21 x ...) and many (each thread takes whole
    // slabs), columns with tails of both vector widths, 3 to 5 dims, a two-element axis, chains
    // with eltwise entries and sums, in place; NaN and -inf columns below.
    struct shape_case {
        dims d;
        int axis;
    };
    const shape_case shapes[] = {{{1, 21, 19, 23}, 1}, {{40, 7, 33}, 1}, {{3, 2, 5, 17}, 1},
            {{2, 3, 5, 7, 9}, 2}, {{6, 128, 4, 4}, 1}, {{5, 9, 3}, 0}, {{2, 70, 300}, 1}};
    const char *chains[] = {"", "relu:0.5", "sum:0.5+linear:2:1", "tanh+sum"};
    for (cpu_isa isa : jit_isas())
        for (algorithm alg : both_algs)
            for (const shape_case &sc : shapes)
                for (const char *chain : chains)
                    for (bool in_place : {false, true}) {
                        if (in_place && std::string(chain).find("sum") != std::string::npos) continue;
                        INFO(cpu_isa_name(isa) << (alg == algorithm::softmax_log ? " log" : "")
                             << " axis " << sc.axis << " of " << sc.d.size() << " dims ("
                             << sc.d[0] << "x" << sc.d[1] << "...) '" << chain << "'"
                             << (in_place ? " in place" : ""));
                        const auto x = eighths(static_cast<size_t>(count(sc.d)), 5);
                        const auto old = eighths(static_cast<size_t>(count(sc.d)), 6);
                        softmax_run r {sc.d, sc.axis, alg, "any", "any", chain, isa, in_place};
                        const run_result jit = run_softmax(r, x, old);
                        r.isa = cpu_isa::none;
                        r.in_place = false;
                        const run_result ref = run_softmax(r, x, old);
                        CHECK(jit.impl == std::string("jit:") + cpu_isa_name(isa));
                        CHECK(ref.impl == "ref");
                        // Relative 1e-5, absolute below 1 where results may cancel (a sum with
                        // dst_old, log softmax near 0), as the other post-op tests.
                        const bool cancels = alg == algorithm::softmax_log
                                || std::string(chain).find("sum") != std::string::npos;
                        CHECK(mismatches(jit.got, ref.got, 1e-5, cancels ? 1 : 1e-5) == 0);
                    }
    // A column with a NaN gives NaN down that column only; a column of -inf gives NaN (as the
    // reference: -inf - -inf); a column with one +inf gives NaN where exp(inf - inf) appears.
    const dims d = {2, 5, 37};
    std::vector<float> x = eighths(static_cast<size_t>(count(d)), 8);
    x[(0 * 5 + 2) * 37 + 3] = NAN;                                 // column (0, 3)
    for (int a = 0; a < 5; ++a) x[(1 * 5 + a) * 37 + 36] = -INFINITY; // column (1, 36)
    x[(1 * 5 + 4) * 37 + 20] = INFINITY;                           // column (1, 20)
    for (cpu_isa isa : jit_isas())
        for (algorithm alg : both_algs) {
            INFO(cpu_isa_name(isa) << " " << algorithm_name(alg));
            softmax_run r {d, 1, alg, "any", "any", "", isa};
            const run_result jit = run_softmax(r, x, {});
            r.isa = cpu_isa::none;
            const run_result ref = run_softmax(r, x, {});
            CHECK(jit.impl == std::string("jit:") + cpu_isa_name(isa));
            CHECK(mismatches(jit.got, ref.got, 1e-5, 1e-5) == 0);
            for (int a = 0; a < 5; ++a) {
                CHECK(std::isnan(jit.got[static_cast<size_t>((0 * 5 + a) * 37 + 3)]));
                CHECK(std::isnan(jit.got[static_cast<size_t>((1 * 5 + a) * 37 + 36)]));
                CHECK(!std::isnan(jit.got[static_cast<size_t>((0 * 5 + a) * 37 + 4)]));
            }
        }
}

TEST_CASE("softmax: post-ops, in place, on the JIT and the reference", "[softmax][post_ops]") {
    const dims d = {3, 6, 45};
    const char *chains[] = {"relu:0.5", "sum:0.5+linear:2:1", "add:f32:per_tensor+sum",
                            "mul:f32:per_oc+tanh", "sub:f32:common+prelu:per_oc",
                            "max:f32:per_mb_spatial+exp+sum:-1"};
    const auto x = eighths(static_cast<size_t>(count(d)), 3);
    const auto old = eighths(static_cast<size_t>(count(d)), 4);
    std::vector<cpu_isa> isas = jit_isas();
    isas.push_back(cpu_isa::none);
    for (cpu_isa isa : isas)
        for (algorithm alg : both_algs)
            for (const char *chain : chains)
                for (bool in_place : {false, true}) {
                    if (in_place && std::string(chain).find("sum") != std::string::npos) continue;
                    INFO(cpu_isa_name(isa) << " " << algorithm_name(alg) << " '" << chain << "'"
                         << (in_place ? " in place" : ""));
                    softmax_run r {d, 2, alg, "abc", "any", chain, isa, in_place};
                    const run_result got = run_softmax(r, x, old);
                    if (isa != cpu_isa::none) CHECK(got.impl.rfind("jit:", 0) == 0);
                    // The reference chain after the plain loops' result: binary operands are
                    // regenerated exactly as run_softmax fills them.
                    r.isa = cpu_isa::none;
                    r.in_place = false;
                    const run_result ref = run_softmax(r, x, old);
                    CHECK(mismatches(got.got, ref.got, 1e-5, 1) == 0);
                }
}

TEST_CASE("softmax: layouts the JIT declines run on the reference", "[softmax][layouts]") {
    struct layout_case {
        dims d;
        int axis;
        const char *src, *dst;
    };
    const layout_case cases[] = {
            {{2, 19, 3, 5}, 1, "aBcd16b", "any"}, // the blocked channel dim as the axis
            {{2, 16, 3, 5}, 3, "aBcd8b", "any"},
            {{2, 19, 3, 5}, 1, "abcd", "acdb"},   // src and dst layouts differ
            {{4, 9, 6}, 1, "bac", "any"},         // not innermost, and not plain either
    };
    for (const layout_case &c : cases)
        for (algorithm alg : both_algs) {
            INFO(algorithm_name(alg) << " axis " << c.axis << " " << c.src << " -> " << c.dst);
            const auto x = eighths(static_cast<size_t>(count(c.d)), 5);
            softmax_run r {c.d, c.axis, alg, c.src, c.dst, "relu", cpu_isa::all};
            const run_result got = run_softmax(r, x, {});
            CHECK(got.impl == "ref");
            std::vector<float> want = plain_softmax(x, c.d, c.axis, alg == algorithm::softmax_log);
            for (float &v : want) v = std::max(v, 0.f);
            CHECK(mismatches(got.got, want, 1e-6, 1e-6) == 0);
        }
    // A strided src (a view with gaps) and its dense dst.
    const dims d = {3, 20};
    std::vector<float> big(3 * 32);
    for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<float>(i % 13) / 4.f;
    const memory::desc strided(d, dt::f32, dims {32, 1});
    const softmax_forward::primitive_desc pd(
            softmax_forward::desc(prop_kind::forward_inference, algorithm::softmax_accurate,
                                  strided, plain(d), 1));
    memory dst(plain(d));
    softmax_forward(pd).execute({{PRIM_ARG_SRC, memory(strided, big.data())}, {PRIM_ARG_DST, dst}});
    std::vector<float> x(60);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 20; ++c) x[r * 20 + c] = big[r * 32 + c];
    CHECK(mismatches(to_plain(dst), plain_softmax(x, d, 1, false), 1e-6) == 0);
}

TEST_CASE("softmax: NaN, -inf and all -inf rows", "[softmax][special]") {
    const float inf = std::numeric_limits<float>::infinity();
    const dims d = {4, 21};
    std::vector<float> x = eighths(84, 6);
    x[3] = nan_f;                                  // row 0: all NaN
    x[21 + 5] = -inf;                              // row 1: that element 0 (log: -inf)
    for (int i = 0; i < 21; ++i) x[42 + i] = -inf; // row 2: all -inf, NaN as the arithmetic gives
    x[63 + 20] = inf;                              // row 3: +inf - +inf: NaN
    std::vector<cpu_isa> isas = jit_isas();
    isas.push_back(cpu_isa::none);
    for (cpu_isa isa : isas)
        for (algorithm alg : both_algs) {
            INFO(cpu_isa_name(isa) << " " << algorithm_name(alg));
            const run_result r = run_softmax({d, 1, alg, "ab", "any", "", isa}, x, {});
            const bool log = alg == algorithm::softmax_log;
            int64_t bad = 0;
            for (int i = 0; i < 21; ++i) {
                bad += !std::isnan(r.got[i]) + !std::isnan(r.got[42 + i]) + !std::isnan(r.got[63 + i]);
                if (i == 5) bad += r.got[21 + i] != (log ? -inf : 0.f);
                else bad += !std::isfinite(r.got[21 + i]);
            }
            CHECK(bad == 0);
            // Row 1's other values still sum to 1.
            double s = 0;
            for (int i = 0; i < 21; ++i) s += log ? std::exp(r.got[21 + i]) : r.got[21 + i];
            CHECK(std::abs(s - 1) < 1e-5);
        }
}

TEST_CASE("softmax: bad input is refused with the reason", "[softmax][bad_input]") {
    const dims d = {2, 8, 3};
    auto make = [&](algorithm alg, const memory::desc &src, const memory::desc &dst, int axis) {
        return softmax_forward::primitive_desc(
                softmax_forward::desc(prop_kind::forward_inference, alg, src, dst, axis));
    };
    const algorithm acc = algorithm::softmax_accurate;
    CHECK_INVALID(make(acc, plain(d), plain(d), 3), "axis 3 is out of range");
    CHECK_INVALID(make(acc, plain(d), plain(d), -1), "axis -1 is out of range");
    CHECK_INVALID(make(algorithm::eltwise_relu, plain(d), plain(d), 1),
                  "is not softmax_accurate or softmax_log");
    CHECK_INVALID(make(acc, plain(d), plain({2, 8, 4}), 1), "dst dims 2x8x4 differ from src dims 2x8x3");
    CHECK_INVALID(make(acc, memory::desc(), plain(d), 1), "src desc is empty");
    CHECK_INVALID(make(acc, plain({1, 1, 1, 1, 1, 2}), memory::desc(), 1), "1 to 5 dims");
    CHECK_INVALID(make(acc, plain({2, -3}), memory::desc(), 1), "negative");
    const softmax_forward::primitive_desc pd = make(acc, plain(d), memory::desc(), 2);
    memory a(plain(d)), b(plain(d));
    CHECK_INVALID(softmax_forward(pd).execute({{PRIM_ARG_SRC, a}}), "softmax --axis=2 2x8x3: dst argument is missing");
    CHECK_INVALID(softmax_forward(pd).execute({{PRIM_ARG_DST, b}}), "src argument is missing");
    CHECK_INVALID(softmax_forward(pd).execute({{PRIM_ARG_SRC, a}, {PRIM_ARG_DST, memory(plain({2, 8, 4}))}}),
                  "dst memory desc");
    // 'any': both plain when both are 'any', else the other one's layout.
    const memory::desc any(d, dt::f32, tag::any), acb(d, dt::f32, tag::acb);
    const softmax_forward::primitive_desc both_any = make(acc, any, any, 2);
    CHECK(both_any.src_desc() == plain(d));
    CHECK(both_any.dst_desc() == plain(d));
    CHECK(make(acc, acb, any, 1).dst_desc() == acb);
    CHECK(make(acc, any, acb, 1).src_desc() == acb);
    // An empty problem runs as a no-op.
    const dims e = {0, 5};
    const softmax_forward::primitive_desc pe = make(acc, plain(e), memory::desc(), 1);
    CHECK_NOTHROW(softmax_forward(pe).execute({{PRIM_ARG_SRC, memory(plain(e), nullptr)},
                                               {PRIM_ARG_DST, memory(plain(e), nullptr)}}));
}

TEST_CASE("softmax: int8 src or dst on the JIT, as the reference", "[softmax][jit][int8]") {
    // The JIT takes u8/s8 through a staging block (jit_softmax.cpp): src widened, the result
    // scaled by 1 / dst_scale and stored rounded half to even and saturated. Rows with tails of
    // both vector widths and of the 16-value store, a dst scale that saturates u8 (the row's
    // largest probability over 255), NaN rows; equal to the reference within ±1 (a rounding tie
    // may go either way), f32 within 1e-5. softmax_log, sums and operands stay on the reference.
    struct type_case {
        dt src, dst;
        float src_scale, dst_scale; // 0: none
    };
    const type_case types[] = {{dt::f32, dt::u8, 0, 1.f / 255}, {dt::f32, dt::u8, 0, 1.f / 600},
                               {dt::f32, dt::s8, 0, 1.f / 127}, {dt::u8, dt::u8, 0.5f, 1.f / 255},
                               {dt::s8, dt::f32, 0.25f, 0}, {dt::s8, dt::s8, 2.f, 1.f / 64}};
    const dims shapes[] = {{12, 128, 128}, {3, 37}, {5, 17}, {2, 1000}, {7, 15}};
    for (cpu_isa isa : jit_isas())
        for (const type_case &t : types)
            for (const dims &d : shapes)
                for (const char *chain : {"", "linear:2:-0.5"}) {
                    INFO(cpu_isa_name(isa) << " " << data_type_name(t.src) << ":" << data_type_name(t.dst) << " "
                         << count(d) << " values, chain '" << chain << "'");
                    std::vector<float> out[2];
                    std::string impl[2];
                    for (int pass = 0; pass < 2; ++pass) {
                        primitive_attr attr;
                        attr.set_max_cpu_isa(pass == 0 ? isa : cpu_isa::none);
                        attr.set_post_ops(parse_post_ops(chain));
                        if (t.src_scale != 0) attr.set_scales_mask(PRIM_ARG_SRC, 0);
                        if (t.dst_scale != 0) attr.set_scales_mask(PRIM_ARG_DST, 0);
                        const int axis = static_cast<int>(d.size()) - 1;
                        const softmax_forward::primitive_desc pd(
                                softmax_forward::desc(prop_kind::forward_inference, algorithm::softmax_accurate,
                                                      memory::desc(d, t.src, tag::any), memory::desc(d, t.dst, tag::any),
                                                      axis),
                                attr);
                        std::vector<float> x = eighths(static_cast<size_t>(count(d)), 5);
                        for (size_t i = 0; i < x.size(); ++i) {
                            if (t.src != dt::f32) x[i] = std::round(x[i] * (t.src == dt::u8 ? 15.f : 7.f)) + (t.src == dt::u8 ? 128 : 0);
                            if (t.src == dt::f32 && i % 997 == 13) x[i] = NAN;
                        }
                        memory s = from_plain(x, pd.src_desc()), dst(pd.dst_desc());
                        exec_args args = {{PRIM_ARG_SRC, s}, {PRIM_ARG_DST, dst}};
                        const auto value = [](float v) {
                            memory m(memory::desc({1}, dt::f32, tag::a));
                            *static_cast<float *>(m.get_data_handle()) = v;
                            return m;
                        };
                        if (t.src_scale != 0) args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC] = value(t.src_scale);
                        if (t.dst_scale != 0) args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST] = value(t.dst_scale);
                        softmax_forward(pd).execute(args);
                        out[pass] = to_plain(dst);
                        impl[pass] = pd.impl_name();
                    }
                    CHECK(impl[0] == std::string("jit:") + cpu_isa_name(isa));
                    CHECK(impl[1] == "ref");
                    if (t.dst == dt::f32) {
                        CHECK(mismatches(out[0], out[1], 1e-5) == 0);
                        continue;
                    }
                    int64_t bad = 0;
                    for (size_t i = 0; i < out[1].size(); ++i) bad += std::fabs(out[0][i] - out[1][i]) > 1.f;
                    CHECK(bad == 0);
                }
}
