// The reference batch and layer normalization primitives: any layouts, through plain copies.
#include "common/plain_layout.hpp"
#include "ref/ref_chain_operands.hpp"
#include "ref/ref_normalization.hpp"

namespace prim {
namespace impl {
namespace {

// src 'any' is plain; dst 'any' takes src's layout, as in oneDNN.
arg_layouts data_layouts(const memory::desc &src_req, const memory::desc &dst_req) {
    arg_layouts l;
    l.src = plain_if_any(src_req);
    l.dst = dst_req.is_any() ? l.src : dst_req;
    return l;
}

// The optional arguments: statistics in stat's layout, scale and shift 1D {c}.
template <typename problem>
void add_optional(arg_layouts &l, const problem &prb, const memory::desc &stat, memory::dim c) {
    if (prb.global_stats()) l.mean = l.variance = stat;
    const memory::desc vec({c}, memory::data_type::f32, memory::format_tag::a);
    if (prb.use_scale()) l.scale = vec;
    if (prb.use_shift()) l.shift = vec;
}

arg_layouts bnorm_layouts(const bnorm_request &req) {
    arg_layouts l = data_layouts(req.src, req.dst);
    const memory::desc stat({req.prb.ic}, memory::data_type::f32, memory::format_tag::a);
    add_optional(l, req.prb, stat, req.prb.ic);
    return l;
}

arg_layouts lnorm_layouts(const lnorm_request &req) {
    arg_layouts l = data_layouts(req.src, req.dst);
    add_optional(l, req.prb, plain_if_any(req.stat), req.prb.norm_len());
    return l;
}

// Both primitives: src, dst, statistics and operands made plain around the kernel.
template <typename problem>
class ref_normalization : public primitive_impl {
public:
    using kernel_fn = void (*)(const problem &, const float *, const float *, const float *,
                               const float *, const float *, const ref_chain &, float *);

    ref_normalization(const problem &prb, arg_layouts layouts, const primitive_attr &attr,
                      kernel_fn kernel)
        : primitive_impl(std::move(layouts)), prb_(prb), chain_(attr.get_post_ops()),
          operand_mds_(operand_descs(chain_, dst_md())), kernel_(kernel) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        const plain_buffer src(src_md(), args.src, true);
        const plain_buffer dst(dst_md(), args.dst, chain_.has_sum());
        const plain_buffer mean(layouts().mean, args.mean, true);
        const plain_buffer variance(layouts().variance, args.variance, true);
        const ref_chain_operands chain(chain_, dst_md(), operand_mds_, args);
        kernel_(prb_, src.get(), mean.get(), variance.get(), args.scale, args.shift,
                chain.chain(), dst.get());
        dst.copy_out();
    }

private:
    problem prb_;
    post_ops chain_;
    std::vector<memory::desc> operand_mds_;
    kernel_fn kernel_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_bnorm(const bnorm_request &req, cpu_isa,
                                                 std::string &) {
    return std::make_unique<ref_normalization<bnorm_problem>>(req.prb, bnorm_layouts(req),
                                                              req.attr, ref_bnorm_fwd);
}

std::unique_ptr<primitive_impl> create_ref_lnorm(const lnorm_request &req, cpu_isa,
                                                 std::string &) {
    return std::make_unique<ref_normalization<lnorm_problem>>(req.prb, lnorm_layouts(req),
                                                              req.attr, ref_lnorm_fwd);
}

} // namespace impl
} // namespace prim
