// Vectors of f32 lanes read from and written to memory of any of the four data types (f32, s32,
// s8, u8), for kernels that compute in f32 on int8 data: the one place where the JIT converts
// as convert_types.hpp does.
//   load_f32: (broadcast_f32: one value for every lane) the values widened (s8/u8: vpmovsxbd/vpmovzxbd) and converted (vcvtdq2ps; exact
//             for every s8/u8, rounded to nearest for s32 beyond 2^24, as the reference).
//   to_int:   NaN to 0, clamped to the type's range, rounded half to even (vcvtps2dq under the
//             default MXCSR, never written): s32 lanes.
//   store:    f32 lanes, or to_int's s32 lanes narrowed to bytes (AVX-512: vpmovusdb/vpmovsdb;
//             AVX2: two packs, the values already in range, so nothing saturates twice).
// A partial vector (vector_lanes) touches no byte past its lanes: AVX-512 uses the host's tail
// opmask (EVEX fault suppression covers the widening loads and narrowing stores); AVX2 uses the
// host's mask vector for 4-byte types (vmaskmovps) and moves bytes one at a time otherwise.
#pragma once
#include <xbyak/xbyak.h>

#include "jit/gen/isa_traits.hpp"
#include "jit/gen/jit_generator.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// Which lanes of a vector are real: all, the first n (known when the code is made), or the first
// `count` (a register holding 1..simd_w-1 at run time). A partial vector's masked forms read the
// host's tail mask, prepared (tail_mask.hpp) for the same lanes.
struct vector_lanes {
    int n = 0;                    // 0: all lanes (or a count at run time); else 1..simd_w-1
    const Xbyak::Reg64 *count = nullptr;
    static vector_lanes all() { return {}; }
    static vector_lanes first(int n) { return {n, nullptr}; }
    static vector_lanes first_count(const Xbyak::Reg64 &count) { return {0, &count}; }
    bool partial() const { return n != 0 || count != nullptr; }
};

template <cpu_isa isa>
class typed_vectors {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    using dt = memory::data_type;
    static constexpr int simd_w = isa_traits<isa>::simd_w;

    // mask_idx: the host's tail mask, an opmask (AVX-512) or a vector register (AVX2, read by
    // partial f32/s32 vectors only).
    typed_vectors(jit_generator &gen, int mask_idx) : g_(gen), mask_idx_(mask_idx) {}

    // The clamp bounds of an integer type in f32; s32's upper one is the largest f32 below 2^31,
    // so vcvtps2dq cannot overflow.
    static float lower_bound(dt t) { return t == dt::u8 ? 0.f : t == dt::s8 ? -128.f : -2147483648.f; }
    static float upper_bound(dt t) { return t == dt::u8 ? 255.f : t == dt::s8 ? 127.f : 2147483520.f; }

    // v = the lanes of type t at `at`, as f32 (lanes past a partial vector's are 0).
    void load_f32(const Vmm &v, const Xbyak::RegExp &at, dt t, const vector_lanes &lanes) {
        if (t == dt::f32 || t == dt::s32) {
            if (!lanes.partial()) g_.vmovups(v, g_.ptr[at]);
            else if constexpr (isa == cpu_isa::avx512) g_.vmovups(v | opmask() | g_.T_z, g_.ptr[at]);
            else g_.vmaskmovps(v, Vmm(mask_idx_), g_.ptr[at]);
            if (t == dt::s32) g_.vcvtdq2ps(v, v);
            return;
        }
        const bool is_signed = t == dt::s8;
        const auto widen = [&](const Vmm &to, const Xbyak::Operand &from) {
            if (is_signed) g_.vpmovsxbd(to, from);
            else g_.vpmovzxbd(to, from);
        };
        if (!lanes.partial()) {
            widen(v, g_.ptr[at]);
        } else if constexpr (isa == cpu_isa::avx512) {
            widen(v | opmask() | g_.T_z, g_.ptr[at]);
        } else {
            const Xbyak::Xmm x(v.getIdx());
            g_.vpxor(x, x, x);
            for_each_byte(lanes, [&](int i) { g_.vpinsrb(x, x, g_.ptr[at + i], i); });
            widen(v, x);
        }
        g_.vcvtdq2ps(v, v);
    }

