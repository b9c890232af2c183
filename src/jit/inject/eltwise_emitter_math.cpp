// The math cores shared by the eltwise algorithms: exp, expm1, tanh, logistic, log, log1p and
// softplus, fully in vector registers. Polynomial coefficients were fitted (Chebyshev, 40-digit
// arithmetic) for this file; the error they add is far below one f32 ulp.
#include <cfloat>
#include <cmath>

#include "jit/inject/eltwise_emitter.hpp"

namespace prim {
namespace jit {
namespace {

// Range reduction x = n ln2 + r: ln2_hi has 9 trailing zero bits, so n * ln2_hi is exact for
// |n| < 512, and r = (x - n ln2_hi) - n ln2_lo is accurate to a few bits below an ulp.
const float log2e = 1.44269504088896341f;
const uint32_t ln2_hi_bits = 0x3f317200u; // 0.693145751953125
const float ln2_lo = 1.42860676533018704e-06f;
const float exp_clamp_hi = 89.f; // e^89 overflows; n stays far from the exact-reduction limit
// How far an argument's range must keep from exp's and expm1's clamp points for the clamp to be
// left out: far more than the rounding of the argument's computation (x / alpha, -alpha x).
const double clamp_margin = 0.5;
const uint32_t sign_bit = f32_sign_bit;
const uint32_t abs_bits = f32_abs_bits;
using namespace vcmp;

// e^r on [-ln2/2, ln2/2], degree 6, |error| < 2e-9.
const std::vector<float> exp_poly = {0.0013941108481958508f, 0.00837512593716383f,
        0.04166635125875473f, 0.16666415333747864f, 0.5f, 1.0f, 1.0f};
// (e^r - 1 - r) / r^2 on [-ln2/2, ln2/2], degree 5.
const std::vector<float> expm1_q_poly = {0.00019890980911441147f, 0.0013933641603216529f,
        0.00833331048488617f, 0.04166646674275398f, 0.1666666716337204f, 0.5f};
// R(u) with log1p(f) = 2s + s u R(u), s = f / (2 + f), u = s^2 in [0, 1/9]; rel. error 1e-8.
const std::vector<float> log1p_r_poly = {0.23224329948425293f, 0.2170657515525818f,
        0.285923570394516f, 0.3999970555305481f, 0.6666666865348816f};
// The same as a polynomial in z = 4u, divided by 8: R(z / 4) / 8, coefficient k scaled by
// 4^-k / 8 (exact: powers of two). Highest degree (4) first.
const std::vector<float> log1p_r_poly_of_z = {0.23224329948425293f / 2048,
        0.2170657515525818f / 512, 0.285923570394516f / 128, 0.3999970555305481f / 32,
        0.6666666865348816f / 8};

// Rounding immediate for vroundps / vrndscaleps: nearest-even, from the immediate (not MXCSR),
// precision exception suppressed.
const uint8_t round_nearest_imm = 0x08;

} // namespace

template <cpu_isa isa>
void eltwise_emitter<isa>::horner(const Vmm &acc, const Vmm &x, const std::vector<float> &coeffs) {
    set_const(acc, coeffs[0]);
    for (size_t i = 1; i < coeffs.size(); ++i)
        h_.vfmadd213ps(acc, x, const_f(coeffs[i])); // acc*x + c
}

template <cpu_isa isa>
void eltwise_emitter<isa>::round_nearest_even(const Vmm &dst, const Vmm &src) {
    if constexpr (is_avx512)
        h_.vrndscaleps(dst, src, round_nearest_imm);
    else
        h_.vroundps(dst, src, round_nearest_imm);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::flush_tiny_exp_begin(const Vmm &v, float flush_below) {
    // AVX-512: mark the lanes at or above the flush point (and NaN), before the clamp.
    if constexpr (is_avx512) h_.vcmpps(Xbyak::Opmask(mask_k(0)), v, const_f(flush_below), nlt_uq);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::scale_by_pow2(const Vmm &dst, const Vmm &p, const Vmm &n,
                                         float flush_below, bool flush, bool may_overflow) {
    // A floor below e^-87 keeps the results between it and FLT_MIN: denormals (keeps_tiny).
    const bool denormals = flush_below < -87.5f;
    if constexpr (is_avx512) {
        // dst = p * 2^n (inf past the top), 0 in the lanes flush_tiny_exp_begin() did not mark.
        // (Adding n to p's exponent field instead, as AVX2 does below, measured no faster on
        // Zen 4, and it is three instructions for one on the ports a Xeon's FMAs use.)
        if (flush)
            h_.vscalefps(dst | Xbyak::Opmask(mask_k(0)) | Xbyak::util::T_z, p, n);
        else
            h_.vscalefps(dst, p, n);
    } else {
        h_.vcvtps2dq(n, n);                     // exact: n is an integer
        if (!may_overflow && !denormals) {
            // Every result is a normal float: below the overflow point by the argument's
            // range, at or above e^flush_below (1.6e-38 > FLT_MIN) by the clamp. So p * 2^n is
            // exactly p with n added to its exponent field: three instructions for nine, and
            // no multiplication.
            h_.vpslld(n, n, 23);
            h_.vpaddd(dst, p, n);
        } else {
            // 2^n = 2^n1 * 2^n2 with n1 = n >> 1, both normal floats for n in [-252, 254]
            // (2^128 is not a float; the floor -105 keeps n >= -152), so only the last product
            // rounds, a denormal result included. dst is a temporary.
            h_.vpsrad(dst, n, 1);
            h_.vpsubd(n, n, dst);
            h_.vpaddd(dst, dst, const_i32(127));
            h_.vpslld(dst, dst, 23);
            h_.vmulps(p, p, dst);
            h_.vpaddd(n, n, const_i32(127));
            h_.vpslld(n, n, 23);
            h_.vmulps(dst, p, n);
        }
        // With denormals kept, the clamped lanes' e^-105 already rounds to 0.
        if (!flush || denormals) return;
        // The clamped lanes hold e^flush_below, the smallest result: make them 0, as AVX-512
        // does. The threshold is 1e-4 above it: beyond the polynomial's error and the factor
        // e^(+-1e-5) of a clamped low part (exp_core's lo), which is NaN-turned-finite garbage
        // where the argument is infinite (soft_relu:1e-30 at x = -inf gave 1.65e-38 / alpha).
        // "Not less or equal" is true for NaN, which stays.
        const float smallest = static_cast<float>(std::exp(static_cast<double>(flush_below)) * (1 + 1e-4));
        h_.vcmpps(n, dst, const_f(smallest), nle_uq);
        h_.vandps(dst, dst, n);
    }
}

template <cpu_isa isa>
void eltwise_emitter<isa>::exp_core(const Vmm &v, const Vmm &n, const Vmm &p, bool keep_nan,
                                    const exp_arg &arg) {
    // Clamp to [flush_below, 89]: below, the result is flushed to 0, so no denormal is ever
    // made (each costs this CPU dozens of cycles); above, it overflows to inf through the
    // scaling, and n stays small enough for exact range reduction.
    // AVX-512 needs no lower clamp: the lanes below it are zeroed by the mask whatever they
    // compute (r may be NaN there; nothing traps, MXCSR keeps exceptions masked).
    // Where the argument's range keeps clear of a bound (by far more than the argument's own
    // rounding), that clamp or the flush changes no value and is left out; a NaN still gives
    // NaN through the arithmetic.
    const float flush_below = arg.flush_below;
    const bool flush = arg.range.may_be_below(flush_below + clamp_margin);
    const bool clamp_hi = arg.range.may_be_above(exp_clamp_hi - clamp_margin);
    if (flush) flush_tiny_exp_begin(v, flush_below);
    if (keep_nan) {
        if constexpr (!is_avx512) if (flush) max_keep_nan(v, n, flush_below);
        if (clamp_hi) min_keep_nan(v, n, exp_clamp_hi);
    } else {
        if (clamp_hi) h_.vminps(v, v, const_f(exp_clamp_hi));
        if constexpr (!is_avx512) if (flush) h_.vmaxps(v, v, const_f(flush_below));
    }
    h_.vmulps(n, v, const_f(log2e));
    round_nearest_even(n, n);
    h_.vfnmadd231ps(v, n, const_bits(ln2_hi_bits));     // r = x - n ln2_hi
    h_.vfnmadd231ps(v, n, const_f(ln2_lo));           //     - n ln2_lo
    if (arg.lo) h_.vaddps(v, v, *arg.lo);       // the argument's exact low part joins r
    horner(p, v, exp_poly);                     // e^r
    scale_by_pow2(v, p, n, flush_below, flush, clamp_hi);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::expm1_core(const Vmm &v, const Vmm &a0, const Vmm &a1, const Vmm *lo,
                                      const value_range &range, float scale) {
    // expm1(x) = 2^n (e^r - 1) + (2^n - 1) = 2 * (t (e^r - 1) + (t - 0.5)) with t = 2^(n-1).
    // For n = 0 this is exactly e^r - 1, so it is accurate near 0 without a second branch; one
    // FMA rounds the rest. Clamp to [-86, 89]: expm1(-86) = -1 in f32, and n - 1 stays in
    // [-125, 127] so t is a normal float; the final doubling overflows to inf when it should.
    // (Each clamp only where the range reaches it, as in exp_core.)
    const float x_lo = -86.f, x_hi = 89.f;
    if (range.may_be_above(x_hi - clamp_margin)) h_.vminps(v, v, const_f(x_hi));
    if (range.may_be_below(x_lo + clamp_margin)) h_.vmaxps(v, v, const_f(x_lo));
    // scale expm1(x) = T (e^r - 1) + (T - scale) with T = 2 scale t: where 2 scale is a power
    // of two 2^m, m >= 0, and T = 2^(n-1+m) stays below 2^128 over the range, T is made as t
    // was and the doubling and the scaling are gone. The same bits, as scaling by a power of
    // two commutes with rounding, except where the old way rounded below FLT_MIN: |x| < 2^-125
    // with scale >= 1, now exact where it lost a bit. Scales below 0.5 keep the multiplication:
    // their results below FLT_MIN would round once instead of twice, and whether T stays
    // normal would depend on the range, so a chain would not give what its entry gives alone.
    // (With m >= 0 and x >= -86, n - 1 + m >= -126: T is normal.)
    int e = 0;
    const bool pow2 = scale > 0.f && std::frexp(2.0 * scale, &e) == 0.5;
    const int m = e - 1;
    const double n_max = std::ceil(std::fmin(range.hi, x_hi) * log2e);
    const bool fold = pow2 && m >= 0 && n_max - 1 + m <= 127;
    h_.vmulps(a0, v, const_f(log2e));
    round_nearest_even(a0, a0);                 // n
    h_.vfnmadd231ps(v, a0, const_bits(ln2_hi_bits));
    h_.vfnmadd231ps(v, a0, const_f(ln2_lo));          // r
    if (lo) h_.vaddps(v, v, *lo);               // the argument's exact low part
    horner(a1, v, expm1_q_poly);                // Q(r)
    h_.vmulps(a1, a1, v);
    h_.vfmadd213ps(a1, v, v);                   // e^r - 1 = r + r^2 Q(r)
    h_.vcvtps2dq(a0, a0);
    h_.vpaddd(a0, a0, const_i32(126 + (fold ? m : 0)));
    h_.vpslld(a0, a0, 23);                      // t = 2^(n-1), or T
    h_.vsubps(v, a0, const_f(fold ? scale : 0.5f));   // t - 0.5 or T - scale (exact for the n where
    h_.vfmadd231ps(v, a0, a1);                  // it matters), then t (e^r - 1) + (t - 0.5)
    if (fold) return;
    h_.vaddps(v, v, v);
    if (scale != 1.f) h_.vmulps(v, v, const_f(scale));
}

template <cpu_isa isa>
void eltwise_emitter<isa>::tanh_core(const Vmm &v, const Vmm &a0, const Vmm &a1,
                                     const value_range &x) {
    // |x| >= 10 gives +-1 in f32; the clamp keeps expm1(2x) finite (no clamp of its own) and
    // keeps NaN. Left out where x stays inside.
    if (x.may_be_below(-10.0)) max_keep_nan(v, a0, -10.f);
    if (x.may_be_above(10.0)) min_keep_nan(v, a0, 10.f);
    h_.vaddps(v, v, v);
    expm1_core(v, a0, a1, nullptr, {-20.0, 20.0}); // E = expm1(2x), no cancellation near 0
    h_.vaddps(a0, v, const_f(2.f));
    h_.vdivps(v, v, a0);                        // E / (E + 2)
}

template <cpu_isa isa>
void eltwise_emitter<isa>::logistic_core(const Vmm &v, const Vmm &a0, const Vmm &a1,
                                         const value_range &x) {
    h_.vxorps(v, v, const_bits(sign_bit));
    exp_core(v, a0, a1, true, {nullptr, -87.f, x.times(-1)}); // e^-x, inf for very negative x
    h_.vaddps(v, v, const_f(1.f));
    set_const(a0, 1.f);
    h_.vdivps(v, a0, v);                        // 1 / (1 + e^-x): 0 for x = -inf
}

template <cpu_isa isa>
void eltwise_emitter<isa>::log1p_01_core(const Vmm &v, const Vmm &a0, const Vmm &a1) {
    // log1p(f) = 2 atanh(s), s = f / (2 + f) in [0, 1/3]: with t = 2s = 2f / (2 + f) (normal
    // wherever f is) and z = t^2, log1p(f) = t + t z R(z / 4) / 8, one FMA at the end. z is
    // taken from max(t, 2^-39), so it never underflows (z R is negligible next to 1 there).
    h_.vaddps(a0, v, const_f(2.f));
    h_.vaddps(v, v, v);
    h_.vdivps(v, v, a0);                        // t
    h_.vmaxps(a0, v, const_f(0x1p-39f));
    h_.vmulps(a0, a0, a0);                      // z
    horner(a1, a0, log1p_r_poly_of_z);
    h_.vmulps(a1, a1, a0);                      // z R(z / 4) / 8
    h_.vfmadd132ps(v, v, a1);                   // t (z R / 8) + t, one rounding
}

template <cpu_isa isa>
void eltwise_emitter<isa>::softplus_core(const Vmm &v, float a, const Vmm &a0, const Vmm &a1,
                                         const Vmm &a2, const value_range &x) {
    // log(1 + e^(a x)) / a = (a > 0 ? max(x, 0) : min(x, 0)) + log1p(e^-|a x|) / a: no overflow
    // (not even of a x), and e^(a x)'s relative accuracy is kept in the tail. NaN travels in v.
    // The argument -|a x| is never above 0: exp's overflow clamp is never needed.
    const value_range arg = {-std::fabs(static_cast<double>(a)) * x.max_abs(), 0.0};
    if (a == 1.f || a == -1.f) {
        h_.vorps(a0, v, const_bits(sign_bit));          // -|a x| exactly
        exp_core(a0, a1, a2, false, {nullptr, exp_floor(), arg});
    } else {
        // a x = hi + lo exactly (FMA), so e^(-|a x|) does not inherit the product's rounding,
        // which |a x| would amplify. -|hi + lo| = -|hi| - sign(hi) lo.
        h_.vmulps(a0, v, const_f(a));
        h_.vmovaps(a1, a0);
        h_.vfmsub231ps(a1, v, const_f(a));            // lo = a x - hi
        h_.vandps(a2, a0, const_bits(sign_bit));
        h_.vxorps(a1, a1, a2);
        h_.vxorps(a1, a1, const_bits(sign_bit));        // -sign(hi) lo
        h_.vorps(a0, a0, const_bits(sign_bit));         // -|hi|
        // |lo| <= ulp(87)/2 where it matters; the clamp also makes a NaN lo (infinite x) finite
        h_.vminps(a1, a1, const_f(1e-5f));
        h_.vmaxps(a1, a1, const_f(-1e-5f));
        exp_core(a0, a2, a1, true, {&a1, exp_floor(), arg});
    }
    log1p_01_core(a0, a1, a2);
    if (a != 1.f) h_.vdivps(a0, a0, const_f(a));      // exact division, one rounding
    // max(x, 0) (a > 0) or min(x, 0): nothing to do where x has that sign already
    if (a > 0.f && x.may_be_below(0.0))
        max_keep_nan(v, a1, 0.f);
    else if (a < 0.f && x.may_be_above(0.0))
        min_keep_nan(v, a1, 0.f);
    h_.vaddps(v, v, a0);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::log_of_mantissa(const Vmm &v, const Vmm &e, const Vmm &u,
                                           const Vmm &acc, bool with_lo) {
    // ln x = E ln2 + log1p(f), 1 + f = v in [0.7, 1.42): log1p(f) = 2s + s u R(u) with
    // s = f / (2 + f) and u = s^2 (f is never tiny here: 0, or at least one ulp of 1).
    h_.vaddps(u, v, const_f(1.f));                    // 2 + f
    h_.vsubps(v, v, const_f(1.f));                    // f, exact
    h_.vdivps(v, v, u);                         // s
    h_.vmulps(u, v, v);
    horner(acc, u, log1p_r_poly);
    h_.vmulps(acc, acc, u);
    h_.vmulps(acc, acc, v);
    h_.vaddps(v, v, v);
    h_.vaddps(v, v, acc);                       // log1p(f)
    finish_log(v, e, acc, with_lo);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::finish_log(const Vmm &v, const Vmm &e, const Vmm &lo, bool with_lo) {
    // ln x = E ln2_hi + (E ln2_lo + log1p(f)); E ln2_hi is exact (|E| < 512).
    h_.vfmadd231ps(v, e, const_f(ln2_lo));            // w
    if (!with_lo) {
        h_.vfmadd231ps(v, e, const_bits(ln2_hi_bits));
        return;
    }
    // hi + lo = P + w exactly (Fast2Sum: |P| >= |w| unless P = 0), P = E ln2_hi.
    h_.vmulps(lo, e, const_bits(ln2_hi_bits));          // P
    h_.vaddps(e, lo, v);                        // hi
    h_.vsubps(lo, lo, e);
    h_.vaddps(lo, lo, v);                       // lo = (P - hi) + w
    h_.vmovaps(v, e);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::log_core(const Vmm &v, int first, bool with_lo) {
    // ln x = E ln2 + log1p(f), x = 2^E (1 + f), 1 + f in [0.7, 1.41).
    const Vmm e = spare(first), u = spare(first + 1), acc = spare(first + 2);
    if constexpr (is_avx512) {
        // vgetexpps / vgetmantps handle denormals, 0 (E = -inf), inf and NaN; the mantissa of
        // |x| is taken in [1, 2), and x < 0 is made NaN at the end.
        const Xbyak::Opmask k(mask_k(0));
        h_.vcmpps(k, v, const_f(0.f), lt_oq); // x < 0 (not -0): NaN, set at the end
        h_.vgetexpps(e, v);
        h_.vandps(v, v, const_bits(abs_bits));         // ln(-0) = -inf like +0
        h_.vgetmantps(v, v, 0x0);
        // move the mantissa into [0.707, 1.414)
        h_.vcmpps(Xbyak::Opmask(mask_k(1)), v, const_f(1.41421356f), gt_oq);
        h_.vmulps(v | Xbyak::Opmask(mask_k(1)), v, const_f(0.5f));
        h_.vaddps(e | Xbyak::Opmask(mask_k(1)), e, const_f(1.f));
        log_of_mantissa(v, e, u, acc, with_lo);
        set_const(v | k, NAN);
    } else {
        // Integer path: denormals are scaled by 2^23 first; the special cases (x <= 0, inf,
        // NaN) are fixed at the end from a copy of x.
        const Vmm x = spare(first + 3);
        h_.vmovups(x, v);
        h_.vcmpps(u, v, const_f(FLT_MIN), lt_oq);   // denormal (or <= 0)
        h_.vmulps(e, v, const_f(8388608.f));
        h_.vblendvps(v, v, e, u);
        h_.vandps(u, u, const_i32(23));                      // exponent correction
        const int32_t off = 0x3f330000;               // ~0.6992: mantissa lands in [0.699, 1.398)
        h_.vpsubd(e, v, const_i32(off));
        h_.vpsrad(e, e, 23);
        h_.vpslld(acc, e, 23);
        h_.vpsubd(v, v, acc);                         // mantissa bits
        h_.vpsubd(e, e, u);
        h_.vcvtdq2ps(e, e);                           // E
        log_of_mantissa(v, e, u, acc, with_lo);
        // specials: x = +inf or NaN -> x; x == 0 -> -inf; x < 0 -> NaN
        h_.vcmpps(u, x, const_f(INFINITY), nlt_uq);
        h_.vblendvps(v, v, x, u);
        h_.vcmpps(u, x, const_f(0.f), eq_oq);
        h_.vblendvps(v, v, const_f(-INFINITY), u);
        h_.vcmpps(u, x, const_f(0.f), lt_oq);
        h_.vblendvps(v, v, const_f(NAN), u);
    }
}

template class eltwise_emitter<cpu_isa::avx2>;
template class eltwise_emitter<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
