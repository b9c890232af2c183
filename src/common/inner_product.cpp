// Inner-product creation: check the descriptor, turn it into an ip_problem, choose an
// implementation.
#include "common/choose_impl.hpp"
#include "common/desc_checks.hpp"
#include "common/quant_attr.hpp"
#include "prim/inner_product.hpp"

namespace prim {

inner_product_forward::desc::desc(prop_kind pk, const memory::desc &src,
        const memory::desc &weights, const memory::desc &bias, const memory::desc &dst)
    : prop(pk), src(src), weights(weights), bias(bias), dst(dst) {}

inner_product_forward::desc::desc(prop_kind pk, const memory::desc &src,
        const memory::desc &weights, const memory::desc &dst)
    : desc(pk, src, weights, memory::desc(), dst) {}

namespace {

const impl::desc_checks check {"inner_product"};

[[noreturn]] void invalid(const std::string &msg) { check.fail(msg); }

impl::ip_problem make_problem(const inner_product_forward::desc &d) {
    check.prop(d.prop);
    const std::string bad_types = impl::check_weighted_types(d.src, d.weights, d.bias, d.dst);
    if (!bad_types.empty()) invalid(bad_types);
    const auto &s = d.src.get_dims(), &w = d.weights.get_dims(), &o = d.dst.get_dims();
    const int rank = static_cast<int>(s.size());
    if (rank < 2 || rank > 5)
        invalid("src must have 2 to 5 dims (mb, ic, spatial...), it has " + std::to_string(rank));
    if (w.size() != s.size())
        invalid("weights have " + std::to_string(w.size()) + " dims, src has "
                + std::to_string(rank));
    if (o.size() != 2) invalid("dst must have 2 dims (mb, oc)");
    impl::ip_problem p;
    p.nsp = rank - 2;
    p.mb = s[0];
    p.ic = s[1];
    p.oc = o[1];
    if (o[0] != p.mb)
        invalid("dst mb=" + std::to_string(o[0]) + " differs from src mb=" + std::to_string(p.mb));
    if (w[0] != p.oc || w[1] != p.ic)
        invalid("weights (" + std::to_string(w[0]) + ", " + std::to_string(w[1])
                + ", ...) must be (oc=" + std::to_string(p.oc) + ", ic=" + std::to_string(p.ic)
                + ", ...)");
    for (int j = 0; j < p.nsp; ++j) {
        if (w[2 + j] != s[2 + j])
            invalid("weights spatial dims must equal the src spatial dims");
        p.i[3 - p.nsp + j] = s[2 + j];
    }
    if (!d.bias.is_zero() && d.bias.get_dims() != memory::dims {p.oc})
        invalid("bias must have dims {oc} = {" + std::to_string(p.oc) + "}");
    const std::string problem = impl::check_ip_problem(p);
    if (!problem.empty()) invalid(problem);
    return p;
}

} // namespace

inner_product_forward::primitive_desc::primitive_desc(const desc &d, const primitive_attr &attr) {
    impl::ip_problem prb = make_problem(d);
    const std::string bad_quant = impl::check_weighted_quantization(attr.get_quantization(),
            d.src.get_data_type() != memory::data_type::f32, false, prb.oc);
    if (!bad_quant.empty()) invalid(bad_quant);
    const impl::ip_request req {std::move(prb), !d.bias.is_zero(), d.src, d.weights, d.bias,
                                d.dst, attr};
    impl_ = impl::choose_impl(impl::primitive_kind::inner_product, impl::ip_impl_list(), req,
                              impl::to_string(req.prb), req.prb.mb == 0);
}

} // namespace prim
