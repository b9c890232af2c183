// Eltwise and pooling on int8 data (doc/int8.md), as a quantized network meets them: the values
// read as f32, the result rounded half to even and saturated to dst's type, against values
// computed here, on whichever implementation runs (test_jit_int8_eltwise.cpp and
// test_int8_pooling.cpp name the implementations).
#include "int8_test_util.hpp"

TEST_CASE("int8 eltwise: computed in f32, rounded and saturated", "[int8][eltwise]") {
    const dims d = {2, 5, 3, 7};
    for (dt s : {dt::s8, dt::u8, dt::s32})
        for (dt o : {s, dt::f32, dt::u8}) {
            std::vector<float> v;
            const memory src = ints(d, s, s == dt::u8 ? 0 : -128, s == dt::u8 ? 255 : 127, v, 3);
            const memory::desc dst_md(d, o, tag::nchw);
            primitive_attr attr;
            attr.set_post_ops(parse_post_ops("sum:0.5"));
            eltwise_forward::primitive_desc pd(eltwise_forward::desc(prop_kind::forward_inference,
                    algorithm::eltwise_linear, src.get_desc(), dst_md, 0.75f, 3.5f), attr);
            INFO(data_type_name(s) << " -> " << data_type_name(o));
            std::vector<float> old;
            const memory dst = ints(d, o, 0, 9, old, 4);
            eltwise_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
            for (size_t i = 0; i < v.size(); ++i)
                REQUIRE(at(dst, i) == quantized(static_cast<float>(0.75f * v[i] + 3.5f) + 0.5 * old[i], o));
        }
    // In place on u8: relu of (x - 100) saturates nothing, linear halves round to even.
    std::vector<float> v;
    const memory inout = ints({64}, dt::u8, 0, 255, v, 5);
    eltwise_forward::primitive_desc pd(eltwise_forward::desc(prop_kind::forward_inference,
            algorithm::eltwise_linear, inout.get_desc(), 0.5f, 0.f));
    eltwise_forward(pd).execute({{PRIM_ARG_SRC, inout}, {PRIM_ARG_DST, inout}});
    for (size_t i = 0; i < v.size(); ++i) REQUIRE(at(inout, i) == std::nearbyint(0.5 * v[i]));
}

TEST_CASE("int8 pooling: max and average on u8 and s8", "[int8][pooling]") {
    for (dt t : {dt::u8, dt::s8})
        for (algorithm alg : {algorithm::pooling_max, algorithm::pooling_avg_exclude_padding,
                              algorithm::pooling_avg_include_padding}) {
            std::vector<float> v;
            const dims sd = {2, 3, 7, 6}, dd = {2, 3, 4, 3};
            const memory src = ints(sd, t, t == dt::u8 ? 0 : -128, t == dt::u8 ? 255 : 127, v, 7);
            const memory::desc dst_md(dd, t, tag::nchw);
            pooling_forward::primitive_desc pd(pooling_forward::desc(prop_kind::forward_inference,
                    alg, src.get_desc(), dst_md, {2, 2}, {3, 3}, {0, 0}, {1, 1}, {1, 1}));
            memory dst(pd.dst_desc());
            pooling_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
            INFO(data_type_name(t) << " alg " << static_cast<int>(alg));
            for (int64_t n = 0; n < 2; ++n)
            for (int64_t c = 0; c < 3; ++c)
            for (int64_t oh = 0; oh < 4; ++oh)
            for (int64_t ow = 0; ow < 3; ++ow) {
                double best = -1e9, sum = 0;
                int count = 0;
                for (int64_t kh = 0; kh < 3; ++kh)
                for (int64_t kw = 0; kw < 3; ++kw) {
                    const int64_t ih = oh * 2 - 1 + kh, iw = ow * 2 - 1 + kw;
                    if (ih < 0 || ih >= 7 || iw < 0 || iw >= 6) continue;
                    const double x = v[static_cast<size_t>(((n * 3 + c) * 7 + ih) * 6 + iw)];
                    best = std::max(best, x);
                    sum += x;
                    ++count;
                }
                const double want = alg == algorithm::pooling_max ? best
                        : alg == algorithm::pooling_avg_exclude_padding ? std::nearbyint(static_cast<float>(sum / count))
                                                                         : std::nearbyint(static_cast<float>(sum / 9));
                REQUIRE(at(dst, static_cast<size_t>(((n * 3 + c) * 4 + oh) * 3 + ow)) == want);
            }
        }
}

TEST_CASE("int8: primitives that take f32 only say so", "[int8][bad_input]") {
    const memory::desc u8({2, 8, 3, 3}, dt::u8, tag::nchw);
    CHECK_INVALID(batch_normalization_forward::primitive_desc(batch_normalization_forward::desc(
                          prop_kind::forward_inference, u8, 1e-5f, normalization_flags::none)),
                  "src data type must be f32");
}
