// The eltwise algorithms of doc/reference.md §1, each in place on one vector register, and the few
// helpers where AVX2 and AVX-512 differ (compare to mask, blend, NaN-keeping min/max).
//
// NaN: vminps/vmaxps return their SECOND operand when either is NaN, so "max(lo, x)" is written
// with x second; a compare that selects a branch uses an ordered predicate so that NaN lanes keep
// the branch that carries x. Infinities follow the reference's limits (relu(-inf) = 0,
// gelu(-inf) = 0, ...): where a product would be 0 * inf, x is first clamped to +-FLT_MAX.
#include <cfloat>
#include <cmath>

#include "jit/inject/eltwise_emitter.hpp"
#include "prim/error.hpp"

namespace prim {
namespace jit {
namespace {

using alg = algorithm;
using namespace vcmp;
const uint32_t sign_bit = f32_sign_bit;
const uint32_t abs_bits = f32_abs_bits;

// erfc(a) e^(a^2) = N(a) / D(a) on [0, 11.4] (rational, degrees 5 and 6, fitted for this code;
// relative error 2e-8). All coefficients are positive, so Horner in a >= 0 never cancels.
// N is stored halved (exact: a power of two), since gelu_erf wants erfc / 2.
const std::vector<float> erfc_half_num = {0.5f * 0.010603321716189384f, 0.5f * 0.09674379229545593f,
        0.5f * 0.414531946182251f, 0.5f * 1.0207186937332153f, 0.5f * 1.4500094652175903f, 0.5f};
const std::vector<float> erfc_den = {0.01879391446709633f, 0.17147311568260193f,
        0.7441534996032715f, 1.8946783542633057f, 2.930119037628174f, 2.5783886909484863f, 1.0f};

// vfixupimmps table: one response nibble per input class (QNaN, SNaN, 0, +1, -inf, +inf,
// negative, positive, from bit 0 up): 1 keeps the input, 0xF gives -FLT_MAX, 0xE +FLT_MAX.
const int32_t fixup_inf_to_flt_max = 0x11EF1111;

bool is_integer(float v) { return std::isfinite(v) && std::nearbyint(v) == v; }
// Integer powers up to 16 by repeated squaring: at most 7 roundings (exp(beta ln x) would lose
// about |beta ln x| ulp).
bool is_small_integer_power(float beta) { return is_integer(beta) && std::fabs(beta) <= 16.f; }
bool is_odd_integer(float v) { return is_integer(v) && std::fmod(std::fabs(v), 2.f) == 1.f; }
// x / v is exact (barring denormals) when v is a power of two.
bool is_power_of_two(float v) {
    int e;
    return std::isfinite(v) && v != 0.f && std::fabs(std::frexp(v, &e)) == 0.5f;
}
float clamp01(float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); }

// Register needs of one algorithm: vectors per ISA and AVX-512 opmasks. Same cases as its code.
struct needs {
    int vecs_avx2, vecs_avx512, masks_avx512;
};
const needs constant_with_nan = {1, 0, 1}; // const_keep_nan

// The rows' common answers.
template <int vecs_avx2, int vecs_avx512, int masks_avx512>
needs fixed(float, float, bool) {
    return {vecs_avx2, vecs_avx512, masks_avx512};
}
bool yes(float, float) { return true; }
bool no(float, float) { return false; }

} // namespace

// One algorithm's JIT facts, beside its row of src/attr/algorithm_table.cpp (name, parameters,
// reference, tolerance, range): what compute() emits, the spare registers that code uses, whether
// it is a long sequence (an exp, log, tanh or general pow core), and whether it reads runtime
// alpha and beta from the table as they come (false: it derives constants from them, 1 / alpha,
// alpha * beta, -alpha, or chooses its code by their values, pow's integer powers, swish's clamp
// by alpha's sign).
template <cpu_isa isa>
struct eltwise_emitter<isa>::row {
    algorithm alg;
    void (*emit)(eltwise_emitter &e, const Vmm &v);
    needs (*needs_of)(float alpha, float beta, bool tiny); // tiny: keeps_tiny(the entry's scale)
    bool (*long_sequence)(float alpha, float beta);
    bool (*takes_runtime_params)(float alpha, float beta);
};

template <cpu_isa isa>
const typename eltwise_emitter<isa>::row *eltwise_emitter<isa>::find_row(algorithm a) {
    using E = eltwise_emitter;
    static const row rows[] = {
        {alg::eltwise_relu, [](E &e, const Vmm &v) { e.relu(v); },
         [](float alpha, float, bool) { return alpha == 0.f ? needs{1, 1, 0} : needs{2, 0, 1}; }, no, yes},
        {alg::eltwise_tanh,
         [](E &e, const Vmm &v) { e.tanh_core(v, e.spare(0), e.spare(1), e.in_); },
         fixed<2, 2, 0>, yes, yes},
        {alg::eltwise_elu, [](E &e, const Vmm &v) { e.elu_like(v, 1.f, e.alpha_, 1.f); },
         fixed<3, 3, 1>, yes, yes},
        {alg::eltwise_square, [](E &e, const Vmm &v) { e.h_.vmulps(v, v, v); }, fixed<0, 0, 0>, no, yes},
        {alg::eltwise_abs, [](E &e, const Vmm &v) { e.h_.vandps(v, v, e.const_bits(abs_bits)); },
         fixed<0, 0, 0>, no, yes},
        {alg::eltwise_sqrt, [](E &e, const Vmm &v) { e.h_.vsqrtps(v, v); }, fixed<0, 0, 0>, no, yes},
        {alg::eltwise_linear, [](E &e, const Vmm &v) { e.linear(v); },
         [](float alpha, float beta, bool) {
             if (alpha == 0.f) return constant_with_nan;
             if (std::isinf(alpha)) return needs{1, 0, 1}; // infinite_slope
             return (alpha == 1.f || beta == 0.f) ? needs{0, 0, 0} : needs{1, 1, 0};
         },
         no, yes},
        {alg::eltwise_clip, [](E &e, const Vmm &v) { e.clip(v); }, fixed<1, 1, 0>, no, yes},
        {alg::eltwise_clip_v2, [](E &e, const Vmm &v) { e.clip(v); }, fixed<1, 1, 0>, no, yes},
        // exp_core takes one opmask on AVX-512 (the flush of tiny results)
        {alg::eltwise_soft_relu,
         [](E &e, const Vmm &v) {
             e.softplus_core(v, e.alpha_, e.spare(0), e.spare(1), e.spare(2), e.in_);
         },
         fixed<3, 3, 1>, yes, no},
        // Keeping tiny results (keeps_tiny), logistic selects between two forms by the
        // argument's sign, which takes a vector on AVX2 and an opmask on AVX-512.
        {alg::eltwise_logistic,
         [](E &e, const Vmm &v) {
             if (!e.tiny_) return e.logistic_core(v, e.spare(0), e.spare(1), e.in_);
             const int sign = is_avx512 ? e.mask_k(1) : e.aux_.at(2);
             if constexpr (is_avx512)
                 e.cmp(sign, v, e.const_f(0.f), lt_oq);
             else
                 e.h_.vmovaps(e.spare(2), v);
             e.logistic_keeping_tiny(v, e.spare(0), e.spare(1), sign, e.in_.max_abs());
         },
         [](float, float, bool tiny) { return tiny ? needs{3, 2, 2} : needs{2, 2, 1}; }, yes, yes},
        {alg::eltwise_exp,
         [](E &e, const Vmm &v) {
             e.exp_core(v, e.spare(0), e.spare(1), true, {nullptr, e.exp_floor(), e.in_});
         },
         fixed<2, 2, 1>, yes, yes},
        {alg::eltwise_log, [](E &e, const Vmm &v) { e.log_core(v, 0); }, fixed<4, 3, 2>, yes, yes},
        {alg::eltwise_gelu_tanh, [](E &e, const Vmm &v) { e.gelu_tanh(v); }, fixed<4, 4, 1>, yes, yes},
        {alg::eltwise_gelu_erf, [](E &e, const Vmm &v) { e.gelu_erf(v); }, fixed<4, 4, 1>, yes, yes},
        {alg::eltwise_swish, [](E &e, const Vmm &v) { e.swish(v); },
         [](float alpha, float, bool tiny) {
             if (alpha == 0.f) return needs{0, 0, 0};
             return tiny ? needs{4, 3, 2} : needs{3, 3, 1};
         },
         [](float alpha, float) { return alpha != 0.f; }, no},
        // With a constant alpha of 0 hardsigmoid and hardswish are a constant made from beta.
        {alg::eltwise_hardsigmoid, [](E &e, const Vmm &v) { e.hardsigmoid(v); },
         [](float alpha, float, bool) {
             if (alpha == 0.f) return constant_with_nan;
             return std::isinf(alpha) ? needs{1, 1, 1} : needs{1, 1, 0};
         },
         no, [](float alpha, float) { return alpha != 0.f; }},
        {alg::eltwise_hardswish, [](E &e, const Vmm &v) { e.hardswish(v); },
         [](float alpha, float beta, bool) {
             if (alpha == 0.f) return clamp01(beta) == 0.f ? constant_with_nan : needs{0, 0, 0};
             return needs{2, 2, 1};
         },
         no, [](float alpha, float) { return alpha != 0.f; }},
        {alg::eltwise_mish, [](E &e, const Vmm &v) { e.mish(v); }, fixed<3, 3, 1>, yes, yes},
        // pow takes a runtime alpha (a product) and beta (its own general code, pow_runtime_beta).
        {alg::eltwise_pow, [](E &e, const Vmm &v) { e.pow(v); },
         [](float alpha, float beta, bool) {
             if (impl::is_runtime_param(beta)) return needs{5, 4, 2}; // pow_runtime_beta
             if (beta == 0.f || (alpha == 0.f && is_integer(beta) && beta > 0.f))
                 return constant_with_nan;
             if (alpha == 0.f) return needs{1, 1, 1}; // pow_alpha_zero
             if (is_small_integer_power(beta)) return needs{1, 1, 0};
             if (std::fabs(beta) == 0.5f) return needs{1, 1, 1};
             return is_odd_integer(beta) ? needs{5, 4, 2} : needs{4, 3, 2};
         },
         [](float, float beta) { return !is_small_integer_power(beta) && std::fabs(beta) != 0.5f; },
         yes},
        {alg::eltwise_round, [](E &e, const Vmm &v) { e.round_nearest_even(v, v); }, fixed<0, 0, 0>,
         no, yes},
        {alg::eltwise_celu, [](E &e, const Vmm &v) { e.elu_like(v, e.alpha_, e.alpha_, 1.f); },
         [](float alpha, float, bool) { return is_power_of_two(alpha) ? needs{3, 3, 1} : needs{4, 4, 1}; },
         yes, no},
        {alg::eltwise_selu,
         [](E &e, const Vmm &v) {
             if (e.beta_ == 0.f) return e.const_keep_nan(v, 0.f, 0);
             e.elu_like(v, 1.f, static_cast<float>(static_cast<double>(e.alpha_) * e.beta_), e.beta_);
         },
         [](float, float beta, bool) { return beta == 0.f ? constant_with_nan : needs{3, 3, 1}; }, yes, no},
        {alg::eltwise_softsign, [](E &e, const Vmm &v) { e.softsign(v); }, fixed<1, 1, 0>, no, yes},
        {alg::eltwise_shrink, [](E &e, const Vmm &v) { e.shrink(v); }, fixed<3, 1, 1>, no, yes},
        {alg::eltwise_thresholded_relu, [](E &e, const Vmm &v) { e.thresholded_relu(v); },
         fixed<1, 0, 1>, no, yes},
        {alg::eltwise_scaled_tanh,
         [](E &e, const Vmm &v) {
             if (e.beta_ == 0.f) return e.const_keep_nan(v, 0.f, 0);
             if (e.beta_ != 1.f) e.h_.vmulps(v, v, e.const_f(e.beta_));
             e.tanh_core(v, e.spare(0), e.spare(1), e.in_.times(e.beta_));
             if (e.alpha_ != 1.f) e.h_.vmulps(v, v, e.const_f(e.alpha_));
         },
         [](float, float beta, bool) { return beta == 0.f ? constant_with_nan : needs{2, 2, 0}; }, yes, yes},
        {alg::eltwise_softplus,
         [](E &e, const Vmm &v) {
             e.softplus_core(v, e.alpha_, e.spare(0), e.spare(1), e.spare(2), e.in_);
         },
         fixed<3, 3, 1>, yes, no},
        {alg::eltwise_parametric_softplus,
         [](E &e, const Vmm &v) {
             // alpha sp(beta x) = (alpha beta) * (sp(beta x) / beta)
             if (e.alpha_ == 0.f) return e.const_keep_nan(v, 0.f, 0);
             if (e.beta_ == 0.f)
                 return e.const_keep_nan(v, static_cast<float>(e.alpha_ * std::log(2.0)), 0);
             e.softplus_core(v, e.beta_, e.spare(0), e.spare(1), e.spare(2), e.in_);
             if (e.alpha_ * e.beta_ != 1.f)
                 e.h_.vmulps(v, v, e.const_f(static_cast<float>(
                                           static_cast<double>(e.alpha_) * e.beta_)));
         },
         [](float alpha, float beta, bool) {
             return (alpha == 0.f || beta == 0.f) ? constant_with_nan : needs{3, 3, 1};
         },
         yes, no},
        {alg::eltwise_identity, [](E &, const Vmm &) {}, fixed<0, 0, 0>, no, yes},
        // -softplus(-x)
        {alg::eltwise_logsigmoid,
         [](E &e, const Vmm &v) {
             e.softplus_core(v, -1.f, e.spare(0), e.spare(1), e.spare(2), e.in_);
         },
         fixed<3, 3, 1>, yes, yes},
    };
    for (const row &r : rows)
        if (r.alg == a) return &r;
    return nullptr;
}

template <cpu_isa isa>
bool eltwise_emitter<isa>::is_supported(algorithm a) {
    return find_row(a) != nullptr;
}

template <cpu_isa isa>
bool eltwise_emitter<isa>::takes_runtime_params(algorithm a, float alpha, float beta) {
    if (!impl::is_runtime_param(alpha) && !impl::is_runtime_param(beta)) return true;
    // The others read alpha, beta and -beta from the table, or ignore them; a runtime value
    // takes the code for general values (relu's leaky form, linear's FMA).
    const row *r = find_row(a);
    return !r || r->takes_runtime_params(alpha, beta);
}

template <cpu_isa isa>
bool eltwise_emitter<isa>::is_long_sequence(algorithm a, float alpha, float beta) {
    const row *r = find_row(a);
    return r && r->long_sequence(alpha, beta);
}

template <cpu_isa isa>
int eltwise_emitter<isa>::aux_vecs_count(algorithm a, float alpha, float beta, float scale) {
    const row *r = find_row(a);
    if (!r) throw error(status::unimplemented, "jit eltwise: unsupported algorithm");
    const needs n = r->needs_of(alpha, beta, keeps_tiny(scale));
    return is_avx512 ? n.vecs_avx512 : n.vecs_avx2;
}

template <cpu_isa isa>
int eltwise_emitter<isa>::aux_opmasks_count(algorithm a, float alpha, float beta, float scale) {
    const row *r = find_row(a);
    if (!r) throw error(status::unimplemented, "jit eltwise: unsupported algorithm");
    return is_avx512 ? r->needs_of(alpha, beta, keeps_tiny(scale)).masks_avx512 : 0;
}

// ---- per-ISA helpers -------------------------------------------------------------------------

template <cpu_isa isa>
template <class Operand>
void eltwise_emitter<isa>::cmp(int mask, const Vmm &a, const Operand &b, int predicate) {
    if constexpr (is_avx512)
        h_.vcmpps(Xbyak::Opmask(mask), a, b, static_cast<uint8_t>(predicate));
    else
        h_.vcmpps(Vmm(mask), a, b, static_cast<uint8_t>(predicate));
}

template <cpu_isa isa>
template <class Operand>
void eltwise_emitter<isa>::blend(const Vmm &dst, const Operand &src, int mask) {
    if constexpr (is_avx512)
        h_.vblendmps(dst | Xbyak::Opmask(mask), dst, src);
    else
        h_.vblendvps(dst, dst, src, Vmm(mask));
}

template <cpu_isa isa>
void eltwise_emitter<isa>::max_keep_nan(const Vmm &v, const Vmm &tmp, float lo) {
    set_const(tmp, lo);
    h_.vmaxps(v, tmp, v);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::min_keep_nan(const Vmm &v, const Vmm &tmp, float hi) {
    set_const(tmp, hi);
    h_.vminps(v, tmp, v);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::const_keep_nan(const Vmm &v, float value, int aux_i) {
    const int m = is_avx512 ? mask_k(0) : spare(aux_i).getIdx();
    cmp(m, v, v, ord_q);
    blend(v, const_f(value), m);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::infinite_slope(const Vmm &v, int aux_i) {
    // alpha x + beta for an infinite alpha: +-inf (NaN against an opposite infinite beta, as the
    // reference) and beta at x = +-0, the reference's limit, not inf * 0 = NaN. AVX2 uses
    // spare(aux_i) as its mask.
    const int m = is_avx512 ? mask_k(0) : spare(aux_i).getIdx();
    cmp(m, v, const_f(0.f), eq_oq);
    h_.vmulps(v, v, const_f(alpha_));
    if (beta_ != 0.f) h_.vaddps(v, v, const_f(beta_));
    blend(v, const_f(beta_), m);
}

// ---- algorithms ------------------------------------------------------------------------------

template <cpu_isa isa>
void eltwise_emitter<isa>::relu(const Vmm &v) {
    if (alpha_ == 0.f) {
        h_.vxorps(spare(0), spare(0), spare(0));
        h_.vmaxps(v, spare(0), v); // relu(-0) = -0 = 0 * -0, as the reference
        return;
    }
    // x > 0 ? x : alpha x, written x < 0 ? alpha x : x: +-0 keep x, which is alpha x for a
    // finite alpha and the reference's limit 0 for an infinite one (never 0 * inf); lt_oq is
    // false for NaN, which keeps x.
    if constexpr (is_avx512) {
        const Xbyak::Opmask k(mask_k(0));
        h_.vcmpps(k, v, const_f(0.f), lt_oq);
        h_.vmulps(v | k, v, const_f(alpha_));
    } else {
        h_.vmulps(spare(0), v, const_f(alpha_));
        h_.vcmpps(spare(1), v, const_f(0.f), lt_oq);
        h_.vblendvps(v, v, spare(0), spare(1));
    }
}

template <cpu_isa isa>
void eltwise_emitter<isa>::linear(const Vmm &v) {
    if (alpha_ == 0.f) return const_keep_nan(v, beta_, 0); // 0 * inf is the limit 0
    if (std::isinf(alpha_)) return infinite_slope(v, 0); // +-inf x + beta, and beta at x = +-0
    if (alpha_ == 1.f) {
        if (beta_ != 0.f) h_.vaddps(v, v, const_f(beta_));
    } else if (beta_ == 0.f) {
        h_.vmulps(v, v, const_f(alpha_));
    } else {
        set_const(spare(0), alpha_);
        h_.vfmadd213ps(v, spare(0), const_f(beta_)); // one rounding, as the double reference
    }
}

template <cpu_isa isa>
void eltwise_emitter<isa>::clip(const Vmm &v) {
    if (alpha_ != -INFINITY) max_keep_nan(v, spare(0), alpha_);
    if (beta_ != INFINITY) min_keep_nan(v, spare(0), beta_);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::hardsigmoid(const Vmm &v) {
    if (alpha_ == 0.f) return const_keep_nan(v, clamp01(beta_), 0);
    if (std::isinf(alpha_)) {
        infinite_slope(v, 0);
    } else {
        set_const(spare(0), alpha_);
        h_.vfmadd213ps(v, spare(0), const_f(beta_));
    }
    max_keep_nan(v, spare(0), 0.f);
    min_keep_nan(v, spare(0), 1.f);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::hardswish(const Vmm &v) {
    if (alpha_ == 0.f) {
        const float g = clamp01(beta_);
        if (g == 0.f) return const_keep_nan(v, 0.f, 0);
        if (g != 1.f) h_.vmulps(v, v, const_f(g));
        return;
    }
    if (std::isinf(alpha_)) {
        h_.vmovaps(spare(0), v);
        infinite_slope(spare(0), 1);           // g = alpha x + beta, beta at x = +-0
    } else {
        set_const(spare(0), alpha_);
        h_.vfmadd213ps(spare(0), v, const_f(beta_)); // g = alpha x + beta
    }
    max_keep_nan(spare(0), spare(1), 0.f);
    min_keep_nan(spare(0), spare(1), 1.f);
    // x * g, and exactly 0 where g == 0 (the limit, also for x = +-inf)
    const int m = is_avx512 ? mask_k(0) : spare(1).getIdx();
    cmp(m, spare(0), const_f(0.f), eq_oq);
    h_.vmulps(v, v, spare(0));
    if constexpr (is_avx512)
        h_.vxorps(v | Xbyak::Opmask(m), v, v);
    else
        h_.vandnps(v, spare(1), v);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::softsign(const Vmm &v) {
    // x / (1 + |x|) with x clamped to +-2^60 so that +-inf gives +-1, not inf / inf
    max_keep_nan(v, spare(0), -0x1p60f);
    min_keep_nan(v, spare(0), 0x1p60f);
    h_.vandps(spare(0), v, const_bits(abs_bits));
    h_.vaddps(spare(0), spare(0), const_f(1.f));
    h_.vdivps(v, v, spare(0));
}

template <cpu_isa isa>
void eltwise_emitter<isa>::shrink(const Vmm &v) {
    // r = x - alpha; x < -beta: r = x + alpha; -beta <= x <= beta: r = 0. NaN: x - alpha = NaN.
    h_.vsubps(spare(0), v, const_f(alpha_));
    if constexpr (is_avx512) {
        const Xbyak::Opmask k(mask_k(0));
        h_.vcmpps(k, v, const_f(-beta_), lt_oq);
        h_.vaddps(spare(0) | k, v, const_f(alpha_));
        h_.vcmpps(k, v, const_f(-beta_), ge_oq);
        h_.vcmpps(k | k, v, const_f(beta_), le_oq); // masked compare: AND of both
        h_.vxorps(spare(0) | k, spare(0), spare(0));
    } else {
        h_.vaddps(spare(1), v, const_f(alpha_));
        h_.vcmpps(spare(2), v, const_f(-beta_), lt_oq);
        h_.vblendvps(spare(0), spare(0), spare(1), spare(2));
        h_.vcmpps(spare(1), v, const_f(-beta_), ge_oq);
        h_.vcmpps(spare(2), v, const_f(beta_), le_oq);
        h_.vandps(spare(1), spare(1), spare(2));
        h_.vandnps(spare(0), spare(1), spare(0));
    }
    h_.vmovaps(v, spare(0));
}

template <cpu_isa isa>
void eltwise_emitter<isa>::thresholded_relu(const Vmm &v) {
    // x > alpha ? x : 0; zero where x <= alpha (ordered, so NaN stays)
    if constexpr (is_avx512) {
        const Xbyak::Opmask k(mask_k(0));
        h_.vcmpps(k, v, const_f(alpha_), le_oq);
        h_.vxorps(v | k, v, v);
    } else {
        h_.vcmpps(spare(0), v, const_f(alpha_), le_oq);
        h_.vandnps(v, spare(0), v);
    }
}

template <cpu_isa isa>
void eltwise_emitter<isa>::elu_like(const Vmm &v, float in_div, float neg_scale, float pos_scale) {
    // x > 0 ? pos_scale x : neg_scale expm1(x / in_div)   (elu, selu, celu)
    // Only the lanes x <= 0 take expm1's result: its range is the argument's there.
    const bool nan_bound = std::isnan(in_.lo) || std::isnan(in_.hi);
    const value_range used = nan_bound ? value_range{}
            : value_range{std::fmin(in_.lo, 0.0), std::fmin(in_.hi, 0.0)}.times(1.0 / in_div);
    const bool exact_div = is_power_of_two(in_div);
    if (exact_div) {
        if (in_div != 1.f)
            h_.vmulps(spare(0), v, const_f(1.f / in_div));
        else
            h_.vmovaps(spare(0), v);
        expm1_core(spare(0), spare(1), spare(2), nullptr, used, neg_scale);
    } else {
        // x / in_div = hi + lo: lo = (x - hi in_div) / in_div, the residual exact by FMA.
        // expm1 amplifies the argument's relative error by |x / in_div|.
        const Vmm lo = spare(3);
        h_.vdivps(spare(0), v, const_f(in_div));
        h_.vmovaps(lo, v);
        h_.vfnmadd231ps(lo, spare(0), const_f(in_div));
        h_.vdivps(lo, lo, const_f(in_div));
        h_.vminps(lo, lo, const_f(1e-5f)); // |lo| <= ulp(89)/2 unless clamped below; NaN -> finite
        h_.vmaxps(lo, lo, const_f(-1e-5f));
        expm1_core(spare(0), spare(1), spare(2), &lo, used, neg_scale);
    }
    const int m = is_avx512 ? mask_k(0) : spare(1).getIdx();
    cmp(m, v, const_f(0.f), le_oq); // NaN: false, keeps x
    if (pos_scale != 1.f) h_.vmulps(v, v, const_f(pos_scale));
    blend(v, spare(0), m);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::gelu_tanh(const Vmm &v) {
    // 0.5 x (1 + tanh u) = x / (1 + e^z), z = -2u = x (k1 + k2 x^2): no cancellation for x < 0.
    // e^z amplifies z's relative error by |z| (up to ~100), so z is computed as an unevaluated
    // sum z_hi + z_lo, with k1 and k2 themselves split into f32 hi + lo parts.
    const float k1_hi = -1.5957691669464111f, k1_lo = 4.534068054340423e-08f;
    const float k2_hi = -0.07135481387376785f, k2_lo = -2.3988324659995897e-09f;
    const Vmm a0 = spare(0), a1 = spare(1), a2 = spare(2), a3 = spare(3);
    max_keep_nan(v, a0, -FLT_MAX);             // gelu(-inf) = 0: -FLT_MAX / inf
    h_.vmulps(a0, v, v);                       // s_hi
    h_.vmovaps(a1, a0);
    h_.vfmsub231ps(a1, v, v);                  // s_lo = x*x - s_hi, exact
    h_.vmulps(a2, a0, const_f(k2_hi));               // q_hi = k2 s
    h_.vmovaps(a3, a2);
    h_.vfmsub231ps(a3, a0, const_f(k2_hi));          // q_lo: the product's error,
    h_.vfmadd231ps(a3, a1, const_f(k2_hi));          //   + k2_hi s_lo
    h_.vfmadd231ps(a3, a0, const_f(k2_lo));          //   + k2_lo s_hi
    h_.vaddps(a0, a2, const_f(k1_hi));               // p_hi = k1_hi + q_hi, its error by 2Sum:
    h_.vsubps(a1, a0, const_f(k1_hi));               //   bb = p_hi - k1_hi
    h_.vsubps(a2, a2, a1);                     //   q_hi - bb
    h_.vsubps(a1, a0, a1);                     //   p_hi - bb
    h_.vxorps(a1, a1, const_bits(sign_bit));
    h_.vaddps(a1, a1, const_f(k1_hi));               //   k1_hi - (p_hi - bb)
    h_.vaddps(a1, a1, a2);                     //   err
    h_.vaddps(a3, a3, a1);
    h_.vaddps(a3, a3, const_f(k1_lo));               // p_lo
    h_.vmulps(a1, v, a0);                      // z_hi = x p_hi
    h_.vmovaps(a2, a1);
    h_.vfmsub231ps(a2, v, a0);                 // z_lo = x p_hi - z_hi (exact)
    h_.vfmadd231ps(a2, v, a3);                 //      + x p_lo
    h_.vminps(a2, a2, const_f(1e-5f));               // |z_lo| <= ulp(89) where it matters; finite
    h_.vmaxps(a2, a2, const_f(-1e-5f));
    exp_core(a1, a0, a2, true, {&a2, -87.f, {}});
    h_.vaddps(a1, a1, const_f(1.f));
    h_.vdivps(v, v, a1);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::gelu_erf(const Vmm &v) {
    // 0.5 x (1 + erf(x/sqrt2)): with w = 0.5 erfc(|x|/sqrt2), x < 0 gives x w and x >= 0 gives
    // x (1 - w), so there is no cancellation in the negative tail. erfc(a) = N(a)/D(a) e^(-a^2),
    // and a^2 = xc^2 / 2 enters exp as an exact hi + lo pair so its rounding is not amplified.
    // x w is computed as q e^(-a^2) with q = x N/(2D): both factors and the product stay normal
    // floats wherever the result is (a denormal would cost dozens of cycles).
    const Vmm xc = spare(0), lo = spare(1), hi = spare(2), n = spare(3);
    if constexpr (!is_avx512) max_keep_nan(v, spare(0), -FLT_MAX); // x = -inf: -FLT_MAX * 0 = -0
    h_.vandps(xc, v, const_bits(abs_bits));
    h_.vmaxps(xc, xc, const_f(0x1p-30f));           // w is the same below; keeps xc^2 normal
    h_.vminps(xc, xc, const_f(16.f));               // from here on w = 0 exactly
    h_.vmulps(n, xc, const_f(-0.5f));               // -xc/2, exact (n is free until exp)
    h_.vmulps(hi, xc, n);                     // -a^2 = -xc^2/2, rounded once
    h_.vmovaps(lo, hi);
    h_.vfmsub231ps(lo, xc, n);                // lo = xc (-xc/2) - hi, exact
    // hi = e^(-a^2), 0 from a^2 = 86.4 (|x| = 13.145) on, where |x w| falls below FLT_MIN;
    // -a^2 is never above 0 (no overflow clamp), nor below -xc_max^2 / 2
    const double xc_max = std::fmin(in_.max_abs(), 16.0);
    exp_core(hi, n, lo, true, {&lo, -86.4f, {-xc_max * xc_max / 2, 0.0}});
    // a <= 16 / sqrt2 = 11.31, in the fitted range
    h_.vmulps(xc, xc, const_f(0.70710678118654752f));
    horner(lo, xc, erfc_half_num);
    horner(n, xc, erfc_den);
    h_.vdivps(lo, lo, n);
    // x = +-inf: q e = +-FLT_MAX * 0, not inf * 0 (AVX-512: one vfixupimmps maps the two
    // infinities to +-FLT_MAX and keeps every other class, NaN included)
    if constexpr (is_avx512) {
        h_.vfixupimmps(n, v, const_i32(fixup_inf_to_flt_max), 0);
    } else {
        set_const(n, FLT_MAX);
        h_.vminps(n, n, v);
    }
    h_.vmulps(lo, lo, n);                     // q = x N / (2D)
    h_.vmulps(xc, lo, hi);                    // x w
    h_.vfnmadd213ps(hi, lo, v);               // x - x w, one rounding
    // x > 0: x - x w; otherwise x w, which keeps the sign of -0 and carries NaN
    if constexpr (is_avx512) {
        const Xbyak::Opmask k(mask_k(0));
        h_.vcmpps(k, v, const_f(0.f), gt_oq);
        h_.vblendmps(v | k, xc, hi);
    } else {
        h_.vcmpps(lo, v, const_f(0.f), gt_oq);
        h_.vblendvps(v, xc, hi, lo);
    }
}

template <cpu_isa isa>
void eltwise_emitter<isa>::logistic_keeping_tiny(const Vmm &v, const Vmm &a0, const Vmm &a1,
                                                 int sign, double u_max_abs) {
    h_.vorps(v, v, const_bits(sign_bit));               // -|u|
    exp_core(v, a0, a1, true, {nullptr, exp_floor(), {-u_max_abs, 0.0}}); // E, denormals kept
    h_.vaddps(a0, v, const_f(1.f));                   // 1 + E
    h_.vdivps(a1, v, a0);                       // E / (1 + E): u < 0
    set_const(v, 1.f);
    h_.vdivps(v, v, a0);                        // 1 / (1 + E): u >= 0 (and NaN)
    blend(v, a1, sign);
}

template <cpu_isa isa>
void eltwise_emitter<isa>::swish(const Vmm &v) {
    // x / (1 + e^(-alpha x)); where logistic -> 0, clamp x to +-FLT_MAX so that x * 0 = 0.
    if (alpha_ == 0.f) return (void)h_.vmulps(v, v, const_f(0.5f));
    // (the clamp only where that infinity can come)
    if (alpha_ > 0.f && in_.may_be_below(-FLT_MAX))
        max_keep_nan(v, spare(0), -FLT_MAX);
    else if (alpha_ < 0.f && in_.may_be_above(FLT_MAX))
        min_keep_nan(v, spare(0), FLT_MAX);
    if (tiny_) {
        // x * logistic(alpha x), its tail down to the denormals (x / (1 + e^(-alpha x)) is 0
        // once the exponential overflows, at alpha x < -88.7, where x e^(alpha x) is still
        // normal).
        const int sign = is_avx512 ? mask_k(1) : aux_.at(3);
        h_.vmulps(spare(0), v, const_f(alpha_));
        if constexpr (is_avx512)
            cmp(sign, spare(0), const_f(0.f), lt_oq);
        else
            h_.vmovaps(spare(3), spare(0));
        logistic_keeping_tiny(spare(0), spare(1), spare(2), sign,
                              in_.max_abs() * std::fabs(static_cast<double>(alpha_)));
        h_.vmulps(v, v, spare(0));
        return;
    }
    if (alpha_ == 1.f)
        h_.vxorps(spare(0), v, const_bits(sign_bit));       // -x exactly, off the multipliers
    else
        h_.vmulps(spare(0), v, const_f(-alpha_));
    exp_core(spare(0), spare(1), spare(2), false,
             {nullptr, -87.f, in_.times(-static_cast<double>(alpha_))});
    h_.vaddps(spare(0), spare(0), const_f(1.f));
    h_.vdivps(v, v, spare(0));
}

template <cpu_isa isa>
void eltwise_emitter<isa>::mish(const Vmm &v) {
    // tanh(log(1 + E)) = n / (n + 2), n = E (E + 2), E = e^x: relative accuracy kept for x < 0.
    if (in_.may_be_below(-FLT_MAX)) max_keep_nan(v, spare(0), -FLT_MAX);
    h_.vminps(spare(0), v, const_f(30.f));              // n / (n + 2) is 1 in f32 from here on
    exp_core(spare(0), spare(1), spare(2), false,
             {nullptr, exp_floor(), {std::fmin(in_.lo, 30.0), 30.0}});
    h_.vaddps(spare(1), spare(0), const_f(2.f));
    h_.vmulps(spare(0), spare(0), spare(1));
    h_.vaddps(spare(1), spare(0), const_f(2.f));
    h_.vdivps(spare(0), spare(0), spare(1));
    h_.vmulps(v, v, spare(0));
}

template <cpu_isa isa>
void eltwise_emitter<isa>::pow(const Vmm &v) {
    // alpha * x^beta with C's rules; exp(beta ln x) in general, products for integer |beta| <= 16.
    if (impl::is_runtime_param(beta_)) return pow_runtime_beta(v);
    if (beta_ == 0.f) return const_keep_nan(v, alpha_, 0);
    // C: (-inf)^beta = +inf (beta > 0) or +0 (beta < 0) for non-integer beta: as for +inf.
    const auto neg_inf_to_pos_inf = [&]() {
        const int m = is_avx512 ? mask_k(0) : spare(0).getIdx();
        cmp(m, v, const_f(-INFINITY), eq_oq);
        blend(v, const_f(INFINITY), m);
    };
    if (alpha_ == 0.f) {
        // 0 * x^beta: NaN where x^beta is NaN (x NaN, or x < 0 with a non-integer beta) or
        // infinite (the pole x = +-0 of a negative beta: 0 * inf, as C); 0 elsewhere, +-inf
        // included (the limit), as the reference. x^beta is replaced by a cheap function with the same NaN and
        // infinite lanes (1/x, sqrt, 1/sqrt), which the product by 0 turns into NaN.
        if (is_integer(beta_) && beta_ > 0.f) return const_keep_nan(v, 0.f, 0);
        if (!is_integer(beta_)) {
            neg_inf_to_pos_inf();
            if (beta_ > 0.f) min_keep_nan(v, spare(0), FLT_MAX);
            h_.vsqrtps(v, v);                    // NaN for x < 0
        }
        if (beta_ < 0.f) {
            // inf at x = +-0 only (1 / (x 2^64) stays finite for denormal x), 0 at x = +-inf
            if (is_integer(beta_)) h_.vmulps(v, v, const_f(0x1p64f));
            set_const(spare(0), 1.f);
            h_.vdivps(v, spare(0), v);
        }
        h_.vmulps(v, v, const_f(alpha_));
        return;
    }
    if (is_small_integer_power(beta_)) {
        // Left-to-right binary powering: square, and multiply by x for each set bit. alpha
        // joins the last product (alpha / x^-beta for a negative beta), not the result, so
        // that alpha x^beta does not overflow where only x^beta would (pow:0.5:2 of 2e19).
        // With tiny results kept (keeps_tiny), a negative power is (1 / x)^k instead: alpha /
        // x^k is 0 once x^k overflows, where (1 / x)^k is still a denormal (x^-2 of 1e20).
        const bool reciprocal_first = tiny_ && beta_ < 0.f;
        if (reciprocal_first) {
            set_const(spare(0), 1.f);
            h_.vdivps(v, spare(0), v);                      // 1 / (+-0) = +-inf, as C's pole
        }
        const bool positive = beta_ > 0.f || reciprocal_first;
        const int k = static_cast<int>(std::fabs(beta_));
        int top = 0;
        while ((k >> (top + 1)) != 0) ++top;
        if (top > 0) h_.vmovaps(spare(0), v);
        for (int bit = top - 1; bit >= 0; --bit) {
            const bool last = alpha_ != 1.f && positive && bit == 0, times_x = (k >> bit) & 1;
            if (last && !times_x) {
                h_.vmulps(spare(0), v, const_f(alpha_));
                h_.vmulps(v, v, spare(0));                  // (alpha v) v
                continue;
            }
            h_.vmulps(v, v, v);
            if (last) h_.vmulps(v, v, const_f(alpha_));      // (alpha v^2) x
            if (times_x) h_.vmulps(v, v, spare(0));
        }
        if (!positive) {
            set_const(spare(0), alpha_);
            h_.vdivps(v, spare(0), v); // alpha / (+-0) = +-inf, as C
        }
        if (top > 0 || !positive) return;
    } else if (std::fabs(beta_) == 0.5f) {
        neg_inf_to_pos_inf();
        h_.vsqrtps(v, v);          // sqrt(-0) = -0 where pow gives +0: equal values
        if (beta_ < 0.f) {
            h_.vandps(v, v, const_bits(abs_bits)); // pow(-0, -0.5) = +inf, not 1 / -0
            set_const(spare(0), 1.f);
            h_.vdivps(v, spare(0), v);
        }
    } else {
        const bool integer = is_integer(beta_), odd = is_odd_integer(beta_);
        const Vmm x = odd ? spare(log_aux_count()) : v; // keeps x for its sign
        if (odd) h_.vmovaps(x, v);
        if (integer)
            h_.vandps(v, v, const_bits(abs_bits));          // even or odd power of |x|
        else
            neg_inf_to_pos_inf();
        exp_of_beta_log(v);                         // x < 0, non-integer beta: NaN
        if (odd) {
            h_.vandps(x, x, const_bits(sign_bit));
            h_.vorps(v, v, x);
        }
    }
    if (alpha_ != 1.f) h_.vmulps(v, v, const_f(alpha_));
}

template <cpu_isa isa>
void eltwise_emitter<isa>::exp_of_beta_log(const Vmm &v) {
    log_core(v, 0, true);
    // y = beta (hi + lo) as y_hi + y_lo, then e^y without rounding y: exp would amplify y's
    // rounding error by |y| (up to 89).
    const Vmm lo = spare(2), y_lo = spare(1);
    h_.vmulps(spare(0), v, const_f(beta_));
    h_.vmovaps(y_lo, spare(0));
    h_.vfmsub231ps(y_lo, v, const_f(beta_));
    h_.vfmadd231ps(y_lo, lo, const_f(beta_));
    h_.vmovaps(v, spare(0));
    h_.vminps(y_lo, y_lo, const_f(1e-5f)); // |y_lo| <= ulp(89) where it matters; finite
    h_.vmaxps(y_lo, y_lo, const_f(-1e-5f));
    exp_core(v, spare(0), y_lo, true, {&y_lo, exp_floor(), {}});
}

template <cpu_isa isa>
void eltwise_emitter<isa>::pow_runtime_beta(const Vmm &v) {
    // |x|^beta = exp(beta ln|x|) as the general code above computes it, then C's rules lane by
    // lane from tests on beta made at run time: x^0 = 1 (NaN x included); a negative x (-0 and
    // -inf included) keeps its sign for an odd integer beta; a negative finite x with a
    // non-integer beta is NaN. An integer beta costs about |beta| ulp here, where a constant one
    // is a few exact products.
    const Vmm x = spare(log_aux_count());
    h_.vmovaps(x, v);
    h_.vandps(v, v, const_bits(abs_bits));
    exp_of_beta_log(v);
    // Masks (opmasks k(0), k(1) on AVX-512; spare(0), spare(1) on AVX2): integer beta, odd beta.
    const int m_int = is_avx512 ? mask_k(0) : spare(0).getIdx();
    const int m_odd = is_avx512 ? mask_k(1) : spare(1).getIdx();
    // x is in spare(3) on AVX-512, spare(4) on AVX2
    const Vmm b = spare(2), half = is_avx512 ? spare(0) : spare(3);
    set_const(b, beta_);
    round_nearest_even(half, b);
    cmp(m_int, b, half, eq_oq);
    h_.vmulps(b, b, const_f(0.5f));
    round_nearest_even(half, b);
    if constexpr (is_avx512) {
        h_.vcmpps(Xbyak::Opmask(m_odd) | Xbyak::Opmask(m_int), b, half, 4); // neq_uq, and integer
    } else {
        h_.vcmpps(Vmm(m_odd), b, half, 4);
        h_.vandps(Vmm(m_odd), Vmm(m_odd), Vmm(m_int));
    }
    // odd: x's sign onto |x|^beta
    h_.vandps(b, x, const_bits(sign_bit));
    h_.vorps(b, b, v);
    blend(v, b, m_odd);
    // x < 0 (ordered, -0 excluded), x != -inf, beta not an integer: NaN
    const int m_nan = m_odd;
    if constexpr (is_avx512) {
        const Xbyak::Opmask k(m_nan);
        set_const(b, beta_);
        round_nearest_even(half, b);
        h_.vcmpps(k, x, const_f(0.f), lt_oq);
        h_.vcmpps(k | k, x, const_f(-INFINITY), 4); // masked compares: the AND of the three
        h_.vcmpps(k | k, b, half, 4);         // beta not an integer
    } else {
        h_.vcmpps(Vmm(m_nan), x, const_f(0.f), lt_oq);
        h_.vcmpps(b, x, const_f(-INFINITY), 4);
        h_.vandps(Vmm(m_nan), Vmm(m_nan), b);
        h_.vandnps(Vmm(m_nan), Vmm(m_int), Vmm(m_nan));
    }
    blend(v, const_bits(0x7fc00000u), m_nan);
    // beta == 0: 1 everywhere
    set_const(b, beta_);
    cmp(m_int, b, const_f(0.f), eq_oq);
    blend(v, const_f(1.f), m_int);
    if (alpha_ != 1.f) h_.vmulps(v, v, const_f(alpha_));
}

// ---- dispatch --------------------------------------------------------------------------------

template <cpu_isa isa>
void eltwise_emitter<isa>::compute(int v_idx, const std::vector<int> &aux,
        const std::vector<int> &opmasks, const Xbyak::Reg64 &reg_table) {
    aux_ = aux;
    opmasks_ = opmasks;
    table_ = reg_table;
    const row *r = find_row(alg_);
    if (!r) throw error(status::unimplemented, "jit eltwise: unsupported algorithm");
    r->emit(*this, Vmm(v_idx));
}

template class eltwise_emitter<cpu_isa::avx2>;
template class eltwise_emitter<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
