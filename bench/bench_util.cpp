#include "bench_util.hpp"

namespace bench {

using namespace prim;

memory filled(const memory::desc &md, float step) {
    memory m(md);
    float *p = static_cast<float *>(m.get_data_handle());
    const size_t n = md.get_size() / sizeof(float);
    float v = -2.f;
    for (size_t i = 0; i < n; ++i) {
        p[i] = v;
        v += step;
        if (v > 2.f) v -= 4.f;
    }
    return m;
}

namespace {
convolution_forward::primitive_desc conv_pd(int mb, int ic, int oc, int hw, int k,
                                            const std::string &chain) {
    using tag = memory::format_tag;
    const memory::dim pad = k / 2;
    memory::desc src({mb, ic, hw, hw}, memory::data_type::f32, tag::any);
    memory::desc wei({oc, ic, k, k}, memory::data_type::f32, tag::any);
    memory::desc bias({oc}, memory::data_type::f32, tag::x);
    memory::desc dst({mb, oc, hw, hw}, memory::data_type::f32, tag::any);
    convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct, src,
                                wei, bias, dst, {1, 1}, {0, 0}, {pad, pad}, {pad, pad});
    primitive_attr attr;
    attr.set_post_ops(parse_post_ops(chain));
    return convolution_forward::primitive_desc(d, attr);
}
} // namespace

conv_case make_conv(int mb, int ic, int oc, int hw, int k, const std::string &chain) {
    auto pd = conv_pd(mb, ic, oc, hw, k, chain);
    return conv_case {pd, convolution_forward(pd), filled(pd.src_desc()),
                      filled(pd.weights_desc(), 0.11f), filled(pd.bias_desc()),
                      filled(pd.dst_desc())};
}

exec_args conv_case::args() const {
    return {{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_BIAS, bias},
            {PRIM_ARG_DST, dst}};
}

} // namespace bench
