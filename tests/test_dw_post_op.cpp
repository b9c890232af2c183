// The dw post-op (post_ops::append_dw, doc/dw_post_op.md): a convolution 1x1 followed by a
// depthwise convolution in one primitive. Covers: results against an oracle written here from the
// definition (two naive loops) on several kernels, strides and paddings, chains before and after
// the dw, plain / channels-last / blocked / 'any' layouts, channel and spatial tails, dst given
// with the 1x1's dims (as oneDNN takes it) or the depthwise output's, binary entries before and
// after the dw; the argument descs (query_md), the entry's parameters, the fusion string; every refusal
// with its message.
#include "api_test_util.hpp"
#include "isa_under_test.hpp"

namespace {

struct dw_shape {
    int64_t mb, ic, oc, ih, iw, k, s, p;
    int64_t oh() const { return (ih + s - 1) / s; } // ceil(ih / s), oneDNN's definition
    int64_t ow() const { return (iw + s - 1) / s; }
};

// Small integers, so every sum is exact in f32 and the oracle can compare exactly.
std::vector<float> small_ints(int64_t n, int seed, int lo, int hi) {
    std::vector<float> v(static_cast<size_t>(n));
    std::mt19937 gen(static_cast<unsigned>(seed));
    std::uniform_int_distribution<int> d(lo, hi);
    for (float &x : v) x = static_cast<float>(d(gen));
    return v;
}

// Exact on small integers: the chains below use only these.
float eltwise(const std::string &name, float x) {
    if (name == "relu") return x > 0 ? x : 0;
    if (name == "abs") return std::fabs(x);
    if (name == "linear:0.5:1") return 0.5f * x + 1.f;
    if (name == "linear:2:-1") return 2.f * x - 1.f;
    if (name == "clip:-3:4") return std::min(std::max(x, -3.f), 4.f);
    FAIL("oracle has no " << name);
    return x;
}

struct oracle_chain {
    std::vector<std::string> before, after;
};

// The definition: y1 = chain_before(conv1x1(src) + bias) (+ add_oc_before[o] when given, after
// its eltwise entries), then dst = chain_after(depthwise(y1) + dw_bias) (+ add_oc[c] likewise).
std::vector<float> oracle(const dw_shape &p, const std::vector<float> &src, const std::vector<float> &wei,
                          const std::vector<float> &bias, const std::vector<float> &dw_wei,
                          const std::vector<float> &dw_bias, const oracle_chain &chain,
                          const std::vector<float> *add_oc = nullptr,
                          const std::vector<float> *add_oc_before = nullptr) {
    std::vector<float> mid(static_cast<size_t>(p.mb * p.oc * p.ih * p.iw));
    for (int64_t n = 0; n < p.mb; ++n)
        for (int64_t o = 0; o < p.oc; ++o)
            for (int64_t h = 0; h < p.ih; ++h)
                for (int64_t w = 0; w < p.iw; ++w) {
                    double acc = bias.empty() ? 0.0 : bias[o];
                    for (int64_t i = 0; i < p.ic; ++i)
                        acc += double(src[((n * p.ic + i) * p.ih + h) * p.iw + w]) * wei[o * p.ic + i];
                    float x = static_cast<float>(acc);
                    for (const std::string &e : chain.before) x = eltwise(e, x);
                    if (add_oc_before) x += (*add_oc_before)[o];
                    mid[((n * p.oc + o) * p.ih + h) * p.iw + w] = x;
                }
    std::vector<float> out(static_cast<size_t>(p.mb * p.oc * p.oh() * p.ow()));
    for (int64_t n = 0; n < p.mb; ++n)
        for (int64_t c = 0; c < p.oc; ++c)
            for (int64_t oh = 0; oh < p.oh(); ++oh)
                for (int64_t ow = 0; ow < p.ow(); ++ow) {
                    double acc = dw_bias.empty() ? 0.0 : dw_bias[c];
                    for (int64_t kh = 0; kh < p.k; ++kh)
                        for (int64_t kw = 0; kw < p.k; ++kw) {
                            const int64_t h = oh * p.s - p.p + kh, w = ow * p.s - p.p + kw;
                            if (h < 0 || h >= p.ih || w < 0 || w >= p.iw) continue;
                            acc += double(mid[((n * p.oc + c) * p.ih + h) * p.iw + w])
                                   * dw_wei[(c * p.k + kh) * p.k + kw];
                        }
                    float x = static_cast<float>(acc);
                    for (const std::string &e : chain.after) x = eltwise(e, x);
                    if (add_oc) x += (*add_oc)[c];
                    out[((n * p.oc + c) * p.oh() + oh) * p.ow() + ow] = x;
                }
    return out;
}

post_ops make_chain(const oracle_chain &c, const dw_shape &p, bool dw_bias) {
    std::string text;
    for (const std::string &e : c.before) text += e + "+";
    post_ops po = parse_post_ops(text.empty() ? "" : text.substr(0, text.size() - 1));
    po.append_dw(dt::f32, dw_bias ? dt::f32 : dt::undef, dt::f32, p.k, p.s, p.p, 0, {});
    for (const std::string &e : c.after) {
        const post_ops one = parse_post_ops(e);
        algorithm alg;
        float a, b, sc;
        one.get_params_eltwise(0, alg, a, b, sc);
        po.append_eltwise(alg, a, b, sc);
    }
    return po;
}

struct layouts {
    const char *name;
    tag data; // src and dst; 'any' lets the primitive choose
    std::string pattern; // a blocked pattern instead of data, when not empty
};

memory::desc data_desc(const dims &d, const layouts &l) {
    if (!l.pattern.empty()) return memory::desc(d, dt::f32, l.pattern);
    return memory::desc(d, dt::f32, l.data);
}

// Runs the fused primitive and returns dst in plain order.
std::vector<float> run_fused(const dw_shape &p, const layouts &l, bool dst_as_1x1, const post_ops &po,
                             const std::vector<float> &src, const std::vector<float> &wei,
                             const std::vector<float> &bias, const std::vector<float> &dw_wei,
                             const std::vector<float> &dw_bias, exec_args extra = {},
                             std::string *impl = nullptr, cpu_isa isa = cpu_isa::all) {
    const dims src_d {p.mb, p.ic, p.ih, p.iw};
    const dims dst_d = dst_as_1x1 ? dims {p.mb, p.oc, p.ih, p.iw} : dims {p.mb, p.oc, p.oh(), p.ow()};
    const convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
            data_desc(src_d, l), memory::desc({p.oc, p.ic, 1, 1}, dt::f32, tag::any),
            bias.empty() ? memory::desc() : plain({p.oc}), data_desc(dst_d, l), {1, 1}, {0, 0},
            {0, 0}, {0, 0});
    primitive_attr attr;
    attr.set_post_ops(po);
    attr.set_max_cpu_isa(isa);
    const convolution_forward::primitive_desc pd(d, attr);
    if (impl) *impl = pd.impl_name();
    REQUIRE(pd.dst_desc().get_dims() == dims({p.mb, p.oc, p.oh(), p.ow()}));
    exec_args args = std::move(extra);
    args[PRIM_ARG_SRC] = from_plain(src, pd.src_desc());
    args[PRIM_ARG_WEIGHTS] = from_plain(wei, pd.weights_desc());
    if (!bias.empty()) args[PRIM_ARG_BIAS] = from_plain(bias, pd.bias_desc());
    args[PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS]
            = from_plain(dw_wei, pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS));
    if (!dw_bias.empty())
        args[PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS]
                = from_plain(dw_bias, pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS));
    args[PRIM_ARG_DST] = memory(pd.dst_desc());
    convolution_forward(pd).execute(args);
    return to_plain(args[PRIM_ARG_DST]);
}

