// Pooling on int8 data in channels-last layouts (src/common/pool_int8_loop.cpp: "loop") against
// the reference on the same values in plain layouts: max, average with and without padding, on
// u8 and s8 src into every dst type, 1D/2D/3D, strides, dilation, padding, channel counts that
// are not a vector's. Equal to the reference bit for bit.
#include "api_test_util.hpp"

namespace {

std::string pattern(size_t rank, bool channels_last) {
    std::string p = "a";
    if (channels_last) {
        for (size_t i = 2; i < rank; ++i) p += static_cast<char>('a' + i);
        return p + "b";
    }
    for (size_t i = 1; i < rank; ++i) p += static_cast<char>('a' + i);
    return p;
}

struct pool_case {
    dims src, dst, kernel, strides, dilation, pad_l, pad_r;
};

// The pooling's dst values (plain f32) on src values `v` (plain), in channels-last or plain layouts.
std::vector<float> run(const pool_case &pc, algorithm alg, dt sdt, dt ddt, const std::vector<float> &v,
                       bool channels_last, std::string &impl) {
    const memory::desc plain_src(pc.src, dt::f32, pattern(pc.src.size(), false));
    memory f(plain_src);
    std::memcpy(f.get_data_handle(), v.data(), v.size() * sizeof(float));
    const memory::desc src_md(pc.src, sdt, pattern(pc.src.size(), channels_last));
    const memory::desc dst_md(pc.dst, ddt, pattern(pc.dst.size(), channels_last));
    memory src(src_md), dst(dst_md);
    reorder(plain_src, src_md).execute(f, src);
    pooling_forward::primitive_desc pd(pooling_forward::desc(prop_kind::forward_inference, alg, src_md, dst_md,
                                                             pc.strides, pc.kernel, pc.dilation, pc.pad_l, pc.pad_r));
    impl = pd.impl_name();
    pooling_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
    const memory::desc plain_dst(pc.dst, dt::f32, pattern(pc.dst.size(), false));
    memory out(plain_dst);
    reorder(dst_md, plain_dst).execute(dst, out);
    const float *o = static_cast<const float *>(out.get_data_handle());
    return std::vector<float>(o, o + plain_dst.nelems_padded());
}

} // namespace

TEST_CASE("int8 pooling loop: channels-last u8/s8 equal to the reference", "[int8][pooling]") {
    const pool_case cases[] = {
            {{2, 19, 9, 8}, {2, 19, 5, 4}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 0}},       // 3x3 s2 p1
            {{1, 64, 12, 12}, {1, 64, 6, 6}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {0, 0}},     // ResNet's
            {{1, 33, 7, 7}, {1, 33, 1, 1}, {7, 7}, {1, 1}, {0, 0}, {0, 0}, {0, 0}},      // global
            {{2, 5, 11}, {2, 5, 5}, {3}, {2}, {1}, {1}, {1}},                             // 1D dilated
            {{1, 17, 4, 5, 6}, {1, 17, 2, 3, 3}, {2, 3, 2}, {2, 2, 2}, {0, 0, 0}, {0, 1, 0}, {0, 1, 0}}, // 3D
    };
    for (const pool_case &pc : cases)
        for (dt sdt : {dt::u8, dt::s8})
            for (dt ddt : {dt::u8, dt::s8, dt::s32, dt::f32})
                for (algorithm alg : {algorithm::pooling_max, algorithm::pooling_avg_exclude_padding,
                                      algorithm::pooling_avg_include_padding}) {
                    int64_t n = 1;
                    for (auto d : pc.src) n *= d;
                    std::mt19937 gen(static_cast<uint32_t>(n));
                    std::vector<float> v(static_cast<size_t>(n));
                    const int lo = sdt == dt::u8 ? 0 : -128, hi = sdt == dt::u8 ? 255 : 127;
                    for (float &x : v) x = static_cast<float>(std::uniform_int_distribution<int>(lo, hi)(gen));
                    INFO(data_type_name(sdt) << "->" << data_type_name(ddt) << " alg " << static_cast<int>(alg)
                                             << " rank " << pc.src.size() << " c " << pc.src[1]);
                    std::string loop_impl, ref_impl;
                    const std::vector<float> got = run(pc, alg, sdt, ddt, v, true, loop_impl);
                    const std::vector<float> want = run(pc, alg, sdt, ddt, v, false, ref_impl);
                    CHECK(loop_impl == "loop");
                    CHECK(ref_impl == "ref");
                    REQUIRE(got.size() == want.size());
                    size_t bad = 0;
                    for (size_t i = 0; i < got.size(); ++i)
                        if (got[i] != want[i] && bad++ < 3) FAIL_CHECK("i=" << i << " loop " << got[i] << " ref " << want[i]);
                    CHECK(bad == 0);
                }
}
