// The chain a JIT kernel runs, its spares and why not: kernel_chain_plan.hpp.
#include "jit/inject/kernel_chain_plan.hpp"

#include "common/post_op_operands.hpp"
#include "jit/inject/post_ops_injector.hpp"

namespace prim {
namespace jit {

namespace {

// Bits of the dims along which a tensor of these dims varies (size above 1).
int varying(const memory::dims &dims) {
    int v = 0;
    for (size_t d = 0; d < dims.size(); ++d)
        if (dims[d] > 1) v |= 1 << d;
    return v;
}

// Sets out to chain with each operand entry's mask replaced by its access for a destination of
// dst_dims. batch_per_call: every kernel call covers one image, so an operand may vary along
// dim 0 or not whatever its access: the call's value absorbs it (per_dim_0 is common there,
// per_dim_01 per_oc). Returns "" or, for an operand that is none of the four, the reason
// ("post-op 1 (add) src1 varies along dims {3}: no JIT kernel reads that ...").
std::string with_operand_accesses(const post_ops &chain, const memory::dims &dst_dims,
                                  bool batch_per_call, post_ops &out) {
    using policy = post_ops::policy;
    out = post_ops();
    // Along a dim fixed for a whole call the operand may vary or not: the call's value absorbs it.
    const int fixed = batch_per_call ? 1 : 0;
    const int dst_varies = varying(dst_dims) & ~fixed;
    for (int i = 0; i < chain.len(); ++i) {
        const post_ops::entry &e = chain.entries()[i];
        if (!impl::has_operand(e)) {
            impl::append_entry(out, e);
            continue;
        }
        const int v = varying(impl::operand_dims(e, dst_dims)) & ~fixed;
        int access;
        if (v == 0) access = policy::common;
        else if (v == (1 << 1)) access = policy::per_oc;
        else if (v == dst_varies) access = policy::per_tensor;
        else if (v == (dst_varies & ~(1 << 1))) access = policy::per_mb_spatial;
        else {
            std::string dims;
            for (size_t d = 0; d < dst_dims.size(); ++d)
                if ((v >> d) & 1) dims += (dims.empty() ? "" : ",") + std::to_string(d);
            return impl::operand_name(e, i) + " varies along dims {" + dims
                   + "}: no JIT kernel reads that (common, per_oc, per_mb_spatial or per_tensor)";
        }
        if (e.kind == post_ops::kind::binary) out.append_binary(e.alg, access);
        else out.append_prelu(access);
    }
    return "";
}

// The chain with each binary entry's dt set to its operand's type (with_operand_accesses()
// leaves f32).
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
    const bool mask_spare = isa == cpu_isa::avx2 && needs.operand_mask_spare && kernel_chain.has_operands();
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
    const std::string unread = with_operand_accesses(user, dst.get_dims(), needs.batch_per_call, access_chain);
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