// isa: the primitive's ISA cap; with a JIT ISA, the fused pass of that ISA must run it.
void check_case(const dw_shape &p, const layouts &l, bool dst_as_1x1, const oracle_chain &c,
                bool with_bias, bool with_dw_bias, cpu_isa isa = cpu_isa::none) {
    INFO("mb" << p.mb << "ic" << p.ic << "oc" << p.oc << "ih" << p.ih << "iw" << p.iw << " dw:k" << p.k
              << "s" << p.s << "p" << p.p << " layout " << l.name << (dst_as_1x1 ? " dst 1x1 dims" : "")
              << (with_bias ? "" : " no bias") << (with_dw_bias ? "" : " no dw bias"));
    const int seed = static_cast<int>(p.ic * 7 + p.oc * 13 + p.k * 17 + p.s * 19 + p.p);
    const std::vector<float> src = small_ints(p.mb * p.ic * p.ih * p.iw, seed, -2, 2);
    const std::vector<float> wei = small_ints(p.oc * p.ic, seed + 1, -1, 1);
    const std::vector<float> bias = with_bias ? small_ints(p.oc, seed + 2, -3, 3) : std::vector<float>();
    const std::vector<float> dw_wei = small_ints(p.oc * p.k * p.k, seed + 3, -1, 1);
    const std::vector<float> dw_bias = with_dw_bias ? small_ints(p.oc, seed + 4, -3, 3) : std::vector<float>();
    std::string impl;
    const std::vector<float> got = run_fused(p, l, dst_as_1x1, make_chain(c, p, with_dw_bias), src, wei,
                                             bias, dw_wei, dw_bias, {}, &impl, isa);
    if (isa == cpu_isa::none) CHECK(impl == "ref");
    else CHECK(impl.rfind(std::string("jit:") + cpu_isa_name(isa), 0) == 0);
    const std::vector<float> want = oracle(p, src, wei, bias, dw_wei, dw_bias, c);
    REQUIRE(got.size() == want.size());
    int64_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i) bad += got[i] != want[i];
    CHECK(bad == 0);
}

