// The reference inner product primitive: any layout, reordered to plain around ref_ip_fwd.
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {
namespace {

class ref_inner_product : public primitive_impl {
public:
    explicit ref_inner_product(const ip_request &req) : prb_(req.prb) {
        // src (mb, ic, spatial...) and weights (oc, ic, spatial...): plain row-major is the
        // kernel's layout whatever the number of spatial dims.
        src_md = plain_if_any(req.src);
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
        const plain_buffer dst(dst_md, args.dst, po.has_sum());
        ref_ip_fwd(prb_, src.get(), wei.get(), bias.get(), po, dst.get());
        dst.copy_out();
    }

private:
    ip_problem prb_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_ip(const ip_request &req, cpu_isa, std::string &) {
    return std::make_unique<ref_inner_product>(req); // the reference takes every valid problem
}

} // namespace impl
} // namespace prim
