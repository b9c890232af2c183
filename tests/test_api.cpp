// The public API as a user sees it: creation, layouts chosen for 'any', execution, errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <thread>

#include "prim/prim.hpp"

using namespace prim;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

std::string message_of(const std::function<void()> &f, status expected) {
    try {
        f();
    } catch (const error &e) {
        CHECK(e.get_status() == expected);
        return e.what();
    }
    return "no error";
}

float *data(const memory &m) { return static_cast<float *>(m.get_data_handle()); }

// A 1-channel 3x3 image convolved with a 2x2 kernel, by hand:
//   src 1 2 3     wei 1 0     acc  1+5=6  2+6=8
//       4 5 6         0 1          4+8=12 5+9=14
//       7 8 9
struct tiny_conv {
    memory::desc src_md {{1, 1, 3, 3}, dt::f32, tag::nchw};
    memory::desc wei_md {{1, 1, 2, 2}, dt::f32, tag::oihw};
    memory::desc bias_md {{1}, dt::f32, tag::x};
    memory::desc dst_md {{1, 1, 2, 2}, dt::f32, tag::nchw};
    memory src {src_md}, wei {wei_md}, bias {bias_md}, dst {dst_md};
    tiny_conv() {
        for (int i = 0; i < 9; ++i) data(src)[i] = float(i + 1);
        data(wei)[0] = 1.f;
        data(wei)[3] = 1.f;
        data(bias)[0] = -10.f;
        const float old[] = {1, -1, 2, -2};
        std::copy(old, old + 4, data(dst));
    }
    convolution_forward::desc desc(bool with_bias = true) const {
        if (with_bias)
            return {prop_kind::forward_inference, algorithm::convolution_direct, src_md, wei_md,
                    bias_md, dst_md, {1, 1}, {0, 0}, {0, 0}, {0, 0}};
        return {prop_kind::forward_inference, algorithm::convolution_direct, src_md, wei_md,
                dst_md, {1, 1}, {0, 0}, {0, 0}, {0, 0}};
    }
    exec_args args() const {
        return {{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_BIAS, bias},
                {PRIM_ARG_DST, dst}};
    }
};

} // namespace

TEST_CASE("convolution with bias, sum and relu matches the hand result", "[api][conv]") {
    tiny_conv t;
    post_ops po;
    po.append_sum(2.f);
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    convolution_forward::primitive_desc pd(t.desc(), attr);
    convolution_forward(pd).execute(t.args());
    // acc + bias = -4 -2 2 4; + 2 * dst_old = -2 -4 6 0; relu = 0 0 6 0
    const float expect[] = {0, 0, 6, 0};
    CHECK(std::equal(expect, expect + 4, data(t.dst)));
}

TEST_CASE("post-op order matters: relu then sum differs from sum then relu", "[api][conv]") {
    tiny_conv t;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f, 0.5f);
    po.append_sum(1.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    convolution_forward(convolution_forward::primitive_desc(t.desc(), attr)).execute(t.args());
    // acc + bias = -4 -2 2 4; 0.5 * relu = 0 0 1 2; + dst_old = 1 -1 3 0
    const float expect[] = {1, -1, 3, 0};
    CHECK(std::equal(expect, expect + 4, data(t.dst)));
}

TEST_CASE("'any' layouts are resolved and reported", "[api][conv]") {
    memory::desc src_any({2, 5, 7, 7}, dt::f32, tag::any), wei_any({6, 5, 3, 3}, dt::f32, tag::any),
            dst_any({2, 6, 7, 7}, dt::f32, tag::any);
    convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
                                src_any, wei_any, dst_any, {1, 1}, {0, 0}, {1, 1}, {1, 1});
    convolution_forward::primitive_desc pd(d);
    for (const auto &md : {pd.src_desc(), pd.weights_desc(), pd.dst_desc()}) {
        CHECK_FALSE(md.is_any());
        CHECK_FALSE(md.is_zero());
    }
    CHECK(pd.bias_desc().is_zero());
    CHECK(pd.src_desc().get_dims() == memory::dims {2, 5, 7, 7});
    CHECK_FALSE(pd.impl_name().empty());
}

TEST_CASE("an ISA cap of none selects the reference", "[api][isa]") {
    tiny_conv t;
    primitive_attr attr;
    attr.set_max_cpu_isa(cpu_isa::none);
    CHECK(convolution_forward::primitive_desc(t.desc(), attr).impl_name() == "ref");
}

TEST_CASE("strict mode never silently falls back to the reference", "[api][strict]") {
    tiny_conv t;
    primitive_attr attr;
    attr.set_strict(true);
    if (get_effective_cpu_isa() == cpu_isa::none) return; // nothing faster exists here
    try {
        convolution_forward::primitive_desc pd(t.desc(), attr);
        CHECK(pd.impl_name() != "ref");
    } catch (const error &e) {
        CHECK(e.get_status() == status::unimplemented);
        CHECK_THAT(std::string(e.what()), Catch::Contains("strict"));
    }
    attr.set_max_cpu_isa(cpu_isa::none); // asking for the reference is not a fallback
    CHECK(convolution_forward::primitive_desc(t.desc(), attr).impl_name() == "ref");
}