const layouts all_layouts[] = {
        {"nchw", tag::nchw, ""}, {"nhwc", tag::nhwc, ""}, {"nChw16c", tag::undef, "aBcd16b"},
        {"nChw8c", tag::undef, "aBcd8b"}, {"any", tag::any, ""}};

} // namespace

TEST_CASE("dw post-op: kernels, strides and paddings against the definition", "[dw]") {
    const oracle_chain chains[] = {{{}, {}}, {{"relu"}, {}}, {{}, {"relu"}},
                                   {{"linear:2:-1", "abs"}, {"clip:-3:4", "linear:0.5:1"}}};
    int ci = 0;
    for (int64_t k : {1, 2, 3, 5})
        for (int64_t s : {1, 2, 3})
            for (int64_t pad = 0; pad < k; ++pad) {
                // ih and iw differ and are not multiples of the stride: the last window of each
                // dim has end padding, or leaves rows unused.
                const dw_shape p {2, 3, 5, 7, 6, k, s, pad};
                check_case(p, all_layouts[ci % 5], ci % 2 == 0, chains[ci % 4], ci % 3 != 0, ci % 4 != 1);
                ++ci;
            }
}

TEST_CASE("dw post-op: every layout, channel tails, chains before and after", "[dw]") {
    const oracle_chain c {{"relu", "linear:0.5:1"}, {"linear:2:-1", "relu"}};
    for (const layouts &l : all_layouts)
        for (int64_t oc : {1, 8, 17, 32})
            for (bool as_1x1 : {false, true}) {
                check_case({1, 5, oc, 9, 9, 3, 1, 1}, l, as_1x1, c, true, true);  // k3s1p1
                check_case({3, 4, oc, 9, 8, 3, 2, 1}, l, as_1x1, c, true, true);  // k3s2p1
            }
}

