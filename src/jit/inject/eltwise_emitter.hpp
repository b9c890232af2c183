// Emits one eltwise algorithm, x = f(x; alpha, beta), in place on one vector register, with the
// spare registers the post-ops injector lends. No memory other than the constant table is read,
// nothing is written but the register and the spares, MXCSR is never touched.
//
// Split in two files: eltwise_emitter.cpp has the algorithms and the per-ISA helpers (compare to
// mask, blend, NaN-keeping min/max); eltwise_emitter_math.cpp has the shared math cores
// (exp, expm1, log, log1p, softplus) with their polynomial coefficients.
// Each algorithm is one row of the table in eltwise_emitter.cpp (find_row()): its code, its
// register needs (aux_vecs_count() / aux_opmasks_count(); compute() never uses more), whether it
// is a long sequence and whether it takes runtime parameters. Its other facts are its row of
// src/attr/algorithm_table.cpp.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include <xbyak/xbyak.h>

#include "jit/gen/isa_traits.hpp"
#include "jit/gen/jit_generator.hpp"
#include "jit/inject/op_sink.hpp"
#include "jit/inject/value_range.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace jit {

// vcmpps predicates used by the emitters: "oq" ones are false for NaN, "uq" ones true.
namespace vcmp {
enum : int { eq_oq = 0, ord_q = 7, lt_oq = 17, le_oq = 18, nlt_uq = 21, nle_uq = 22, ge_oq = 29, gt_oq = 30 };
}
// f32 bit masks
constexpr uint32_t f32_sign_bit = 0x80000000u;
constexpr uint32_t f32_abs_bits = 0x7fffffffu;

template <cpu_isa isa>
class eltwise_emitter {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    static constexpr bool is_avx512 = (isa == cpu_isa::avx512);

    // in: what is known of the values compute() will get (value_range.hpp); a range lets the
    // code leave out clamps and flushes that no value of it triggers, with the same results.
    // scale: the entry's scale, which the injector applies after compute(); see keeps_tiny.
    eltwise_emitter(jit_generator &host, algorithm alg, float alpha, float beta, value_range in = {},
                    float scale = 1.f)
        : h_(host), alg_(alg), alpha_(alpha), beta_(beta), in_(in), tiny_(keeps_tiny(scale)) {}

    // Whether results below FLT_MIN must be kept as denormals rather than flushed to 0 (which
    // the exp-based algorithms do to make no denormal): when the scale may lift them back into
    // the normal range or to an infinity, |scale| > 1 or a runtime scale (a NaN payload). The
    // reference rounds f to f32, denormal included, before the scale (issue 30: x = -88 with
    // scale FLT_MAX gave 0 where the reference gives 2.06, NaN where it gives inf).
    static bool keeps_tiny(float scale) { return !(std::fabs(scale) <= 1.f); }

    static bool is_supported(algorithm alg);
    // Whether the code can read alpha and beta, where runtime parameters (their slots'
    // NaNs, attr/runtime_params.hpp), from the table as they come: true unless the algorithm
    // computes other constants from them or picks its code by their values.
    static bool takes_runtime_params(algorithm alg, float alpha, float beta);
    static int aux_vecs_count(algorithm alg, float alpha, float beta, float scale = 1.f);
    static int aux_opmasks_count(algorithm alg, float alpha, float beta, float scale = 1.f);
    // Whether one vector's code is a long dependent sequence (an exp, log, tanh or general pow
    // core: 15 to 50 instructions), which runs faster interleaved with another vector's.
    static bool is_long_sequence(algorithm alg, float alpha, float beta);

    // v = f(v). aux / opmasks hold at least the counts above; reg_table the table's address.
    void compute(int v_idx, const std::vector<int> &aux, const std::vector<int> &opmasks,
                 const Xbyak::Reg64 &reg_table);
    // While ops is set, compute() records its instructions there instead of emitting them
    // (op_sink.hpp), for the injector to interleave several vectors' code.
    void record_into(op_list *ops) { h_.record_into(ops); }

private:
    struct row;
    // The algorithm's row, or nullptr when it has none (not an eltwise algorithm).
    static const row *find_row(algorithm alg);

