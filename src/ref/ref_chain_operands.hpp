// A reference primitive's chain for one execution: its binary and prelu operands copied to the
// plain row-major layout ref_chain reads (or used in place when already plain).
#pragma once
#include <memory>
#include <vector>

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
        : chain_(po, dst.get_dims(), plain_operands(po, mds, args)) {}
    const ref_chain &chain() const { return chain_; }

private:
    // Entry i's operand in plain layout (null for entries without one), the copies kept in
    // buffers_; empty for a chain without operands. Runs before chain_ is built: buffers_ is
    // declared first.
    std::vector<const float *> plain_operands(const post_ops &po,
                                              const std::vector<memory::desc> &mds,
                                              const exec_ptrs &args) {
        std::vector<const float *> plain;
        if (!po.has_operands()) return plain;
        plain.assign(mds.size(), nullptr);
        for (size_t i = 0; i < mds.size(); ++i) {
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
