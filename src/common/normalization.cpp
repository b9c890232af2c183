// Batch and layer normalization creation: check the descriptor, turn it into a problem, choose
// an implementation.
#include "common/choose_impl.hpp"
#include "common/desc_checks.hpp"
#include "common/verbose.hpp"
#include "prim/normalization.hpp"

namespace prim {

batch_normalization_forward::desc::desc(prop_kind pk, const memory::desc &src, float epsilon,
                                        normalization_flags flags)
    : desc(pk, src, memory::desc(), epsilon, flags) {}

batch_normalization_forward::desc::desc(prop_kind pk, const memory::desc &src,
                                        const memory::desc &dst, float epsilon,
                                        normalization_flags flags)
    : prop(pk), src(src), dst(dst), epsilon(epsilon), flags(flags) {}

layer_normalization_forward::desc::desc(prop_kind pk, const memory::desc &src, float epsilon,
                                        normalization_flags flags)
    : desc(pk, src, memory::desc(), memory::desc(), epsilon, flags) {}

layer_normalization_forward::desc::desc(prop_kind pk, const memory::desc &src,
                                        const memory::desc &stat, float epsilon,
                                        normalization_flags flags)
    : desc(pk, src, memory::desc(), stat, epsilon, flags) {}

layer_normalization_forward::desc::desc(prop_kind pk, const memory::desc &src,
                                        const memory::desc &dst, const memory::desc &stat,
                                        float epsilon, normalization_flags flags)
    : prop(pk), src(src), dst(dst), stat(stat), epsilon(epsilon), flags(flags) {}

namespace {

const impl::desc_checks bnorm_check {"batch_normalization"};
const impl::desc_checks lnorm_check {"layer_normalization"};

// The checks both normalizations make on the propagation kind, src and dst. Returns dst, src's
// desc when the user gave none.
memory::desc check_data(const impl::desc_checks &check, prop_kind pk, const memory::desc &src,
                        const memory::desc &dst) {
    check.prop(pk);
    if (pk != prop_kind::forward_inference)
        check.fail("prop_kind forward_training is not supported: the normalizations are "
                   "inference only (they do not output the statistics); use forward_inference");
    check.f32(src, "src");
    const memory::desc out = dst.is_zero() ? src : dst;
    check.f32(out, "dst");
    if (out.get_dims() != src.get_dims())
        check.fail("dst dims " + impl::dims_str(out.get_dims()) + " differ from src dims "
                   + impl::dims_str(src.get_dims()));
    return out;
}

impl::bnorm_problem make_problem(const batch_normalization_forward::desc &d) {
    const memory::dims &s = d.src.get_dims();
    const int rank = static_cast<int>(s.size());
    if (rank < 2 || rank > 5)
        bnorm_check.fail("src must have 2 to 5 dims (N x C [x D] [x H] [x W]), it has "
                         + std::to_string(rank));
    impl::bnorm_problem p;
    p.mb = s[0];
    p.ic = s[1];
    p.nsp = rank - 2;
    for (int j = 0; j < p.nsp; ++j) p.i[3 - p.nsp + j] = s[2 + j];
    p.eps = d.epsilon;
    p.flags = static_cast<unsigned>(d.flags);
    const std::string bad = impl::check_bnorm_problem(p);
    if (!bad.empty()) bnorm_check.fail(bad);
    return p;
}

impl::lnorm_problem make_problem(const layer_normalization_forward::desc &d) {
    impl::lnorm_problem p;
    p.dims = d.src.get_dims();
    p.eps = d.epsilon;
    p.flags = static_cast<unsigned>(d.flags);
    const std::string bad = impl::check_lnorm_problem(p);
    if (!bad.empty()) lnorm_check.fail(bad);
    return p;
}

// Layer normalization's statistics layout: 'any' when not given, else f32 with src's dims
// without the last.
memory::desc stat_desc(const layer_normalization_forward::desc &d) {
    const memory::dims &s = d.src.get_dims();
    const memory::dims want(s.begin(), s.end() - 1);
    if (d.stat.is_zero()) return memory::desc(want, memory::data_type::f32, memory::format_tag::any);
    lnorm_check.f32(d.stat, "stat");
    if (d.stat.get_dims() != want)
        lnorm_check.fail("stat dims " + impl::dims_str(d.stat.get_dims()) + " must be "
                         + impl::dims_str(want) + " (src dims without the last)");
    return d.stat;
}

} // namespace

batch_normalization_forward::primitive_desc::primitive_desc(const desc &d,
                                                            const primitive_attr &attr) {
    const memory::desc dst = check_data(bnorm_check, d.prop, d.src, d.dst);
    const impl::bnorm_request req {make_problem(d), d.src, dst, attr};
    impl_ = impl::choose_impl(impl::primitive_kind::batch_normalization, impl::bnorm_impl_list(),
                              req, impl::to_string(req.prb), req.prb.nelems() == 0);
}

memory::desc batch_normalization_forward::primitive_desc::mean_desc() const {
    return query_md(PRIM_ARG_MEAN);
}
memory::desc batch_normalization_forward::primitive_desc::variance_desc() const {
    return query_md(PRIM_ARG_VARIANCE);
}
memory::desc batch_normalization_forward::primitive_desc::scale_desc() const {
    return query_md(PRIM_ARG_SCALE);
}
memory::desc batch_normalization_forward::primitive_desc::shift_desc() const {
    return query_md(PRIM_ARG_SHIFT);
}

layer_normalization_forward::primitive_desc::primitive_desc(const desc &d,
                                                            const primitive_attr &attr) {
    const memory::desc dst = check_data(lnorm_check, d.prop, d.src, d.dst);
    const impl::lnorm_problem prb = make_problem(d);
    const impl::lnorm_request req {prb, d.src, dst, stat_desc(d), attr};
    impl_ = impl::choose_impl(impl::primitive_kind::layer_normalization, impl::lnorm_impl_list(),
                              req, impl::to_string(req.prb), req.prb.nelems() == 0);
}

memory::desc layer_normalization_forward::primitive_desc::mean_desc() const {
    return query_md(PRIM_ARG_MEAN);
}
memory::desc layer_normalization_forward::primitive_desc::variance_desc() const {
    return query_md(PRIM_ARG_VARIANCE);
}
memory::desc layer_normalization_forward::primitive_desc::scale_desc() const {
    return query_md(PRIM_ARG_SCALE);
}
memory::desc layer_normalization_forward::primitive_desc::shift_desc() const {
    return query_md(PRIM_ARG_SHIFT);
}

} // namespace prim
