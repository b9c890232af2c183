// The int8 GEMM's per-call preparation of weights and compensation (int8_gemm_operands.hpp).
#include <algorithm>
#include <cstring>
#include <string>

#include "common/plain_layout.hpp"
#include "jit/int8/int8_gemm_operands.hpp"

namespace prim {
namespace jit {
namespace {

using dt = memory::data_type;
using impl::is_plain;
using impl::plain_buffer;

// get(g, oc, offset in the oc's plain weights) for every group, panel and K group.
template <typename get_t>
void pack_from(const get_t &get, const int8_gemm_shape &s, const int8_k_map &km, int8_t *packed) {
    const int64_t kg_count = s.kp / s.group, P = s.panel, G = s.group;
    const int64_t items = s.groups * s.panels;
#pragma omp parallel for schedule(static) if (s.groups * s.oc * s.kp > (1 << 16))
    for (int64_t item = 0; item < items; ++item) {
        const int64_t g = item / s.panels, p = item % s.panels;
        for (int64_t kg = 0; kg < kg_count; ++kg) {
            int8_t *out = packed + g * s.packed_bytes() + (p * kg_count + kg) * P * G;
            for (int64_t l = 0; l < P; ++l) {
                const int64_t oc = p * P + l;
                for (int64_t i = 0; i < G; ++i) {
                    const int64_t w = km.wei[static_cast<size_t>(kg * G + i)];
                    out[l * G + i] = oc < s.oc && w >= 0 ? get(g, oc, w) : int8_t(0);
                }
            }
        }
    }
}

// Whether K runs through each output channel's plain weights in order (an inner product's, a
// 1x1 convolution's), padded at the end only.
bool in_plain_order(const int8_k_map &km) {
    for (size_t k = 0; k < km.wei.size(); ++k)
        if (km.wei[k] != (static_cast<int64_t>(k) < km.wei_row ? static_cast<int64_t>(k) : -1)) return false;
    return true;
}

// pack_from for K in plain order: each lane's K group is `group` consecutive bytes of its row (a
// 4-byte copy), not one lookup per byte. Attention's B, packed at every run, is the reason.
void pack_plain_rows(const int8_t *w, const int8_gemm_shape &s, int64_t row_len, int8_t *packed) {
    const int64_t kg_count = s.kp / s.group, P = s.panel, G = s.group;
    const int64_t items = s.groups * s.panels;
#pragma omp parallel for schedule(static) if (s.groups * s.oc * s.kp > (1 << 16))
    for (int64_t item = 0; item < items; ++item) {
        const int64_t g = item / s.panels, p = item % s.panels;
        int8_t *out = packed + g * s.packed_bytes() + p * kg_count * P * G;
        std::fill(out, out + kg_count * P * G, int8_t(0));
        const int64_t whole = G == 4 ? row_len / 4 : 0; // K groups copied as one 32-bit word
        for (int64_t l = 0; l < P && p * P + l < s.oc; ++l) {
            const int8_t *row = w + (g * s.oc + p * P + l) * row_len;
            for (int64_t kg = 0; kg < whole; ++kg) std::memcpy(out + (kg * P + l) * 4, row + kg * 4, 4);
            for (int64_t kg = whole; kg < kg_count; ++kg) {
                const int64_t n = std::min(G, row_len - kg * G);
                if (n > 0) std::memcpy(out + (kg * P + l) * G, row + kg * G, static_cast<size_t>(n));
            }
        }
    }
}

} // namespace

int8_k_map conv_k_map(int64_t taps, int64_t icg, int64_t cp) {
    int8_k_map km;
    km.wei_row = icg * taps;
    km.channels = icg;
    for (int64_t t = 0; t < taps; ++t)
        for (int64_t c = 0; c < cp; ++c) {
            km.wei.push_back(c < icg ? c * taps + t : -1);
            km.channel.push_back(c < icg ? static_cast<int32_t>(c) : -1);
        }
    return km;
}

int8_k_map ip_k_map(int64_t ic, int64_t spatial, int64_t kp) {
    int8_k_map km;
    km.wei_row = ic * spatial;
    km.channels = ic;
    for (int64_t k = 0; k < kp; ++k) {
        km.wei.push_back(k < km.wei_row ? k : -1);
        km.channel.push_back(k < km.wei_row ? static_cast<int32_t>(k / spatial) : -1);
    }
    return km;
}

int8_k_map depthwise_k_map(int64_t taps) {
    int8_k_map km = conv_k_map(taps, 1, 1);
    km.depthwise = true;
    return km;
}

memory::desc packed_depthwise_weights_desc(const memory::dims &dims, int64_t panel) {
    std::string p = "A";
    for (size_t i = 1; i < dims.size(); ++i) p += static_cast<char>('a' + i);
    return memory::desc(dims, dt::s8, p + std::to_string(panel) + "a");
}

memory::desc packed_int8_weights_desc(const memory::dims &dims, bool grouped, int64_t panel,
                                      int64_t group) {
    const char oc = grouped ? 'b' : 'a', ic = static_cast<char>(oc + 1);
    std::string p = grouped ? "a" : "";
    p += static_cast<char>(oc - 'a' + 'A');
    for (size_t i = static_cast<size_t>(ic - 'a' + 1); i < dims.size(); ++i) p += static_cast<char>('a' + i);
    p += static_cast<char>(ic - 'a' + 'A');
    return memory::desc(dims, dt::s8, p + std::to_string(panel) + oc + std::to_string(group) + ic);
}

void pack_int8_weights(const memory::desc &md, const void *w, const int8_gemm_shape &s,
                       const int8_k_map &km, int8_t *packed) {
    const auto row = [&](int64_t g, int64_t oc) { return (g * s.oc + oc) * km.wei_row; };
    if (is_plain(md)) { // (g)oi(dhw): each output channel's weights are contiguous
        const int8_t *w8 = static_cast<const int8_t *>(w);
        if (in_plain_order(km)) return pack_plain_rows(w8, s, km.wei_row, packed);
        return pack_from([&](int64_t g, int64_t oc, int64_t i) { return w8[row(g, oc) + i]; }, s,
                         km, packed);
    }
    const plain_buffer plain(md, w, true); // exact for s8 values
    const float *f = plain.get();
    pack_from([&](int64_t g, int64_t oc, int64_t i) { return static_cast<int8_t>(f[row(g, oc) + i]); },
              s, km, packed);
}

void int8_compensation(const int8_t *packed, const int8_gemm_shape &s, const int8_k_map &km,
                       int32_t shift, const int32_t *zp, bool per_channel, int32_t *comp) {
    const int64_t kg_count = s.kp / s.group, P = s.panel, G = s.group;
    const int64_t items = s.groups * s.panels;
#pragma omp parallel for schedule(static) if (s.groups * s.oc * s.kp > (1 << 16))
    for (int64_t item = 0; item < items; ++item) {
        const int64_t g = item / s.panels, p = item % s.panels;
        int32_t *c = comp + g * s.ocp() + p * P;
        std::fill(c, c + P, 0);
        if (!km.depthwise && !(zp && per_channel)) {
            // One factor for every K value: −f times each lane's sum (K's padding holds zeros).
            const int32_t f = shift + (zp ? zp[0] : 0);
            for (int64_t kg = 0; kg < kg_count; ++kg) {
                const int8_t *w = packed + g * s.packed_bytes() + (p * kg_count + kg) * P * G;
                if (G == 4) // a constant group: the compiler's vector loop
                    for (int64_t l = 0; l < P; ++l) c[l] += w[4 * l] + w[4 * l + 1] + w[4 * l + 2] + w[4 * l + 3];
                else
                    for (int64_t l = 0; l < P; ++l)
                        for (int64_t i = 0; i < G; ++i) c[l] += w[l * G + i];
            }
            for (int64_t l = 0; l < P; ++l) c[l] *= -f;
            continue;
        }
        for (int64_t kg = 0; kg < kg_count; ++kg) {
            const int8_t *w = packed + g * s.packed_bytes() + (p * kg_count + kg) * P * G;
            for (int64_t i = 0; i < G; ++i) {
                const int32_t ch = km.channel[static_cast<size_t>(kg * G + i)];
                if (ch < 0) continue;
                if (km.depthwise) { // each lane's own channel's zero point
                    for (int64_t l = 0; l < P && p * P + l < s.oc; ++l)
                        c[l] -= (shift + (zp ? zp[per_channel ? p * P + l : 0] : 0)) * w[l * G + i];
                    continue;
                }
                const int32_t f = shift + (zp ? zp[per_channel ? g * km.channels + ch : 0] : 0);
                for (int64_t l = 0; l < P; ++l) c[l] -= f * w[l * G + i];
            }
        }
    }
}

} // namespace jit
} // namespace prim
