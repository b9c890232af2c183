// The normalizations' pass: normalization_pass.hpp.
#include "jit/norm/normalization_pass.hpp"

#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"

namespace prim {
namespace jit {

void resolve_any(memory::desc &src, memory::desc &dst) {
    if (src.is_any() && dst.is_any()) src = dst = impl::plain_desc(src.get_dims());
    if (src.is_any()) src = dst;
    if (dst.is_any()) dst = src;
}

std::unique_ptr<normalization_pass> normalization_pass::create(cpu_isa isa,
        const std::vector<leading_entry> &leading, const post_ops &user, const memory::desc &md,
        std::string &why_not) {
    post_ops front;
    for (const leading_entry &e : leading) front.append_binary(e.alg, e.mask);
    const post_ops chain = impl::chain_after(front, user);
    std::vector<memory::desc> mds = impl::operand_descs(chain, md);
    auto pass = eltwise_pass::create(isa, algorithm::eltwise_identity, 0.f, 0.f, chain, md, mds,
                                     why_not);
    if (!pass) return nullptr;
    return std::unique_ptr<normalization_pass>(
            new normalization_pass(std::move(pass), std::move(mds), user.len()));
}

std::vector<const float *> normalization_pass::operands(const std::vector<const float *> &leading,
                                                        const impl::exec_ptrs &args) const {
    std::vector<const float *> ops(leading);
    ops.resize(leading.size() + static_cast<size_t>(user_len_), nullptr);
    for (size_t i = 0; i < args.post_op.size(); ++i) ops[leading.size() + i] = args.post_op[i];
    return ops;
}

} // namespace jit
} // namespace prim
