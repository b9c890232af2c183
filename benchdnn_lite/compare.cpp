// Comparison and the tolerance table.
#include "compare.hpp"

#include "attr/algorithm_table.hpp"
#include "attr/binary_table.hpp"
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
    // The algorithm's class is in its row (src/attr/algorithm_table.cpp).
    using cls = prim::impl::accuracy_class;
    const prim::impl::algorithm_info *info = prim::impl::find_algorithm(alg);
    const cls c = info ? info->accuracy : cls::transcendental;
    return c == cls::exact ? exact : c == cls::arithmetic ? arithmetic : transcendental;
}

double entry_tolerance(const prim::post_ops::entry &e) {
    using kind = prim::post_ops::kind;
    const double scale = e.scale == 1.f ? exact : arithmetic; // scale * f(x) rounds once more
    switch (e.kind) {
    case kind::sum: return scale;
    case kind::eltwise: return algorithm_tolerance(e.alg) + scale;
    case kind::binary:
    case kind::prelu: return exact;
    case kind::dw: return exact; // the case's own reference runs it (elementwise_chain)
    }
    return exact;
}

double chain_tolerance(const prim::post_ops &po) {
    double tol = 0;
    for (const auto &e : po.entries()) tol += entry_tolerance(e);
    return tol;
}

compare_result compare(const float *got, const float *ref, int64_t n, double tol, int keep,
                       const second_chance &retry, bool absolute) {
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
            err = std::fabs(static_cast<double>(g) - f)
                    / (absolute ? 1.0 : std::max(1.0, std::fabs(static_cast<double>(f))));
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

// One entry on x as the reference computes it (double, rounded to f32); b is the entry's
// operand value (binary, prelu).
float step(const prim::post_ops::entry &e, float x, float dst_old, float b) {
    using kind = prim::post_ops::kind;
    switch (e.kind) {
    case kind::sum: return static_cast<float>(x + static_cast<double>(e.scale) * dst_old);
    case kind::eltwise:
        return static_cast<float>(e.scale * prim::impl::eltwise_fwd(e.alg, x, e.alpha, e.beta));
    case kind::binary: return prim::impl::binary_fwd(e.alg, x, b);
    case kind::prelu: return x > 0.f ? x : x * b;
    case kind::dw: break; // never in an elementwise chain (problem_case::elementwise_chain)
    }
    return x;
}

bool is_comparison(const prim::post_ops::entry &e) {
    using a = prim::algorithm;
    return e.kind == prim::post_ops::kind::binary
           && (e.alg == a::binary_ge || e.alg == a::binary_gt || e.alg == a::binary_le
               || e.alg == a::binary_lt || e.alg == a::binary_eq || e.alg == a::binary_ne);
}

// x moved by dir * budget * max(|x|, 2^-20). A tiny value may err down to zero, but not past it:
// its sign is part of its accuracy.
float nudge(float x, double budget, int dir) {
    if (!std::isfinite(x)) return x;
    const double floor = 1.0 / (1 << 20);
    const double moved = x + dir * budget * std::max(std::fabs(double(x)), floor);
    return static_cast<float>(moved * x < 0 ? 0.0 : moved);
}

struct chain_check {
    const prim::post_ops &po;
    const float *operands;
    float dst_old, got;
    double tol;
};

// At most this many comparisons of one element take both answers (2^8 runs of the chain).
constexpr int max_branches = 8;

// Whether got is within reach of the chain run from entry `from` on the bounds [lo, hi] of the
// running value; carried is the budget accumulated since the value was last exact.
bool accepts(const chain_check &c, size_t from, float lo, float hi, double carried, int branches) {
    const std::vector<prim::post_ops::entry> &entries = c.po.entries();
    for (size_t i = from; i < entries.size(); ++i) {
        const prim::post_ops::entry &e = entries[i];
        const float b = c.operands ? c.operands[i] : 0.f;
        if (is_comparison(e) && carried > 0 && branches > 0) {
            // The running value may be on either side of b (or equal to it): either answer is
            // right, and each continues exactly.
            const double slack = carried * std::max(1.0, std::fabs(double(b)));
            if (b >= lo - slack && b <= hi + slack)
                return accepts(c, i + 1, 0.f, 0.f, 0.0, branches - 1)
                       || accepts(c, i + 1, 1.f, 1.f, 0.0, branches - 1);
        }
        float a = step(e, lo, c.dst_old, b), z = step(e, hi, c.dst_old, b);
        if (lo < 0.f && hi > 0.f) { // abs, square, prelu... turn at 0: keep their value there
            const float at0 = step(e, 0.f, c.dst_old, b);
            a = std::min(a, at0);
            z = std::max(z, at0);
        }
        if (a > z) std::swap(a, z);
        const double budget = entry_tolerance(e);
        lo = nudge(a, budget, -1);
        hi = nudge(z, budget, +1);
        carried += budget;
    }
    if (close(c.got, lo, c.tol) || close(c.got, hi, c.tol)) return true;
    // Or anywhere between the two.
    return !std::isnan(c.got) && !std::isnan(lo) && !std::isnan(hi) && c.got >= lo && c.got <= hi;
}

} // namespace

bool within_chain_error(const prim::post_ops &po, const float *operands, float base,
                        double base_tol, float dst_old, float got, double tol) {
    const chain_check c {po, operands, dst_old, got, tol};
    return accepts(c, 0, nudge(base, base_tol, -1), nudge(base, base_tol, +1), base_tol,
                   max_branches);
}

std::string format_error(double err) {
    if (std::isinf(err)) return "inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", err);
    return buf;
}

} // namespace bdl
