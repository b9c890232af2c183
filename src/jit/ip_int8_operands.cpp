// The int8 inner product's per-call preparation (ip_int8_operands.hpp).
#include <algorithm>
#include <string>

#include "common/plain_layout.hpp"
#include "jit/ip_int8_operands.hpp"

namespace prim {
namespace jit {
namespace {

using dt = memory::data_type;
using impl::is_plain;
using impl::plain_buffer;

// Every other element access reads a plain copy converted to f32 (exact for 8-bit values).
template <typename get_t>
void pack_from(const get_t &get, const int8_gemm_shape &s, int8_t *packed) {
    const int64_t kg_count = s.kp / s.group, P = s.panel, G = s.group;
#pragma omp parallel for schedule(static) if (s.oc * s.k > (1 << 16))
    for (int64_t p = 0; p < s.panels; ++p)
        for (int64_t kg = 0; kg < kg_count; ++kg) {
            int8_t *out = packed + (p * kg_count + kg) * P * G;
            for (int64_t l = 0; l < P; ++l) {
                const int64_t oc = p * P + l;
                for (int64_t g = 0; g < G; ++g) {
                    const int64_t k = kg * G + g;
                    out[l * G + g] = oc < s.oc && k < s.k ? get(oc, k) : int8_t(0);
                }
            }
        }
}

} // namespace

memory::desc packed_int8_weights_desc(const memory::dims &dims, int64_t panel, int64_t group) {
    std::string p = "AB";
    for (size_t i = 2; i < dims.size(); ++i) p += static_cast<char>('a' + i);
    return memory::desc(dims, dt::s8, p + std::to_string(panel) + "a" + std::to_string(group) + "b");
}

void pack_int8_weights(const memory::desc &md, const void *w, const int8_gemm_shape &s,
                       int8_t *packed) {
    if (is_plain(md)) { // oi, oihw...: row oc holds its K values contiguously
        const int8_t *rows = static_cast<const int8_t *>(w);
        return pack_from([&](int64_t oc, int64_t k) { return rows[oc * s.k + k]; }, s, packed);
    }
    const plain_buffer plain(md, w, true);
    const float *rows = plain.get();
    pack_from([&](int64_t oc, int64_t k) { return static_cast<int8_t>(rows[oc * s.k + k]); }, s,
              packed);
}

void int8_compensation(const int8_t *packed, const int8_gemm_shape &s, int32_t shift,
                       const int32_t *zp, bool per_ic, int32_t *comp) {
    const int64_t kg_count = s.kp / s.group, P = s.panel, G = s.group;
#pragma omp parallel for schedule(static) if (s.oc * s.k > (1 << 16))
    for (int64_t p = 0; p < s.panels; ++p) {
        int32_t *c = comp + p * P;
        std::fill(c, c + P, 0);
        for (int64_t kg = 0; kg < kg_count; ++kg) {
            const int8_t *w = packed + (p * kg_count + kg) * P * G;
            for (int64_t g = 0; g < G; ++g) {
                const int64_t k = kg * G + g;
                if (k >= s.k) break;
                const int32_t f = shift + (zp ? zp[per_ic ? k / s.spatial : 0] : 0);
                for (int64_t l = 0; l < P; ++l) c[l] -= f * w[l * G + g];
            }
        }
    }
}

void prepare_int8_src(const memory::desc &md, const void *src, const int8_gemm_shape &s, bool vnni,
                      void *out) {
    const bool is_s8 = md.get_data_type() == dt::s8;
    const memory::desc copy_md = is_plain(md) ? memory::desc() : md; // zero: no copy
    const plain_buffer copy(copy_md, src, true);
    const float *f = is_plain(md) ? nullptr : copy.get();
    const auto value = [&](int64_t i) -> int32_t {
        if (f) return static_cast<int32_t>(f[i]);
        return is_s8 ? static_cast<const int8_t *>(src)[i] : static_cast<const uint8_t *>(src)[i];
    };
#pragma omp parallel for schedule(static) if (s.mb * s.k > (1 << 16))
    for (int64_t m = 0; m < s.mb; ++m) {
        if (vnni) {
            // s8 + 128 is the byte with its top bit flipped, read as u8.
            uint8_t *row = static_cast<uint8_t *>(out) + m * s.kp;
            for (int64_t k = 0; k < s.k; ++k)
                row[k] = static_cast<uint8_t>(value(m * s.k + k) + (is_s8 ? 128 : 0));
            std::fill(row + s.k, row + s.kp, uint8_t(0));
        } else {
            int16_t *row = static_cast<int16_t *>(out) + m * s.kp;
            for (int64_t k = 0; k < s.k; ++k) row[k] = static_cast<int16_t>(value(m * s.k + k));
            std::fill(row + s.k, row + s.kp, int16_t(0));
        }
    }
}

} // namespace jit
} // namespace prim
