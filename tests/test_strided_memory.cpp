// Memory descriptors by strides (memory::desc(dims, dt, strides), as oneDNN's): the buffer they
// span, overlapping strides refused, reorders that leave the gaps alone, and primitives that
// read and write strided tensors with the reference's result, on every ISA.
#include <catch2/catch.hpp>

#include <vector>

#include "prim/prim.hpp"

using namespace prim;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

float *data(const memory &m) { return static_cast<float *>(m.get_data_handle()); }

// The dims of d, copied from a plain buffer into a strided one (and back): by offset().
void copy_plain(const memory::desc &md, const std::vector<float> &plain, float *buf) {
    reorder(memory::desc(md.get_dims(), dt::f32, std::string("abcd").substr(0, md.ndims())), md)
            .execute(memory(memory::desc(md.get_dims(), dt::f32, std::string("abcd").substr(0, md.ndims())),
                            const_cast<float *>(plain.data())),
                     memory(md, buf));
}

} // namespace

TEST_CASE("strided descs: span, offsets, density, refusals", "[memory][strides]") {
    // 2x3 rows of 5 floats, 3 used: a view of columns 0..2.
    const memory::desc view({2, 3}, dt::f32, memory::dims {5, 1});
    CHECK(view.nelems_padded() == 8); // 1 + 1*5 + 2*1
    CHECK_FALSE(view.is_dense());
    const memory::dim idx[2] = {1, 2};
    CHECK(view.offset(idx) == 7);
    CHECK(view.layout() == "ab");
    // Strides of a plain layout give the same desc as its tag.
    CHECK(memory::desc({2, 3, 4, 5}, dt::f32, memory::dims {60, 1, 15, 3})
          == memory::desc({2, 3, 4, 5}, dt::f32, tag::nhwc));
    CHECK(memory::desc({2, 3, 4, 5}, dt::f32, memory::dims {60, 1, 15, 3}).is_dense());
    CHECK_THROWS_WITH(memory::desc({2, 3}, dt::f32, memory::dims {2, 1}), Catch::Contains("overlap"));
    CHECK_THROWS_WITH(memory::desc({2, 3}, dt::f32, memory::dims {3}), Catch::Contains("one stride per dim"));
    CHECK_THROWS_WITH(memory::desc({2, 3}, dt::f32, memory::dims {3, 0}), Catch::Contains("positive"));
    CHECK_THROWS_WITH(memory::desc({2, 3}, dt::f32, memory::dims {memory::dim(1) << 62, 1}),
                      Catch::Contains("too large"));
}

TEST_CASE("strided descs: a reorder writes the elements and leaves the gaps alone", "[memory][strides]") {
    const memory::desc plain({2, 3, 4}, dt::f32, tag::abc);
    const memory::desc gapped({2, 3, 4}, dt::f32, memory::dims {40, 12, 2}); // every other float
    memory src(plain), dst(gapped);
    for (int i = 0; i < 24; ++i) data(src)[i] = float(i + 1);
    for (memory::dim i = 0; i < gapped.nelems_padded(); ++i) data(dst)[i] = -5.f;
    reorder(plain, gapped).execute(src, dst);
    int gaps = 0, wrong = 0;
    for (memory::dim a = 0; a < 2; ++a)
        for (memory::dim b = 0; b < 3; ++b)
            for (memory::dim c = 0; c < 4; ++c) {
                const memory::dim idx[3] = {a, b, c};
                wrong += data(dst)[gapped.offset(idx)] != data(src)[plain.offset(idx)];
            }
    for (memory::dim i = 0; i < gapped.nelems_padded(); ++i) gaps += data(dst)[i] == -5.f;
    CHECK(wrong == 0);
    CHECK(gaps == gapped.nelems_padded() - 24);
}

TEST_CASE("strided descs: convolution, inner product and eltwise on strided tensors",
          "[memory][strides]") {
    for (const cpu_isa isa : {cpu_isa::none, cpu_isa::avx2, cpu_isa::all}) {
        if (isa != cpu_isa::none && get_effective_cpu_isa() < cpu_isa::avx2) continue;
        primitive_attr attr;
        attr.set_max_cpu_isa(isa);
        attr.set_post_ops(parse_post_ops("sum:0.5+relu"));
        // Convolution mb2 ic3 5x5 -> oc4 3x3: src as a view with padded rows (row stride 8),
        // dst channels-last with a gap after each pixel (pixel stride 6 for 4 channels).
        const memory::desc src_s({2, 3, 5, 5}, dt::f32, memory::dims {3 * 5 * 8, 5 * 8, 8, 1});
        const memory::desc dst_s({2, 4, 3, 3}, dt::f32, memory::dims {9 * 6, 1, 3 * 6, 6});
        const memory::desc src_p({2, 3, 5, 5}, dt::f32, tag::nchw), dst_p({2, 4, 3, 3}, dt::f32, tag::nchw);
        const memory::desc wei({4, 3, 3, 3}, dt::f32, tag::oihw);
        std::vector<float> s(150), w(108), d_old(72);
        for (size_t i = 0; i < s.size(); ++i) s[i] = float(int(i * 7 % 5) - 2);
        for (size_t i = 0; i < w.size(); ++i) w[i] = float(int(i * 3 % 5) - 2);
        for (size_t i = 0; i < d_old.size(); ++i) d_old[i] = float(int(i % 7) - 3);
        auto run = [&](const memory::desc &smd, const memory::desc &dmd) {
            convolution_forward::primitive_desc pd(
                    convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                              smd, wei, dmd, {1, 1}, {0, 0}, {0, 0}, {0, 0}),
                    attr);
            memory sm(smd), wm(wei, w.data()), dm(dmd);
            copy_plain(smd, s, data(sm));
            copy_plain(dmd, d_old, data(dm));
            convolution_forward(pd).execute({{PRIM_ARG_SRC, sm}, {PRIM_ARG_WEIGHTS, wm}, {PRIM_ARG_DST, dm}});
            std::vector<float> out(72);
            reorder(dmd, dst_p).execute(dm, memory(dst_p, out.data()));
            return std::make_pair(out, pd.impl_name());
        };
        const auto want = run(src_p, dst_p), got = run(src_s, dst_s);
        INFO("isa cap " << cpu_isa_name(isa) << ", impl " << got.second);
        CHECK(got.first == want.first);
        if (isa != cpu_isa::none) CHECK(got.second.rfind("jit:", 0) == 0);

        // Eltwise in place on a gapped tensor: only the elements change.
        const memory::desc e_md({3, 5}, dt::f32, memory::dims {8, 1});
        eltwise_forward::primitive_desc epd(
                eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_abs, e_md, 0.f, 0.f));
        memory em(e_md);
        for (memory::dim i = 0; i < e_md.nelems_padded(); ++i) data(em)[i] = -float(i);
        eltwise_forward(epd).execute({{PRIM_ARG_SRC, em}, {PRIM_ARG_DST, em}});
        for (memory::dim i = 0; i < e_md.nelems_padded(); ++i)
            CHECK(data(em)[i] == (i % 8 < 5 ? float(i) : -float(i)));
    }
}
