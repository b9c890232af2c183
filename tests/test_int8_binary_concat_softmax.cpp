// Binary, concat and softmax on int8 data (doc/int8.md), as a quantized network meets them:
// binary with per-source scales (a quantized residual add), concat of one integer type, softmax
// with an int8 destination; each against values computed here, and the refusals.
#include "attr/binary_table.hpp"
#include "int8_test_util.hpp"

namespace {

const dt all_types[] = {dt::f32, dt::s32, dt::s8, dt::u8};

struct binary_run {
    algorithm alg = algorithm::binary_add;
    dims d0, d1;
    dt t0 = dt::u8, t1 = dt::u8, td = dt::u8;
    tag layout = tag::nchw;                 // src0 and dst (src1 'any': it follows dst)
    float s0 = 0, s1 = 0;                   // 0: no scale
    std::string chain;                      // fusion string; "sum:..." reads dst's old values
};

// Runs r and checks every element: dst = chain(alg(s0 * src0, s1 * src1)), stored as dst's type.
void check_binary(const binary_run &r) {
    INFO(data_type_name(r.t0) << ":" << data_type_name(r.t1) << ":" << data_type_name(r.td) << " alg "
         << algorithm_name(r.alg) << " scales " << r.s0 << " " << r.s1 << " chain " << r.chain);
    std::vector<float> a, b, old;
    const memory src0p = ints(r.d0, r.t0, full_range(r.t0).first, full_range(r.t0).second, a, 11);
    const memory src1p = ints(r.d1, r.t1, full_range(r.t1).first, full_range(r.t1).second, b, 12);
    const memory dstp = ints(r.d0, r.td, 0, 9, old, 13);
    primitive_attr attr;
    if (r.s0 != 0) attr.set_scales_mask(PRIM_ARG_SRC_0, 0);
    if (r.s1 != 0) attr.set_scales_mask(PRIM_ARG_SRC_1, 0);
    attr.set_post_ops(parse_post_ops(r.chain));
    const memory::desc md0(r.d0, r.t0, r.layout), mdd(r.d0, r.td, r.layout);
    binary::primitive_desc pd(binary::desc(r.alg, md0, memory::desc(r.d1, r.t1, tag::any), mdd), attr);
    // The JIT pass takes every type and both scales (these broadcasts are all rows it reads).
    const cpu_isa isa = prim_test::effective_isa();
    const std::string jit = jit_name_without_vnni(isa);
    if (isa >= cpu_isa::avx2) CHECK(pd.impl_name() == jit);
    // The user's plain data in the layouts of pd (reorders keep integers exact).
    const auto in_layout = [](const memory &plain_m, const memory::desc &md) {
        memory m(md);
        reorder(plain_m.get_desc(), md).execute(plain_m, m);
        return m;
    };
    const memory src0 = in_layout(src0p, pd.src0_desc()), src1 = in_layout(src1p, pd.src1_desc());
    const memory dst = in_layout(dstp, pd.dst_desc());
    exec_args args {{PRIM_ARG_SRC_0, src0}, {PRIM_ARG_SRC_1, src1}, {PRIM_ARG_DST, dst}};
    if (r.s0 != 0) args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC_0] = scale_value(r.s0);
    if (r.s1 != 0) args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC_1] = scale_value(r.s1);
    binary(pd).execute(args);
    std::vector<float> unused;
    const memory out = ints(r.d0, r.td, 0, 0, unused, 0); // plain
    reorder(pd.dst_desc(), out.get_desc()).execute(dst, out);
    const post_ops po = parse_post_ops(r.chain);
    for (size_t i = 0; i < a.size(); ++i) {
        const float x = r.s0 != 0 ? r.s0 * a[i] : a[i];
        const float bv = b[static_cast<size_t>(broadcast_index(static_cast<int64_t>(i), r.d0, r.d1))];
        const float y = r.s1 != 0 ? r.s1 * bv : bv;
        float v = impl::binary_fwd(r.alg, x, y);
        for (const post_ops::entry &e : po.entries()) {
            if (e.kind == post_ops::kind::sum) v = v + e.scale * (old[i] - e.zero_point);
            else if (e.alg == algorithm::eltwise_relu) v = std::max(v, 0.f);
            else if (e.alg == algorithm::eltwise_linear) v = e.alpha * v + e.beta;
        }
        REQUIRE(at(out, i) == quantized(v, r.td));
    }
}

} // namespace

