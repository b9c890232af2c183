// Comparison and the tolerance table.
#include "compare.hpp"

#include "attr/eltwise_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bdl {

namespace {
constexpr double exact = 0.0;
constexpr double arithmetic = 5e-7;     // a few roundings (mul + add instead of one FMA)
constexpr double transcendental = 1e-6; // ~8 ulp: the JIT's exp/log/tanh/erf approximations
} // namespace

double algorithm_tolerance(prim::algorithm alg) {
    using prim::algorithm;
    switch (alg) {
    // One rounding or none, the same in the reference and in any correct kernel.
    case algorithm::eltwise_relu:
    case algorithm::eltwise_abs:
    case algorithm::eltwise_square:
    case algorithm::eltwise_sqrt: // correctly rounded in hardware and in the reference
    case algorithm::eltwise_clip:
    case algorithm::eltwise_clip_v2:
    case algorithm::eltwise_round:
    case algorithm::eltwise_shrink:
    case algorithm::eltwise_thresholded_relu:
    case algorithm::eltwise_identity: return exact;
    // Several roundings of plain arithmetic.
    case algorithm::eltwise_linear:
    case algorithm::eltwise_hardsigmoid:
    case algorithm::eltwise_hardswish:
    case algorithm::eltwise_softsign: return arithmetic;
    default: return transcendental;
    }
}

double chain_tolerance(const prim::post_ops &po) {
    double tol = 0;
    for (const auto &e : po.entries()) {
        if (e.kind == prim::post_ops::kind::sum)
            tol += e.scale == 1.f ? exact : arithmetic;
        else // scale * f(x) rounds once more than the reference's single rounding
            tol += algorithm_tolerance(e.alg) + (e.scale == 1.f ? exact : arithmetic);
    }
    return tol;
}

compare_result compare(const float *got, const float *ref, int64_t n, double tol, int keep,
                       const second_chance &retry) {
    compare_result r;
    r.total = n;
    for (int64_t i = 0; i < n; ++i) {
        const float g = got[i], f = ref[i];
        double err;
        if (std::isnan(f) || std::isnan(g)) {
            err = std::isnan(f) && std::isnan(g) ? 0.0 : INFINITY;
        } else if (std::isinf(f) || std::isinf(g)) {
            err = g == f ? 0.0 : INFINITY;
        } else {
            err = std::fabs(static_cast<double>(g) - f) / std::max(1.0, std::fabs(static_cast<double>(f)));
        }
        r.worst = std::max(r.worst, err);
        if (err <= tol || (retry && retry(i, g))) continue;
        ++r.errors;
        // Keep the `keep` worst: a small sorted list.
        if (static_cast<int>(r.examples.size()) < keep || err > r.examples.back().err) {
            r.examples.push_back({i, g, f, err});
            std::sort(r.examples.begin(), r.examples.end(),
                      [](const mismatch &a, const mismatch &b) { return a.err > b.err; });
            if (static_cast<int>(r.examples.size()) > keep) r.examples.pop_back();
        }
    }
    return r;
}

namespace {

// |a - b| <= tol * max(1, |b|), NaN equal to NaN, infinities equal when of the same sign.
bool close(float a, float b, double tol) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return std::fabs(static_cast<double>(a) - b) <= tol * std::max(1.0, std::fabs(double(b)));
}

// The chain as the reference computes it (double per step, rounded to f32 after each), with
// each step's result moved by dir * its budget.
float chain_nudged(const prim::post_ops &po, float base, double base_tol, float dst_old, int dir) {
    // A tiny value may err down to zero, but not past it: its sign is part of its accuracy.
    const auto nudge = [dir](float x, double budget) {
        if (!std::isfinite(x)) return x;
        const double floor = 1.0 / (1 << 20);
        const double moved = x + dir * budget * std::max(std::fabs(double(x)), floor);
        return static_cast<float>(moved * x < 0 ? 0.0 : moved);
    };
    float x = nudge(base, base_tol);
    for (const auto &e : po.entries()) {
        if (e.kind == prim::post_ops::kind::sum) {
            x = static_cast<float>(x + static_cast<double>(e.scale) * dst_old);
            x = nudge(x, e.scale == 1.f ? exact : arithmetic);
        } else {
            x = static_cast<float>(e.scale * prim::impl::eltwise_fwd(e.alg, x, e.alpha, e.beta));
            x = nudge(x, algorithm_tolerance(e.alg) + (e.scale == 1.f ? exact : arithmetic));
        }
    }
    return x;
}

} // namespace

bool within_chain_error(const prim::post_ops &po, float base, double base_tol, float dst_old,
                        float got, double tol) {
    const float lo = chain_nudged(po, base, base_tol, dst_old, -1);
    const float hi = chain_nudged(po, base, base_tol, dst_old, +1);
    if (close(got, lo, tol) || close(got, hi, tol)) return true;
    // Or anywhere between the two.
    return !std::isnan(got) && !std::isnan(lo) && !std::isnan(hi)
            && got >= std::min(lo, hi) && got <= std::max(lo, hi);
}

std::string format_error(double err) {
    if (std::isinf(err)) return "inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", err);
    return buf;
}

} // namespace bdl