TEST_CASE("dw post-op: a binary entry after the dw reads the depthwise output's operand", "[dw]") {
    const dw_shape p {2, 4, 19, 7, 7, 3, 2, 1};
    const std::vector<float> src = small_ints(p.mb * p.ic * p.ih * p.iw, 1, -2, 2);
    const std::vector<float> wei = small_ints(p.oc * p.ic, 2, -1, 1);
    const std::vector<float> bias = small_ints(p.oc, 3, -3, 3);
    const std::vector<float> dw_wei = small_ints(p.oc * p.k * p.k, 4, -1, 1);
    const std::vector<float> dw_bias = small_ints(p.oc, 5, -3, 3);
    const std::vector<float> add = small_ints(p.oc, 6, -5, 5);
    post_ops po = make_chain({{"relu"}, {"relu"}}, p, true);
    po.append_binary(algorithm::binary_add, post_ops::policy::per_oc);
    // The operand follows dst: the depthwise output's layout, per channel.
    const convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
            plain({p.mb, p.ic, p.ih, p.iw}), plain({p.oc, p.ic, 1, 1}), plain({p.oc}),
            plain({p.mb, p.oc, p.ih, p.iw}), {1, 1}, {0, 0}, {0, 0}, {0, 0});
    primitive_attr attr;
    attr.set_post_ops(po);
    const convolution_forward::primitive_desc pd(d, attr);
    const int arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(3) | PRIM_ARG_SRC_1;
    CHECK(pd.query_md(arg).get_dims() == dims({1, p.oc, 1, 1}));
    exec_args extra;
    extra[arg] = from_plain(add, pd.query_md(arg));
    const std::vector<float> got = run_fused(p, {"nchw", tag::nchw, ""}, true, po, src, wei, bias,
                                             dw_wei, dw_bias, extra);
    CHECK(got == oracle(p, src, wei, bias, dw_wei, dw_bias, {{"relu"}, {"relu"}}, &add));
}

TEST_CASE("dw post-op: a binary entry before the dw reads the 1x1 output's operand", "[dw]") {
    const dw_shape p {2, 5, 17, 8, 7, 3, 2, 1};
    const std::vector<float> src = small_ints(p.mb * p.ic * p.ih * p.iw, 21, -2, 2);
    const std::vector<float> wei = small_ints(p.oc * p.ic, 22, -1, 1);
    const std::vector<float> dw_wei = small_ints(p.oc * p.k * p.k, 23, -1, 1);
    const std::vector<float> dw_bias = small_ints(p.oc, 24, -3, 3);
    const std::vector<float> before = small_ints(p.oc, 25, -5, 5), after = small_ints(p.oc, 26, -5, 5);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_binary(algorithm::binary_add, post_ops::policy::per_oc);
    po.append_dw_k3s2p1(dt::f32, dt::f32, dt::f32, 0, {});
    po.append_binary(algorithm::binary_add, post_ops::policy::per_oc);
    // The reference, then the fused JIT pass of each ISA under test.
    for (cpu_isa isa : prim_test::isas_under_test())
        for (const layouts &l : all_layouts) {
            INFO(l.name << " " << cpu_isa_name(isa));
            const convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
                    data_desc({p.mb, p.ic, p.ih, p.iw}, l), plain({p.oc, p.ic, 1, 1}), memory::desc(),
                    data_desc({p.mb, p.oc, p.oh(), p.ow()}, l), {1, 1}, {0, 0}, {0, 0}, {0, 0});
            primitive_attr attr;
            attr.set_post_ops(po);
            attr.set_max_cpu_isa(isa);
            const convolution_forward::primitive_desc pd(d, attr);
            const int arg0 = PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_SRC_1;
            const int arg3 = PRIM_ARG_ATTR_MULTIPLE_POST_OP(3) | PRIM_ARG_SRC_1;
            CHECK(pd.query_md(arg0).get_dims() == dims({1, p.oc, 1, 1}));
            exec_args extra;
            extra[arg0] = from_plain(before, pd.query_md(arg0));
            extra[arg3] = from_plain(after, pd.query_md(arg3));
            std::string impl;
            const std::vector<float> got
                    = run_fused(p, l, false, po, src, wei, {}, dw_wei, dw_bias, extra, &impl, isa);
            CHECK(impl.rfind(isa == cpu_isa::none ? "ref" : std::string("jit:") + cpu_isa_name(isa), 0) == 0);
            CHECK(got == oracle(p, src, wei, {}, dw_wei, dw_bias, {{"relu"}, {}}, &after, &before));
        }
}

