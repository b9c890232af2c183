// Pooling creation: check the descriptor, turn it into a problem, choose an implementation.
#include "common/choose_impl.hpp"
#include "common/desc_checks.hpp"
#include "common/verbose.hpp"
#include "prim/pooling.hpp"

namespace prim {

pooling_forward::desc::desc(prop_kind pk, algorithm alg, const memory::desc &src,
                            const memory::desc &dst, const memory::dims &strides,
                            const memory::dims &kernel, const memory::dims &dilation,
                            const memory::dims &padding_l, const memory::dims &padding_r)
    : prop(pk), alg(alg), src(src), dst(dst), strides(strides), kernel(kernel),
      dilation(dilation), padding_l(padding_l), padding_r(padding_r) {}

namespace {

const impl::desc_checks check {"pooling"};

std::string num(int64_t v) { return std::to_string(v); }

// The problem of a descriptor whose descs are checked: every message names the parameter.
impl::pool_problem make_problem(const pooling_forward::desc &d, const memory::desc &dst) {
    impl::pool_problem p;
    p.alg = d.alg;
    if (!impl::pool_alg_name(d.alg))
        check.fail("algorithm " + num(static_cast<int>(d.alg))
                   + " is not a pooling algorithm (pooling_max, pooling_avg_include_padding, "
                     "pooling_avg_exclude_padding)");
    const memory::dims &s = d.src.get_dims(), &o = dst.get_dims();
    const int rank = d.src.ndims();
    if (rank < 3 || rank > 5)
        check.fail("src must have 3 to 5 dims (N x C x [D x] [H x] W), it has " + num(rank));
    if (dst.ndims() != rank)
        check.fail("dst has " + num(dst.ndims()) + " dims, src " + num(rank));
    if (o[0] != s[0] || o[1] != s[1])
        check.fail("dst dims " + impl::dims_str(o) + " must keep src's N and C "
                   + impl::dims_str(s));
    p.nsp = rank - 2;
    const struct {
        const memory::dims *v;
        const char *name;
    } params[] = {{&d.strides, "strides"}, {&d.kernel, "kernel"}, {&d.dilation, "dilation"},
                  {&d.padding_l, "padding_l"}, {&d.padding_r, "padding_r"}};
    for (const auto &prm : params)
        if (static_cast<int>(prm.v->size()) != p.nsp)
            check.fail(std::string(prm.name) + " has " + num(prm.v->size())
                       + " values, src has " + num(p.nsp) + " spatial dims");
    if (s[0] < 0) check.fail("mb=" + num(s[0]) + " is negative");
    p.mb = s[0];
    p.ic = s[1];
    static const char letter[3] = {'d', 'h', 'w'};
    for (int j = 0; j < p.nsp; ++j) {
        const int sp = 3 - p.nsp + j;
        const std::string dim = std::string(" of dim ") + letter[sp];
        p.i[sp] = s[2 + j];
        p.o[sp] = o[2 + j];
        p.k[sp] = d.kernel[j];
        p.s[sp] = d.strides[j];
        p.d[sp] = d.dilation[j];
        p.p[sp] = d.padding_l[j];
        if (p.i[sp] < 1) check.fail("src size " + num(p.i[sp]) + dim + " must be positive");
        if (p.k[sp] < 1) check.fail("kernel " + num(p.k[sp]) + dim + " must be positive");
        if (p.s[sp] < 1) check.fail("stride " + num(p.s[sp]) + dim + " must be positive");
        if (p.d[sp] < 0) check.fail("dilation " + num(p.d[sp]) + dim + " is negative");
        if (d.padding_l[j] < 0 || d.padding_r[j] < 0)
            check.fail("padding " + num(d.padding_l[j]) + "/" + num(d.padding_r[j]) + dim
                       + " is negative");
        const int64_t padded = p.i[sp] + d.padding_l[j] + d.padding_r[j];
        if (p.extent(sp) > padded)
            check.fail("kernel extent " + num(p.extent(sp)) + dim
                       + " is larger than the padded src (" + num(p.i[sp]) + " + "
                       + num(d.padding_l[j]) + " + " + num(d.padding_r[j]) + ")");
        const int64_t want = (padded - p.extent(sp)) / p.s[sp] + 1;
        if (p.o[sp] != want)
            check.fail("dst size " + num(p.o[sp]) + dim + " must be " + num(want)
                       + " = (src " + num(p.i[sp]) + " + padding " + num(d.padding_l[j]) + " + "
                       + num(d.padding_r[j]) + " - kernel extent " + num(p.extent(sp))
                       + ") / stride " + num(p.s[sp]) + " + 1");
        // The end padding the last window uses (at most padding_r).
        p.p_end[sp] = (p.o[sp] - 1) * p.s[sp] - p.i[sp] + p.extent(sp) - p.p[sp];
    }
    const std::string bad = impl::check_pool_problem(p);
    if (!bad.empty()) check.fail(bad);
    return p;
}

} // namespace

pooling_forward::primitive_desc::primitive_desc(const desc &d, const primitive_attr &attr) {
    check.prop(d.prop);
    if (d.prop == prop_kind::forward_training && d.alg == algorithm::pooling_max)
        check.fail("prop_kind forward_training is not supported for pooling_max (it would output "
                   "a workspace): use forward_inference");
    check.f32_or_int(d.src, "src");
    check.f32_or_int(d.dst, "dst");
    const impl::pool_request req {make_problem(d, d.dst), d.src, d.dst, attr};
    impl_ = impl::choose_impl(impl::primitive_kind::pooling, impl::pool_impl_list(), req,
                              impl::to_string(req.prb), req.prb.mb == 0);
}

} // namespace prim
