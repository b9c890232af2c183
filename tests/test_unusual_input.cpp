// Valid but unusual input through the public API: very long post-op chains, buffers that are
// not 64-byte aligned, explicit layouts of every kind. Each gives the reference's result.
#include "api_test_util.hpp"

namespace {

// A chain of n entries cycling through bounded operations (with sums in between), so that the
// values stay in a range where the JIT and the reference agree to a relative 1e-3.
post_ops long_chain(int n) {
    const post_ops cycle = parse_post_ops(
            "tanh+sum:0.25+linear:0.5:0.125+relu:0.1+clip:-1:1+abs+logistic+softsign+gelu_erf"
            "+sum:-0.125+hardswish+elu:0.5+swish+clip_v2:-0.5:0.75+square+mish"
            "+thresholded_relu:0.1+shrink:0.01:0.02+hardsigmoid+scaled_tanh:0.9:1.1+exp+log+sqrt");
    post_ops po;
    for (int i = 0; i < n; ++i) {
        const post_ops::entry &e = cycle.entries()[size_t(i) % cycle.entries().size()];
        if (e.kind == post_ops::kind::sum)
            po.append_sum(e.scale);
        else
            po.append_eltwise(e.alg, e.alpha, e.beta, e.scale);
    }
    return po;
}

// Deterministic values in [-1, 1].
void fill(const memory &m, unsigned seed) {
    const size_t n = m.get_desc().get_size() / sizeof(float);
    for (size_t i = 0; i < n; ++i)
        data(m)[i] = float((unsigned(i) * 2654435761u + seed * 40503u) % 97u) / 48.f - 1.f;
}

// Runs a primitive on plain-layout buffers placed `shift` floats past a 64-byte boundary.
struct shifted_run {
    std::vector<std::vector<float>> storage;
    std::vector<float> dst;
    shifted_run(const primitive &p, const primitive_desc_base &pd, int shift) {
        const memory::desc mds[] = {pd.src_desc(), pd.weights_desc(), pd.bias_desc(),
                                    pd.dst_desc()};
        const int ids[] = {PRIM_ARG_SRC, PRIM_ARG_WEIGHTS, PRIM_ARG_BIAS, PRIM_ARG_DST};
        exec_args args;
        for (int k = 0; k < 4; ++k) {
            if (mds[k].is_zero()) continue;
            const size_t n = mds[k].get_size() / sizeof(float);
            storage.emplace_back(n + 32);
            float *base = storage.back().data();
            while (reinterpret_cast<uintptr_t>(base) % 64) ++base;
            const memory m(mds[k], base + shift);
            fill(m, unsigned(k + 1));
            args[ids[k]] = m;
        }
        p.execute(args);
        const float *out = static_cast<const float *>(args[PRIM_ARG_DST].get_data_handle());
        dst.assign(out, out + pd.dst_desc().get_size() / sizeof(float));
    }
};

long first_far_from(const std::vector<float> &got, const std::vector<float> &ref) {
    if (got.size() != ref.size()) return 0;
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::fabs(got[i] - ref[i]) <= 1e-3f * (1.f + std::fabs(ref[i])))
                && !(std::isnan(got[i]) && std::isnan(ref[i])))
            return long(i);
    return -1;
}

} // namespace

