// reorder between data types (doc/int8.md): f32, s32, s8, u8 in any layouts, rounding half to
// even and saturating, with the attribute's output scales (any mask), v3 src/dst scales and
// zero points (quantize and dequantize), against values computed here.
#include "api_test_util.hpp"

namespace {

// A plain memory of dims and type holding vals (converted by the test, exactly representable).
memory plain_of(const dims &d, dt t, const std::vector<double> &vals) {
    std::string p;
    for (size_t i = 0; i < d.size(); ++i) p += static_cast<char>('a' + i);
    memory m(memory::desc(d, t, p));
    for (size_t i = 0; i < vals.size(); ++i) {
        void *h = m.get_data_handle();
        switch (t) {
        case dt::f32: static_cast<float *>(h)[i] = static_cast<float>(vals[i]); break;
        case dt::s32: static_cast<int32_t *>(h)[i] = static_cast<int32_t>(vals[i]); break;
        case dt::s8: static_cast<int8_t *>(h)[i] = static_cast<int8_t>(vals[i]); break;
        default: static_cast<uint8_t *>(h)[i] = static_cast<uint8_t>(vals[i]); break;
        }
    }
    return m;
}

double value_at(const memory &m, size_t i) {
    const void *h = m.get_data_handle();
    switch (m.get_desc().get_data_type()) {
    case dt::f32: return static_cast<const float *>(h)[i];
    case dt::s32: return static_cast<const int32_t *>(h)[i];
    case dt::s8: return static_cast<const int8_t *>(h)[i];
    default: return static_cast<const uint8_t *>(h)[i];
    }
}

memory value_mem(dt t, std::vector<float> v) {
    memory m(memory::desc({static_cast<memory::dim>(v.size())}, t, tag::x));
    for (size_t i = 0; i < v.size(); ++i) {
        if (t == dt::s32) static_cast<int32_t *>(m.get_data_handle())[i] = static_cast<int32_t>(v[i]);
        else static_cast<float *>(m.get_data_handle())[i] = v[i];
    }
    return m;
}

} // namespace

TEST_CASE("int8 reorder: conversions round half to even and saturate", "[int8][reorder]") {
    // 12 values, 4 times over: the flat quantize path takes 16 at a time (SIMD), the rest one
    // by one, and both must agree with the generic conversion.
    std::vector<double> in = {-300.5, -128.5, -127.5, -0.5, 0.5, 1.5, 2.5, 127.49, 254.5, 255.5,
                              3e9, -3e9};
    for (int i = 0; i < 36; ++i) in.push_back(in[static_cast<size_t>(i)]);
    const memory::dim n = static_cast<memory::dim>(in.size());
    const memory src = plain_of({n}, dt::f32, in);
    const struct {
        dt t;
        std::vector<double> want;
    } cases[] = {
        {dt::u8, {0, 0, 0, 0, 0, 2, 2, 127, 254, 255, 255, 0}},
        {dt::s8, {-128, -128, -128, 0, 0, 2, 2, 127, 127, 127, 127, -128}},
        {dt::s32, {-300, -128, -128, 0, 0, 2, 2, 127, 254, 256, 2147483520, -2147483648.0}},
    };
    for (const auto &c : cases) {
        INFO(data_type_name(c.t));
        memory dst(memory::desc({n}, c.t, tag::a));
        reorder(src, dst).execute(src, dst);
        for (size_t i = 0; i < in.size(); ++i) CHECK(value_at(dst, i) == c.want[i % 12]);
        // And back to f32: exact.
        memory back(memory::desc({n}, dt::f32, tag::a));
        reorder(dst, back).execute(dst, back);
        for (size_t i = 0; i < in.size(); ++i) CHECK(value_at(back, i) == static_cast<float>(c.want[i % 12]));
    }
    // NaN goes to 0, in the SIMD blocks and in the tail, to s8 and u8.
    const memory nan_src = plain_of({17}, dt::f32, std::vector<double>(17, std::nan("")));
    for (dt t : {dt::s8, dt::u8}) {
        memory nan_dst(memory::desc({17}, t, tag::a));
        reorder(nan_src, nan_dst).execute(nan_src, nan_dst);
        for (size_t i = 0; i < 17; ++i) CHECK(value_at(nan_dst, i) == 0);
    }
}

