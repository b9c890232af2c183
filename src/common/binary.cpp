// Binary creation: check the descriptor, settle 'any' layouts, choose an implementation.
#include <algorithm>

#include "attr/binary_table.hpp"
#include "attr/operand_policy.hpp"
#include "common/choose_impl.hpp"
#include "common/desc_checks.hpp"
#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "common/quant_attr.hpp"
#include "prim/binary.hpp"

namespace prim {

binary::desc::desc(algorithm alg, const memory::desc &src0, const memory::desc &src1,
                   const memory::desc &dst)
    : alg(alg), src0(src0), src1(src1), dst(dst) {}

namespace {
const impl::desc_checks check {"binary"};
[[noreturn]] void invalid(const std::string &msg) { check.fail(msg); }

std::string dims_str(const memory::dims &d) {
    return impl::to_string(impl::eltwise_problem {d});
}
} // namespace

binary::primitive_desc::primitive_desc(const desc &d, const primitive_attr &attr) {
    if (!impl::find_binary(d.alg))
        invalid("algorithm " + std::to_string(static_cast<int>(d.alg))
                + " is not a binary algorithm (binary_add ... binary_ne)");
    check.f32_or_int(d.src0, "src0");
    check.f32_or_int(d.src1, "src1");
    const memory::dims &s0 = d.src0.get_dims(), &s1 = d.src1.get_dims();
    if (s0.empty() || s0.size() > 5) invalid("src0 must have 1 to 5 dims");
    if (s1.size() != s0.size())
        invalid("src1 " + dims_str(s1) + " has rank " + std::to_string(s1.size()) + ", src0 "
                + dims_str(s0) + " has rank " + std::to_string(s0.size()));
    memory::dim elements = 1;
    for (size_t i = 0; i < s0.size(); ++i) {
        if (s0[i] < 0 || __builtin_mul_overflow(elements, s0[i] ? s0[i] : 1, &elements)
                || elements > (memory::dim(1) << 60))
            invalid("problem too large or negative: src0 dims must be non-negative with at most "
                    "2^60 elements");
        if (s1[i] != 1 && s1[i] != s0[i])
            invalid("src1 " + dims_str(s1) + " does not broadcast against src0 " + dims_str(s0)
                    + ": dim " + std::to_string(i) + " is " + std::to_string(s1[i])
                    + ", it must be " + std::to_string(s0[i]) + " or 1");
    }
    // No dst: src0's desc, type included.
    const memory::desc dst_given = d.dst.is_zero() ? d.src0 : d.dst;
    check.f32_or_int(dst_given, "dst");
    const std::string bad_scales = impl::check_binary_quantization(attr.get_quantization());
    if (!bad_scales.empty()) invalid(bad_scales);
    if (dst_given.get_dims() != s0)
        invalid("dst " + dims_str(dst_given.get_dims()) + " differs from src0 " + dims_str(s0));

    // 'any': src0 and dst take each other's layout (plain when both are 'any'), each keeping its
    // own type; src1 follows dst's layout as an operand given by its policy does.
    impl::binary_request req;
    req.prb = {s0, s1};
    req.alg = d.alg;
    req.src0 = d.src0;
    req.dst = dst_given;
    using impl::retyped;
    if (req.src0.is_any() && req.dst.is_any()) {
        req.src0 = impl::plain_desc(s0, d.src0.get_data_type());
        req.dst = impl::plain_desc(s0, dst_given.get_data_type());
    }
    if (req.src0.is_any()) req.src0 = retyped(req.dst, d.src0.get_data_type());
    if (req.dst.is_any()) req.dst = retyped(req.src0, dst_given.get_data_type());
    if (d.src1.is_any()) {
        post_ops follow;
        follow.append_binary(d.alg, impl::policy_of(s1), d.src1.get_data_type());
        req.src1 = impl::operand_desc(follow.entries()[0], req.dst);
    } else {
        req.src1 = d.src1;
    }
    req.attr = attr;
    impl_ = impl::choose_impl(impl::primitive_kind::binary, impl::binary_impl_list(), req,
                              impl::to_string(req.prb),
                              std::find(s0.begin(), s0.end(), 0) != s0.end());
}

} // namespace prim
