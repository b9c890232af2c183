// The chain a JIT kernel runs, its spares and why not: kernel_chain_plan.hpp.
#include "jit/inject/kernel_chain_plan.hpp"

#include "common/post_op_operands.hpp"
#include "jit/inject/operand_access.hpp"
#include "jit/inject/post_ops_injector.hpp"

namespace prim {
namespace jit {

namespace {

// The chain with each binary entry's dt set to its operand's type (kernel_chain() leaves f32).
post_ops with_operand_types(const post_ops &access_chain, const post_ops &user, const memory::desc &dst) {
    post_ops out;
    for (int i = 0; i < access_chain.len(); ++i) {
        const post_ops::entry &e = access_chain.entries()[i];
        if (e.kind == post_ops::kind::binary)
            out.append_binary(e.alg, e.mask, impl::operand_desc(user.entries()[i], dst).get_data_type());
        else
            impl::append_entry(out, e);
    }
    return out;
}

template <cpu_isa isa>
kernel_chain_plan admit_on(const post_ops &kernel_chain, const kernel_chain_needs &needs) {
    using injector = post_ops_injector<isa>;
    kernel_chain_plan plan;
    plan.chain = kernel_chain;
    plan.why_not = injector::why_not(kernel_chain);
    if (!plan.why_not.empty()) return plan;
    const int mask_spare = isa == cpu_isa::avx2 && needs.operand_mask_spare && kernel_chain.has_operands() ? 1 : 0;
    plan.aux_vecs = injector::aux_vecs_count(kernel_chain) + mask_spare;
    plan.interleaved_aux_vecs = injector::interleaved_aux_vecs_count(kernel_chain) + mask_spare;
    return plan;
}

} // namespace

kernel_chain_plan admit_kernel_chain(cpu_isa isa, const post_ops &kernel_chain,
                                     const kernel_chain_needs &needs) {
    return isa >= cpu_isa::avx512 ? admit_on<cpu_isa::avx512>(kernel_chain, needs)
                                  : admit_on<cpu_isa::avx2>(kernel_chain, needs);
}

kernel_chain_plan plan_kernel_chain(cpu_isa isa, const post_ops &user, const memory::desc &dst,
                                    const kernel_chain_needs &needs) {
    post_ops access_chain;
    const std::string unread = kernel_chain(user, dst.get_dims(), needs.batch_per_call, access_chain);
    if (!unread.empty()) {
        kernel_chain_plan plan;
        plan.why_not = unread;
        return plan;
    }
    return admit_kernel_chain(
            isa, needs.operand_types ? with_operand_types(access_chain, user, dst) : access_chain, needs);
}

} // namespace jit
} // namespace prim