TEST_CASE("int8 reorder: same type between layouts is exact, s32 included", "[int8][reorder]") {
    const dims d = {2, 19, 3, 5};
    for (dt t : {dt::s32, dt::s8, dt::u8}) {
        std::vector<double> vals(2 * 19 * 3 * 5);
        for (size_t i = 0; i < vals.size(); ++i)
            vals[i] = t == dt::s32 ? 16777217.0 + static_cast<double>(i) * 3 : static_cast<double>(i % 100);
        const memory src = plain_of(d, t, vals);
        for (const char *layout : {"acdb", "aBcd16b", "ABcd8a16b"}) {
            memory mid(memory::desc(d, t, std::string(layout))), back(src.get_desc());
            reorder(src, mid).execute(src, mid);
            reorder(mid, back).execute(mid, back);
            INFO(data_type_name(t) << " " << layout);
            if (std::string(layout) == "acdb") // every element where nhwc puts it
                for (int64_t i = 0; i < 2 * 19 * 3 * 5; ++i) {
                    const int64_t w = i % 5, h = i / 5 % 3, c = i / 15 % 19, n = i / 285;
                    const int64_t at = ((n * 3 + h) * 5 + w) * 19 + c;
                    const size_t size = data_type_size(t);
                    REQUIRE(std::memcmp(static_cast<const char *>(mid.get_data_handle()) + at * size,
                                        static_cast<const char *>(src.get_data_handle()) + i * size, size) == 0);
                }
            CHECK(std::memcmp(src.get_data_handle(), back.get_data_handle(), src.get_desc().get_size()) == 0);
        }
    }
}

TEST_CASE("int8 reorder: quantize and dequantize between layouts (nchw f32 <-> nhwc int8)", "[int8][reorder]") {
    // A model's input (3 channels: rows of 37 pixels, two 16-pixel steps of the byte interleave
    // and a tail) and a wider tensor: each element where nhwc puts it, rounded half to even and
    // saturated, and back, as the same reorder within one layout gives.
    for (const dims &d : {dims {2, 3, 5, 37}, dims {2, 19, 3, 5}})
        for (dt t : {dt::u8, dt::s8}) {
            int64_t n = 1;
            for (auto x : d) n *= x;
            std::vector<double> vals;
            for (int64_t i = 0; i < n; ++i) vals.push_back((i % 41) * 0.75 - 10.25); // ties and saturation
            const memory src = plain_of(d, dt::f32, vals);
            primitive_attr attr;
            attr.set_scales_mask(PRIM_ARG_DST, 0);
            attr.set_zero_points_mask(PRIM_ARG_DST, 0);
            float scale = 0.125f;
            int32_t zp = t == dt::u8 ? 3 : -2;
            const memory::desc one({1}, dt::f32, tag::x), one_zp({1}, dt::s32, tag::x);
            const exec_args q_args = {{PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST, memory(one, &scale)},
                                      {PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, memory(one_zp, &zp)}};
            memory same(memory::desc(d, t, tag::nchw)), across(memory::desc(d, t, tag::nhwc));
            exec_args a = q_args;
            a[PRIM_ARG_FROM] = src;
            a[PRIM_ARG_TO] = same;
            reorder(src.get_desc(), same.get_desc(), attr).execute(a);
            a[PRIM_ARG_TO] = across;
            reorder(src.get_desc(), across.get_desc(), attr).execute(a);
            INFO(data_type_name(t) << " " << d[1] << " channels");
            for (int64_t i = 0; i < n; ++i) {
                const int64_t w = i % d[3], h = i / d[3] % d[2], c = i / (d[3] * d[2]) % d[1], b = i / (d[3] * d[2] * d[1]);
                const int64_t at = ((b * d[2] + h) * d[3] + w) * d[1] + c;
                REQUIRE(static_cast<const char *>(across.get_data_handle())[at]
                        == static_cast<const char *>(same.get_data_handle())[i]);
            }
            // Dequantized back from nhwc into nchw f32: equal to the dequantized nchw copy.
            primitive_attr back_attr;
            back_attr.set_scales_mask(PRIM_ARG_SRC, 0);
            back_attr.set_zero_points_mask(PRIM_ARG_SRC, 0);
            memory from_same(src.get_desc()), from_across(src.get_desc());
            const exec_args b_args = {{PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC, memory(one, &scale)},
                                      {PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, memory(one_zp, &zp)}};
            exec_args b = b_args;
            b[PRIM_ARG_FROM] = same;
            b[PRIM_ARG_TO] = from_same;
            reorder(same.get_desc(), src.get_desc(), back_attr).execute(b);
            b[PRIM_ARG_FROM] = across;
            b[PRIM_ARG_TO] = from_across;
            reorder(across.get_desc(), src.get_desc(), back_attr).execute(b);
            CHECK(std::memcmp(from_same.get_data_handle(), from_across.get_data_handle(), src.get_desc().get_size()) == 0);
        }
}

