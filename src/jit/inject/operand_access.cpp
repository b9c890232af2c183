// The access of each binary or prelu operand: operand_access.hpp.
#include "jit/inject/operand_access.hpp"

#include "common/post_op_operands.hpp"

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

} // namespace

std::string kernel_chain(const post_ops &chain, const memory::dims &dst_dims, bool batch_per_call,
                         post_ops &out) {
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

} // namespace jit
} // namespace prim