// The fused JIT pass (jit_conv_dw_fused.cpp): shapes none of the cases above has, each run
// capped to one ISA under test and checked to run on its JIT.
TEST_CASE("dw post-op: the fused JIT pass, kernels 3 and 5, strides 1 and 2, every padding", "[dw]") {
    const oracle_chain chains[] = {{{"relu"}, {"relu"}}, {{}, {}}, {{"linear:2:-1"}, {"abs", "clip:-3:4"}},
                                   {{"abs", "linear:0.5:1"}, {}}};
    const layouts jit_layouts[] = {all_layouts[1], all_layouts[2], all_layouts[4], all_layouts[3],
                                   all_layouts[0]};
    for (cpu_isa isa : prim_test::jit_isas_under_test()) {
        int ci = 0;
        for (int64_t k : {3, 5})
            for (int64_t s : {1, 2})
                for (int64_t pad = 0; pad < k; ++pad) {
                    // 40 channels: two and a half blocks of 16, five of 8; rows of 9 and 11.
                    const dw_shape p {2, 13, 40, 11, 9, k, s, pad};
                    check_case(p, jit_layouts[ci % 5], ci % 3 == 1, chains[ci % 4], ci % 2 == 0,
                               ci % 3 != 2, isa);
                    ++ci;
                }
    }
}

TEST_CASE("dw post-op: the fused JIT pass, channel tails, short and wide images", "[dw]") {
    const oracle_chain c {{"relu"}, {"linear:2:-1", "relu"}};
    const dw_shape shapes[] = {
            {1, 3, 2, 5, 5, 3, 1, 1},     // two channels
            {3, 7, 7, 1, 1, 3, 1, 1},     // one pixel: every tap but the centre in the padding
            {1, 16, 33, 2, 23, 3, 2, 0},  // two rows, stride 2 without padding
            {1, 24, 72, 14, 14, 3, 1, 1}, // a MobileNet-like short layer
            {2, 9, 16, 13, 3, 5, 2, 2},   // narrow rows
            // Rows so wide that the ring takes a chunk of the channels at a time.
            {1, 3, 80, 6, 400, 5, 1, 2},
            // One image of one or two channel blocks, large enough for two threads: strips of
            // rows, each recomputing its halo.
            {1, 8, 16, 64, 64, 3, 1, 1},
            {1, 8, 16, 61, 37, 5, 2, 2},
    };
    for (cpu_isa isa : prim_test::jit_isas_under_test())
        for (const dw_shape &p : shapes)
            for (const layouts &l : {all_layouts[1], all_layouts[4]})
                check_case(p, l, false, c, true, true, isa);
}

