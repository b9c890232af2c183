// Runtime post-op parameters (PRIM_RUNTIME_F32_VAL): a chain whose alpha, beta or scale are given
// at execute runs as the same chain with those values baked (compared on the same ISA, so that
// only the parameters' path differs; the baked chains' accuracy is test_jit_*'s), on every primitive that takes a
// chain and on both ISAs; changing the values generates no code; bad or missing values are
// refused with the entry named.
#include <cfloat>

#include "api_test_util.hpp"
#include "ref/ref_chain.hpp"

namespace {

const float rt = PRIM_RUNTIME_F32_VAL;

// A chain with runtime fields, and the values to give them (per entry: alpha, beta, scale).
struct runtime_case {
    const char *chain;                  // fusion string with '*' for runtime fields
    std::vector<std::vector<float>> values_a, values_b;
};

const std::vector<runtime_case> cases = {
        {"relu:*", {{0.1f, 0, 0}}, {{-0.7f, 0, 0}}},
        {"linear:*:*", {{1.5f, -0.25f, 0}}, {{-2.f, 3.f, 0}}},
        {"sum:*+clip:*:*", {{0, 0, 0.5f}, {-0.3f, 0.4f, 0}}, {{0, 0, -1.f}, {-2.f, 0.1f, 0}}},
        {"elu:*+scaled_tanh:*:*", {{0.5f, 0, 0}, {1.7f, 0.6f, 0}}, {{2.f, 0, 0}, {0.3f, 2.f, 0}}},
        {"hardswish:*:*:*", {{0.2f, 0.4f, 1.5f}}, {{1.f, -0.5f, -0.5f}}},
        {"shrink:*:*+thresholded_relu:*", {{0.1f, 0.3f, 0}, {0.05f, 0, 0}},
         {{0.4f, 0.2f, 0}, {-0.2f, 0, 0}}},
        {"logistic:0:0:*+sum:*+relu:*:0:*",
         {{0, 0, 2.f}, {0, 0, 0.25f}, {0.2f, 0, 3.f}},
         {{0, 0, -1.f}, {0, 0, 1.f}, {0.f, 0, 1.f}}},
        // pow's exponent at run time: integer (odd, even, negative), non-integer, zero.
        {"linear:*:*+pow:1:*", {{0.5f, 2.f, 0}, {0, 2.f, 0}}, {{0.25f, 3.f, 0}, {0, 0.5f, 0}}},
        {"pow:*:*", {{1.5f, 3.f, 0}}, {{-2.f, -1.f, 0}}},
        {"pow:1:*+linear:1:*", {{0, 0, 0}, {0, 1.f, 0}}, {{0, 2.5f, 0}, {0, -1.f, 0}}},
};

// The chain with the runtime fields replaced by values.
post_ops baked(const post_ops &chain, const std::vector<std::vector<float>> &values) {
    post_ops out;
    for (int i = 0; i < chain.len(); ++i) {
        post_ops::entry e = chain.entries()[i];
        const std::vector<float> &v = values[static_cast<size_t>(i)];
        if (is_runtime_f32(e.alpha)) e.alpha = v[0];
        if (is_runtime_f32(e.beta)) e.beta = v[1];
        if (is_runtime_f32(e.scale)) e.scale = v[2];
        if (e.kind == post_ops::kind::sum) out.append_sum(e.scale);
        else out.append_eltwise(e.alg, e.alpha, e.beta, e.scale);
    }
    return out;
}

std::vector<float> random_values(int64_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-2.f, 2.f);
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = dist(gen);
    return v;
}

// One primitive kind: makes a primitive_desc for an attribute, and runs it on fixed inputs
// (dst preset to dst_old) returning dst in the plain layout.
struct primitive_maker {
    const char *name;
    std::function<std::shared_ptr<primitive_desc_base>(const primitive_attr &)> make_pd;
    std::function<primitive(const primitive_desc_base &)> make_prim;
};

