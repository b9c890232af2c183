// The reference binary primitive: the reference eltwise (identity) with binary(alg, src1) put
// before the user's chain (binary_chain.hpp), on plain copies of every argument.
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
          operand_mds_(binary_chain_operands(req)),
          nelems_(eltwise_problem {req.prb.src0}.nelems()) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        if (nelems_ == 0) return;
        exec_ptrs all = args;
        all.post_op = binary_chain_args(args);
        const plain_buffer src0(src_md(), args.src, true);
        const plain_buffer dst(dst_md(), args.dst, chain_.has_sum());
        const ref_chain_operands chain(chain_, dst_md(), operand_mds_, all);
        ref_eltwise_fwd(algorithm::eltwise_identity, 0.f, 0.f, chain.chain(), src0.get(), dst.get(),
                        nelems_);
        dst.copy_out();
    }

private:
    post_ops chain_;
    std::vector<memory::desc> operand_mds_;
    int64_t nelems_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_binary(const binary_request &req, cpu_isa,
                                                  std::string &) {
    return std::make_unique<ref_binary>(req); // the reference takes every valid problem
}

} // namespace impl
} // namespace prim