TEST_CASE("bad convolution descriptors name the problem", "[api][conv][errors]") {
    tiny_conv t;
    const auto ia = status::invalid_arguments;
    CHECK_THAT(message_of([&] {
                   convolution_forward::desc d(prop_kind::forward_inference,
                           algorithm::convolution_direct, t.src_md, t.wei_md,
                           memory::desc({1, 1, 3, 3}, dt::f32, tag::nchw), {1, 1}, {0, 0}, {0, 0},
                           {0, 0});
                   convolution_forward::primitive_desc pd(d);
               }, ia),
               Catch::Contains("dst spatial dim 0 is 3"));
    CHECK_THAT(message_of([&] {
                   convolution_forward::desc d(prop_kind::forward_inference,
                           algorithm::convolution_direct, t.src_md,
                           memory::desc({1, 2, 2, 2}, dt::f32, tag::oihw), t.dst_md, {1, 1},
                           {0, 0}, {0, 0}, {0, 0});
                   convolution_forward::primitive_desc pd(d);
               }, ia),
               Catch::Contains("do not fit"));
    CHECK_THAT(message_of([&] {
                   convolution_forward::desc d(prop_kind::forward_inference,
                           algorithm::convolution_direct, t.src_md, t.wei_md, t.dst_md, {1},
                           {0, 0}, {0, 0}, {0, 0});
                   convolution_forward::primitive_desc pd(d);
               }, ia),
               Catch::Contains("one per spatial dim"));
    CHECK_THAT(message_of([&] {
                   convolution_forward::desc d(prop_kind::forward_inference,
                           algorithm::convolution_direct, t.src_md, t.wei_md,
                           memory::desc({2}, dt::f32, tag::x), t.dst_md, {1, 1}, {0, 0}, {0, 0},
                           {0, 0});
                   convolution_forward::primitive_desc pd(d);
               }, ia),
               Catch::Contains("bias must have dims {oc}"));
    CHECK_THAT(message_of([&] {
                   convolution_forward::desc d(prop_kind::forward_inference,
                           algorithm::eltwise_relu, t.src_md, t.wei_md, t.dst_md, {1, 1}, {0, 0},
                           {0, 0}, {0, 0});
                   convolution_forward::primitive_desc pd(d);
               }, ia),
               Catch::Contains("convolution_direct"));
}

TEST_CASE("bad execution arguments name the problem", "[api][errors]") {
    tiny_conv t;
    convolution_forward conv(convolution_forward::primitive_desc(t.desc()));
    const auto ia = status::invalid_arguments;
    CHECK_THAT(message_of([&] {
                   conv.execute({{PRIM_ARG_SRC, t.src}, {PRIM_ARG_WEIGHTS, t.wei},
                                 {PRIM_ARG_DST, t.dst}});
               }, ia),
               Catch::Contains("bias argument is missing"));
    memory null_src(t.src_md, nullptr);
    CHECK_THAT(message_of([&] {
                   conv.execute({{PRIM_ARG_SRC, null_src}, {PRIM_ARG_WEIGHTS, t.wei},
                                 {PRIM_ARG_BIAS, t.bias}, {PRIM_ARG_DST, t.dst}});
               }, ia),
               Catch::Contains("src memory has no data"));
    memory wrong(memory::desc({1, 1, 9}, dt::f32, tag::ncw));
    CHECK_THAT(message_of([&] {
                   conv.execute({{PRIM_ARG_SRC, wrong}, {PRIM_ARG_WEIGHTS, t.wei},
                                 {PRIM_ARG_BIAS, t.bias}, {PRIM_ARG_DST, t.dst}});
               }, ia),
               Catch::Contains("differs from the primitive's"));
}

TEST_CASE("bad post-ops are refused when appended", "[api][attr][errors]") {
    post_ops po;
    const auto ia = status::invalid_arguments;
    CHECK_THAT(message_of([&] { po.append_eltwise(algorithm::eltwise_soft_relu, 0.f, 0.f); }, ia),
               Catch::Contains("soft_relu"));
    CHECK_THAT(message_of([&] { po.append_eltwise(algorithm::convolution_direct, 0.f, 0.f); }, ia),
               Catch::Contains("algorithm"));
    CHECK_THAT(message_of([&] { po.append_sum(NAN); }, ia), Catch::Contains("NaN"));
    CHECK(po.len() == 0);
}

TEST_CASE("mb0 executes as a no-op, even without data", "[api][conv]") {
    memory::desc src({0, 4, 5, 5}, dt::f32, tag::nchw), wei({8, 4, 3, 3}, dt::f32, tag::oihw),
            dst({0, 8, 3, 3}, dt::f32, tag::nchw);
    convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct, src,
                                wei, dst, {1, 1}, {0, 0}, {0, 0}, {0, 0});
    convolution_forward conv {convolution_forward::primitive_desc(d)};
    memory w(wei);
    CHECK_NOTHROW(conv.execute({{PRIM_ARG_SRC, memory(src, nullptr)}, {PRIM_ARG_WEIGHTS, w},
                                {PRIM_ARG_DST, memory(dst, nullptr)}}));
}