TEST_CASE("int8 binary: every type combination, src1 broadcast, saturation", "[int8][binary]") {
    // Full, per channel and scalar src1; tails (5 channels, 7 wide).
    for (const dims &d1 : {dims {2, 5, 3, 7}, dims {1, 5, 1, 1}, dims {1, 1, 1, 1}, dims {2, 1, 3, 7}})
        for (dt t0 : all_types)
            for (dt t1 : all_types)
                for (dt td : all_types) {
                    binary_run r;
                    r.d0 = {2, 5, 3, 7};
                    r.d1 = d1;
                    r.t0 = t0;
                    r.t1 = t1;
                    r.td = td;
                    check_binary(r);
                }
}

TEST_CASE("int8 binary: every algorithm on u8 and s8", "[int8][binary]") {
    for (algorithm alg : {algorithm::binary_add, algorithm::binary_sub, algorithm::binary_mul,
                          algorithm::binary_max, algorithm::binary_min, algorithm::binary_div,
                          algorithm::binary_ge, algorithm::binary_gt, algorithm::binary_le,
                          algorithm::binary_lt, algorithm::binary_eq, algorithm::binary_ne})
        for (dt t : {dt::u8, dt::s8}) {
            binary_run r;
            r.alg = alg;
            r.d0 = {3, 4, 5};
            r.d1 = {3, 1, 5};
            r.t0 = r.t1 = r.td = t;
            r.layout = tag::abc;
            check_binary(r); // div by 0: inf saturates, 0 / 0 (NaN) stores 0
        }
}

TEST_CASE("int8 binary: scales of src0 and src1 (a quantized residual add) and the chain",
          "[int8][binary]") {
    for (dt td : {dt::u8, dt::s8, dt::s32, dt::f32})
        for (const auto &[s0, s1] : {std::pair<float, float>(0.5f, 0.25f), {16.f, 0.f}, {0.f, 2.f},
                                     {4294967295.f, 4294967295.f}})
            for (const char *chain : {"", "sum:0.5", "sum:0.25+relu", "linear:2:-3", "sum:0.5:3+relu"}) {
                if (td == dt::f32 && std::string(chain).find(":3") != std::string::npos) continue;
                binary_run r;
                r.d0 = {2, 19, 4};
                r.d1 = {1, 19, 1};
                r.t0 = dt::u8;
                r.t1 = dt::s8;
                r.td = td;
                r.layout = tag::acb;
                r.s0 = s0;
                r.s1 = s1;
                r.chain = chain;
                check_binary(r);
            }
}

TEST_CASE("int8 binary: bad input is refused, naming it", "[int8][binary][bad_input]") {
    const memory::desc u8({2, 8, 3}, dt::u8, tag::abc), s8_1({1, 8, 1}, dt::s8, tag::abc);
    const auto make = [&](const memory::desc &s1, const primitive_attr &attr) {
        binary::primitive_desc(binary::desc(algorithm::binary_add, u8, s1, u8), attr);
    };
    CHECK_INVALID(make(memory::desc({2, 5, 3}, dt::s8, tag::abc), primitive_attr()),
                  "src1 2x5x3 does not broadcast against src0 2x8x3: dim 1 is 5, it must be 8 or 1");
    primitive_attr dst_scale;
    dst_scale.set_scales_mask(PRIM_ARG_DST, 0);
    CHECK_INVALID(make(s8_1, dst_scale), "dst scales are not supported");
    primitive_attr per_channel;
    per_channel.set_scales_mask(PRIM_ARG_SRC_1, 2);
    CHECK_INVALID(make(s8_1, per_channel), "src1 scales mask 2 must be 0 (one value)");
    primitive_attr zp;
    zp.set_zero_points_mask(PRIM_ARG_SRC, 0);
    CHECK_INVALID(make(s8_1, zp), "zero points are not supported");
    primitive_attr oscale;
    oscale.set_output_scales(0, {2.f});
    CHECK_INVALID(make(s8_1, oscale), "output scales are not supported");
    CHECK_INVALID(primitive_attr().set_scales_mask(PRIM_ARG_BIAS, 0), "not argument 41");
    // An int8 post-op operand that does not broadcast against dst.
    primitive_attr bad_operand;
    post_ops po;
    po.append_binary(algorithm::binary_mul, memory::desc({2, 3, 3}, dt::s8, tag::abc));
    bad_operand.set_post_ops(po);
    CHECK_INVALID(make(s8_1, bad_operand), "post-op 0");
    // src1 scales are binary's: convolution and reorder refuse them.
    primitive_attr s1;
    s1.set_scales_mask(PRIM_ARG_SRC_1, 0);
    CHECK_INVALID(reorder(u8, u8, s1), "scales and zero points are for PRIM_ARG_SRC and PRIM_ARG_DST");
    CHECK_INVALID(softmax_forward::primitive_desc(softmax_forward::desc(prop_kind::forward_inference,
                          algorithm::softmax_accurate, memory::desc({2, 8}, dt::f32, tag::ab),
                          memory::desc({2, 8}, dt::u8, tag::ab), 1), s1),
                  "src1 scales are not supported");
    // A scale the attribute asks for is required at execute.
    primitive_attr s0;
    s0.set_scales_mask(PRIM_ARG_SRC_0, 0);
    binary::primitive_desc pd(binary::desc(algorithm::binary_add, u8, s8_1, u8), s0);
    const memory a(u8), b(s8_1), c(u8);
    CHECK_INVALID(binary(pd).execute({{PRIM_ARG_SRC_0, a}, {PRIM_ARG_SRC_1, b}, {PRIM_ARG_DST, c}}),
                  "src scales");
}