// Runs pd's primitive with inputs made from seeds (in the pd's layouts), extra args added.
std::vector<float> run_primitive(const primitive_maker &m, const primitive_desc_base &pd,
                                 const exec_args &extra) {
    exec_args args = extra;
    unsigned seed = 1;
    for (int arg : {PRIM_ARG_SRC, PRIM_ARG_SRC_1, PRIM_ARG_WEIGHTS, PRIM_ARG_BIAS}) {
        const memory::desc md = pd.query_md(arg);
        if (md.is_zero()) continue;
        args[arg] = from_plain(random_values(count(md.get_dims()), seed++), md);
    }
    const memory::desc dst_md = pd.dst_desc();
    memory dst = from_plain(random_values(count(dst_md.get_dims()), 99), dst_md);
    args[PRIM_ARG_DST] = dst;
    m.make_prim(pd).execute(args);
    return to_plain(dst);
}

// The runtime parameters of a chain as execute arguments.
exec_args params_args(const post_ops &chain, const std::vector<std::vector<float>> &values,
                      std::vector<memory> &keep) {
    exec_args args;
    const memory::desc md({3}, dt::f32, tag::x);
    for (int i = 0; i < chain.len(); ++i) {
        memory m(md);
        std::copy(values[static_cast<size_t>(i)].begin(), values[static_cast<size_t>(i)].end(), data(m));
        args[PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_ATTR_POST_OP_PARAMS] = m;
        keep.push_back(m);
    }
    return args;
}

std::vector<primitive_maker> makers() {
    std::vector<primitive_maker> out;
    out.push_back({"convolution 3x3 blocked",
                   [](const primitive_attr &a) {
                       convolution_forward::desc d(prop_kind::forward_inference,
                               algorithm::convolution_direct,
                               memory::desc({2, 19, 9, 11}, dt::f32, tag::any),
                               memory::desc({21, 19, 3, 3}, dt::f32, tag::any),
                               memory::desc({21}, dt::f32, tag::x),
                               memory::desc({2, 21, 9, 11}, dt::f32, tag::any), {1, 1}, {0, 0},
                               {1, 1}, {1, 1});
                       return std::make_shared<convolution_forward::primitive_desc>(d, a);
                   },
                   [](const primitive_desc_base &pd) {
                       return convolution_forward(
                               static_cast<const convolution_forward::primitive_desc &>(pd));
                   }});
    out.push_back({"convolution depthwise nhwc",
                   [](const primitive_attr &a) {
                       convolution_forward::desc d(prop_kind::forward_inference,
                               algorithm::convolution_direct,
                               memory::desc({1, 24, 7, 9}, dt::f32, tag::nhwc),
                               memory::desc({24, 1, 1, 3, 3}, dt::f32, tag::any),
                               memory::desc({24}, dt::f32, tag::x),
                               memory::desc({1, 24, 4, 5}, dt::f32, tag::nhwc), {2, 2}, {0, 0},
                               {1, 1}, {1, 1});
                       return std::make_shared<convolution_forward::primitive_desc>(d, a);
                   },
                   [](const primitive_desc_base &pd) {
                       return convolution_forward(
                               static_cast<const convolution_forward::primitive_desc &>(pd));
                   }});
    out.push_back({"inner product",
                   [](const primitive_attr &a) {
                       inner_product_forward::desc d(prop_kind::forward_inference,
                               memory::desc({5, 37}, dt::f32, tag::nc),
                               memory::desc({23, 37}, dt::f32, tag::any),
                               memory::desc({23}, dt::f32, tag::x),
                               memory::desc({5, 23}, dt::f32, tag::nc));
                       return std::make_shared<inner_product_forward::primitive_desc>(d, a);
                   },
                   [](const primitive_desc_base &pd) {
                       return inner_product_forward(
                               static_cast<const inner_product_forward::primitive_desc &>(pd));
                   }});
    out.push_back({"eltwise",
                   [](const primitive_attr &a) {
                       eltwise_forward::desc d(prop_kind::forward_inference,
                               algorithm::eltwise_tanh, memory::desc({3, 17, 5}, dt::f32, tag::abc),
                               0.f, 0.f);
                       return std::make_shared<eltwise_forward::primitive_desc>(d, a);
                   },
                   [](const primitive_desc_base &pd) {
                       return eltwise_forward(static_cast<const eltwise_forward::primitive_desc &>(pd));
                   }});
    out.push_back({"binary",
                   [](const primitive_attr &a) {
                       binary::desc d(algorithm::binary_mul, memory::desc({2, 33, 4}, dt::f32, tag::abc),
                               memory::desc({1, 33, 1}, dt::f32, tag::abc),
                               memory::desc({2, 33, 4}, dt::f32, tag::abc));
                       return std::make_shared<binary::primitive_desc>(d, a);
                   },
                   [](const primitive_desc_base &pd) {
                       return binary(static_cast<const binary::primitive_desc &>(pd));
                   }});
    out.push_back({"batch normalization",
                   [](const primitive_attr &a) {
                       batch_normalization_forward::desc d(prop_kind::forward_inference,
                               memory::desc({2, 35, 3, 5}, dt::f32, tag::nchw), 1e-3f,
                               normalization_flags::none);
                       return std::make_shared<batch_normalization_forward::primitive_desc>(d, a);
                   },
                   [](const primitive_desc_base &pd) {
                       return batch_normalization_forward(
                               static_cast<const batch_normalization_forward::primitive_desc &>(pd));
                   }});
    out.push_back({"softmax",
                   [](const primitive_attr &a) {
                       const memory::desc md({3, 45}, dt::f32, tag::ab);
                       softmax_forward::desc d(prop_kind::forward_inference,
                               algorithm::softmax_accurate, md, md, 1);
                       return std::make_shared<softmax_forward::primitive_desc>(d, a);
                   },
                   [](const primitive_desc_base &pd) {
                       return softmax_forward(static_cast<const softmax_forward::primitive_desc &>(pd));
                   }});
    return out;
}

} // namespace

