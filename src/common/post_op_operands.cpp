// Binary and prelu operands: dims checks, descs, argument ids.
#include "common/post_op_operands.hpp"

#include <cctype>

#include "attr/operand_policy.hpp"

namespace prim {
namespace impl {

std::string check_operand_dims(const post_ops &chain, const memory::dims &dst_dims, int first) {
    const auto dims_str = [](const memory::dims &d) {
        std::string s;
        for (size_t i = 0; i < d.size(); ++i) s += (i ? "x" : "") + std::to_string(d[i]);
        return s;
    };
    for (int i = first; i < chain.len(); ++i) {
        const post_ops::entry &e = chain.entries()[i];
        if (e.kind != post_ops::kind::binary || e.src1.is_zero()) continue;
        const memory::dims &s = e.src1.get_dims();
        const std::string who = operand_name(e, i) + " dims " + dims_str(s);
        if (s.size() != dst_dims.size())
            return who + " have rank " + std::to_string(s.size()) + ", the destination "
                   + dims_str(dst_dims) + " has rank " + std::to_string(dst_dims.size());
        for (size_t d = 0; d < s.size(); ++d)
            if (s[d] != 1 && s[d] != dst_dims[d])
                return who + " do not broadcast against the destination " + dims_str(dst_dims)
                       + ": dim " + std::to_string(d) + " is " + std::to_string(s[d])
                       + ", it must be " + std::to_string(dst_dims[d]) + " or 1";
    }
    return "";
}

// The destination's layout pattern ("acdb", "aBcd16b") with the dims of keep's zero bits made
// plain (lowercase, their inner blocks dropped), for an operand whose those dims are 1.
namespace {
std::string follow_pattern(const std::string &dst_pattern, int rank, int keep) {
    std::string out;
    for (int i = 0; i < rank; ++i) {
        const char c = dst_pattern[i];
        const int dim = std::tolower(c) - 'a';
        out += (keep >> dim) & 1 ? c : static_cast<char>(std::tolower(c));
    }
    // Inner blocks: digits then a lowercase letter each.
    size_t i = rank;
    while (i < dst_pattern.size()) {
        size_t j = i;
        while (j < dst_pattern.size() && std::isdigit(static_cast<unsigned char>(dst_pattern[j]))) ++j;
        const int dim = dst_pattern[j] - 'a';
        if ((keep >> dim) & 1) out += dst_pattern.substr(i, j + 1 - i);
        i = j + 1;
    }
    return out;
}
} // namespace

memory::dims operand_dims(const post_ops::entry &e, const memory::dims &dst_dims) {
    if (!has_operand(e)) return {};
    if (!e.src1.is_zero()) return e.src1.get_dims();
    const int rank = static_cast<int>(dst_dims.size());
    const int keep = mask_within(e.mask, rank);
    memory::dims dims = dst_dims;
    for (int d = 0; d < rank; ++d)
        if (!((keep >> d) & 1)) dims[d] = 1;
    return dims;
}

memory::desc operand_desc(const post_ops::entry &e, const memory::desc &dst) {
    if (!has_operand(e)) return memory::desc();
    if (!e.src1.is_zero()) return e.src1;
    // A dim kept by the policy keeps its block even when it is 1: a per_tensor operand then has
    // exactly the destination's layout, whatever its sizes.
    const int rank = dst.ndims();
    return memory::desc(operand_dims(e, dst.get_dims()), operand_type(e),
                        follow_pattern(dst.layout(), rank, mask_within(e.mask, rank)));
}

std::vector<memory::desc> operand_descs(const post_ops &chain, const memory::desc &dst,
                                        const memory::desc &before_dw) {
    const int dw = before_dw.is_zero() ? -1 : chain.dw_index();
    std::vector<memory::desc> mds;
    for (int i = 0; i < chain.len(); ++i)
        mds.push_back(operand_desc(chain.entries()[i], i < dw ? before_dw : dst));
    return mds;
}

void append_entry(post_ops &po, const post_ops::entry &e) {
    switch (e.kind) {
    case post_ops::kind::sum: po.append_sum(e.scale, e.zero_point, e.dt); return;
    case post_ops::kind::eltwise: po.append_eltwise(e.alg, e.alpha, e.beta, e.scale); return;
    case post_ops::kind::binary:
        if (e.src1.is_zero()) po.append_binary(e.alg, e.mask, e.dt);
        else po.append_binary(e.alg, e.src1);
        return;
    case post_ops::kind::prelu: po.append_prelu(e.mask); return;
    case post_ops::kind::dw:
        po.append_dw(e.dw.wei_dt, e.dw.bias_dt, e.dw.dst_dt, e.dw.kernel, e.dw.stride,
                     e.dw.padding, e.dw.mask, e.dw.scales);
        return;
    }
}

post_ops chain_after(const post_ops &front, const post_ops &user) {
    post_ops all = front;
    for (const post_ops::entry &e : user.entries()) append_entry(all, e);
    return all;
}

int operand_arg(const post_ops::entry &e, int index) {
    if (e.kind == post_ops::kind::binary) return PRIM_ARG_ATTR_MULTIPLE_POST_OP(index) | PRIM_ARG_SRC_1;
    if (e.kind == post_ops::kind::prelu) return PRIM_ARG_ATTR_MULTIPLE_POST_OP(index) | PRIM_ARG_WEIGHTS;
    return 0;
}

std::string operand_name(const post_ops::entry &e, int index) {
    const std::string what = e.kind == post_ops::kind::prelu ? "prelu) weights"
                                                             : std::string(algorithm_name(e.alg)) + ") src1";
    return "post-op " + std::to_string(index) + " (" + what;
}

} // namespace impl
} // namespace prim