TEST_CASE("int8 reorder: quantize and dequantize with scales and zero points", "[int8][reorder]") {
    // 2 x 3 x 2: per-channel (dim 1) output scales quantize each channel with its own scale.
    const dims d = {2, 3, 2};
    std::vector<double> vals;
    for (int i = 0; i < 12; ++i) vals.push_back(i * 1.25 - 6);
    const memory src = plain_of(d, dt::f32, vals);
    const std::vector<float> scales = {2.f, 0.5f, 10.f};
    SECTION("output scales per dim 1, dst zero point") {
        primitive_attr attr;
        attr.set_output_scales(1 << 1, scales);
        attr.set_zero_points_mask(PRIM_ARG_DST, 0);
        memory dst(memory::desc(d, dt::u8, std::string("acb")));
        const reorder r(src.get_desc(), dst.get_desc(), attr);
        CHECK_INVALID(r.execute(src, dst), "given at execute");
        r.execute({{PRIM_ARG_FROM, src}, {PRIM_ARG_TO, dst},
                   {PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, value_mem(dt::s32, {128})}});
        memory plain(memory::desc(d, dt::u8, std::string("abc")));
        reorder(dst, plain).execute(dst, plain);
        for (size_t i = 0; i < 12; ++i) {
            const double want = std::min(255.0, std::max(0.0, std::nearbyint(vals[i] * scales[(i / 2) % 3] + 128)));
            CHECK(value_at(plain, i) == want);
        }
    }
    SECTION("v3: (src - zp) * src_scale / dst_scale, dequantize u8 to f32") {
        const memory q = plain_of(d, dt::u8, {0, 1, 2, 3, 100, 128, 129, 200, 250, 255, 7, 9});
        primitive_attr attr;
        attr.set_scales_mask(PRIM_ARG_SRC, 0);
        attr.set_zero_points_mask(PRIM_ARG_SRC, 0);
        memory dst(memory::desc(d, dt::f32, std::string("abc")));
        reorder(q.get_desc(), dst.get_desc(), attr)
                .execute({{PRIM_ARG_FROM, q}, {PRIM_ARG_TO, dst},
                          {PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC, value_mem(dt::f32, {0.125f})},
                          {PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, value_mem(dt::s32, {128})}});
        for (size_t i = 0; i < 12; ++i) CHECK(value_at(dst, i) == (value_at(q, i) - 128) * 0.125);
    }
    SECTION("bad attributes are refused") {
        primitive_attr count;
        count.set_output_scales(1 << 1, {1.f, 2.f});
        CHECK_INVALID(reorder(src.get_desc(), src.get_desc(), count), "output scales have 2 values, mask 2 needs 3");
        primitive_attr mixed;
        mixed.set_output_scales(0, {1.f});
        mixed.set_scales_mask(PRIM_ARG_DST, 0);
        CHECK_INVALID(reorder(src.get_desc(), src.get_desc(), mixed), "cannot be mixed");
        primitive_attr per_dim_zp;
        per_dim_zp.set_zero_points_mask(PRIM_ARG_SRC, 2);
        CHECK_INVALID(reorder(src.get_desc(), src.get_desc(), per_dim_zp), "must be 0");
        primitive_attr v3;
        v3.set_scales_mask(PRIM_ARG_DST, 0);
        const reorder r(src.get_desc(), src.get_desc(), v3);
        memory dst(src.get_desc());
        CHECK_INVALID(r.execute({{PRIM_ARG_FROM, src}, {PRIM_ARG_TO, dst}}), "dst scales argument is missing");
        CHECK_INVALID(r.execute({{PRIM_ARG_FROM, src}, {PRIM_ARG_TO, dst},
                                 {PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST, value_mem(dt::s32, {1})}}),
                      "memory desc a:s32:1 differs from a:1");
    }
}

