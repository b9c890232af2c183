// Arguments that share memory (issue 11). An operation that cannot run in place refuses, at
// execute, a dst whose bytes overlap those of another argument, with invalid_arguments naming
// both; before, the call ran and left wrong values (a reorder ab -> ba in one buffer: 28 of 64;
// a 3x3 convolution with src and dst in one buffer: 638 of 800). Where in place is defined
// (eltwise with src == dst and one layout; a reorder between equal descs) it works. Ranges that
// only touch (one ends where the other begins) do not overlap. Rules: doc/design.md, "Arguments
// that share memory". Every ISA cap is tried: the check comes before any kernel runs.
#include "api_test_util.hpp"

#include <numeric>

namespace {

const cpu_isa isas[] = {cpu_isa::all, cpu_isa::avx2, cpu_isa::none};

primitive_attr isa_attr(cpu_isa isa) {
    primitive_attr attr;
    attr.set_max_cpu_isa(isa);
    return attr;
}

// One buffer that several memory objects view at chosen float offsets.
struct arena {
    std::vector<float> buf;
    explicit arena(size_t n) : buf(n, 0.f) {}
    memory at(const memory::desc &md, size_t off) { return memory(md, buf.data() + off); }
};

size_t floats(const memory::desc &md) { return md.get_size() / sizeof(float); }

void fill_small_ints(const memory &m, int seed) {
    float *p = data(m);
    for (size_t i = 0; i < floats(m.get_desc()); ++i) p[i] = float((int(i) * 7 + seed) % 9 - 4);
}

// mb2 ic4 ih10 oc4 oh10 kh3 ph1 with bias: src and dst have the same 800 elements.
struct conv3x3 {
    memory::desc src = plain({2, 4, 10, 10}), wei = plain({4, 4, 3, 3}), bias = plain({4}),
                 dst = plain({2, 4, 10, 10});
    convolution_forward::primitive_desc pd(cpu_isa isa) const {
        return convolution_forward::primitive_desc(
                convolution_forward::desc(prop_kind::forward_inference,
                        algorithm::convolution_direct, src, wei, bias, dst, {1, 1}, {0, 0},
                        {1, 1}, {1, 1}),
                isa_attr(isa));
    }
};

exec_args conv_args(const memory &s, const memory &w, const memory &b, const memory &d) {
    return {{PRIM_ARG_SRC, s}, {PRIM_ARG_WEIGHTS, w}, {PRIM_ARG_BIAS, b}, {PRIM_ARG_DST, d}};
}

} // namespace

TEST_CASE("convolution refuses a dst that overlaps src, weights or bias", "[aliasing][conv]") {
    const conv3x3 c;
    const size_t ns = floats(c.src), nw = floats(c.wei), nb = floats(c.bias);
    for (const cpu_isa isa : isas) {
        INFO("isa " << cpu_isa_name(isa));
        const auto pd = c.pd(isa);
        const convolution_forward conv(pd);
        // The right answer, from separate buffers.
        memory src(c.src), wei(c.wei), bias(c.bias), dst(c.dst);
        fill_small_ints(src, 1);
        fill_small_ints(wei, 2);
        fill_small_ints(bias, 3);
        conv.execute(conv_args(src, wei, bias, dst));
        const std::vector<float> want(data(dst), data(dst) + ns);

        // src and dst in one buffer (before: 638 of 800 wrong), and dst starting in the middle
        // of src, or just before it.
        const size_t src_dst_offsets[][2] = {{1, 1}, {1, 1 + ns / 2}, {1, 0}};
        for (const auto &off : src_dst_offsets) {
            INFO("src at float " << off[0] << ", dst at float " << off[1]);
            arena a(2 * ns + 1);
            const memory s = a.at(c.src, off[0]), d = a.at(c.dst, off[1]);
            std::copy(data(src), data(src) + ns, data(s));
            CHECK_INVALID(conv.execute(conv_args(s, wei, bias, d)), "dst and src overlap");
        }
        // dst over the weights, over the bias.
        {
            arena a(ns + nw);
            const memory w = a.at(c.wei, 0), d = a.at(c.dst, nw - 1);
            CHECK_INVALID(conv.execute(conv_args(src, w, bias, d)), "dst and weights overlap");
        }
        {
            arena a(ns + nb);
            const memory b = a.at(c.bias, ns - 1), d = a.at(c.dst, 0);
            CHECK_INVALID(conv.execute(conv_args(src, wei, b, d)), "dst and bias overlap");
        }
        // All four back to back in one buffer, touching but not overlapping: runs, right values.
        arena a(ns + nw + nb + ns);
        const memory s = a.at(c.src, 0), w = a.at(c.wei, ns), b = a.at(c.bias, ns + nw),
                     d = a.at(c.dst, ns + nw + nb);
        std::copy(data(src), data(src) + ns, data(s));
        std::copy(data(wei), data(wei) + nw, data(w));
        std::copy(data(bias), data(bias) + nb, data(b));
        conv.execute(conv_args(s, w, b, d));
        CHECK(std::equal(want.begin(), want.end(), data(d)));
        // src, weights and bias may share bytes: they are only read.
        arena shared(ns);
        const memory s2 = shared.at(c.src, 0), w2 = shared.at(c.wei, 0), b2 = shared.at(c.bias, 0);
        std::copy(data(src), data(src) + ns, data(s2));
        CHECK_NOTHROW(conv.execute(conv_args(s2, w2, b2, dst)));
    }
}