TEST_CASE("a runtime chain computes what the same chain with the values baked computes", "[runtime]") {
    for (const primitive_maker &m : makers())
        for (const cpu_isa isa : {cpu_isa::all, cpu_isa::avx2})
            for (const runtime_case &c : cases) {
                const post_ops chain = parse_post_ops(c.chain);
                const std::string name = m.name;
                if ((name == "binary" || name == "softmax") && chain.has_sum()) continue; // no sum
                INFO(m.name << ", isa cap " << static_cast<int>(isa) << ", chain " << c.chain);
                primitive_attr runtime_attr;
                runtime_attr.set_post_ops(chain);
                runtime_attr.set_max_cpu_isa(isa);
                const auto pd = m.make_pd(runtime_attr);
                for (const auto *values : {&c.values_a, &c.values_b}) {
                    std::vector<memory> keep;
                    const std::vector<float> got
                            = run_primitive(m, *pd, params_args(chain, *values, keep));
                    primitive_attr ref_attr;
                    ref_attr.set_post_ops(baked(chain, *values));
                    ref_attr.set_max_cpu_isa(isa); // the same kernel but for the values

                    const std::vector<float> want = run_primitive(m, *m.make_pd(ref_attr), {});
                    REQUIRE(got.size() == want.size());
                    int bad = 0;
                    for (size_t i = 0; i < got.size(); ++i) {
                        const float tol = 2e-5f * std::max(1.f, std::fabs(want[i]));
                        const bool both_nan = std::isnan(got[i]) && std::isnan(want[i]);
                        if (!both_nan && !(std::fabs(got[i] - want[i]) <= tol) && bad++ < 3)
                            FAIL_CHECK("element " << i << ": " << got[i] << " vs " << want[i]);
                    }
                    CHECK(bad == 0);
                }
            }
}

TEST_CASE("changing runtime values, or creating the primitive again, generates no code", "[runtime]") {
    const post_ops chain = parse_post_ops("sum:*+relu:*+linear:*:*:*");
    for (const primitive_maker &m : makers()) {
        if (std::string(m.name) == "binary" || std::string(m.name) == "softmax") continue; // no sum
        INFO(m.name);
        primitive_attr attr;
        attr.set_post_ops(chain);
        const auto pd = m.make_pd(attr);
        CHECK_THAT(pd->impl_name(), Catch::StartsWith("jit"));
        std::vector<memory> keep;
        run_primitive(m, *pd, params_args(chain, {{0, 0, 0.5f}, {0.1f, 0, 0}, {2.f, 1.f, 3.f}}, keep));
        const int64_t generated = get_generated_kernel_count();
        for (float v : {0.25f, -1.f, 7.f}) {
            const auto again = m.make_pd(attr);
            run_primitive(m, *again, params_args(chain, {{0, 0, v}, {v, 0, 0}, {v, -v, v}}, keep));
        }
        CHECK(get_generated_kernel_count() == generated);
    }
}

