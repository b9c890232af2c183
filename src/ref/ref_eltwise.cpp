// The reference eltwise primitive: in place or out of place, any layouts.
#include "common/plain_layout.hpp"
#include "ref/ref_chain_operands.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {
namespace {

class ref_eltwise : public primitive_impl {
public:
    explicit ref_eltwise(const eltwise_request &req)
        : primitive_impl(layouts(req)), alg_(req.alg), alpha_(req.alpha), beta_(req.beta),
          chain_(req.attr.get_post_ops()), operand_mds_(operand_descs(chain_, dst_md())),
          nelems_(req.prb.nelems()) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        if (nelems_ == 0) return;
        // Same layout without padding: element i of src goes to element i of dst, whatever the
        // layout, so the flat buffers can be walked directly; not with operands, which are
        // indexed by the element's place in the plain row-major order.
        if (src_md() == dst_md() && src_md().nelems_padded() == nelems_ && !chain_.has_operands()
                && src_md().get_data_type() == memory::data_type::f32) {
            ref_eltwise_fwd(alg_, alpha_, beta_, ref_chain_operands::with_values(chain_, args),
                            args.src, args.dst, nelems_);
            return;
        }
        const plain_buffer src(src_md(), args.src, true);
        const plain_buffer dst(dst_md(), args.dst, chain_.has_sum());
        const ref_chain_operands chain(chain_, dst_md(), operand_mds_, args);
        ref_eltwise_fwd(alg_, alpha_, beta_, chain.chain(), src.get(), dst.get(), nelems_);
        dst.copy_out();
    }

private:
    static arg_layouts layouts(const eltwise_request &req) {
        const memory::desc src = plain_if_any(req.src);
        // dst 'any' takes src's layout, as in oneDNN: no reorder between the two.
        return {src, {}, {}, req.dst.is_any() ? retyped(src, req.dst.get_data_type()) : req.dst};
    }

    algorithm alg_;
    float alpha_, beta_;
    post_ops chain_;
    std::vector<memory::desc> operand_mds_;
    int64_t nelems_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_eltwise(const eltwise_request &req, cpu_isa,
                                                   std::string &) {
    return std::make_unique<ref_eltwise>(req); // the reference takes every valid problem
}

} // namespace impl
} // namespace prim
