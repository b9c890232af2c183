// The reference binary primitive: the reference eltwise (identity) with binary(alg, src1) put
// before the user's chain (binary_chain.hpp), on plain f32 copies of every argument. The sources'
// scales (doc/int8.md): src0's is the eltwise (linear with alpha = scale), src1's multiplies a
// plain copy of src1 that stands for the operand.
#include "common/binary_chain.hpp"
#include "common/plain_layout.hpp"
#include "ref/ref_chain_operands.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_kernels.hpp"

namespace prim {
namespace impl {
namespace {

class ref_binary : public primitive_impl {
public:
    explicit ref_binary(const binary_request &req)
        : primitive_impl(binary_layouts(req)), chain_(binary_as_chain(req)),
          operand_mds_(binary_chain_operands(req)), scaled_operand_mds_(operand_mds_),
          nelems_(eltwise_problem {req.prb.src0}.nelems()),
          src1_nelems_(eltwise_problem {req.prb.src1}.nelems()) {
        scaled_operand_mds_[0] = plain_desc(req.prb.src1);
    }

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        if (nelems_ == 0) return;
        exec_ptrs all = args;
        all.post_op = binary_chain_args(args);
        std::vector<float> src1_scaled;
        if (args.quant.src1_scales) {
            const plain_buffer src1(layouts().src1, args.src1, true);
            src1_scaled.assign(src1.get(), src1.get() + src1_nelems_);
            for (float &v : src1_scaled) v *= args.quant.src1_scales[0];
            all.post_op[0] = src1_scaled.data();
        }
        const plain_buffer src0(src_md(), args.src, true);
        const plain_buffer dst(dst_md(), args.dst, chain_.has_sum());
        const ref_chain_operands chain(chain_, dst_md(),
                                       args.quant.src1_scales ? scaled_operand_mds_ : operand_mds_, all);
        if (args.quant.src_scales)
            ref_eltwise_fwd(algorithm::eltwise_linear, args.quant.src_scales[0], 0.f, chain.chain(),
                            src0.get(), dst.get(), nelems_);
        else
            ref_eltwise_fwd(algorithm::eltwise_identity, 0.f, 0.f, chain.chain(), src0.get(),
                            dst.get(), nelems_);
        dst.copy_out();
    }

private:
    post_ops chain_;
    std::vector<memory::desc> operand_mds_;
    std::vector<memory::desc> scaled_operand_mds_; // src1's: its scaled plain f32 copy
    int64_t nelems_, src1_nelems_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_binary(const binary_request &req, cpu_isa,
                                                  std::string &) {
    return std::make_unique<ref_binary>(req); // the reference takes every valid problem
}

} // namespace impl
} // namespace prim
