// The int8 GEMM's src rows (int8_src_rows.hpp).
#include <algorithm>
#include <cstring>

#include "jit/int8_src_rows.hpp"

namespace prim {
namespace jit {
namespace {

// n values of one tap from src into the kernel's form.
void put(const uint8_t *src, int64_t n, bool s8, uint8_t *out) { // vnni: u8, s8 + 128
    if (!s8) {
        std::memcpy(out, src, static_cast<size_t>(n));
        return;
    }
    for (int64_t c = 0; c < n; ++c) out[c] = static_cast<uint8_t>(src[c] ^ 0x80u);
}
void put(const uint8_t *src, int64_t n, bool s8, int16_t *out) { // 16-bit: widened
    if (s8) {
        const int8_t *v = reinterpret_cast<const int8_t *>(src);
        for (int64_t c = 0; c < n; ++c) out[c] = v[c];
    } else {
        for (int64_t c = 0; c < n; ++c) out[c] = src[c];
    }
}

template <typename T>
void make_rows(const int8_src_rows &r, const uint8_t *src, int64_t g, int64_t m0, int64_t m1,
               const int16_t *pad, T *out) {
    const int64_t cg = r.cg, cp = r.cp, kp = r.kp();
    for (int64_t m = m0; m < m1; ++m) {
        int64_t rest = m;
        const int64_t ow = rest % r.o[2]; rest /= r.o[2];
        const int64_t oh = rest % r.o[1]; rest /= r.o[1];
        const int64_t od = rest % r.o[0];
        const int64_t n = rest / r.o[0];
        T *tap = out + (m - m0) * kp;
        for (int64_t kd = 0; kd < r.k[0]; ++kd) {
            const int64_t id = od * r.s[0] - r.p[0] + kd * r.step[0];
            for (int64_t kh = 0; kh < r.k[1]; ++kh) {
                const int64_t ih = oh * r.s[1] - r.p[1] + kh * r.step[1];
                for (int64_t kw = 0; kw < r.k[2]; ++kw, tap += cp) {
                    const int64_t iw = ow * r.s[2] - r.p[2] + kw * r.step[2];
                    const bool inside = id >= 0 && id < r.i[0] && ih >= 0 && ih < r.i[1]
                            && iw >= 0 && iw < r.i[2];
                    if (inside)
                        put(src + (((n * r.i[0] + id) * r.i[1] + ih) * r.i[2] + iw) * r.c_total + g * cg,
                            cg, r.src_s8, tap);
                    else
                        for (int64_t c = 0; c < cg; ++c) tap[c] = static_cast<T>(pad[c]);
                    std::fill(tap + cg, tap + cp, T(0));
                }
            }
        }
    }
}

} // namespace

bool int8_src_rows::rows_are_pixels() const {
    for (int sp = 0; sp < 3; ++sp)
        if (k[sp] != 1 || s[sp] != 1 || p[sp] != 0 || o[sp] != i[sp]) return false;
    return true;
}

void make_int8_rows(const int8_src_rows &r, const uint8_t *src, int64_t g, int64_t m0, int64_t m1,
                    bool vnni, const int16_t *pad, void *out) {
    if (vnni) return make_rows(r, src, g, m0, m1, pad, static_cast<uint8_t *>(out));
    make_rows(r, src, g, m0, m1, pad, static_cast<int16_t *>(out));
}

} // namespace jit
} // namespace prim