TEST_CASE("dw post-op: the entry's parameters, descs and implementation", "[dw]") {
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_dw_k3s2p1(dt::f32, dt::f32, dt::f32, 0, {});
    CHECK(po.get_kind(1) == post_ops::kind::dw);
    CHECK(po.dw_index() == 1);
    dt w, b, d;
    memory::dim k, s, p;
    int mask;
    std::vector<float> scales {7.f};
    po.get_params_dw(1, w, b, d, k, s, p, mask, scales);
    CHECK((w == dt::f32 && b == dt::f32 && d == dt::f32));
    CHECK((k == 3 && s == 2 && p == 1 && mask == 0 && scales.empty()));
    CHECK_INVALID(po.get_params_dw(0, w, b, d, k, s, p, mask, scales), "entry 0 is an eltwise, not a dw");

    const convolution_forward::desc desc(prop_kind::forward_inference, algorithm::convolution_direct,
            plain({2, 8, 10, 9}), plain({16, 8, 1, 1}), plain({16}), plain({2, 16, 10, 9}), {1, 1},
            {0, 0}, {0, 0}, {0, 0});
    primitive_attr attr;
    attr.set_post_ops(po);
    attr.set_max_cpu_isa(cpu_isa::none);
    const convolution_forward::primitive_desc pd(desc, attr);
    CHECK(pd.impl_name() == "ref");
    CHECK(pd.dst_desc().get_dims() == dims({2, 16, 5, 5}));
    CHECK(pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS)
          == memory::desc({16, 1, 1, 3, 3}, dt::f32, tag::goihw));
    // The fused JIT pass takes the depthwise weights in its kernel's layout, channels in blocks of
    // the vector's lanes.
    for (cpu_isa isa : prim_test::jit_isas_under_test()) {
        primitive_attr jit_attr = attr;
        jit_attr.set_max_cpu_isa(isa);
        const convolution_forward::primitive_desc jit_pd(desc, jit_attr);
        CHECK(jit_pd.impl_name().rfind(std::string("jit:") + cpu_isa_name(isa), 0) == 0);
        const std::string blocked = isa == cpu_isa::avx512 ? "Abcde16a" : "Abcde8a";
        CHECK(jit_pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS)
              == memory::desc({16, 1, 1, 3, 3}, dt::f32, blocked));
    }
    attr.set_max_cpu_isa(cpu_isa::all);
    CHECK(pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS) == memory::desc({16}, dt::f32, tag::x));
    CHECK(PRIM_ARG_ATTR_POST_OP_DW == 8192);

    // Without a depthwise bias there is no such argument.
    post_ops nob;
    nob.append_dw(dt::f32, dt::undef, dt::f32, 3, 1, 1, 0, {});
    attr.set_post_ops(nob);
    const convolution_forward::primitive_desc pd2(desc, attr);
    CHECK(pd2.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS).is_zero());
    CHECK(pd2.dst_desc().get_dims() == dims({2, 16, 10, 9}));

    // Strict mode refuses the reference, naming why the fused pass declined: a per-tensor operand
    // before the dw.
    post_ops per_tensor;
    per_tensor.append_binary(algorithm::binary_add, post_ops::policy::per_tensor);
    per_tensor.append_dw_k3s1p1(dt::f32, dt::f32, dt::f32, 0, {});
    attr.set_post_ops(per_tensor);
    attr.set_strict(true);
    if (get_effective_cpu_isa() != cpu_isa::none)
        CHECK_PRIM_ERROR(convolution_forward::primitive_desc(desc, attr), status::unimplemented,
                         "jit_dw_fused: a binary operand before the dw varying along the channels "
                         "and pixels");
}

TEST_CASE("dw post-op: fusion strings", "[dw]") {
    for (const char *text : {"dw:k3s1p1", "relu+dw:k3s2p1+tanh", "dw:k5s1p2:f32", "linear:2+dw:k1s1p0",
                             "dw:k7s3p3:u8+relu"}) {
        INFO(text);
        const post_ops po = parse_post_ops(text);
        CHECK(to_string(po) == text);
        CHECK(parse_post_ops(to_string(po)) == po);
    }
    const post_ops po = parse_post_ops("dw:k3s2p1");
    dt w, b, d;
    memory::dim k, s, p;
    int mask;
    std::vector<float> scales;
    po.get_params_dw(0, w, b, d, k, s, p, mask, scales);
    CHECK((w == dt::undef && b == dt::f32 && d == dt::undef && k == 3 && s == 2 && p == 1));
    CHECK_INVALID(parse_post_ops("dw"), "the dw post-op needs its shape (dw:k3s1p1)");
    CHECK_INVALID(parse_post_ops("dw:k3s1"), "bad dw shape 'k3s1'");
    CHECK_INVALID(parse_post_ops("dw:k3p1s1"), "bad dw shape 'k3p1s1'");
    CHECK_INVALID(parse_post_ops("dw:k3s1p1x"), "bad dw shape");
    CHECK_INVALID(parse_post_ops("dw:k3s1p3"), "padding 3 must be in [0, kernel - 1 = 2]");
    CHECK_INVALID(parse_post_ops("dw:k0s1p0"), "kernel 0 must be in [1, 2^30]");
    CHECK_INVALID(parse_post_ops("dw:k3s1p1:bf16"), "unsupported data type 'bf16'");
    CHECK_INVALID(parse_post_ops("dw:k3s1p1:f32:1"), "extra parameter '1'");
}