TEST_CASE("int8 concat: one integer type, copied bit for bit", "[int8][concat]") {
    for (dt t : all_types)
        for (const auto &[layout, axis] : {std::pair<std::string, int>("abcd", 1), {"acdb", 1},
                                           {"abcd", 2}, {"aBcd16b", 1}}) {
            const std::vector<dims> parts = {{2, 3, 4, 5}, {2, 17, 4, 5}, {2, 1, 4, 5}};
            std::vector<memory> ins;
            std::vector<memory::desc> mds;
            std::vector<std::vector<float>> values(parts.size());
            for (size_t i = 0; i < parts.size(); ++i) {
                dims d = parts[i];
                if (axis == 2) std::swap(d[1], d[2]);
                const memory p = ints(d, t, full_range(t).first, full_range(t).second, values[i],
                                      static_cast<uint32_t>(20 + i));
                const memory::desc md(d, t, layout);
                memory m(md);
                reorder(p.get_desc(), md).execute(p, m);
                ins.push_back(m);
                mds.push_back(md);
            }
            concat::primitive_desc pd(axis, mds);
            INFO(data_type_name(t) << " axis " << axis << " impl " << pd.impl_name());
            CHECK(pd.dst_desc().get_data_type() == t);
            memory dst(pd.dst_desc());
            exec_args args {{PRIM_ARG_DST, dst}};
            for (size_t i = 0; i < ins.size(); ++i) args[PRIM_ARG_MULTIPLE_SRC + static_cast<int>(i)] = ins[i];
            concat(pd).execute(args);
            const dims dd = pd.dst_desc().get_dims();
            memory out(memory::desc(dd, t, tag::nchw));
            reorder(pd.dst_desc(), out.get_desc()).execute(dst, out);
            int64_t start = 0;
            for (size_t i = 0; i < parts.size(); ++i) {
                const dims d = mds[i].get_dims();
                for (int64_t e = 0; e < count(d); ++e) {
                    int64_t idx[4], rest = e;
                    for (int k = 3; k >= 0; --k) {
                        idx[k] = rest % d[k];
                        rest /= d[k];
                    }
                    idx[axis] += start;
                    const int64_t o = ((idx[0] * dd[1] + idx[1]) * dd[2] + idx[2]) * dd[3] + idx[3];
                    REQUIRE(at(out, static_cast<size_t>(o)) == values[i][static_cast<size_t>(e)]);
                }
                start += d[axis];
            }
        }
}

TEST_CASE("int8 concat: mismatched types are refused", "[int8][concat][bad_input]") {
    const memory::desc u8({2, 3}, dt::u8, tag::ab), s8({2, 4}, dt::s8, tag::ab);
    CHECK_INVALID(concat::primitive_desc(1, {u8, s8}),
                  "src 1 data type s8 differs from src 0's u8: every input must have one type");
    CHECK_INVALID(concat::primitive_desc(memory::desc({2, 6}, dt::f32, tag::ab), 1, {u8, u8}),
                  "dst data type f32 differs from the inputs' u8: concat does not convert types");
    primitive_attr scales;
    scales.set_scales_mask(PRIM_ARG_SRC, 0);
    CHECK_INVALID(concat::primitive_desc(1, {u8, u8}, scales), "scales and zero points are supported by");
}

