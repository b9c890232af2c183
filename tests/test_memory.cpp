// Memory descriptors, layouts and reorder.
#include <catch2/catch.hpp>

#include <numeric>

#include "prim/prim.hpp"

using namespace prim;
using tag = memory::format_tag;
using dt = memory::data_type;

TEST_CASE("plain layouts place elements as their names say", "[memory]") {
    const memory::dims d = {2, 3, 4, 5};
    memory::desc nchw(d, dt::f32, tag::nchw), nhwc(d, dt::f32, tag::nhwc),
            hwio(d, dt::f32, tag::hwio);
    for (memory::dim n = 0; n < 2; ++n)
        for (memory::dim c = 0; c < 3; ++c)
            for (memory::dim h = 0; h < 4; ++h)
                for (memory::dim w = 0; w < 5; ++w) {
                    const memory::dim idx[] = {n, c, h, w};
                    CHECK(nchw.offset(idx) == ((n * 3 + c) * 4 + h) * 5 + w);
                    CHECK(nhwc.offset(idx) == ((n * 4 + h) * 5 + w) * 3 + c);
                    // hwio: dims are (o, i, h, w) stored h, w, i, o
                    CHECK(hwio.offset(idx) == ((h * 5 + w) * 3 + c) * 2 + n);
                }
    CHECK(nchw.get_size() == 2 * 3 * 4 * 5 * sizeof(float));
    CHECK(nchw.layout() == "abcd");
    CHECK(nhwc.layout() == "acdb");
    CHECK(nchw != nhwc);
    CHECK(nchw == memory::desc(d, dt::f32, std::string("abcd")));
}

TEST_CASE("blocked layouts pad the blocked dims", "[memory]") {
    memory::desc blk({2, 20, 3, 3}, dt::f32, std::string("aBcd16b"));
    CHECK(blk.padded_dims() == memory::dims {2, 32, 3, 3});
    CHECK(blk.nelems_padded() == 2 * 32 * 9);
    CHECK(blk.layout() == "aBcd16b");
    for (memory::dim c = 0; c < 20; ++c) {
        const memory::dim idx[] = {1, c, 2, 1};
        CHECK(blk.offset(idx) == ((1 * 2 + c / 16) * 3 + 2) * 3 * 16 + 1 * 16 + c % 16);
    }
    memory::desc w({20, 3, 3, 3}, dt::f32, std::string("ABcd16b16a"));
    CHECK(w.padded_dims() == memory::dims {32, 16, 3, 3});
    const memory::dim idx[] = {17, 2, 1, 0};
    CHECK(w.offset(idx) == (((1 * 1 + 0) * 3 + 1) * 3 + 0) * 256 + 2 * 16 + 1);
}

TEST_CASE("reorder round trips through every layout and zeroes padding", "[memory][reorder]") {
    const memory::dims d = {3, 21, 4, 5};
    memory::desc plain(d, dt::f32, tag::nchw);
    memory src(plain);
    float *s = static_cast<float *>(src.get_data_handle());
    std::iota(s, s + 3 * 21 * 4 * 5, 1.f);
    for (const std::string pattern : {"acdb", "cdba", "aBcd16b", "aBcd8b", "ABcd16b16a", "Abcd8a"}) {
        memory::desc other(d, dt::f32, pattern);
        memory mid(other), back(plain);
        // Garbage in mid's padding must become zero.
        float *m = static_cast<float *>(mid.get_data_handle());
        std::fill(m, m + other.nelems_padded(), -7.f);
        reorder(src, mid).execute(src, mid);
        reorder(mid, back).execute({{PRIM_ARG_FROM, mid}, {PRIM_ARG_TO, back}});
        const float *b = static_cast<const float *>(back.get_data_handle());
        INFO(pattern);
        CHECK(std::equal(s, s + 3 * 21 * 4 * 5, b));
        double sum_mid = 0, sum_src = 0;
        for (memory::dim i = 0; i < other.nelems_padded(); ++i) sum_mid += m[i];
        for (int i = 0; i < 3 * 21 * 4 * 5; ++i) sum_src += s[i];
        CHECK(sum_mid == sum_src);
    }
}

TEST_CASE("bad descriptors are refused with a message", "[memory][errors]") {
    auto message_of = [](auto &&f) {
        try {
            f();
        } catch (const error &e) {
            CHECK(e.get_status() == status::invalid_arguments);
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message_of([] { memory::desc({2, 3, 4}, dt::f32, tag::nchw); }),
               Catch::Contains("letters for rank 3"));
    CHECK_THAT(message_of([] { memory::desc({2, -3}, dt::f32, tag::nc); }),
               Catch::Contains("negative"));
    CHECK_THAT(message_of([] { memory::desc({2, 3}, dt::f32, std::string("aa")); }),
               Catch::Contains("exactly once"));
    CHECK_THAT(message_of([] { memory::desc({2, 3}, dt::f32, std::string("aB")); }),
               Catch::Contains("inner block"));
    CHECK_THAT(message_of([] { memory m(memory::desc({2, 3}, dt::f32, tag::any)); }),
               Catch::Contains("any"));
    CHECK_THAT(message_of([] {
                   reorder(memory::desc({2, 3}, dt::f32, tag::nc),
                           memory::desc({3, 2}, dt::f32, tag::nc));
               }),
               Catch::Contains("differ"));
    memory::desc md({2, 3}, dt::f32, tag::nc);
    memory a(md, nullptr), b(md);
    CHECK_THAT(message_of([&] { reorder(a, b).execute(a, b); }), Catch::Contains("null"));
}

TEST_CASE("memory owns zeroed aligned buffers or wraps user ones", "[memory]") {
    memory::desc md({7, 9}, dt::f32, tag::nc);
    memory owned(md);
    const float *p = static_cast<const float *>(owned.get_data_handle());
    CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
    CHECK(std::all_of(p, p + 63, [](float x) { return x == 0.f; }));
    float user[63];
    memory wrapped(md, user);
    CHECK(wrapped.get_data_handle() == user);
    memory copy = wrapped; // shares the handle, as oneDNN's memory does
    copy.set_data_handle(nullptr);
    CHECK(wrapped.get_data_handle() == nullptr);
}
