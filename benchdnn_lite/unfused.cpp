// The unfused pipeline: one eltwise pass per post-op.
#include "unfused.hpp"

#include "post_op_entries.hpp"
#include "compare.hpp"
#include "operands.hpp"

namespace bdl {

namespace {

// One eltwise primitive from src to dst with the chain po. po's entry 0 may be entry
// `operand_of` of the case's chain, a binary or prelu entry: its operand gets that entry's data.
bound_primitive eltwise_pass(prim::algorithm alg, float alpha, float beta,
                             const prim::post_ops &po, const prim::memory &src,
                             const prim::memory &dst, int operand_of = -1) {
    prim::primitive_attr attr;
    attr.set_post_ops(po);
    const prim::eltwise_forward::desc d(prim::prop_kind::forward_inference, alg, src.get_desc(),
                                        dst.get_desc(), alpha, beta);
    const prim::eltwise_forward::primitive_desc pd(d, attr);
    bound_primitive b;
    b.prim = std::make_shared<prim::eltwise_forward>(pd);
    b.impl = pd.impl_name();
    b.args = {{prim::PRIM_ARG_SRC, src}, {prim::PRIM_ARG_DST, dst}};
    if (operand_of >= 0) bind_operand(po.entries()[0], operand_of, 0, pd, b.args);
    return b;
}

} // namespace

unfused_pipeline::unfused_pipeline(const problem_case &pc, const prim::post_ops &po) {
    using prim::algorithm;
    constexpr double extra_rounding = 5e-7;
    std::vector<bound_primitive> own = pc.unfused_steps(po); // a dw post-op's two convolutions
    if (!own.empty()) {
        base_ = own.front();
        passes_.assign(own.begin() + 1, own.end());
        dst_ = passes_.empty() ? base_.dst() : passes_.back().dst();
        return;
    }
    base_ = pc.create(prim::primitive_attr());
    dst_ = base_.dst(); // holds dst_old
    prim::memory cur = dst_;
    int last_sum = -1;
    for (int i = 0; i < po.len(); ++i)
        if (po.get_kind(i) == prim::post_ops::kind::sum) last_sum = i;
    if (last_sum >= 0) {
        cur = prim::memory(dst_.get_desc());
        base_.args[prim::PRIM_ARG_DST] = cur;
    }
    for (int i = 0; i < po.len(); ++i) {
        const auto &e = po.entries()[i];
        prim::post_ops extra;
        if (e.kind == prim::post_ops::kind::eltwise) {
            if (e.scale != 1.f) {
                extra.append_eltwise(algorithm::eltwise_linear, e.scale, 0.f);
                if (algorithm_tolerance(e.alg) > 0) extra_tol_ += extra_rounding;
            }
            passes_.push_back(eltwise_pass(e.alg, e.alpha, e.beta, extra, cur, cur));
        } else if (e.kind != prim::post_ops::kind::sum) { // binary, prelu: exact either way
            append_entry(extra, e);
            passes_.push_back(eltwise_pass(algorithm::eltwise_identity, 0.f, 0.f, extra, cur, cur, i));
        } else if (i == last_sum) {
            extra.append_sum(e.scale);
            passes_.push_back(eltwise_pass(algorithm::eltwise_identity, 0.f, 0.f, extra, cur, dst_));
            cur = dst_;
        } else {
            extra.append_sum(1.f);
            passes_.push_back(eltwise_pass(algorithm::eltwise_linear, e.scale, 0.f, extra, dst_, cur));
            if (e.scale != 1.f) extra_tol_ += extra_rounding;
        }
    }
}

void unfused_pipeline::execute() const {
    base_.execute();
    for (const bound_primitive &p : passes_) p.execute();
}

} // namespace bdl
