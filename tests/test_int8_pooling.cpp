// Pooling on int8 data against the reference on the same values in plain layouts: the JIT
// kernel (src/jit/pool/, typed_vectors.hpp) on the tested ISA in channels-last, channel-blocked
// and plain (repacked) layouts, with chains; the loop (src/common/pool_int8_loop.cpp), which
// runs channels-last cases without a chain when no JIT may (ISA cap none). Max, average with and
// without padding, u8 and s8 src into every dst type, 1D/2D/3D, strides, dilation, padding,
// channel counts that are not a vector's. An integer dst equals the reference bit for bit.
#include "int8_test_util.hpp"

namespace {

std::string pattern(size_t rank, bool channels_last) {
    std::string p = "a";
    if (channels_last) {
        for (size_t i = 2; i < rank; ++i) p += static_cast<char>('a' + i);
        return p + "b";
    }
    for (size_t i = 1; i < rank; ++i) p += static_cast<char>('a' + i);
    return p;
}

struct pool_case {
    dims src, dst, kernel, strides, dilation, pad_l, pad_r;
};

// The pooling's dst values (plain f32) on src values `v` (plain) in layouts src_tag/dst_tag
// (a blocked tag only for 4D), capped at cap, with chain (its operands random, fixed by seed).
std::vector<float> run(const pool_case &pc, algorithm alg, dt sdt, dt ddt, const std::vector<float> &v,
                       const std::string &src_tag, const std::string &dst_tag, cpu_isa cap,
                       const std::string &chain, std::string &impl) {
    const memory::desc plain_src(pc.src, dt::f32, pattern(pc.src.size(), false));
    memory f(plain_src);
    std::memcpy(f.get_data_handle(), v.data(), v.size() * sizeof(float));
    const memory::desc src_md(pc.src, sdt, src_tag), dst_md(pc.dst, ddt, dst_tag);
    memory src(src_md);
    reorder(plain_src, src_md).execute(f, src);
    primitive_attr attr;
    attr.set_max_cpu_isa(cap);
    attr.set_post_ops(parse_post_ops(chain));
    pooling_forward::primitive_desc pd(pooling_forward::desc(prop_kind::forward_inference, alg, src_md, dst_md,
                                                             pc.strides, pc.kernel, pc.dilation, pc.pad_l, pc.pad_r),
                                       attr);
    impl = pd.impl_name();
    // dst's old values (a sum reads them): small integers, the same for every run.
    std::mt19937 gen(7);
    const memory dst = copy_in_layout(typed_memory(pc.dst, ddt, fill(gen, count(pc.dst), 0, 9)), pd.dst_desc());
    exec_args args {{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}};
    add_operands(pd, random_operands(gen, parse_post_ops(chain), pc.dst), args);
    pooling_forward(pd).execute(args);
    return values_of(dst);
}

std::vector<float> random_src(const pool_case &pc, dt sdt) {
    std::mt19937 gen(static_cast<uint32_t>(count(pc.src)));
    std::vector<float> v(static_cast<size_t>(count(pc.src)));
    const int lo = sdt == dt::u8 ? 0 : -128, hi = sdt == dt::u8 ? 255 : 127;
    for (float &x : v) x = static_cast<float>(std::uniform_int_distribution<int>(lo, hi)(gen));
    return v;
}

const algorithm all_algs[] = {algorithm::pooling_max, algorithm::pooling_avg_exclude_padding,
                              algorithm::pooling_avg_include_padding};

// got against want: an integer dst bit for bit; an f32 dst (an average divided in f32 by the
// JIT, in double by the reference) within 1e-6 relative.
void compare(const std::vector<float> &got, const std::vector<float> &want, dt ddt) {
    REQUIRE(got.size() == want.size());
    size_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const bool ok = ddt == dt::f32 ? std::fabs(got[i] - want[i]) <= 1e-6f * std::max(1.f, std::fabs(want[i]))
                                       : got[i] == want[i];
        if (!ok && bad++ < 3) FAIL_CHECK("i=" << i << " got " << got[i] << " ref " << want[i]);
    }
    CHECK(bad == 0);
}

} // namespace

TEST_CASE("int8 pooling: channels-last, blocked and plain u8/s8 equal to the reference", "[int8][pooling]") {
    const pool_case cases[] = {
            {{2, 19, 9, 8}, {2, 19, 5, 4}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 0}},       // 3x3 s2 p1
            {{1, 64, 12, 12}, {1, 64, 6, 6}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {0, 0}},     // ResNet's
            {{1, 33, 7, 7}, {1, 33, 1, 1}, {7, 7}, {1, 1}, {0, 0}, {0, 0}, {0, 0}},      // global
            {{2, 5, 11}, {2, 5, 5}, {3}, {2}, {1}, {1}, {1}},                             // 1D dilated
            {{1, 17, 4, 5, 6}, {1, 17, 2, 3, 3}, {2, 3, 2}, {2, 2, 2}, {0, 0, 0}, {0, 1, 0}, {0, 1, 0}}, // 3D
    };
    const cpu_isa isa = tested_isa();
    const std::string jit = jit_name_without_vnni(isa);
    for (const pool_case &pc : cases)
        for (dt sdt : {dt::u8, dt::s8})
            for (dt ddt : {dt::u8, dt::s8, dt::s32, dt::f32})
                for (algorithm alg : all_algs) {
                    const std::vector<float> v = random_src(pc, sdt);
                    const size_t rank = pc.src.size();
                    INFO(data_type_name(sdt) << "->" << data_type_name(ddt) << " alg " << static_cast<int>(alg)
                                             << " rank " << rank << " c " << pc.src[1] << " isa "
                                             << cpu_isa_name(isa));
                    const std::string plain = pattern(rank, false), last = pattern(rank, true);
                    std::string impl;
                    const std::vector<float> want = run(pc, alg, sdt, ddt, v, plain, plain, cpu_isa::none, "", impl);
                    CHECK(impl == "ref");
                    compare(run(pc, alg, sdt, ddt, v, last, last, cpu_isa::none, "", impl), want, ddt);
                    CHECK(impl == "loop");
                    compare(run(pc, alg, sdt, ddt, v, last, last, isa, "", impl), want, ddt);
                    CHECK(impl == jit);
                    compare(run(pc, alg, sdt, ddt, v, plain, plain, isa, "", impl), want, ddt);
                    CHECK(impl == jit + "+repack");
                    if (rank == 4) {
                        // Channel blocks of a vector's width (8 on AVX2: that kernel's).
                        const std::string blocked = isa >= cpu_isa::avx512 ? "aBcd16b" : "aBcd8b";
                        compare(run(pc, alg, sdt, ddt, v, blocked, blocked, isa, "", impl), want, ddt);
                        CHECK(impl == (isa >= cpu_isa::avx512 ? jit : "jit:avx2"));
                    }
                }
}

