// The one pass of a JIT normalization: an eltwise pass (eltwise_pass.hpp) with identity as its
// algorithm and, before the user's chain, binary entries whose operands are the normalization's
// own per-call buffers (batch normalization: x * a[c] + b[c]; layer normalization:
// (x - mean[r]) * rstd[r] * scale[c] + shift[c]). The user's operands follow them, shifted by
// the number of leading entries.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/primitive_impl.hpp"
#include "jit/eltwise/eltwise_pass.hpp"

namespace prim {
namespace jit {

// src and dst as a normalization's pass runs them: 'any' takes the other one's layout, plain
// when both are 'any'.
void resolve_any(memory::desc &src, memory::desc &dst);

struct leading_entry {
    algorithm alg; // a binary algorithm
    int mask;      // its operand's policy against the destination
};

class normalization_pass {
public:
    // Null, with why_not, when the eltwise pass does not take the chain or the layout.
    static std::unique_ptr<normalization_pass> create(cpu_isa isa,
            const std::vector<leading_entry> &leading, const post_ops &user,
            const memory::desc &md, std::string &why_not);

    // The desc of leading entry i's operand (the destination's layout, broadcast dims plain).
    const memory::desc &leading_md(int i) const { return mds_[static_cast<size_t>(i)]; }
    const eltwise_pass &pass() const { return *pass_; }
    // The operands of one call: the leading entries' buffers, then the user's (args.post_op).
    std::vector<const float *> operands(const std::vector<const float *> &leading,
                                        const impl::exec_ptrs &args) const;

private:
    normalization_pass(std::unique_ptr<eltwise_pass> pass, std::vector<memory::desc> mds,
                       int user_len)
        : pass_(std::move(pass)), mds_(std::move(mds)), user_len_(user_len) {}
    std::unique_ptr<eltwise_pass> pass_;
    std::vector<memory::desc> mds_; // per entry of the whole chain
    int user_len_;
};

} // namespace jit
} // namespace prim