namespace {

// softmax (or log-softmax) of each row along axis 1 of a plain {rows, len} tensor, then
// src_scale, linear:2:1 when chained, 1 / dst_scale, stored as td.
void check_softmax(algorithm alg, dt ts, dt td, float src_scale, float dst_scale, bool chained) {
    INFO(data_type_name(ts) << " -> " << data_type_name(td) << " " << algorithm_name(alg) << " scales "
         << src_scale << " " << dst_scale << (chained ? " linear:2:1" : ""));
    const int64_t rows = 3, len = 37;
    std::vector<float> v;
    const memory src = ts == dt::f32 ? ints({rows, len}, ts, -8, 8, v, 31)
                                     : ints({rows, len}, ts, full_range(ts).first / 16,
                                            full_range(ts).second / 16, v, 31);
    primitive_attr attr;
    if (src_scale != 0) attr.set_scales_mask(PRIM_ARG_SRC, 0);
    if (dst_scale != 0) attr.set_scales_mask(PRIM_ARG_DST, 0);
    if (chained) attr.set_post_ops(parse_post_ops("linear:2:1"));
    softmax_forward::primitive_desc pd(softmax_forward::desc(prop_kind::forward_inference, alg,
            src.get_desc(), memory::desc({rows, len}, td, tag::any), 1), attr);
    memory dst(pd.dst_desc());
    exec_args args {{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}};
    if (src_scale != 0) args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC] = scale_value(src_scale);
    if (dst_scale != 0) args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST] = scale_value(dst_scale);
    softmax_forward(pd).execute(args);
    for (int64_t r = 0; r < rows; ++r) {
        double max = -1e30, sum = 0;
        for (int64_t a = 0; a < len; ++a) max = std::max<double>(max, v[r * len + a]);
        for (int64_t a = 0; a < len; ++a) sum += std::exp(v[r * len + a] - max);
        for (int64_t a = 0; a < len; ++a) {
            const double shifted = v[r * len + a] - max;
            double y = alg == algorithm::softmax_log ? shifted - std::log(sum) : std::exp(shifted) / sum;
            if (src_scale != 0) y *= src_scale;
            if (chained) y = 2 * y + 1;
            if (dst_scale != 0) y /= dst_scale;
            const double got = at(dst, static_cast<size_t>(r * len + a));
            // ±1 for an integer dst (a value at a rounding tie may go either way), f32's accuracy
            // otherwise.
            REQUIRE(std::fabs(got - quantized(y, td)) <= (td == dt::f32 ? 1e-5 * std::fabs(y) + 1e-6 : 1.0));
        }
    }
}

} // namespace

TEST_CASE("int8 softmax: an int8 destination, src and dst scales as oneDNN", "[int8][softmax]") {
    for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log})
        for (dt ts : {dt::f32, dt::u8, dt::s8})
            for (dt td : {dt::u8, dt::s8, dt::f32}) {
                if (ts == dt::f32 && td == dt::f32) continue;
                check_softmax(alg, ts, td, 0, 0, false);
                // oneDNN's files: src 64 with dst 0.5 (u8's 1.0 becomes 128: saturates at 255).
                check_softmax(alg, ts, td, 64.f, 0.5f, false);
                check_softmax(alg, ts, td, 0, 1.f / 128, true);
                check_softmax(alg, ts, td, 128.f, 0, true);
            }
}

