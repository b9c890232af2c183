// Runs a fused convolution and a reorder through the installed headers and library only.
#include <cstdio>

#include <prim/prim.hpp>

int main() {
    using namespace prim;
    using tag = memory::format_tag;
    memory::desc src_md({1, 1, 3, 3}, memory::data_type::f32, tag::nchw);
    memory::desc wei_md({1, 1, 1, 1}, memory::data_type::f32, tag::oihw);
    memory::desc dst_md({1, 1, 3, 3}, memory::data_type::f32, tag::nchw);
    memory src(src_md), wei(wei_md), dst(dst_md);
    float *s = static_cast<float *>(src.get_data_handle());
    for (int i = 0; i < 9; ++i) s[i] = float(i - 4);
    *static_cast<float *>(wei.get_data_handle()) = 2.f;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
                                src_md, wei_md, dst_md, {1, 1}, {0, 0}, {0, 0}, {0, 0});
    convolution_forward(convolution_forward::primitive_desc(d, attr))
            .execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_DST, dst}});
    const float *o = static_cast<const float *>(dst.get_data_handle());
    for (int i = 0; i < 9; ++i)
        if (o[i] != (i > 4 ? 2.f * (i - 4) : 0.f)) {
            std::printf("consumer: wrong result at %d: %g\n", i, o[i]);
            return 1;
        }
    // The result transposed by a reorder: dst_t(x, y) = dst(y, x).
    memory dst_t(memory::desc({1, 1, 3, 3}, memory::data_type::f32, std::string("abdc")));
    reorder(dst, dst_t).execute(dst, dst_t);
    const float *t = static_cast<const float *>(dst_t.get_data_handle());
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
            if (t[x * 3 + y] != o[y * 3 + x]) {
                std::printf("consumer: wrong reorder at %d,%d: %g\n", y, x, t[x * 3 + y]);
                return 1;
            }
    std::printf("consumer: OK\n");
    return 0;
}