TEST_CASE("runtime parameters: missing, malformed or invalid values are refused", "[runtime]") {
    const primitive_maker m = makers()[2]; // inner product
    primitive_attr attr;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, rt, 0.f);
    po.append_eltwise(algorithm::eltwise_soft_relu, 1.f, 0.f, rt);
    po.append_sum(rt);
    attr.set_post_ops(po);
    const auto pd = m.make_pd(attr);
    const memory::desc params_md({3}, dt::f32, tag::x);
    CHECK(pd->query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_ATTR_POST_OP_PARAMS) == params_md);
    CHECK(pd->query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(3) | PRIM_ARG_ATTR_POST_OP_PARAMS).is_zero());
    CHECK(to_string(pd->get_primitive_attr().get_post_ops()) == "relu:*+soft_relu:1:0:*+sum:*");

    std::vector<memory> keep;
    exec_args good = params_args(po, {{0.1f, 0, 0}, {0, 0, 2.f}, {0, 0, 1.f}}, keep);
    CHECK_NOTHROW(run_primitive(m, *pd, good));
    exec_args missing = good;
    missing.erase(PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_ATTR_POST_OP_PARAMS);
    CHECK_INVALID(run_primitive(m, *pd, missing), "post-op 1 runtime parameters argument is missing");
    exec_args wrong_desc = good;
    wrong_desc[PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_ATTR_POST_OP_PARAMS]
            = memory(memory::desc({2}, dt::f32, tag::x));
    CHECK_INVALID(run_primitive(m, *pd, wrong_desc), "post-op 0 runtime parameters memory desc");
    CHECK_INVALID(run_primitive(m, *pd, params_args(po, {{nan_f, 0, 0}, {0, 0, 2.f}, {0, 0, 1.f}}, keep)),
                  "post-op 0 (eltwise): runtime value: relu: alpha is NaN");
    CHECK_INVALID(run_primitive(m, *pd, params_args(po, {{0.1f, 0, 0}, {0, 0, 2.f}, {0, 0, nan_f}}, keep)),
                  "post-op 2 (sum): runtime scale is NaN");
}

TEST_CASE("runtime parameters the JIT cannot read: the reference runs them, strict mode says why", "[runtime]") {
    const primitive_maker m = makers()[0];
    primitive_attr attr;
    attr.set_post_ops(parse_post_ops("soft_relu:*"));
    CHECK(m.make_pd(attr)->impl_name() == "ref");
    attr.set_strict(true);
    CHECK_PRIM_ERROR(m.make_pd(attr), status::unimplemented,
                     "post-op soft_relu takes alpha and beta as constants only on the JIT");
    attr.set_post_ops(parse_post_ops("pow:1:*"));
    CHECK_THAT(m.make_pd(attr)->impl_name(), Catch::StartsWith("jit"));
}

TEST_CASE("fusion strings write a runtime parameter as '*'", "[runtime]") {
    const post_ops po = parse_post_ops("relu:*+sum:*+linear:1:*:*+clip:*");
    CHECK(is_runtime_f32(po.entries()[0].alpha));
    CHECK(is_runtime_f32(po.entries()[1].scale));
    CHECK(po.entries()[2].alpha == 1.f);
    CHECK(is_runtime_f32(po.entries()[3].alpha));
    CHECK(po.has_runtime_params());
    CHECK(to_string(po) == "relu:*+sum:*+linear:1:*:*+clip:*");
    CHECK_FALSE(parse_post_ops("relu:0.5").has_runtime_params());
    CHECK(!is_runtime_f32(nan_f));
}

