// A reference primitive's chain for one execution: its binary and prelu operands copied to the
// plain row-major layout ref_chain reads (or used in place when already plain), and its runtime
// parameters replaced by this execution's values.
#pragma once
#include <memory>
#include <vector>

#include "attr/runtime_params.hpp"
#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "common/primitive_impl.hpp"
#include "ref/ref_chain.hpp"

namespace prim {
namespace impl {

class ref_chain_operands {
public:
    // mds: operand_descs(po, dst), kept by the primitive (the buffers point to them).
    ref_chain_operands(const post_ops &po, const memory::desc &dst,
                       const std::vector<memory::desc> &mds, const exec_ptrs &args)
        : chain_(with_values(po, args), dst.get_dims(), plain_operands(mds, args)) {
        chain_.set_dst_type(dst.get_data_type());
    }
    static post_ops with_values(const post_ops &po, const exec_ptrs &args) {
        return po.has_runtime_params() ? with_runtime_values(po, args.runtime_params) : po;
    }
    const ref_chain &chain() const { return chain_; }

private:
    // Fills buffers_ (declared first, so built before chain_ reads the pointers).
    std::vector<const float *> plain_operands(const std::vector<memory::desc> &mds,
                                              const exec_ptrs &args) {
        std::vector<const float *> plain(mds.size(), nullptr);
        for (size_t i = 0; i < args.post_op.size(); ++i) {
            if (!args.post_op[i]) continue;
            buffers_.push_back(std::make_unique<plain_buffer>(mds[i], args.post_op[i], true));
            plain[i] = buffers_.back()->get();
        }
        return plain;
    }

    std::vector<std::unique_ptr<plain_buffer>> buffers_;
    ref_chain chain_;
};

} // namespace impl
} // namespace prim