TEST_CASE("one primitive runs from many threads at once", "[api][threads]") {
    memory::desc src_md({2, 8, 9, 9}, dt::f32, tag::nchw), wei_md({8, 8, 3, 3}, dt::f32, tag::oihw),
            dst_md({2, 8, 9, 9}, dt::f32, tag::nchw);
    convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
                                src_md, wei_md, dst_md, {1, 1}, {0, 0}, {1, 1}, {1, 1});
    post_ops po;
    po.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    convolution_forward::primitive_desc pd(d, attr);
    convolution_forward conv(pd);
    memory src(pd.src_desc()), wei(pd.weights_desc());
    for (int i = 0; i < 2 * 8 * 81; ++i) data(src)[i] = float(i % 7 - 3);
    for (int i = 0; i < 8 * 8 * 9; ++i) data(wei)[i] = float(i % 5 - 2) * 0.125f;
    memory expected(pd.dst_desc());
    conv.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_DST, expected}});
    std::vector<memory> outs;
    for (int t = 0; t < 4; ++t) outs.emplace_back(pd.dst_desc());
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int rep = 0; rep < 3; ++rep)
                conv.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_DST, outs[t]}});
        });
    for (auto &th : threads) th.join();
    for (int t = 0; t < 4; ++t)
        CHECK(std::equal(data(expected), data(expected) + 2 * 8 * 81, data(outs[t])));
}

TEST_CASE("inner product with a spatial source matches the hand result", "[api][ip]") {
    // src (mb 2, ic 2, w 2), weights (oc 1, ic 2, w 2): dst = sum of src * wei + bias
    memory::desc src_md({2, 2, 2}, dt::f32, tag::ncw), wei_md({1, 2, 2}, dt::f32, tag::oiw),
            bias_md({1}, dt::f32, tag::x), dst_md({2, 1}, dt::f32, tag::nc);
    memory src(src_md), wei(wei_md), bias(bias_md), dst(dst_md);
    const float s[] = {1, 2, 3, 4, -1, -2, -3, -4}, w[] = {1, 0, 2, -1};
    std::copy(s, s + 8, data(src));
    std::copy(w, w + 4, data(wei));
    data(bias)[0] = 0.5f;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_linear, 2.f, 1.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    inner_product_forward::desc d(prop_kind::forward_inference, src_md, wei_md, bias_md, dst_md);
    inner_product_forward(inner_product_forward::primitive_desc(d, attr))
            .execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_BIAS, bias},
                      {PRIM_ARG_DST, dst}});
    // mb0: 1 + 0 + 6 - 4 = 3, +0.5 = 3.5, *2+1 = 8; mb1: -1 + 0 - 6 + 4 = -3, +0.5 = -2.5 -> -4
    CHECK(data(dst)[0] == 8.f);
    CHECK(data(dst)[1] == -4.f);
    CHECK_THAT(message_of([&] {
                   inner_product_forward::desc bad(prop_kind::forward_inference, src_md,
                           memory::desc({1, 3, 2}, dt::f32, tag::oiw), dst_md);
                   inner_product_forward::primitive_desc pd(bad);
               }, status::invalid_arguments),
               Catch::Contains("weights"));
}

TEST_CASE("eltwise works in place and out of place on blocked layouts", "[api][eltwise]") {
    memory::desc plain({2, 19, 3}, dt::f32, tag::ncw), blocked({2, 19, 3}, dt::f32,
                                                               std::string("aBc16b"));
    memory src(plain), dst(plain);
    for (int i = 0; i < 2 * 19 * 3; ++i) data(src)[i] = float(i % 11 - 5);
    eltwise_forward::desc d(prop_kind::forward_inference, algorithm::eltwise_relu, plain, plain,
                            0.25f, 0.f);
    eltwise_forward(eltwise_forward::primitive_desc(d)).execute({{PRIM_ARG_SRC, src},
                                                                  {PRIM_ARG_DST, dst}});
    for (int i = 0; i < 2 * 19 * 3; ++i) {
        const float x = float(i % 11 - 5);
        CHECK(data(dst)[i] == (x > 0 ? x : 0.25f * x));
    }
    memory b(blocked);
    reorder(src, b).execute(src, b);
    eltwise_forward::desc din(prop_kind::forward_inference, algorithm::eltwise_abs, blocked, 0.f,
                              0.f);
    eltwise_forward(eltwise_forward::primitive_desc(din)).execute({{PRIM_ARG_SRC, b},
                                                                    {PRIM_ARG_DST, b}});
    memory back(plain);
    reorder(b, back).execute(b, back);
    for (int i = 0; i < 2 * 19 * 3; ++i) CHECK(data(back)[i] == std::fabs(float(i % 11 - 5)));
    CHECK_THAT(message_of([&] {
                   eltwise_forward::desc bad(prop_kind::forward_inference,
                           algorithm::eltwise_relu, plain,
                           memory::desc({2, 19, 4}, dt::f32, tag::ncw), 0.f, 0.f);
                   eltwise_forward::primitive_desc pd(bad);
               }, status::invalid_arguments),
               Catch::Contains("dst dims differ"));
}