    // Every lane of v = the one value of type t at `at`, as f32. tmp: a scratch register.
    void broadcast_f32(const Vmm &v, const Xbyak::RegExp &at, dt t, const Xbyak::Reg64 &tmp) {
        if (t == dt::f32) return g_.vbroadcastss(v, g_.ptr[at]);
        if (t == dt::s32) {
            g_.vpbroadcastd(v, g_.ptr[at]);
        } else {
            if (t == dt::s8) g_.movsx(tmp.cvt32(), g_.byte[at]);
            else g_.movzx(tmp.cvt32(), g_.byte[at]);
            g_.vmovd(Xbyak::Xmm(v.getIdx()), tmp.cvt32());
            g_.vpbroadcastd(v, Xbyak::Xmm(v.getIdx()));
        }
        g_.vcvtdq2ps(v, v);
    }

    // f32 lanes of v to t's values as s32 lanes (t an integer type). tmp: an opmask index
    // (AVX-512) or a spare vector (AVX2); reg_table: the constant table's address.
    void to_int(const Vmm &v, dt t, const Xbyak::Reg64 &reg_table, int tmp) {
        // NaN to 0; u8's lower clamp does that by itself (vmaxps returns its second operand, the
        // bound, for a NaN).
        if (t != dt::u8) {
            if constexpr (isa == cpu_isa::avx512) {
                const Xbyak::Opmask k(tmp);
                g_.vcmpps(k, v, v, 7 /* ordered */);
                g_.vmovaps(v | k | g_.T_z, v);
            } else {
                g_.vcmpps(Vmm(tmp), v, v, 7 /* ordered */);
                g_.vandps(v, v, Vmm(tmp));
            }
        }
        g_.vmaxps(v, v, g_.table().at(reg_table, lower_bound(t)));
        // AVX-512's u8 store (vpmovusdb) saturates above by itself: a value past 2^31 converts to
        // 0x80000000, which it reads as 2^31, stored as 255 too.
        if (isa != cpu_isa::avx512 || t != dt::u8) g_.vminps(v, v, g_.table().at(reg_table, upper_bound(t)));
        g_.vcvtps2dq(v, v);
    }

    // Writes v as type t at `at`: f32 lanes for f32, to_int's lanes for the others. tmp_vec: a
    // spare vector (AVX2's byte packing). stream: a non-temporal store (whole f32/s32 vectors).
    void store(const Xbyak::RegExp &at, const Vmm &v, dt t, const vector_lanes &lanes, int tmp_vec,
               bool stream = false) {
        if (t == dt::f32 || t == dt::s32) {
            if (!lanes.partial()) {
                if (stream) g_.vmovntps(g_.ptr[at], v);
                else g_.vmovups(g_.ptr[at], v);
            } else if constexpr (isa == cpu_isa::avx512) {
                g_.vmovups(g_.ptr[at] | opmask(), v);
            } else {
                g_.vmaskmovps(g_.ptr[at], Vmm(mask_idx_), v);
            }
            return;
        }
        const bool is_signed = t == dt::s8;
        if constexpr (isa == cpu_isa::avx512) {
            const Xbyak::Address to = lanes.partial() ? (g_.ptr[at] | opmask()) : g_.ptr[at];
            if (is_signed) g_.vpmovsdb(to, v);
            else g_.vpmovusdb(to, v);
        } else {
            const Xbyak::Xmm x(tmp_vec), lo(v.getIdx());
            g_.vextracti128(x, v, 1);
            g_.vpackssdw(x, lo, x); // 8 s16 in lane order: the values fit, nothing saturates
            if (is_signed) g_.vpacksswb(x, x, x);
            else g_.vpackuswb(x, x, x);
            if (!lanes.partial()) return g_.vmovq(g_.ptr[at], x);
            for_each_byte(lanes, [&](int i) { g_.vpextrb(g_.ptr[at + i], x, i); });
        }
    }

private:
    Xbyak::Opmask opmask() const { return Xbyak::Opmask(mask_idx_); }

    // f(i) for each byte lane of a partial vector: n of them, or while i < count at run time.
    template <typename F>
    void for_each_byte(const vector_lanes &lanes, F f) {
        if (!lanes.count) {
            for (int i = 0; i < lanes.n; ++i) f(i);
            return;
        }
        Xbyak::Label done;
        for (int i = 0; i < simd_w - 1; ++i) {
            if (i > 0) {
                g_.cmp(*lanes.count, i);
                g_.jle(done, g_.T_NEAR);
            }
            f(i);
        }
        g_.L(done);
    }

    jit_generator &g_;
    int mask_idx_;
};

} // namespace jit
} // namespace prim
