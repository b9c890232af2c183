// The binary primitive through the public API, on the JIT (both ISAs) and the reference: every
// algorithm, every broadcast of src1 (scalar, per channel, per (mb, spatial), full, a single
// spatial dim), plain / channels-last / blocked / 'any' layouts, tails, in place, and chains
// after it. Each result is compared exactly (integer-filled data) with plain loops here.
#include "isa_under_test.hpp"
#include "api_test_util.hpp"

#include "attr/binary_table.hpp"
#include "ref/ref_chain.hpp"

namespace {

memory::desc layout(const dims &d, const char *pattern) {
    return std::string(pattern) == "any" ? memory::desc(d, dt::f32, tag::any)
                                         : memory::desc(d, dt::f32, std::string(pattern));
}

std::vector<float> integers(size_t n, unsigned seed, bool nonzero) {
    std::mt19937 rng(seed);
    std::vector<float> v(n);
    for (float &x : v) {
        x = static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0.5f;
        if (nonzero && x == 0.f) x = 0.25f;
    }
    return v;
}

struct run_result {
    std::vector<float> got;
    std::string impl;
};

// dst = chain(src0 op src1); chain here is "" or "relu" or "sum" (dst_old = old).
run_result run_binary(algorithm alg, const dims &d0, const dims &d1, const char *lay0,
                      const char *lay1, const char *chain, cpu_isa isa, bool in_place,
                      const std::vector<float> &s0, const std::vector<float> &s1,
                      const std::vector<float> &old) {
    primitive_attr attr;
    attr.set_post_ops(parse_post_ops(chain));
    attr.set_max_cpu_isa(isa);
    const memory::desc md0 = layout(d0, lay0);
    const binary::desc d(alg, md0, layout(d1, lay1), in_place ? md0 : layout(d0, "any"));
    const binary::primitive_desc pd(d, attr);
    memory src0 = from_plain(s0, pd.src0_desc());
    memory dst = in_place ? src0 : from_plain(old, pd.dst_desc());
    binary(pd).execute({{PRIM_ARG_SRC_0, src0},
                        {PRIM_ARG_SRC_1, from_plain(s1, pd.src1_desc())},
                        {PRIM_ARG_DST, dst}});
    return {to_plain(dst), pd.impl_name()};
}

std::vector<cpu_isa> isas() { return prim_test::isas_under_test(); }

} // namespace

TEST_CASE("binary: every algorithm, broadcast, layout and ISA against plain loops", "[binary]") {
    const algorithm algs[] = {algorithm::binary_add, algorithm::binary_sub, algorithm::binary_mul,
                              algorithm::binary_div, algorithm::binary_max, algorithm::binary_min,
                              algorithm::binary_ge,  algorithm::binary_gt,  algorithm::binary_le,
                              algorithm::binary_lt,  algorithm::binary_eq,  algorithm::binary_ne};
    // A channel tail (19) in the plain layouts; the blocked ones unpadded (the JIT declines a
    // padded destination: it would write its padding).
    struct shape_case {
        int64_t c;
        const char *layout;
    };
    const shape_case shapes[] = {{19, "abcd"}, {19, "acdb"}, {32, "aBcd16b"}, {32, "aBcd8b"}};
    const char *chains[] = {"", "relu", "sum:0.5+abs"};
    for (cpu_isa isa : isas())
        for (algorithm alg : algs)
            for (const shape_case &sc : shapes)
                for (const dims &d1 : {dims {1, 1, 1, 1}, dims {1, sc.c, 1, 1}, dims {2, 1, 5, 17},
                                       dims {2, sc.c, 5, 17}, dims {1, 1, 5, 1}})
                    for (const char *chain : chains) {
                        const dims d0 = {2, sc.c, 5, 17};
                        const char *lay = sc.layout;
                        const auto s0 = integers(count(d0), 1, false);
                        const auto s1 = integers(count(d1), 2, alg == algorithm::binary_div);
                        const auto old = integers(count(d0), 3, false);
                        INFO(cpu_isa_name(isa) << " " << algorithm_name(alg) << " src1 "
                             << d1[0] << "x" << d1[1] << "x" << d1[2] << "x" << d1[3] << " " << lay
                             << " '" << chain << "'");
                        const run_result r = run_binary(alg, d0, d1, lay, "any", chain, isa, false,
                                                        s0, s1, old);
                        if (isa != cpu_isa::none) CHECK(r.impl.rfind("jit:", 0) == 0);
                        const post_ops po = parse_post_ops(chain);
                        int64_t bad = 0;
                        for (int64_t i = 0; i < count(d0); ++i) {
                            float x = impl::binary_fwd(alg, s0[i], s1[broadcast_index(i, d0, d1)]);
                            if (po.len() > 0) x = impl::ref_apply_post_ops(po, x, old[i]);
                            bad += !(r.got[i] == x);
                        }
                        CHECK(bad == 0);
                    }
}