TEST_CASE("int8 reorder: weights in oneDNN's VNNI layouts, a dim blocked twice", "[int8][reorder]") {
    // AB16b64a4b: b (ic) blocked by 16 then by 4 inside the block of 64 along a (oc).
    const memory::desc vnni({37, 70}, dt::s8, std::string("AB16b64a4b"));
    CHECK(vnni.layout() == "AB16b64a4b");
    CHECK(vnni.padded_dims() == dims {64, 128});
    const memory::dim idx[2] = {1, 5}; // inner: (5 / 4) % 16 = 1, 1 % 64 = 1, 5 % 4 = 1
    CHECK(vnni.offset(idx) == (1 * 64 + 1) * 4 + 1);
    const memory::dim next[2] = {0, 64}; // the second block along b
    CHECK(vnni.offset(next) == 64 * 64);
    std::vector<double> vals;
    for (int i = 0; i < 37 * 70; ++i) vals.push_back(i % 251 - 125);
    const memory src = plain_of({37, 70}, dt::s8, vals);
    for (const char *layout : {"AB16b64a4b", "AB4b32a4b", "AB8b16a2b", "BA16a64b4a"}) {
        memory mid(memory::desc({37, 70}, dt::s8, std::string(layout))), back(src.get_desc());
        reorder(src, mid).execute(src, mid);
        reorder(mid, back).execute(mid, back);
        INFO(layout);
        CHECK(std::memcmp(src.get_data_handle(), back.get_data_handle(), src.get_desc().get_size()) == 0);
        // Padding is zero: the sum of all bytes equals the sum of the values.
        long long sum = 0, want = 0;
        for (size_t i = 0; i < mid.get_desc().get_size(); ++i) sum += static_cast<const int8_t *>(mid.get_data_handle())[i];
        for (double v : vals) want += static_cast<long long>(v);
        CHECK(sum == want);
    }
    // f32 weights take the same layouts.
    const memory f = plain_of({37, 70}, dt::f32, vals);
    memory fv(memory::desc({37, 70}, dt::f32, std::string("AB16b64a4b"))), fb(f.get_desc());
    reorder(f, fv).execute(f, fv);
    reorder(fv, fb).execute(fv, fb);
    CHECK(std::memcmp(f.get_data_handle(), fb.get_data_handle(), f.get_desc().get_size()) == 0);
}

TEST_CASE("int8 reorder: quantize and dequantize beyond the caches (streamed stores) follow the element rule",
          "[int8][reorder]") {
    const memory::dim n = (memory::dim(1) << 22) + 17; // the streaming path, and a tail
    memory src(memory::desc({n}, dt::f32, tag::a)), dst(memory::desc({n}, dt::s8, tag::a));
    float *f = static_cast<float *>(src.get_data_handle());
    for (memory::dim i = 0; i < n; ++i) f[i] = static_cast<float>(i % 1001) * 0.37f - 185.f;
    primitive_attr attr;
    attr.set_output_scales(0, {0.75f});
    attr.set_zero_points_mask(PRIM_ARG_DST, 0);
    reorder(src.get_desc(), dst.get_desc(), attr)
            .execute({{PRIM_ARG_FROM, src}, {PRIM_ARG_TO, dst},
                      {PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, value_mem(dt::s32, {-3})}});
    const int8_t *q = static_cast<const int8_t *>(dst.get_data_handle());
    memory::dim bad = 0;
    for (memory::dim i = 0; i < n; ++i) {
        const float v = f[i] * 0.75f + -3.f;
        const double want = std::nearbyint(std::min(std::max(static_cast<double>(v), -128.0), 127.0));
        bad += q[i] != want;
    }
    CHECK(bad == 0);
    // And back (streamed too): (q - zp) * scale.
    primitive_attr back_attr;
    back_attr.set_output_scales(0, {2.f});
    back_attr.set_zero_points_mask(PRIM_ARG_SRC, 0);
    memory back(memory::desc({n}, dt::f32, tag::a));
    reorder(dst.get_desc(), back.get_desc(), back_attr)
            .execute({{PRIM_ARG_FROM, dst}, {PRIM_ARG_TO, back},
                      {PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, value_mem(dt::s32, {-3})}});
    const float *b = static_cast<const float *>(back.get_data_handle());
    bad = 0;
    for (memory::dim i = 0; i < n; ++i) bad += b[i] != (static_cast<float>(q[i]) + 3.f) * 2.f;
    CHECK(bad == 0);
}