TEST_CASE("post-op chains of hundreds of entries work on every ISA", "[bad_input][long_chain]") {
    const auto pk = prop_kind::forward_inference;
    for (const int n : {64, 300}) {
        const post_ops po = long_chain(n);
        std::vector<float> ref[3];
        for (const cpu_isa isa : {cpu_isa::none, cpu_isa::avx2, cpu_isa::all}) {
            INFO("chain of " << n << " entries, isa " << cpu_isa_name(isa));
            primitive_attr attr;
            attr.set_post_ops(po);
            attr.set_max_cpu_isa(isa);
            std::vector<float> got[3];
            const outcome o = run([&]() {
                const convolution_forward::primitive_desc conv_pd({pk,
                        algorithm::convolution_direct, plain({2, 16, 6, 6}), plain({16, 16, 3, 3}),
                        plain({16}), plain({2, 16, 6, 6}), {1, 1}, {0, 0}, {1, 1}, {1, 1}}, attr);
                got[0] = shifted_run(convolution_forward(conv_pd), conv_pd, 0).dst;
                const inner_product_forward::primitive_desc ip_pd({pk, plain({5, 40}),
                        plain({24, 40}), plain({24}), plain({5, 24})}, attr);
                got[1] = shifted_run(inner_product_forward(ip_pd), ip_pd, 0).dst;
                const eltwise_forward::primitive_desc elt_pd(
                        {pk, algorithm::eltwise_tanh, plain({3, 77}), 0.f, 0.f}, attr);
                got[2] = shifted_run(eltwise_forward(elt_pd), elt_pd, 0).dst;
            });
            CHECK(o.message == "no exception");
            for (int k = 0; k < 3; ++k) {
                INFO((k == 0 ? "convolution" : k == 1 ? "inner product" : "eltwise"));
                if (isa == cpu_isa::none) {
                    ref[k] = got[k];
                    CHECK(std::none_of(ref[k].begin(), ref[k].end(), [](float v) {
                        return std::isnan(v);
                    })); // or the comparison proves nothing
                }
                else
                    CHECK(first_far_from(got[k], ref[k]) == -1);
            }
        }
    }
    // An eltwise chain of a thousand entries: one long kernel, or a fallback, never a crash.
    primitive_attr attr;
    attr.set_post_ops(long_chain(1000));
    const outcome o = run([&]() {
        const eltwise_forward::primitive_desc pd(
                {pk, algorithm::eltwise_relu, plain({1000}), 0.f, 0.f}, attr);
        shifted_run(eltwise_forward(pd), pd, 0);
    });
    CHECK(o.message == "no exception");
}

TEST_CASE("buffers that are not 64-byte aligned give the same results", "[bad_input][alignment]") {
    const auto pk = prop_kind::forward_inference;
    const memory::desc any_src({2, 16, 7, 7}, dt::f32, tag::any),
            any_wei({32, 16, 3, 3}, dt::f32, tag::any), any_dst({2, 32, 7, 7}, dt::f32, tag::any);
    post_ops po;
    po.append_sum(0.5f);
    po.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    for (const cpu_isa isa : {cpu_isa::avx2, cpu_isa::all}) {
        attr.set_max_cpu_isa(isa);
        INFO("isa " << cpu_isa_name(isa));
        const convolution_forward::primitive_desc conv_pd({pk, algorithm::convolution_direct,
                any_src, any_wei, plain({32}), any_dst, {1, 1}, {0, 0}, {1, 1}, {1, 1}}, attr);
        const inner_product_forward::primitive_desc ip_pd(
                {pk, plain({7, 33}), plain({21, 33}), plain({21}), plain({7, 21})}, attr);
        // 2.1 M elements: large enough for the eltwise's streaming stores.
        const eltwise_forward::primitive_desc elt_pd(
                {pk, algorithm::eltwise_swish, plain({2100000}), 1.f, 0.f}, primitive_attr());
        const primitive_desc_base *pds[] = {&conv_pd, &ip_pd, &elt_pd};
        const convolution_forward conv(conv_pd);
        const inner_product_forward ip(ip_pd);
        const eltwise_forward elt(elt_pd);
        const primitive *prims[] = {&conv, &ip, &elt};
        for (int k = 0; k < 3; ++k) {
            INFO(pds[k]->impl_name());
            const std::vector<float> aligned = shifted_run(*prims[k], *pds[k], 0).dst;
            for (const int shift : {1, 3, 8}) {
                INFO("shifted by " << shift << " floats");
                CHECK(shifted_run(*prims[k], *pds[k], shift).dst == aligned);
            }
        }
    }
}

