// The reference convolution primitive: any layout, reordered to plain around ref_conv_fwd.
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {
namespace {

class ref_convolution : public primitive_impl {
public:
    explicit ref_convolution(const conv_request &req) : prb_(req.prb) {
        src_md = plain_if_any(req.src);
        // Weights: (oc, ic/g, k...) or grouped (g, oc/g, ic/g, k...). Both plain forms have the
        // kernel's [g][oc/g][ic/g][kd][kh][kw] memory order; unused spatial dims have size 1.
        wei_md = plain_if_any(req.wei);
        bias_md = req.with_bias ? plain_if_any(req.bias) : memory::desc();
        dst_md = plain_if_any(req.dst);
        attr = req.attr;
    }

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        if (prb_.mb == 0) return;
        const post_ops &po = attr.get_post_ops();
        const plain_buffer src(src_md, args.src, true);
        const plain_buffer wei(wei_md, args.wei, true);
        const plain_buffer bias(bias_md, args.bias, true);
        // dst's old value is read only by a sum post-op.
        const plain_buffer dst(dst_md, args.dst, po.has_sum());
        ref_conv_fwd(prb_, src.get(), wei.get(), bias.get(), po, dst.get());
        dst.copy_out();
    }

private:
    conv_problem prb_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_conv(const conv_request &req, cpu_isa, std::string &) {
    return std::make_unique<ref_convolution>(req); // the reference takes every valid problem
}

} // namespace impl
} // namespace prim
