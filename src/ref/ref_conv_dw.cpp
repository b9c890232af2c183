// The reference convolution with a dw post-op (common/dw_post_op.hpp): the 1x1 convolution with
// the entries before the dw into a plain f32 buffer, then the depthwise convolution (groups =
// channels, its own weights and bias) with the entries after it into dst. Both steps are
// ref_conv_fwd, the reference every other convolution uses. An int8 pair takes each half's int8
// steps (ref_int8.hpp) with its own quantization, and the buffer holds the 1x1's output rounded
// and saturated to its integer type, as the depthwise convolution reads it.
#include <vector>

#include "common/convert_types.hpp"
#include "common/dw_post_op.hpp"
#include "common/plain_layout.hpp"
#include "ref/ref_chain_operands.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_int8.hpp"
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

// The values of an integer type t as the depthwise convolution reads them: rounded half to even
// and saturated (convert_types.hpp).
void round_to_type(std::vector<float> &v, memory::data_type t) {
    const float lo = t == memory::data_type::u8 ? 0.f : -128.f, hi = t == memory::data_type::u8 ? 255.f : 127.f;
    for (float &x : v) x = saturate_round(x, lo, hi);
}

arg_layouts layouts_of(const conv_request &req, const conv_problem &dw, const dw_types &types) {
    arg_layouts l(plain_if_any(req.src), plain_if_any(req.wei),
                  req.with_bias ? plain_if_any(req.bias) : memory::desc(), plain_if_any(req.dst));
    l.dw_wei = dw_weights_desc(dw, types);
    l.dw_bias = dw_bias_desc(dw, types);
    l.dw_src = plain_desc({dw.mb, dw.ic, dw.i[SP_H], dw.i[SP_W]});
    return l;
}

class ref_conv_dw_primitive : public primitive_impl {
public:
    ref_conv_dw_primitive(const conv_request &req, const conv_problem &dw, const dw_types &types)
        : primitive_impl(layouts_of(req, dw, types)), prb_(req.prb), dw_prb_(dw), types_(types),
          chain_(req.attr.get_post_ops()), at_(chain_.dw_index()),
          quant_(one_by_one_quantization(req.attr.get_quantization())),
          dw_quant_(dw_quantization(req.attr.get_quantization(), chain_.entries()[at_])),
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
        if (!types_.int8) {
            ref_conv_fwd(prb_, in.src.get(), in.wei.get(), in.bias.get(), before.chain(), mid.data(), nullptr);
            ref_conv_fwd(dw_prb_, mid.data(), dw_wei.get(), dw_bias.get(), after.chain(), dst.get(), nullptr);
            return dst.copy_out();
        }
        const ref_int8_steps one(quant_, args.quant, prb_.oc);
        one.before(in.src.get(), src_md().get_dims()); // src is a converted copy
        ref_conv_fwd(prb_, in.src.get(), in.wei.get(), in.bias.get(), before.chain(), mid.data(), one.stage());
        one.after(mid.data(), mid_md.get_dims());
        round_to_type(mid, types_.mid);
        const exec_ptrs::quant_values dw_values = dw_quant_values(args.quant);
        const ref_int8_steps dw(dw_quant_, dw_values, dw_prb_.oc);
        ref_conv_fwd(dw_prb_, mid.data(), dw_wei.get(), dw_bias.get(), after.chain(), dst.get(), dw.stage());
        dw.after(dst.get(), dst_md().get_dims());
        dst.copy_out(); // an integer dst: rounded half to even, saturated
    }

private:
    conv_problem prb_, dw_prb_;
    dw_types types_;
    post_ops chain_;
    int at_; // the dw entry's index
    quantization quant_, dw_quant_; // each half's (dw_post_op.hpp)
    post_ops before_, after_;
    std::vector<memory::desc> operand_mds_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_conv_dw(const conv_request &req) {
    const post_ops &chain = req.attr.get_post_ops();
    const post_ops::entry &e = chain.entries()[chain.dw_index()];
    return std::make_unique<ref_conv_dw_primitive>(
            req, dw_problem(req.prb, e), dw_types_of(e, req.src.get_data_type(), req.dw_mid_dt));
}

} // namespace impl
} // namespace prim
