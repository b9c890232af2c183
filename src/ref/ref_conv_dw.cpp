// The reference convolution with a dw post-op (common/dw_post_op.hpp): the 1x1 convolution with
// the entries before the dw into a plain f32 buffer, then the depthwise convolution (groups =
// channels, its own weights and bias) with the entries after it into dst. Both steps are
// ref_conv_fwd, the reference every other convolution uses.
#include <vector>

#include "common/dw_post_op.hpp"
#include "common/plain_layout.hpp"
#include "ref/ref_chain_operands.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {
namespace {

// The arguments of entries [begin, end) of the chain: its operands renumbered from 0; runtime
// parameters keep their slots (attr/runtime_params.hpp), so they stay whole.
exec_ptrs part_args(const exec_ptrs &args, int begin, int end) {
    exec_ptrs part = args;
    if (!args.post_op.empty())
        part.post_op.assign(args.post_op.begin() + begin, args.post_op.begin() + end);
    return part;
}

std::vector<memory::desc> part_mds(const std::vector<memory::desc> &mds, int begin, int end) {
    return std::vector<memory::desc>(mds.begin() + begin, mds.begin() + end);
}

arg_layouts layouts_of(const conv_request &req, const conv_problem &dw) {
    const post_ops::entry &e = req.attr.get_post_ops().entries()[req.attr.get_post_ops().dw_index()];
    arg_layouts l(plain_if_any(req.src), plain_if_any(req.wei),
                  req.with_bias ? plain_if_any(req.bias) : memory::desc(), plain_if_any(req.dst));
    l.dw_wei = dw_weights_desc(dw);
    l.dw_bias = dw_bias_desc(dw, e);
    l.dw_src = plain_desc({dw.mb, dw.ic, dw.i[SP_H], dw.i[SP_W]});
    return l;
}

class ref_conv_dw_primitive : public primitive_impl {
public:
    ref_conv_dw_primitive(const conv_request &req, const conv_problem &dw)
        : primitive_impl(layouts_of(req, dw)), prb_(req.prb), dw_prb_(dw),
          chain_(req.attr.get_post_ops()), at_(chain_.dw_index()),
          before_(chain_slice(chain_, 0, at_)), after_(chain_slice(chain_, at_ + 1, chain_.len())),
          operand_mds_(operand_descs(chain_, dst_md(), layouts().dw_src)) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        if (prb_.mb == 0) return;
        const plain_weighted_inputs in(*this, args);
        const plain_buffer dw_wei(layouts().dw_wei, args.dw_wei, true);
        const plain_buffer dw_bias(layouts().dw_bias, args.dw_bias, true);
        const plain_buffer dst(dst_md(), args.dst, false); // no sum in a chain with a dw
        const int len = chain_.len();
        const memory::desc &mid_md = layouts().dw_src;
        const ref_chain_operands before(before_, mid_md, part_mds(operand_mds_, 0, at_),
                                        part_args(args, 0, at_));
        const ref_chain_operands after(after_, dst_md(), part_mds(operand_mds_, at_ + 1, len),
                                       part_args(args, at_ + 1, len));
        std::vector<float> mid(static_cast<size_t>(mid_md.nelems_padded()));
        ref_conv_fwd(prb_, in.src.get(), in.wei.get(), in.bias.get(), before.chain(), mid.data());
        ref_conv_fwd(dw_prb_, mid.data(), dw_wei.get(), dw_bias.get(), after.chain(), dst.get());
        dst.copy_out();
    }

private:
    conv_problem prb_, dw_prb_;
    post_ops chain_;
    int at_; // the dw entry's index
    post_ops before_, after_;
    std::vector<memory::desc> operand_mds_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_conv_dw(const conv_request &req) {
    const post_ops &chain = req.attr.get_post_ops();
    return std::make_unique<ref_conv_dw_primitive>(
            req, dw_problem(req.prb, chain.entries()[chain.dw_index()]));
}

} // namespace impl
} // namespace prim