// The sums per output channel (and group) of s8 weights, computed here from logical indices.
std::vector<int32_t> sums_of(const memory &m, int out_dims) {
    const dims &d = m.get_desc().get_dims();
    memory::dim outs = 1, total = 1;
    for (int i = 0; i < out_dims; ++i) outs *= d[static_cast<size_t>(i)];
    for (memory::dim x : d) total *= x;
    std::vector<int32_t> s(static_cast<size_t>(outs), 0);
    dims idx(d.size(), 0);
    for (memory::dim e = 0; e < total; ++e) {
        const auto v = static_cast<const int8_t *>(m.get_data_handle())[m.get_desc().offset(idx.data())];
        s[static_cast<size_t>(e / (total / outs))] += v;
        for (int i = static_cast<int>(d.size()) - 1; i >= 0 && ++idx[static_cast<size_t>(i)] == d[static_cast<size_t>(i)]; --i)
            idx[static_cast<size_t>(i)] = 0;
    }
    return s;
}

TEST_CASE("int8 reorder: weights with their sums (the compensation extra)", "[int8][reorder]") {
    // The packed int8 weights layouts an int8 convolution or inner product chooses carry, after
    // the elements, the s32 sum of each output channel's weights: every reorder into such a
    // desc writes them, whatever the source (plain, strided, blocked, f32 quantized with a
    // scale).
    const struct {
        dims d;
        std::string from, to;
        int out_dims;
    } cases[] = {
        {{37, 13, 3, 3}, "abcd", "AcdB64a4b", 1},           // oihw -> the packed layout, tails
        {{37, 13, 3, 3}, "acdb", "AcdB64a4b", 1},           // ohwi
        {{3, 17, 6, 1, 3}, "abcde", "aBdeC48b4c", 2},       // grouped
        {{24, 1, 1, 3, 3}, "abcde", "Abcde48a", 2},         // depthwise
        {{70, 30}, "ba", "AB64a4b", 1},                     // an inner product's io
        {{5, 9, 2, 2}, "aBcd16b", "abcd", 1},               // a blocked source, a plain target
    };
    for (const auto &c : cases) {
        INFO(c.from << " -> " << c.to);
        memory::dim n = 1;
        for (memory::dim x : c.d) n *= x;
        std::vector<double> vals(static_cast<size_t>(n));
        for (memory::dim i = 0; i < n; ++i) vals[static_cast<size_t>(i)] = static_cast<double>((i * 37 + 11) % 256) - 128;
        const memory plain = plain_of(c.d, dt::s8, vals);
        memory src(memory::desc(c.d, dt::s8, c.from));
        reorder(plain.get_desc(), src.get_desc()).execute(plain, src);
        const memory::desc to = memory::desc(c.d, dt::s8, c.to).with_weight_sums(c.out_dims);
        CHECK(to.get_size() == memory::desc(c.d, dt::s8, c.to).get_size()
                               + 4 * static_cast<size_t>(c.out_dims == 1 ? c.d[0] : c.d[0] * c.d[1]));
        CHECK(to != memory::desc(c.d, dt::s8, c.to));
        memory dst(to);
        reorder(src.get_desc(), to).execute(src, dst);
        const std::vector<int32_t> want = sums_of(plain, c.out_dims);
        const auto *got = reinterpret_cast<const int32_t *>(static_cast<const char *>(dst.get_data_handle())
                                                           + to.nelems_padded());
        CHECK(std::vector<int32_t>(got, got + want.size()) == want);
        // From f32 through a scale of 0.5: the sums are of the s8 values written.
        std::vector<double> doubled(vals);
        for (double &v : doubled) v *= 2;
        const memory f = plain_of(c.d, dt::f32, doubled);
        primitive_attr attr;
        attr.set_output_scales(0, {0.5f});
        memory q(to);
        reorder(f.get_desc(), to, attr).execute(f, q);
        const auto *got_q = reinterpret_cast<const int32_t *>(static_cast<const char *>(q.get_data_handle())
                                                             + to.nelems_padded());
        CHECK(std::vector<int32_t>(got_q, got_q + want.size()) == want);
        // And back: the sums are not elements.
        memory back(plain.get_desc());
        reorder(to, plain.get_desc()).execute(dst, back);
        CHECK(std::memcmp(back.get_data_handle(), plain.get_data_handle(), plain.get_desc().get_size()) == 0);
    }
    // Only on s8, 1 or 2 leading dims below the rank.
    CHECK_THROWS_WITH(memory::desc({4, 4}, dt::f32, tag::ab).with_weight_sums(1),
                      Catch::Contains("weight sums need an s8 layout"));
    CHECK_THROWS_WITH(memory::desc({4, 4}, dt::s8, tag::ab).with_weight_sums(2),
                      Catch::Contains("weight sums need an s8 layout"));
}