TEST_CASE("binary: in place, src1 in its own layout, empty, post-op operands", "[binary]") {
    const dims d0 = {3, 40, 7, 9}, d1 = {1, 40, 1, 1};
    const auto s0 = integers(count(d0), 4, false), s1 = integers(count(d1), 5, false);
    for (cpu_isa isa : isas()) {
        INFO(cpu_isa_name(isa));
        for (const char *lay1 : {"abcd", "acdb"}) {
            const run_result r = run_binary(algorithm::binary_mul, d0, d1, "acdb", lay1, "", isa,
                                            true, s0, s1, {});
            int64_t bad = 0;
            for (int64_t i = 0; i < count(d0); ++i)
                bad += r.got[i] != s0[i] * s1[broadcast_index(i, d0, d1)];
            CHECK(bad == 0);
        }
        // A binary post-op after the binary: its operand is post-op 0's.
        primitive_attr attr;
        post_ops po;
        po.append_binary(algorithm::binary_add, post_ops::policy::per_tensor);
        attr.set_post_ops(po);
        attr.set_max_cpu_isa(isa);
        const binary::primitive_desc pd(
                binary::desc(algorithm::binary_sub, plain(d0), plain(d1), plain(d0)), attr);
        memory a = from_plain(s0, plain(d0)), b = from_plain(s1, plain(d1)), dst(plain(d0));
        memory extra = from_plain(s0, pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1));
        binary(pd).execute({{PRIM_ARG_SRC_0, a}, {PRIM_ARG_SRC_1, b}, {PRIM_ARG_DST, dst},
                            {PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1, extra}});
        const auto got = to_plain(dst);
        int64_t bad = 0;
        for (int64_t i = 0; i < count(d0); ++i)
            bad += got[i] != (s0[i] - s1[broadcast_index(i, d0, d1)]) + s0[i];
        CHECK(bad == 0);
        // An empty problem runs as a no-op.
        const dims e = {0, 4};
        const binary::primitive_desc pe(binary::desc(algorithm::binary_add, plain(e), plain({1, 4}),
                                                     plain(e)));
        CHECK_NOTHROW(binary(pe).execute({{PRIM_ARG_SRC_0, memory(plain(e), nullptr)},
                                          {PRIM_ARG_SRC_1, memory(plain({1, 4}))},
                                          {PRIM_ARG_DST, memory(plain(e), nullptr)}}));
    }
}

TEST_CASE("binary: bad input is refused with the reason", "[binary][bad_input]") {
    const dims d0 = {2, 8, 3, 3};
    CHECK_INVALID(binary::primitive_desc(binary::desc(algorithm::eltwise_relu, plain(d0),
                                                      plain(d0), plain(d0))),
                  "is not a binary algorithm");
    CHECK_INVALID(binary::primitive_desc(binary::desc(algorithm::binary_add, plain(d0),
                                                      plain({2, 3, 3, 3}), plain(d0))),
                  "dim 1 is 3, it must be 8 or 1");
    CHECK_INVALID(binary::primitive_desc(binary::desc(algorithm::binary_add, plain(d0),
                                                      plain({8, 3, 3}), plain(d0))),
                  "has rank 3");
    CHECK_INVALID(binary::primitive_desc(binary::desc(algorithm::binary_add, plain(d0),
                                                      plain(d0), plain({2, 8, 3, 4}))),
                  "differs from src0");
    const binary::primitive_desc pd(binary::desc(algorithm::binary_add, plain(d0), plain(d0), plain(d0)));
    memory a(plain(d0)), b(plain(d0)), c(plain(d0));
    CHECK_INVALID(binary(pd).execute({{PRIM_ARG_SRC_0, a}, {PRIM_ARG_DST, c}}),
                  "src1 argument is missing");
    CHECK_INVALID(binary(pd).execute({{PRIM_ARG_SRC_0, a}, {PRIM_ARG_SRC_1, c}, {PRIM_ARG_DST, c}}),
                  "dst and src1 overlap");
}
