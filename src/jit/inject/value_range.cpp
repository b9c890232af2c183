// Ranges through a chain (value_range.hpp): the bounds are the reference's own values at the
// range's ends (eltwise_math, the oracle), widened by far more than any kernel's error.
#include "jit/inject/value_range.hpp"

#include <cfloat>

#include "attr/algorithm_table.hpp"
#include "attr/eltwise_math.hpp"
#include "attr/runtime_params.hpp"

namespace prim {
namespace jit {
namespace {

using alg = algorithm;

// Outward by a relative 1e-5 (about 80 ulps, above every algorithm's error bound in
// doc/injector.md that this file uses) and an absolute abs_err (1e-30: results the kernels flush
// to 0 where the reference is below FLT_MIN), but never across 0 (the kernels of these
// algorithms keep the sign of their results); past f32's largest value, to the infinity that
// f32 results reach there.
value_range widened(double lo, double hi, double abs_err = 1e-30) {
    if (std::isnan(lo) || std::isnan(hi)) return {};
    const double wide_lo = lo - std::fabs(lo) * 1e-5 - abs_err;
    const double wide_hi = hi + std::fabs(hi) * 1e-5 + abs_err;
    lo = lo >= 0 ? std::fmax(wide_lo, 0.0) : wide_lo;
    hi = hi <= 0 ? std::fmin(wide_hi, 0.0) : wide_hi;
    return {lo < -FLT_MAX ? -INFINITY : lo, hi > FLT_MAX ? INFINITY : hi};
}

// +1 where f is non-decreasing over the whole line for these parameters, -1 where it is
// non-increasing, 0 where neither or not known here (its row's range rule).
int direction(impl::range_rule rule, float alpha, float beta) {
    using rr = impl::range_rule;
    const bool finite = std::isfinite(alpha) && std::isfinite(beta);
    switch (rule) {
    case rr::increasing:
    case rr::increasing_alpha_flush: return 1;
    case rr::increasing_if_alpha_nonneg: return finite && alpha >= 0.f ? 1 : 0;
    case rr::by_sign_of_alpha:
    case rr::by_sign_of_alpha_beta: {
        if (!finite) return 0;
        const double slope
                = rule == rr::by_sign_of_alpha ? alpha : static_cast<double>(alpha) * beta;
        return slope >= 0 ? 1 : -1;
    }
    default: return 0;
    }
}

value_range of_algorithm(alg a, float alpha, float beta, const value_range &in) {
    const impl::algorithm_info *info = impl::find_algorithm(a);
    if (!info) return {};
    const auto f = [&](double x) { return impl::eltwise_fwd(a, x, alpha, beta); };
    switch (info->range) {
    case impl::range_rule::of_magnitude: {
        const double m_lo = in.lo >= 0 ? in.lo : (in.hi <= 0 ? -in.hi : 0.0);
        return widened(f(m_lo), f(in.max_abs()));
    }
    case impl::range_rule::increasing_from_zero:
        // Increasing where defined; below 0 the results are NaN, which a range does not bound.
        if (in.hi < 0) return {};
        return widened(f(std::fmax(in.lo, 0.0)), f(in.hi));
    default: break;
    }
    // soft_relu's kernel flushes e^-|alpha x| below e^-87 and divides by alpha: an absolute
    // error up to e^-87 / |alpha|, far above 1e-30 for a small alpha.
    const bool flush_over_alpha = info->range == impl::range_rule::increasing_alpha_flush;
    const double abs_err = flush_over_alpha ? std::fmax(1e-30, 2e-38 / std::fabs(alpha)) : 1e-30;
    const int dir = direction(info->range, alpha, beta);
    if (dir > 0) return widened(f(in.lo), f(in.hi), abs_err);
    if (dir < 0) return widened(f(in.hi), f(in.lo), abs_err);
    return {};
}

} // namespace

value_range value_range_after(const post_ops::entry &e, const value_range &in) {
    if (e.kind != post_ops::kind::eltwise) return {};
    if (impl::is_runtime_param(e.alpha) || impl::is_runtime_param(e.beta)
            || impl::is_runtime_param(e.scale) || !std::isfinite(e.scale))
        return {};
    const value_range r = of_algorithm(e.alg, e.alpha, e.beta, in);
    if (e.scale == 1.f) return r;
    return e.scale > 0 ? widened(r.lo * e.scale, r.hi * e.scale) : widened(r.hi * e.scale, r.lo * e.scale);
}

} // namespace jit
} // namespace prim
