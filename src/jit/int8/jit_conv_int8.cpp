// The JIT int8 convolution (jit_conv_int8.hpp): the convolution as the int8 GEMM.
#include "common/internal_reorder.hpp"
#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "jit/gen/scratch.hpp"
#include "jit/int8/int8_gemm.hpp"
#include "jit/int8/jit_conv_int8.hpp"
#include "ref/ref_impls.hpp"

namespace prim {
namespace impl {
namespace {

// A dst in another layout than channels-last (nchw, blocked): the GEMM writes a channels-last
// copy, moved into dst's layout after it (and filled from dst first when a sum reads it).
class int8_conv_repacked_dst : public primitive_impl {
public:
    int8_conv_repacked_dst(std::unique_ptr<primitive_impl> gemm, const memory::desc &dst, bool reads_dst)
        : primitive_impl(with_dst(gemm->layouts(), dst)), gemm_(std::move(gemm)),
          cl_(gemm_->dst_md()), to_user_(cl_, dst), from_user_(dst, cl_), reads_dst_(reads_dst) {}

    std::string name() const override { return repacked(gemm_->name()); }
    // The GEMM's fallback for this call (the 16-bit kernel under VNNI, or the reference).
    std::string call_name(const exec_ptrs &args) const override {
        const std::string n = gemm_->call_name(args);
        return n == "ref" ? n : repacked(n);
    }

    void execute(const exec_ptrs &args) const override {
        const jit::scratch copy(cl_.get_size());
        if (reads_dst_) from_user_.execute(memory(dst_md(), args.dst), memory(cl_, copy.get()));
        exec_ptrs a = args;
        a.dst = copy.get();
        gemm_->execute(a);
        to_user_.execute(memory(cl_, copy.get()), memory(dst_md(), args.dst));
    }

private:
    static std::string repacked(const std::string &n) {
        return n.find("+repack") == std::string::npos ? n + "+repack" : n;
    }
    static arg_layouts with_dst(arg_layouts l, const memory::desc &dst) {
        l.dst = dst;
        return l;
    }

    std::unique_ptr<primitive_impl> gemm_;
    memory::desc cl_; // the GEMM's channels-last dst
    internal_reorder to_user_, from_user_;
    bool reads_dst_;
};

} // namespace

std::string dst_repack_refusal(const post_ops &chain) {
    for (const post_ops::entry &e : chain.entries())
        if (has_operand(e) && e.mask != post_ops::policy::per_oc && e.mask != post_ops::policy::common)
            return "dst is not channels-last and a binary or prelu operand follows its layout";
    return "";
}

std::unique_ptr<primitive_impl> with_repacked_dst(std::unique_ptr<primitive_impl> impl,
                                                  const memory::desc &dst, bool reads_dst) {
    return std::make_unique<int8_conv_repacked_dst>(std::move(impl), dst, reads_dst);
}

std::unique_ptr<primitive_impl> create_jit_conv_int8(const conv_request &req, cpu_isa isa,
                                                     std::string &why_not) {
    const memory::desc dst = channels_last_desc(req.dst.get_dims(), req.dst.get_data_type());
    if (req.dst.is_any() || req.dst == dst) return create_int8_gemm(int8_gemm_request_of(req), isa, why_not);
    // Another dst layout: a channels-last copy.
    const std::string refusal = dst_repack_refusal(req.attr.get_post_ops());
    PRIM_DISPATCH(why_not, refusal.empty(), refusal);
    conv_request cl = req;
    cl.dst = dst;
    std::unique_ptr<primitive_impl> gemm = create_int8_gemm(int8_gemm_request_of(cl), isa, why_not);
    if (!gemm) return nullptr;
    return with_repacked_dst(std::move(gemm), req.dst, req.attr.get_post_ops().has_sum());
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
    // point -2 in VNNI's u8 form: oneDNN's asymmetric harness) runs another implementation on
    // the same layouts: under VNNI the AVX-512 kernel, whose 16-bit form holds any u8 or s8 zero
    // point (it repacks the VNNI weights per call), else the reference (a zero point beyond
    // 16 bits). Only a convolution that reads padding with a src zero point can make one.
    if (r.reads_padding() && req.attr.get_quantization().src_zp_mask >= 0)
        g.fallback = [req](const arg_layouts &l, bool vnni) {
            conv_request same = req;
            same.src = l.src;
            same.wei = l.wei;
            same.bias = l.bias;
            same.dst = l.dst;
            std::string unused;
            std::unique_ptr<primitive_impl> words = vnni ? create_jit_conv_int8(same, cpu_isa::avx512, unused) : nullptr;
            return words ? std::move(words) : create_ref_conv(same, cpu_isa::none, unused);
        };
    return g;
}

} // namespace impl
} // namespace prim