TEST_CASE("dw post-op: append_dw refuses bad parameters", "[dw]") {
    post_ops po;
    CHECK_INVALID(po.append_dw(dt::f32, dt::f32, dt::f32, 0, 1, 0, 0, {}), "post-op 0 (dw): kernel 0");
    CHECK_INVALID(po.append_dw(dt::f32, dt::f32, dt::f32, 3, 0, 1, 0, {}), "stride 0");
    CHECK_INVALID(po.append_dw(dt::f32, dt::f32, dt::f32, 3, 1, 3, 0, {}), "padding 3 must be in [0, kernel - 1 = 2]");
    CHECK_INVALID(po.append_dw(dt::f32, dt::f32, dt::f32, 3, 1, -1, 0, {}), "padding -1");
    CHECK_INVALID(po.append_dw(dt::f32, dt::f32, dt::f32, 3, 1, 1, -1, {}), "scales mask -1 is negative");
    CHECK_INVALID(po.append_dw(dt::f32, dt::f32, dt::f32, 3, 1, 1, 0, {nan_f}), "a scale is NaN");
    CHECK_INVALID(po.append_dw(static_cast<dt>(42), dt::f32, dt::f32, 3, 1, 1, 0, {}),
                  "weights data type 42 is not one of f32, s32, s8, u8");
    CHECK(po.len() == 0);
}

namespace {

convolution_forward::desc conv_desc(const dims &src, const dims &wei, const dims &dst,
                                    const dims &strides, const dims &pad) {
    return convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
            plain(src), plain(wei), plain(dst), strides, dims(strides.size(), 0), pad, pad);
}

primitive_attr attr_of(const std::string &chain) {
    primitive_attr a;
    a.set_post_ops(parse_post_ops(chain));
    return a;
}

} // namespace