    // ---- table and register access ----
    // A constant as an instruction's memory operand. AVX-512 reads it as a {1to16} broadcast of
    // 4 bytes: a long chain takes a constant in most of its instructions (the 8-entry chain: 72
    // a vector), and 64-byte reads at that rate were its bottleneck on Zen 4. set_const() loads
    // one into a register (vmovups takes no broadcast).
    Xbyak::Address const_bits(uint32_t bits) {
        return is_avx512 ? h_.table().broadcast_at_bits(table_, bits) : h_.table().at_bits(table_, bits);
    }
    Xbyak::Address const_f(float value) { return const_bits(const_table::bits_of(value)); }
    Xbyak::Address const_i32(int32_t value) { return const_bits(static_cast<uint32_t>(value)); }
    void set_const(const Vmm &dst, float value) {
        if constexpr (is_avx512)
            h_.vbroadcastss(dst, h_.table().scalar_at_bits(table_, const_table::bits_of(value)));
        else
            h_.vmovups(dst, const_f(value));
    }
    Vmm spare(int i) const { return Vmm(aux_.at(i)); }
    // A mask id: an opmask index on AVX-512; on AVX2 the index of the spare vector holding it.
    int mask_k(int i) const { return opmasks_.at(i); }

    // ---- per-ISA helpers (eltwise_emitter.cpp) ----
    // b / src: a Vmm or an Address (the concrete type: op_sink copies operands by value).
    template <class Operand>
    void cmp(int mask, const Vmm &a, const Operand &b, int predicate);
    template <class Operand>
    void blend(const Vmm &dst, const Operand &src, int mask); // dst = mask ? src : dst
    // v = max(lo, v) / min(hi, v), a NaN in v stays NaN; tmp is clobbered.
    void max_keep_nan(const Vmm &v, const Vmm &tmp, float lo);
    void min_keep_nan(const Vmm &v, const Vmm &tmp, float hi);
    // v = value, except that a NaN stays NaN. AVX2 uses spare(aux_i) as its mask.
    void const_keep_nan(const Vmm &v, float value, int aux_i);
    // v = alpha v + beta for an infinite alpha, beta where v = +-0. AVX2 uses spare(aux_i) as its
    // mask.
    void infinite_slope(const Vmm &v, int aux_i);
    void round_nearest_even(const Vmm &dst, const Vmm &src);

    // ---- algorithms (eltwise_emitter.cpp) ----
    void relu(const Vmm &v);
    void linear(const Vmm &v);
    void clip(const Vmm &v);
    void hardsigmoid(const Vmm &v);
    void hardswish(const Vmm &v);
    void softsign(const Vmm &v);
    void shrink(const Vmm &v);
    void thresholded_relu(const Vmm &v);
    void elu_like(const Vmm &v, float in_div, float neg_scale, float pos_scale);
    void gelu_tanh(const Vmm &v);
    void gelu_erf(const Vmm &v);
    void swish(const Vmm &v);
    // The tail-accurate logistic of the tiny-results mode (keeps_tiny): v = u < 0 ? E / (1 + E)
    // : 1 / (1 + E) with E = e^-|u| down to the denormals (1 / (1 + e^-u) is 0 once e^-u
    // overflows). u in v, |u| <= u_max_abs; sign: the mask id holding u's sign (AVX2: a spare
    // vector with u, AVX-512: an opmask set where u < 0). Uses a0, a1 and mask_k(0).
    void logistic_keeping_tiny(const Vmm &v, const Vmm &a0, const Vmm &a1, int sign,
                               double u_max_abs);
    // The floor of exp's argument: -87 flushes results below e^-87 (1.65e-38) to 0; with tiny
    // results kept, -105, below which e^v rounds to 0 in f32 anyway.
    float exp_floor() const { return tiny_ ? -105.f : -87.f; }
    void mish(const Vmm &v);
    void pow(const Vmm &v);
    // pow with beta read from the table at run time (a runtime parameter).
    void pow_runtime_beta(const Vmm &v);
    // v = e^(beta ln v) with ln's low part carried into exp; uses spare(0) ..
    // spare(log_aux_count() - 1).
    void exp_of_beta_log(const Vmm &v);

