// The JIT int8 convolution (jit_conv_int8.hpp): the convolution as the int8 GEMM.
#include "common/plain_layout.hpp"
#include "jit/int8/int8_gemm.hpp"
#include "jit/int8/jit_conv_int8.hpp"
#include "ref/ref_impls.hpp"

namespace prim {
namespace impl {
std::unique_ptr<primitive_impl> create_jit_conv_int8(const conv_request &req, cpu_isa isa,
                                                     std::string &why_not) {
    const memory::desc dst = channels_last_desc(req.dst.get_dims(), req.dst.get_data_type());
    PRIM_DISPATCH(why_not, req.dst.is_any() || req.dst == dst,
                  "dst is not channels-last (nhwc): the GEMM writes pixel rows");
    return create_int8_gemm(int8_gemm_request_of(req), isa, why_not);
}

int8_gemm_request int8_gemm_request_of(const conv_request &req) {
    const conv_problem &p = req.prb;
    const memory::desc src = channels_last_desc(req.src.get_dims(), req.src.get_data_type());
    const memory::desc dst = channels_last_desc(req.dst.get_dims(), req.dst.get_data_type());
    int8_gemm_request g;
    jit::int8_conv_geometry &r = g.geom;
    r.mb = p.mb;
    r.c_total = p.ic;
    r.groups = p.g;
    r.cg = p.icg();
    r.src_s8 = src.get_data_type() == memory::data_type::s8;
    for (int sp = 0; sp < 3; ++sp) {
        r.i[sp] = p.i[sp];
        r.o[sp] = p.o[sp];
        r.k[sp] = p.k[sp];
        r.s[sp] = p.s[sp];
        r.step[sp] = p.d[sp] + 1;
        r.p[sp] = p.p[sp];
    }
    g.ocg = p.ocg();
    // Depthwise: one walk over all channels, which the kernel's lanes hold.
    g.depthwise = p.g > 1 && p.icg() == 1 && p.ocg() == 1;
    if (g.depthwise) {
        r.groups = 1;
        r.cg = p.ic;
        g.ocg = p.oc;
    }
    // A depthwise product costs the kernel about 8 dense f32 FMAs' time (one lane per channel,
    // its src widened per tap: 60-100 GOPS against 500-600 GFLOP/s): counted so, MobileNet v2's
    // 960 channels at 7x7 (0.85 MOP) get their second thread (0.016 ms on one, oneDNN 0.007 on
    // two).
    g.flops = p.flops() * (g.depthwise ? 8 : 1);
    g.with_bias = req.with_bias;
    g.src_cl_md = src;
    g.layouts = arg_layouts(req.src.is_any() ? src : req.src, req.wei,
                            req.with_bias ? plain_if_any(req.bias) : memory::desc(), dst);
    g.packable = true;
    g.grouped_wei = req.wei.ndims() == req.src.ndims() + 1;
    g.attr = req.attr;
    // A call whose src zero point the padding cannot hold in the kernel's form (u8 src, zero
    // point -2: oneDNN's harness_conv_zero_points) runs the reference on the same layouts; only
    // a convolution that reads padding with a src zero point can make one.
    if (r.reads_padding() && req.attr.get_quantization().src_zp_mask >= 0)
        g.reference = [req](const arg_layouts &l) {
            conv_request same = req;
            same.src = l.src;
            same.wei = l.wei;
            same.bias = l.bias;
            same.dst = l.dst;
            std::string unused;
            return create_ref_conv(same, cpu_isa::none, unused);
        };
    return g;
}

} // namespace impl
} // namespace prim