TEST_CASE("int8 softmax: 2.x output scales, refusals", "[int8][softmax][bad_input]") {
    const memory::desc f({2, 8}, dt::f32, tag::ab), u8({2, 8}, dt::u8, tag::ab);
    const auto make = [&](const memory::desc &s, const memory::desc &d, const primitive_attr &attr) {
        return softmax_forward::primitive_desc(softmax_forward::desc(prop_kind::forward_inference,
                algorithm::softmax_accurate, s, d, 1), attr);
    };
    // Output scale 255 on a u8 dst: the row's largest probability becomes the largest values.
    primitive_attr os;
    os.set_output_scales(0, {255.f});
    memory src(f), dst(u8);
    for (int i = 0; i < 16; ++i) data(src)[i] = i == 3 ? 100.f : 0.f;
    softmax_forward(make(f, u8, os)).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
    CHECK(at(dst, 3) == 255);
    CHECK(at(dst, 8) == 32); // 255 / 8, rounded
    CHECK_INVALID(make(memory::desc({2, 8}, dt::s32, tag::ab), f, primitive_attr()),
                  "src data type s32 is not supported (f32, u8 or s8)");
    primitive_attr s;
    s.set_scales_mask(PRIM_ARG_SRC, 0);
    CHECK_INVALID(make(f, f, s), "scales are supported in int8 softmax only (src and dst are f32)");
    primitive_attr zp;
    zp.set_zero_points_mask(PRIM_ARG_DST, 0);
    CHECK_INVALID(make(f, u8, zp), "zero points are not supported");
    primitive_attr per_dim;
    per_dim.set_scales_mask(PRIM_ARG_DST, 1);
    CHECK_INVALID(make(f, u8, per_dim), "dst scales mask 1 must be 0 (one value)");
    primitive_attr both = os;
    both.set_scales_mask(PRIM_ARG_DST, 0);
    CHECK_INVALID(make(f, u8, both), "cannot be mixed");
}

TEST_CASE("int8 binary: in place on u8, the loop's blocks and tails", "[int8][binary]") {
    // 3 blocks of the loop and a tail; src0 is dst. The loop (ISA cap none) and the JIT.
    const dims d = {1, 5, 13, 47};
    for (bool loop : {true, false}) {
        std::vector<float> a, b;
        const memory inout = ints(d, dt::u8, 0, 255, a, 41);
        const memory src1 = ints({1, 5, 1, 1}, dt::s8, -128, 127, b, 42);
        primitive_attr attr;
        attr.set_scales_mask(PRIM_ARG_SRC_1, 0);
        attr.set_post_ops(parse_post_ops("sum:0.5+relu"));
        if (loop) attr.set_max_cpu_isa(cpu_isa::none);
        binary::primitive_desc pd(binary::desc(algorithm::binary_add, inout.get_desc(), src1.get_desc(),
                                               inout.get_desc()), attr);
        INFO("impl " << pd.impl_name());
        CHECK((pd.impl_name() == "loop") == loop);
        binary(pd).execute({{PRIM_ARG_SRC_0, inout}, {PRIM_ARG_SRC_1, src1}, {PRIM_ARG_DST, inout},
                            {PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC_1, scale_value(0.75f)}});
        for (size_t i = 0; i < a.size(); ++i) {
            const float x = a[i] + 0.75f * b[i / (13 * 47)];
            REQUIRE(at(inout, i) == quantized(std::max(x + 0.5 * a[i], 0.0), dt::u8));
        }
    }
}

TEST_CASE("int8 binary: an s32 dst rounds half to even at every magnitude", "[int8][binary]") {
    // f32 sources whose sums are halves near 2^22 and 2^23 (where f32 steps by 0.5 and 1) and
    // small ones: the loop's rounding (ISA cap none) and the JIT's must be nearbyint's, with a
    // src0 scale of 1 and without.
    const std::vector<float> a = {4194305.f, 4194306.f, -4194305.f, 8388607.f, 2.f, -2.f, 1e9f, -3e9f},
                             b = {0.5f, 0.5f, -0.5f, 0.5f, 0.5f, -0.5f, 0.5f, 0.f};
    const memory::desc f({8}, dt::f32, tag::x), s32({8}, dt::s32, tag::x);
    for (bool scaled : {true, false})
    for (bool loop : {true, false}) {
        primitive_attr attr;
        if (scaled) attr.set_scales_mask(PRIM_ARG_SRC_0, 0);
        if (loop) attr.set_max_cpu_isa(cpu_isa::none);
        binary::primitive_desc pd(binary::desc(algorithm::binary_add, f, f, s32), attr);
        memory src0(f), src1(f), dst(s32);
        std::copy(a.begin(), a.end(), data(src0));
        std::copy(b.begin(), b.end(), data(src1));
        INFO("impl " << pd.impl_name() << " scaled " << scaled);
        CHECK((pd.impl_name() == "loop") == loop);
        exec_args args{{PRIM_ARG_SRC_0, src0}, {PRIM_ARG_SRC_1, src1}, {PRIM_ARG_DST, dst}};
        if (scaled) args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC_0] = scale_value(1.f);
        binary(pd).execute(args);
        for (size_t i = 0; i < a.size(); ++i) REQUIRE(at(dst, i) == quantized(a[i] + b[i], dt::s32));
    }
}
