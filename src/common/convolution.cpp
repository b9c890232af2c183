// Convolution creation: check the descriptor, turn it into a conv_problem, choose an
// implementation.
#include "common/choose_impl.hpp"
#include "common/desc_checks.hpp"
#include "common/dw_post_op.hpp"
#include "common/quant_attr.hpp"
#include "prim/convolution.hpp"

namespace prim {

using impl::conv_problem;

convolution_forward::desc::desc(prop_kind pk, algorithm alg, const memory::desc &src,
        const memory::desc &weights, const memory::desc &bias, const memory::desc &dst,
        const memory::dims &strides, const memory::dims &dilates, const memory::dims &padding_l,
        const memory::dims &padding_r)
    : prop(pk), alg(alg), src(src), weights(weights), bias(bias), dst(dst), strides(strides),
      dilates(dilates), padding_l(padding_l), padding_r(padding_r) {}

convolution_forward::desc::desc(prop_kind pk, algorithm alg, const memory::desc &src,
        const memory::desc &weights, const memory::desc &dst, const memory::dims &strides,
        const memory::dims &dilates, const memory::dims &padding_l, const memory::dims &padding_r)
    : desc(pk, alg, src, weights, memory::desc(), dst, strides, dilates, padding_l, padding_r) {}

namespace {

const impl::desc_checks check {"convolution"};

[[noreturn]] void invalid(const std::string &msg) { check.fail(msg); }

// The problem the descriptor describes, checked as doc/reference.md §3 checks a string.
conv_problem make_problem(const convolution_forward::desc &d) {
    if (d.alg != algorithm::convolution_direct) invalid("algorithm must be convolution_direct");
    check.prop(d.prop);
    const std::string bad_types = impl::check_weighted_types(d.src, d.weights, d.bias, d.dst);
    if (!bad_types.empty()) invalid(bad_types);
    const auto &s = d.src.get_dims(), &w = d.weights.get_dims(), &o = d.dst.get_dims();
    const int rank = static_cast<int>(s.size());
    if (rank < 3 || rank > 5)
        invalid("src must have 3 to 5 dims (mb, ic, spatial...), it has " + std::to_string(rank));
    const int nsp = rank - 2;
    if (static_cast<int>(o.size()) != rank)
        invalid("dst has " + std::to_string(o.size()) + " dims, src has " + std::to_string(rank));
    const bool grouped = static_cast<int>(w.size()) == rank + 1;
    if (!grouped && static_cast<int>(w.size()) != rank)
        invalid("weights have " + std::to_string(w.size()) + " dims, expected "
                + std::to_string(rank) + " or " + std::to_string(rank + 1) + " (grouped)");
    for (const auto *v : {&d.strides, &d.dilates, &d.padding_l, &d.padding_r})
        if (static_cast<int>(v->size()) != nsp)
            invalid("strides, dilates and paddings need " + std::to_string(nsp)
                    + " values each (one per spatial dim)");

    conv_problem p;
    p.nsp = nsp;
    p.mb = s[0];
    p.ic = s[1];
    p.oc = o[1];
    p.g = grouped ? w[0] : 1;
    if (o[0] != p.mb)
        invalid("dst mb=" + std::to_string(o[0]) + " differs from src mb=" + std::to_string(p.mb));
    if (p.g < 1) invalid("g=" + std::to_string(p.g) + " must be positive");
    const int wo = grouped ? 1 : 0; // index of oc in the weights dims
    // Divisions, not products, so that a huge g cannot wrap around to a plausible value.
    if (p.oc % p.g || p.ic % p.g || w[wo] != p.oc / p.g || w[wo + 1] != p.ic / p.g)
        invalid("weights dims (oc/g=" + std::to_string(w[wo]) + ", ic/g=" + std::to_string(w[wo + 1])
                + ") do not fit ic=" + std::to_string(p.ic) + " oc=" + std::to_string(p.oc)
                + " g=" + std::to_string(p.g));
    for (int j = 0; j < nsp; ++j) {
        const int sp = 3 - nsp + j; // spatial dims fill the arrays from the w end
        p.i[sp] = s[2 + j];
        p.o[sp] = o[2 + j];
        p.k[sp] = w[wo + 2 + j];
        p.s[sp] = d.strides[j];
        p.d[sp] = d.dilates[j];
        p.p[sp] = d.padding_l[j];
        p.p_end[sp] = d.padding_r[j];
        if (p.s[sp] < 1 || p.d[sp] < 0 || p.k[sp] < 1 || p.i[sp] < 1)
            invalid("spatial dim " + std::to_string(j) + ": input, kernel and stride must be "
                    "positive and dilation non-negative");
        // Bounds under which the size arithmetic below cannot overflow. Paddings are compared
        // with both bounds, not through std::abs: -INT64_MIN does not exist.
        const int64_t max_tap = int64_t(1) << 30, max_size = int64_t(1) << 60;
        const auto within = [&](int64_t v) { return v >= -max_size && v <= max_size; };
        if (p.k[sp] > max_tap || p.d[sp] > max_tap || p.i[sp] > max_size || p.o[sp] > max_size
                || !within(p.p[sp]) || !within(p.p_end[sp]))
            invalid("spatial dim " + std::to_string(j) + ": problem too large (kernel and "
                    "dilation at most 2^30, sizes and paddings at most 2^60)");
        const int64_t span = p.i[sp] + p.p[sp] + p.p_end[sp] - p.extent(sp);
        const int64_t expect_o = span < 0 ? 0 : span / p.s[sp] + 1;
        if (p.o[sp] != expect_o)
            invalid("dst spatial dim " + std::to_string(j) + " is " + std::to_string(p.o[sp])
                    + " but input, kernel, stride, dilation and padding give "
                    + std::to_string(expect_o));
        // The end padding that matters is the one the output size implies (doc/reference.md §3).
        p.p_end[sp] = (p.o[sp] - 1) * p.s[sp] - p.i[sp] + p.extent(sp) - p.p[sp];
    }
    if (!d.bias.is_zero() && d.bias.get_dims() != memory::dims {p.oc})
        invalid("bias must have dims {oc} = {" + std::to_string(p.oc) + "}");
    const std::string problem = impl::check_conv_problem(p);
    if (!problem.empty()) invalid(problem);
    return p;
}

} // namespace

convolution_forward::primitive_desc::primitive_desc(const desc &given, const primitive_attr &attr) {
    // A dw post-op: the problem is the 1x1 convolution's, dst the depthwise output
    // (common/dw_post_op.hpp).
    const post_ops &chain = attr.get_post_ops();
    const int dw = chain.dw_index();
    desc d = given;
    memory::desc dst = given.dst;
    if (dw >= 0) {
        std::string bad = impl::check_dw_chain(chain, true);
        if (bad.empty()) bad = impl::admit_dw_convolution(given, attr, dw, d, dst);
        if (!bad.empty()) invalid(bad);
    }
    impl::conv_problem prb = make_problem(d);
    // A dw post-op's own scales were checked by admit_dw_convolution; without one they are refused.
    const std::string bad_quant = impl::check_weighted_quantization(
            dw >= 0 ? impl::one_by_one_quantization(attr.get_quantization()) : attr.get_quantization(),
            d.src.get_data_type() != memory::data_type::f32, d.weights.ndims() == d.src.ndims() + 1, prb.oc);
    if (!bad_quant.empty()) invalid(bad_quant);
    const impl::conv_request req {std::move(prb), !d.bias.is_zero(), d.src, d.weights, d.bias,
                                  dst, attr, d.dst.get_data_type()};
    impl_ = impl::choose_impl(impl::primitive_kind::convolution, impl::conv_impl_list(), req,
                              impl::to_string(req.prb), req.prb.mb == 0);
}

} // namespace prim