TEST_CASE("convolution with src and dst in one buffer no longer computes wrong values",
          "[aliasing][conv]") {
    // What issue 11 saw: the call ran and 638 of the 800 outputs were wrong. Now it is refused
    // and the buffer is left as it was.
    const conv3x3 c;
    const auto pd = c.pd(cpu_isa::all);
    memory wei(c.wei), bias(c.bias);
    fill_small_ints(wei, 2);
    fill_small_ints(bias, 3);
    memory buf(c.src);
    fill_small_ints(buf, 1);
    const std::vector<float> before(data(buf), data(buf) + floats(c.src));
    CHECK_INVALID(convolution_forward(pd).execute(conv_args(buf, wei, bias, buf)),
                  "convolution cannot run in place");
    CHECK(std::equal(before.begin(), before.end(), data(buf)));
}

TEST_CASE("inner product refuses a dst that overlaps src, weights or bias", "[aliasing][ip]") {
    // mb8 ic8 oc8: every argument but the bias has 64 elements.
    const memory::desc src = plain({8, 8}), wei = plain({8, 8}), bias = plain({8}),
                       dst = plain({8, 8});
    for (const cpu_isa isa : isas) {
        INFO("isa " << cpu_isa_name(isa));
        const inner_product_forward ip(inner_product_forward::primitive_desc(
                inner_product_forward::desc(prop_kind::forward_inference, src, wei, bias, dst),
                isa_attr(isa)));
        memory s(src), w(wei), b(bias), d(dst);
        fill_small_ints(s, 1);
        fill_small_ints(w, 2);
        fill_small_ints(b, 3);
        CHECK_INVALID(ip.execute(conv_args(s, w, b, s)), "dst and src overlap");
        CHECK_INVALID(ip.execute(conv_args(s, w, b, w)), "dst and weights overlap");
        arena a(64 + 8);
        const memory b2 = a.at(bias, 64), d2 = a.at(dst, 1);
        CHECK_INVALID(ip.execute(conv_args(s, w, b2, d2)), "dst and bias overlap");
        CHECK_NOTHROW(ip.execute(conv_args(s, w, b, d)));
    }
}

TEST_CASE("reorder between different layouts refuses overlapping src and dst",
          "[aliasing][reorder]") {
    // ab -> ba in one 8x8 buffer: before, 28 of 64 elements came out wrong.
    const memory::desc ab({8, 8}, dt::f32, tag::ab), ba({8, 8}, dt::f32, tag::ba);
    const reorder r(ab, ba);
    std::vector<float> buf(64 + 64);
    std::iota(buf.begin(), buf.end(), 0.f);
    const std::vector<float> before = buf;
    CHECK_INVALID(r.execute(memory(ab, buf.data()), memory(ba, buf.data())),
                  "reorder: dst and src overlap");
    CHECK(buf == before);
    CHECK_INVALID(r.execute(memory(ab, buf.data()), memory(ba, buf.data() + 63)),
                  "dst and src overlap");
    CHECK_INVALID(r.execute(memory(ab, buf.data() + 63), memory(ba, buf.data())),
                  "dst and src overlap");
    CHECK_INVALID(r.execute(exec_args {{PRIM_ARG_FROM, memory(ab, buf.data())},
                                       {PRIM_ARG_TO, memory(ba, buf.data() + 32)}}),
                  "dst and src overlap");
    // Back to back: fine, and the transpose is right.
    r.execute(memory(ab, buf.data()), memory(ba, buf.data() + 64));
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) CHECK(buf[64 + j * 8 + i] == float(i * 8 + j));
}