TEST_CASE("int8 pooling: max of an s32 src on the JIT, its average on the reference", "[int8][pooling]") {
    // s32 values beyond 2^24, most of which f32 rounds: the max of the rounded values is the
    // reference's, which takes the window in f32 too; its average sums in double (reference).
    const dims sd = {2, 19, 9, 8}, dd = {2, 19, 5, 4};
    const cpu_isa isa = tested_isa();
    const std::string jit = jit_name_without_vnni(isa);
    memory plain(memory::desc(sd, dt::s32, tag::nchw));
    std::mt19937 gen(5);
    int32_t *p = static_cast<int32_t *>(plain.get_data_handle());
    for (int64_t i = 0; i < count(sd); ++i)
        p[i] = std::uniform_int_distribution<int32_t>(-2000000000, 2000000000)(gen);
    for (dt ddt : {dt::s32, dt::f32, dt::u8})
        for (algorithm alg : all_algs) {
            INFO(data_type_name(ddt) << " alg " << static_cast<int>(alg) << " isa " << cpu_isa_name(isa));
            const auto run_on = [&](cpu_isa cap, tag layout, std::string &impl) {
                const memory::desc src_md(sd, dt::s32, layout), dst_md(dd, ddt, layout);
                primitive_attr attr;
                attr.set_max_cpu_isa(cap);
                const pooling_forward::primitive_desc pd(pooling_forward::desc(prop_kind::forward_inference,
                        alg, src_md, dst_md, {2, 2}, {3, 3}, {0, 0}, {1, 1}, {1, 0}), attr);
                impl = pd.impl_name();
                const memory src = copy_in_layout(plain, src_md), dst(dst_md);
                pooling_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
                return values_of(dst);
            };
            std::string impl;
            const std::vector<float> want = run_on(cpu_isa::none, tag::nchw, impl);
            CHECK(impl == "ref");
            const std::vector<float> got = run_on(isa, tag::nhwc, impl);
            CHECK(impl == (alg == algorithm::pooling_max ? jit : std::string("ref")));
            compare(got, want, ddt);
        }
}

TEST_CASE("int8 pooling: the JIT kernel's chains", "[int8][pooling]") {
    // Sums with scale, zero point and type, typed binary operands (per channel, one value, per
    // pixel) and eltwise entries, on the JIT and on the reference.
    const pool_case pc = {{2, 19, 9, 8}, {2, 19, 5, 4}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 0}};
    const cpu_isa isa = tested_isa();
    const std::string jit = jit_name_without_vnni(isa);
    const char *chains[] = {"relu", "sum:0.5", "sum:0.5:3", "sum:1:0:s8", "add:s8:per_oc+relu",
                            "mul:u8:common+sum:0.25", "add:f32:per_mb_spatial+gelu_erf",
                            "linear:0.5:1+sum:0.25:2+tanh"};
    for (const std::string chain : chains)
        for (dt sdt : {dt::u8, dt::s8})
            for (dt ddt : {dt::u8, dt::s8, dt::s32, dt::f32})
                for (algorithm alg : all_algs) {
                    // A sum with a zero point or a type needs an integer dst.
                    const bool int_sum = chain.find("sum:0.5:3") != std::string::npos
                            || chain.find("sum:1:0:s8") != std::string::npos
                            || chain.find("sum:0.25:2") != std::string::npos;
                    if (int_sum && (ddt == dt::f32 || (chain.find(":s8") != std::string::npos && ddt == dt::s32)))
                        continue;
                    INFO(data_type_name(sdt) << "->" << data_type_name(ddt) << " alg " << static_cast<int>(alg)
                                             << " chain " << chain << " isa " << cpu_isa_name(isa));
                    const std::vector<float> v = random_src(pc, sdt);
                    std::string impl;
                    const std::vector<float> want = run(pc, alg, sdt, ddt, v, "abcd", "abcd", cpu_isa::none, chain, impl);
                    CHECK(impl == "ref");
                    const std::vector<float> got = run(pc, alg, sdt, ddt, v, "acdb", "acdb", isa, chain, impl);
                    CHECK(impl == jit);
                    // The chain's f32 arithmetic may differ by an ulp (gelu_erf, tanh): an integer
                    // dst within 1, an f32 one within the shared tolerance.
                    compare_with_reference(got, want, ddt, false, pc.dst[1], pc.dst[2] * pc.dst[3]);
                }
}
