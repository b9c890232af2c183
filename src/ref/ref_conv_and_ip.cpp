// The reference convolution and inner product primitives: any layout and data type, reordered to
// plain f32 around the reference kernel (ref_conv_fwd, ref_ip_fwd), with the int8 steps of
// ref_int8.hpp for int8 data. Both have src, weights, optional bias and dst, and differ only in
// their problem and kernel.
#include "common/plain_layout.hpp"
#include "ref/ref_chain_operands.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_int8.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {
namespace {

template <typename problem>
using weighted_kernel = void (*)(const problem &, const float *src, const float *wei,
                                 const float *bias, const ref_chain &, float *dst,
                                 const ref_acc_stage *);

template <typename request, typename problem, weighted_kernel<problem> kernel>
class ref_weighted_primitive : public primitive_impl {
public:
    // Plain row-major is each kernel's layout whatever the number of spatial dims: conv
    // weights (oc, ic/g, k...) and grouped (g, oc/g, ic/g, k...) both have the kernel's
    // [g][oc/g][ic/g][kd][kh][kw] order, and unused spatial dims have size 1.
    explicit ref_weighted_primitive(const request &req)
        : primitive_impl({plain_if_any(req.src), plain_if_any(req.wei),
                          req.with_bias ? plain_if_any(req.bias) : memory::desc(),
                          plain_if_any(req.dst)}),
          prb_(req.prb), chain_(req.attr.get_post_ops()), quant_(req.attr.get_quantization()),
          int8_(req.src.get_data_type() != memory::data_type::f32),
          operand_mds_(operand_descs(chain_, dst_md())) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        if (prb_.mb == 0) return;
        const plain_weighted_inputs in(*this, args);
        // dst's old value is read only by a sum post-op.
        const plain_buffer dst(dst_md(), args.dst, chain_.has_sum());
        const ref_chain_operands chain(chain_, dst_md(), operand_mds_, args);
        if (!int8_) {
            kernel(prb_, in.src.get(), in.wei.get(), in.bias.get(), chain.chain(), dst.get(), nullptr);
        } else {
            const ref_int8_steps steps(quant_, args.quant, prb_.oc);
            steps.before(in.src.get(), src_md().get_dims()); // src is a converted copy
            kernel(prb_, in.src.get(), in.wei.get(), in.bias.get(), chain.chain(), dst.get(),
                   steps.stage());
            steps.after(dst.get(), dst_md().get_dims());
        }
        dst.copy_out(); // an integer dst: rounded half to even, saturated
    }

private:
    problem prb_;
    post_ops chain_;
    quantization quant_;
    bool int8_;
    std::vector<memory::desc> operand_mds_;
};

} // namespace

// The reference takes every valid problem: a dw post-op by ref_conv_dw.cpp.
std::unique_ptr<primitive_impl> create_ref_conv(const conv_request &req, cpu_isa, std::string &) {
    if (req.attr.get_post_ops().dw_index() >= 0) return create_ref_conv_dw(req);
    return std::make_unique<ref_weighted_primitive<conv_request, conv_problem, ref_conv_fwd>>(req);
}

std::unique_ptr<primitive_impl> create_ref_ip(const ip_request &req, cpu_isa, std::string &) {
    return std::make_unique<ref_weighted_primitive<ip_request, ip_problem, ref_ip_fwd>>(req);
}

} // namespace impl
} // namespace prim