TEST_CASE("reorder between equal descs runs in place as a no-op", "[aliasing][reorder]") {
    for (const std::string pattern : {"abc", "acb", "aBc8b"}) {
        INFO("layout " << pattern);
        const memory::desc md({2, 11, 3}, dt::f32, pattern);
        memory m(md);
        std::iota(data(m), data(m) + floats(md), 1.f);
        const std::vector<float> before(data(m), data(m) + floats(md));
        CHECK_NOTHROW(reorder(md, md).execute(m, m));
        CHECK(std::equal(before.begin(), before.end(), data(m)));
        // Equal descs that overlap without being the same buffer: refused.
        std::vector<float> buf(2 * floats(md));
        CHECK_INVALID(reorder(md, md).execute(memory(md, buf.data()), memory(md, buf.data() + 1)),
                      "dst and src overlap");
    }
}

TEST_CASE("eltwise runs in place when src and dst are one buffer with one layout",
          "[aliasing][eltwise]") {
    // Plain (JIT and reference) and blocked with padding (reference); with and without a sum,
    // whose old dst is then the source value.
    const memory::dims d = {2, 19, 5};
    for (const std::string pattern : {"abc", "acb", "aBc16b"})
        for (const char *chain : {"", "sum:0.5"})
            for (const cpu_isa isa : isas) {
                INFO("layout " << pattern << " chain '" << chain << "' isa " << cpu_isa_name(isa));
                const memory::desc md(d, dt::f32, pattern);
                primitive_attr attr = isa_attr(isa);
                attr.set_post_ops(parse_post_ops(chain));
                const eltwise_forward elt(eltwise_forward::primitive_desc(
                        eltwise_forward::desc(prop_kind::forward_inference,
                                algorithm::eltwise_relu, md, md, 0.25f, 0.f),
                        attr));
                memory src(md), out(md), in_place(md);
                fill_small_ints(src, 5);
                std::copy(data(src), data(src) + floats(md), data(out));
                std::copy(data(src), data(src) + floats(md), data(in_place));
                elt.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, out}}); // old dst = src values
                elt.execute({{PRIM_ARG_SRC, in_place}, {PRIM_ARG_DST, in_place}});
                CHECK(std::equal(data(out), data(out) + floats(md), data(in_place)));
            }
}

TEST_CASE("eltwise refuses other overlaps of src and dst", "[aliasing][eltwise]") {
    const memory::desc plain_md({4, 33}, dt::f32, tag::ab), other({4, 33}, dt::f32, tag::ba);
    for (const cpu_isa isa : isas) {
        INFO("isa " << cpu_isa_name(isa));
        const eltwise_forward same(eltwise_forward::primitive_desc(
                eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_relu,
                                      plain_md, plain_md, 0.f, 0.f),
                isa_attr(isa)));
        std::vector<float> buf(2 * 132);
        // Shifted by one element: each vector would overwrite source values not yet read.
        CHECK_INVALID(same.execute({{PRIM_ARG_SRC, memory(plain_md, buf.data())},
                                    {PRIM_ARG_DST, memory(plain_md, buf.data() + 1)}}),
                      "dst and src overlap");
        CHECK_INVALID(same.execute({{PRIM_ARG_SRC, memory(plain_md, buf.data() + 1)},
                                    {PRIM_ARG_DST, memory(plain_md, buf.data())}}),
                      "dst and src overlap");
        // One buffer, two layouts: not in place, refused.
        const eltwise_forward transposing(eltwise_forward::primitive_desc(
                eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_relu,
                                      plain_md, other, 0.f, 0.f),
                isa_attr(isa)));
        CHECK_INVALID(transposing.execute({{PRIM_ARG_SRC, memory(plain_md, buf.data())},
                                           {PRIM_ARG_DST, memory(other, buf.data())}}),
                      "in place needs one layout");
        CHECK_NOTHROW(transposing.execute({{PRIM_ARG_SRC, memory(plain_md, buf.data())},
                                           {PRIM_ARG_DST, memory(other, buf.data() + 132)}}));
    }
}
