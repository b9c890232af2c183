// Eltwise creation: check the descriptor and the algorithm's parameters, choose an
// implementation.
#include "attr/algorithm_table.hpp"
#include "common/choose_impl.hpp"
#include "common/desc_checks.hpp"
#include "prim/eltwise.hpp"

namespace prim {

eltwise_forward::desc::desc(prop_kind pk, algorithm alg, const memory::desc &src, float alpha,
                            float beta)
    : desc(pk, alg, src, memory::desc(), alpha, beta) {}

eltwise_forward::desc::desc(prop_kind pk, algorithm alg, const memory::desc &src,
                            const memory::desc &dst, float alpha, float beta)
    : prop(pk), alg(alg), src(src), dst(dst), alpha(alpha), beta(beta) {}

namespace {
const impl::desc_checks check {"eltwise"};
[[noreturn]] void invalid(const std::string &msg) { check.fail(msg); }
} // namespace

eltwise_forward::primitive_desc::primitive_desc(const desc &d, const primitive_attr &attr) {
    check.prop(d.prop);
    check.f32_or_int(d.src, "src");
    if (d.src.ndims() < 1 || d.src.ndims() > 5) invalid("src must have 1 to 5 dims");
    // A dim of 0 counted as 1: an empty tensor still has strides, products of the other dims.
    memory::dim elements = 1;
    for (memory::dim x : d.src.get_dims())
        if (x < 0 || __builtin_mul_overflow(elements, x ? x : 1, &elements)
                || elements > (memory::dim(1) << 60))
            invalid("problem too large or negative: src dims must be non-negative with at most "
                    "2^60 elements (a dim of 0 counted as 1)");
    const std::string bad_params = impl::check_eltwise_params(d.alg, d.alpha, d.beta, 1.f);
    if (!bad_params.empty()) invalid(bad_params);

    impl::eltwise_request req;
    req.prb.dims = d.src.get_dims();
    req.alg = d.alg;
    req.alpha = d.alpha;
    req.beta = d.beta;
    req.src = d.src;
    req.dst = d.dst.is_zero() ? d.src : d.dst;
    if (req.dst.get_dims() != req.src.get_dims()) invalid("dst dims differ from src dims");
    check.f32_or_int(req.dst, "dst");
    req.attr = attr;
    impl_ = impl::choose_impl(impl::primitive_kind::eltwise, impl::eltwise_impl_list(), req,
                              impl::to_string(req.prb),
                              req.prb.nelems() == 0);
}

} // namespace prim