TEST_CASE("pow with a runtime exponent keeps C's rules at the special inputs", "[runtime]") {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> x = {0.f, -0.f, inf, -inf, nan_f, 1.f, -1.f, 2.f, -2.f, 0.5f, -0.5f, 3.75f,
                            -3.75f, 1e-20f, -1e-20f, 1e20f, -1e20f, 7.f, -7.f};
    while (x.size() % 16 != 5) x.push_back(static_cast<float>(x.size()) * -0.37f); // a tail
    const memory::desc md({static_cast<memory::dim>(x.size())}, dt::f32, tag::x);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_pow, rt, rt);
    primitive_attr attr;
    attr.set_post_ops(po);
    for (const cpu_isa isa : {cpu_isa::all, cpu_isa::avx2}) {
        attr.set_max_cpu_isa(isa);
        eltwise_forward::primitive_desc pd(
                eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_identity, md, 0.f, 0.f), attr);
        REQUIRE_THAT(pd.impl_name(), Catch::StartsWith("jit"));
        for (const float beta : {0.f, 1.f, 2.f, 3.f, -1.f, -2.f, -3.f, 0.5f, -0.5f, 2.5f, -1.5f, 7.f}) {
            for (const float alpha : {1.f, -0.5f}) {
                std::vector<float> y(x.size()), p = {alpha, beta, 1.f};
                eltwise_forward(pd).execute(
                        {{PRIM_ARG_SRC, memory(md, x.data())}, {PRIM_ARG_DST, memory(md, y.data())},
                         {PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_ATTR_POST_OP_PARAMS,
                          memory(memory::desc({3}, dt::f32, tag::x), p.data())}});
                for (size_t i = 0; i < x.size(); ++i) {
                    const float want = static_cast<float>(alpha * std::pow(static_cast<double>(x[i]), beta));
                    INFO("isa cap " << static_cast<int>(isa) << " alpha " << alpha << " beta " << beta
                                    << " x " << x[i] << ": " << y[i] << " vs " << want);
                    if (std::isnan(want)) CHECK(std::isnan(y[i]));
                    // exp flushes results below FLT_MIN to 0 (doc/injector.md, Accuracy)
                    else if (std::fabs(want) < FLT_MIN) CHECK(std::fabs(y[i]) <= FLT_MIN);
                    else if (std::isinf(want) || want == 0.f) CHECK(y[i] == want);
                    else CHECK(std::fabs(y[i] - want) <= 1e-6f * std::fabs(want) * std::max(1.f, std::fabs(beta)));
                }
            }
        }
    }
}

// issue 30: where f is an f32 denormal (exp, logistic, soft_relu, swish of about -88 to -104), a
// huge scale lifts it back into range (FLT_MAX) or to an infinity: the JIT keeps those tiny
// results instead of flushing them when the scale may do that, a runtime scale included (its
// value is known only at execute). The class of each result must be the reference's.
TEST_CASE("a runtime scale gives the reference's class where it lifts a tiny result", "[runtime]") {
    const std::vector<float> xs = {-88.8f, -100.f, -95.f, -1e20f, -INFINITY, 0.f, 3.f, nan_f};
    const auto class_of = [](float v) {
        return std::isnan(v) ? 0 : std::isinf(v) ? (v > 0 ? 1 : 2) : std::fabs(v) < FLT_MIN ? 3 : 4;
    };
    for (const char *text : {"exp:1:0:*", "logistic:1:0:*", "soft_relu:1:0:*", "swish:1:0:*", "mish:1:0:*"})
        for (const float scale : {FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, 0.5f})
            for (const cpu_isa isa : {cpu_isa::all, cpu_isa::avx2}) {
                INFO(text << " scale " << scale << " isa cap " << static_cast<int>(isa));
                const post_ops chain = parse_post_ops(text);
                primitive_attr attr;
                attr.set_post_ops(chain);
                attr.set_max_cpu_isa(isa);
                const memory::desc md({static_cast<int64_t>(xs.size())}, dt::f32, tag::x);
                const eltwise_forward::primitive_desc pd(eltwise_forward::desc(
                        prop_kind::forward_inference, algorithm::eltwise_linear, md, 1.f, 0.f), attr);
                CHECK_THAT(pd.impl_name(), Catch::StartsWith("jit:"));
                memory src(md), dst(md), params(memory::desc({3}, dt::f32, tag::x));
                std::copy(xs.begin(), xs.end(), data(src));
                float *p = data(params);
                p[0] = 1.f; // alpha, beta as given (read only where runtime: the scale here)
                p[1] = 0.f;
                p[2] = scale;
                eltwise_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst},
                        {PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_ATTR_POST_OP_PARAMS, params}});
                const post_ops baked_chain = baked(chain, {{1.f, 0.f, scale}});
                for (size_t i = 0; i < xs.size(); ++i) {
                    const float want = impl::ref_apply_post_ops(baked_chain, xs[i], 0.f);
                    INFO("x = " << xs[i] << ": got " << data(dst)[i] << ", reference " << want);
                    CHECK(class_of(data(dst)[i]) == class_of(want));
                }
            }
}