namespace {

struct made {
    primitive_desc_base pd;
    primitive prim; // a copy of the typed primitive: it shares the implementation
};
using maker = std::function<made(const memory::desc *, const primitive_attr &)>;

// Runs one primitive with its arguments in the given layouts (patterns, "" for none), filled from
// the same plain values through reorder, and returns dst in plain order.
std::vector<float> run_in_layouts(const maker &make, const dims *shapes,
        const std::string *layouts, cpu_isa isa) {
    memory::desc mds[4];
    for (int k = 0; k < 4; ++k)
        if (!layouts[k].empty()) mds[k] = memory::desc(shapes[k], dt::f32, layouts[k]);
    primitive_attr attr;
    attr.set_max_cpu_isa(isa);
    attr.set_post_ops(parse_post_ops("sum:0.5+relu:0.25"));
    const made p = make(mds, attr);
    const int ids[] = {PRIM_ARG_SRC, PRIM_ARG_WEIGHTS, PRIM_ARG_BIAS, PRIM_ARG_DST};
    exec_args args;
    for (int k = 0; k < 4; ++k) {
        if (mds[k].is_zero()) continue;
        memory user(plain(shapes[k]));
        fill(user, unsigned(k + 1));
        memory m(mds[k]);
        reorder(user.get_desc(), mds[k]).execute(user, m);
        args[ids[k]] = m;
    }
    p.prim.execute(args);
    memory out(plain(shapes[3]));
    reorder(mds[3], out.get_desc()).execute(args[PRIM_ARG_DST], out);
    return std::vector<float>(data(out), data(out) + out.get_desc().get_size() / sizeof(float));
}

// Every combination of the given layouts, on the JIT ISAs, against the reference on plain ones.
void check_layouts(const char *what, const dims *shapes,
        const std::vector<std::vector<std::string>> &choices, const maker &make) {
    std::string plain_layouts[4];
    for (int k = 0; k < 4; ++k) plain_layouts[k] = choices[k].front();
    const std::vector<float> ref = run_in_layouts(make, shapes, plain_layouts, cpu_isa::none);
    for (const cpu_isa isa : {cpu_isa::avx2, cpu_isa::all})
        for (int k = 0; k < 4; ++k)
            for (const std::string &layout : choices[k]) {
                std::string layouts[4];
                for (int j = 0; j < 4; ++j) layouts[j] = plain_layouts[j];
                layouts[k] = layout;
                INFO(what << " isa " << cpu_isa_name(isa) << " src " << layouts[0] << " wei "
                          << layouts[1] << " bias " << layouts[2] << " dst " << layouts[3]);
                std::vector<float> got;
                const outcome o = run([&]() {
                    got = run_in_layouts(make, shapes, layouts, isa);
                });
                CHECK(o.message == "no exception");
                CHECK(first_far_from(got, ref) == -1);
            }
}

} // namespace

TEST_CASE("explicit layouts of every kind give the reference result", "[bad_input][layouts]") {
    const auto pk = prop_kind::forward_inference;
    // Channel counts that are not multiples of 8 or 16, so blocked layouts carry padding.
    const dims conv_shapes[] = {{2, 12, 6, 5}, {20, 12, 3, 3}, {20}, {2, 20, 6, 5}};
    const std::vector<std::string> conv_data = {"abcd", "acdb", "aBcd8b", "aBcd16b", "aBcd4b",
                                                "Abcd2a", "bacd", "dcba", "ABcd16b2a"};
    check_layouts("convolution", conv_shapes,
            {conv_data,
             {"abcd", "cdba", "acdb", "ABcd8b8a", "ABcd16b16a", "ABcd8a8b", "Acdb16a", "aBcd16b",
              "BAcd16a16b", "dcab"},
             {"a", "A8a", "A16a"}, conv_data},
            [&](const memory::desc *md, const primitive_attr &attr) -> made {
                const convolution_forward::primitive_desc pd({pk, algorithm::convolution_direct,
                        md[0], md[1], md[2], md[3], {1, 1}, {0, 0}, {1, 1}, {1, 1}}, attr);
                return {pd, convolution_forward(pd)};
            });
    const dims ip_shapes[] = {{3, 12, 2, 3}, {20, 12, 2, 3}, {20}, {3, 20}};
    check_layouts("inner product", ip_shapes,
            {{"abcd", "acdb", "aBcd8b", "aBcd16b", "bacd", "Abcd2a"},
             {"abcd", "acdb", "cdba", "ABcd16b16a", "ABcd8a8b", "Acdb16a", "bacd", "aBcd8b"},
             {"a", "A16a"}, {"ab", "ba", "aB8b", "aB16b", "Ab4a", "AB2a8b"}},
            [&](const memory::desc *md, const primitive_attr &attr) -> made {
                const inner_product_forward::primitive_desc pd({pk, md[0], md[1], md[2], md[3]},
                                                                attr);
                return {pd, inner_product_forward(pd)};
            });
    const dims elt_shapes[] = {{2, 12, 3, 5}, {}, {}, {2, 12, 3, 5}};
    check_layouts("eltwise", elt_shapes, {conv_data, {""}, {""}, conv_data},
            [&](const memory::desc *md, const primitive_attr &attr) -> made {
                const eltwise_forward::primitive_desc pd(
                        {pk, algorithm::eltwise_elu, md[0], md[3], 0.5f, 0.f}, attr);
                return {pd, eltwise_forward(pd)};
            });
}