    // ---- math cores (eltwise_emitter_math.cpp); each works in place on v ----
    // What exp_core knows of its argument besides its value in v.
    struct exp_arg {
        const Vmm *lo = nullptr;   // optional exact low part (|lo| tiny; may be exp_core's p)
        float flush_below = -87.f; // results below e^flush_below are 0 (-87: under 1.65e-38;
                                   // at most -104: every nonzero result is kept, denormals too)
        value_range range;         // the values v may hold: a clamp or flush none of them
                                   // reaches is left out
    };
    // e^v, flushed to 0 below v = flush_below, so that no denormal is made. keep_nan: clamp so
    // that NaN survives (else NaN may become a finite value; callers that carry the NaN
    // elsewhere pass false). Uses n, p and, on AVX-512 where it flushes, mask_k(0).
    void exp_core(const Vmm &v, const Vmm &n, const Vmm &p, bool keep_nan, const exp_arg &arg = {});
    // The two halves of the flush: mark the lanes to keep (AVX-512, before the clamp), then
    // dst = p * 2^n with the others zeroed when flush (n, p clobbered; AVX2: dst also).
    // may_overflow: the argument may reach exp's overflow clamp (else every result is a normal
    // float, and AVX2 adds n to p's exponent field).
    void flush_tiny_exp_begin(const Vmm &v, float flush_below);
    void scale_by_pow2(const Vmm &dst, const Vmm &p, const Vmm &n, float flush_below, bool flush,
                       bool may_overflow);
    // scale (e^(v + lo) - 1), accurate near 0; lo: optional exact low part of the argument
    // (|lo| tiny); range: the values v may hold in the lanes whose result is used (a clamp none
    // of them reaches is left out; other lanes may come out as anything). A NaN in v may come
    // out finite: the callers carry NaN in x. Uses a0, a1.
    void expm1_core(const Vmm &v, const Vmm &a0, const Vmm &a1, const Vmm *lo = nullptr,
                    const value_range &range = {}, float scale = 1.f);
    // tanh(v) = expm1(2v) / (expm1(2v) + 2), v's values in x. Uses a0, a1.
    void tanh_core(const Vmm &v, const Vmm &a0, const Vmm &a1, const value_range &x);
    // 1 / (1 + e^-v), v's values in x. Uses a0, a1.
    void logistic_core(const Vmm &v, const Vmm &a0, const Vmm &a1, const value_range &x);
    // ln(v) with the IEEE special cases. Uses spare(first)..spare(first + log_aux_count() - 1).
    // with_lo: v gets the high part and spare(first + 2) the low part of ln(v) (for pow, where
    // exp(beta ln x) amplifies the log's error by |beta ln x|); lo is garbage where v is not finite.
    void log_core(const Vmm &v, int first, bool with_lo = false);
    // The part both ISAs share once x = 2^E (1 + f): v = 1 + f, e = E (as floats); u, acc
    // clobbered (acc holds the low part when with_lo).
    void log_of_mantissa(const Vmm &v, const Vmm &e, const Vmm &u, const Vmm &acc, bool with_lo);
    void finish_log(const Vmm &v, const Vmm &e, const Vmm &lo, bool with_lo);
    static int log_aux_count() { return is_avx512 ? 3 : 4; }
    // log1p(v) for v in [0, 1] (or NaN). Uses a0, a1.
    void log1p_01_core(const Vmm &v, const Vmm &a0, const Vmm &a1);
    // log(1 + e^(a v)) / a, stable for every v and a != 0, v's values in x. Uses a0, a1, a2.
    void softplus_core(const Vmm &v, float a, const Vmm &a0, const Vmm &a1, const Vmm &a2,
                       const value_range &x);
    // acc = polynomial(x) by Horner; coefficients highest degree first.
    void horner(const Vmm &acc, const Vmm &x, const std::vector<float> &coeffs);

    op_sink h_;
    algorithm alg_;
    float alpha_, beta_;
    value_range in_;
    bool tiny_ = false; // keeps_tiny(the entry's scale)
    std::vector<int> aux_, opmasks_;
    Xbyak::Reg64 table_;
};

extern template class eltwise_emitter<cpu_isa::avx2>;
extern template class eltwise_emitter<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
