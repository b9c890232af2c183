// The binary primitive as a chain: src0, then binary(alg, src1) as the first entry, then the
// user's chain. Both implementations run it so (the JIT as one eltwise pass, the reference as the
// reference eltwise), with src1 as the operand of entry 0 and the user's operands one place on.
#pragma once
#include <vector>

#include "common/post_op_operands.hpp"
#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

// The arguments both implementations take: src0 (as src), src1, dst.
inline arg_layouts binary_layouts(const binary_request &req) {
    arg_layouts l;
    l.src = req.src0;
    l.src1 = req.src1;
    l.dst = req.dst;
    return l;
}

inline post_ops binary_as_chain(const binary_request &req) {
    post_ops front;
    front.append_binary(req.alg, req.src1);
    return chain_after(front, req.attr.get_post_ops());
}

// The operand descs of binary_as_chain(req) against dst: src1's, then the user's.
inline std::vector<memory::desc> binary_chain_operands(const binary_request &req) {
    return operand_descs(binary_as_chain(req), req.dst);
}

// The operands of one execution, in that order.
inline std::vector<const float *> binary_chain_args(const exec_ptrs &args) {
    std::vector<const float *> ops {args.src1};
    if (args.post_op.empty()) return ops;
    ops.insert(ops.end(), args.post_op.begin(), args.post_op.end());
    return ops;
}

} // namespace impl
} // namespace prim