TEST_CASE("dw post-op: refusals name the reason", "[dw]") {
    using pd_t = convolution_forward::primitive_desc;
    const auto c1x1 = conv_desc({1, 4, 8, 8}, {8, 4, 1, 1}, {1, 8, 8, 8}, {1, 1}, {0, 0});
    CHECK_INVALID(pd_t(conv_desc({1, 4, 8, 8}, {8, 4, 3, 3}, {1, 8, 8, 8}, {1, 1}, {1, 1}),
                       attr_of("dw:k3s1p1")),
                  "convolution: post-op 0 (dw): the depthwise post-op follows a 1x1 convolution only, "
                  "this one has a 3x3 kernel");
    CHECK_INVALID(pd_t(conv_desc({1, 4, 8, 8}, {8, 4, 1, 1}, {1, 8, 4, 4}, {2, 2}, {0, 0}),
                       attr_of("dw:k3s1p1")),
                  "follows a convolution of stride 1 only");
    CHECK_INVALID(pd_t(conv_desc({1, 4, 8, 8}, {8, 4, 1, 1}, {1, 8, 10, 10}, {1, 1}, {1, 1}),
                       attr_of("dw:k3s1p1")),
                  "follows an unpadded convolution only");
    CHECK_INVALID(pd_t(conv_desc({1, 4, 8}, {8, 4, 1}, {1, 8, 8}, {1}, {0}), attr_of("dw:k3s1p1")),
                  "follows a 2D convolution only");
    CHECK_INVALID(pd_t(c1x1, attr_of("dw:k3s1p1+relu+dw:k3s1p1")),
                  "two dw post-ops (post-ops 0 and 2): a chain holds one");
    CHECK_INVALID(pd_t(c1x1, attr_of("sum+dw:k3s1p1")),
                  "a sum (post-op 0) in a chain with a dw post-op (post-op 1): as in oneDNN, such a "
                  "chain takes no sum");
    CHECK_INVALID(pd_t(c1x1, attr_of("dw:k3s1p1+sum")), "a sum (post-op 1) in a chain with a dw");
    {
        // A given operand before the dw broadcasts against the 1x1's output, after it against dst.
        post_ops po;
        po.append_binary(algorithm::binary_add, plain({1, 8, 4, 4}));
        po.append_dw_k3s2p1(dt::f32, dt::f32, dt::f32, 0, {});
        primitive_attr a;
        a.set_post_ops(po);
        CHECK_INVALID(pd_t(c1x1, a),
                      "post-op 0 (add) src1 dims 1x8x4x4 do not broadcast against the destination "
                      "1x8x8x8: dim 2 is 4, it must be 8 or 1");
        po = post_ops();
        po.append_dw_k3s2p1(dt::f32, dt::f32, dt::f32, 0, {});
        po.append_binary(algorithm::binary_add, plain({1, 8, 8, 8}));
        a.set_post_ops(po);
        CHECK_INVALID(pd_t(c1x1, a),
                      "post-op 1 (add) src1 dims 1x8x8x8 do not broadcast against the destination "
                      "1x8x4x4");
    }
    CHECK_INVALID(pd_t(c1x1, attr_of("dw:k3s1p1:u8")),
                  "with an f32 convolution the depthwise post-op is f32 too (its u8");
    CHECK_INVALID(pd_t(conv_desc({1, 4, 8, 8}, {8, 4, 1, 1}, {1, 8, 5, 5}, {1, 1}, {0, 0}),
                       attr_of("dw:k3s2p1")),
                  "dst dims 1x8x5x5 are neither the 1x1 convolution's output 1x8x8x8 nor the "
                  "depthwise output 1x8x4x4");
    {
        post_ops po;
        po.append_dw(dt::f32, dt::f32, dt::f32, 3, 1, 1, 0, {0.5f});
        primitive_attr a;
        a.set_post_ops(po);
        CHECK_INVALID(pd_t(c1x1, a), "scales are supported in int8 inference only (src is f32)");
        po = post_ops();
        po.append_dw(dt::s8, dt::f32, dt::u8, 3, 1, 1, 0, {});
        a.set_post_ops(po);
        CHECK_INVALID(pd_t(c1x1, a), "with an f32 convolution the depthwise post-op is f32 too (its s8");
    }
    // Other primitives.
    CHECK_INVALID(inner_product_forward::primitive_desc(
                          inner_product_forward::desc(prop_kind::forward_inference, plain({2, 8}),
                                                      plain({4, 8}), plain({2, 4})),
                          attr_of("dw:k3s1p1")),
                  "post-op 0 (dw): the depthwise post-op follows a convolution only");
    CHECK_INVALID(eltwise_forward::primitive_desc(
                          eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_relu,
                                                plain({1, 8, 4, 4}), 0.f, 0.f),
                          attr_of("relu+dw:k3s1p1")),
                  "post-op 1 (dw): the depthwise post-op follows a convolution only");

    // Execute: the depthwise weights are required, with the desc query_md gives.
    const pd_t pd(c1x1, attr_of("dw:k3s1p1"));
    exec_args args {{PRIM_ARG_SRC, memory(pd.src_desc())}, {PRIM_ARG_WEIGHTS, memory(pd.weights_desc())},
                    {PRIM_ARG_DST, memory(pd.dst_desc())},
                    {PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS,
                     memory(pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS))}};
    CHECK_INVALID(convolution_forward(pd).execute(args),
                  "convolution mb1ic4ih8oc8oh8kh1: dw post-op weights argument is missing");
    args[PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS] = memory(plain({8, 3, 3}));
    CHECK_INVALID(convolution_forward(pd).execute(args), "dw post-op weights memory desc");
    args[PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS]
            = memory(pd.query_md(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS));
    args.erase(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS);
    CHECK_INVALID(convolution_forward(pd).execute(args), "dw post-op bias argument is missing");
}
