// The src in the int8 kernel's form (int8_src_form.hpp).
#include <algorithm>
#include <cstring>
#include <vector>

#include <immintrin.h>

#include "jit/int8/int8_src_form.hpp"

namespace prim {
namespace jit {
namespace {

// n values of one pixel's group from src into the kernel's form.
void put(const uint8_t *src, int64_t n, bool shift, uint8_t *out) { // bytes; s8 + 128 when shifted
    if (!shift) {
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

// 3-byte pixels (an RGB first layer's) at in, one after the other, into 4-byte words at out, the
// fourth byte 0 and the others XOR flip: 4 pixels a shuffle, while 16 bytes can be read within
// the n pixels; returns how many it converted (the caller does the rest). Every CPU the int8
// kernels run on has SSSE3. (Word by word, ResNet-50's first layer spent about a tenth of its
// time here.)
__attribute__((target("ssse3"))) int64_t rgb_to_words(const uint8_t *in, int64_t n, uint32_t flip, uint8_t *out) {
    const __m128i spread = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i x = _mm_set1_epi32(static_cast<int>(flip));
    int64_t done = 0;
    for (; done + 6 <= n; done += 4) { // the load reads 16 bytes: pixels done .. done + 5
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 3 * done));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 4 * done), _mm_xor_si128(_mm_shuffle_epi8(v, spread), x));
    }
    return done;
}

// Row `line` of the form ([mb][e0][e1]): its image, the input depth and row it holds, whether
// they are inside the input, and the element offset of the input pixel at its column iw.
struct form_row {
    int64_t n = 0, id = 0, ih = 0;
    bool inside = false;
    form_row(const int8_conv_geometry &g, const int8_src_form &f, int64_t line)
        : n(line / f.e[1] / f.e[0]), id(line / f.e[1] % f.e[0] * f.stride[0] + f.org[0]),
          ih(line % f.e[1] * f.stride[1] + f.org[1]),
          inside(id >= 0 && id < g.i[0] && ih >= 0 && ih < g.i[1]) {}
    int64_t src_offset(const int8_conv_geometry &g, int64_t iw) const {
        return (((n * g.i[0] + id) * g.i[1] + ih) * g.i[2] + iw) * g.c_total;
    }
};

// a / b rounded up, b > 0.
int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }

// The form's columns [first, last) that hold the input's pixels; the others are padding.
struct inside_columns {
    int64_t first, last;
    inside_columns(const int8_conv_geometry &g, const int8_src_form &f)
        : first(std::min(f.e[2], std::max<int64_t>(0, ceil_div(-f.org[2], f.stride[2])))),
          last(std::max(first, std::min(f.e[2], ceil_div(g.i[2] - f.org[2], f.stride[2])))) {}
};

// The buffer's rows [row0, row1) into out (row row0's place), on the OpenMP team when parallel.
template <typename T>
void convert(const int8_conv_geometry &g, const int8_src_form &f, const uint8_t *src,
             const int16_t *pad, T *out, int64_t row0, int64_t row1, bool parallel) {
    const int64_t px = g.groups * f.cp;
    // A padding pixel: each group's channels' zero points (and the shift), its padding 0.
    std::vector<T> pad_pixel(static_cast<size_t>(px));
    for (int64_t c = 0; c < px; ++c)
        pad_pixel[static_cast<size_t>(c)] = static_cast<T>(c % f.cp < g.cg ? pad[c / f.cp * g.cg + c % f.cp] : 0);
    // Bytes as they are, channels unpadded: a row's inside run is one copy. A first layer's 1
    // to 3 channels in a K group of 4: a pixel is one 4-byte word, read whole where the next
    // pixel follows in the row (its bytes masked off), the s8 shift one XOR (ResNet-50's and
    // MobileNet v2's first layers: the value by value loop below took most of their time).
    const bool as_they_are = sizeof(T) == 1 && !f.shift && g.cg == f.cp;
    const bool as_words = sizeof(T) == 1 && g.groups == 1 && f.cp == 4;
#pragma omp parallel for schedule(static) if (parallel && (row1 - row0) * f.e[2] * px > (1 << 16))
    for (int64_t line = row0; line < row1; ++line) {
        // Per row, not shared with the team: stores through T* (bytes) could alias shared
        // values, which the compiler would then reload at every pixel (10% slower).
        const inside_columns cols(g, f);
        const int64_t first = cols.first, last = cols.last;
        const uint32_t keep = g.cg >= 4 ? ~0u : (1u << (8 * g.cg)) - 1;
        const uint32_t flip = f.shift ? 0x80808080u & keep : 0u;
        const form_row r(g, f, line);
        T *o = out + (line - row0) * f.e[2] * px;
        const auto pad_pixels = [&](int64_t from, int64_t to) {
            for (int64_t b2 = from; b2 < to; ++b2)
                std::memcpy(o + b2 * px, pad_pixel.data(), static_cast<size_t>(px) * sizeof(T));
        };
        if (!r.inside) { // a padding row
            pad_pixels(0, f.e[2]);
            continue;
        }
        if (as_they_are || as_words) {
            pad_pixels(0, first);
            const uint8_t *in = src + r.src_offset(g, first * f.stride[2] + f.org[2]);
            const int64_t in_step = g.c_total * f.stride[2]; // from a column's pixel to the next's
            if (as_they_are && f.stride[2] == 1 && last > first) {
                std::memcpy(o + first * px, in, static_cast<size_t>((last - first) * px));
            } else if (as_they_are) {
                for (int64_t b2 = first; b2 < last; ++b2, in += in_step)
                    std::memcpy(o + b2 * px, in, static_cast<size_t>(px));
            } else if (as_words) {
                int64_t b2 = first;
                if (g.cg == 3 && in_step == 3) { // RGB pixels one after the other
                    const int64_t done = rgb_to_words(in, last - first, flip, reinterpret_cast<uint8_t *>(o + b2 * 4));
                    b2 += done;
                    in += done * in_step;
                }
                for (; b2 < last; ++b2, in += in_step) {
                    uint32_t v = 0;
                    std::memcpy(&v, in, b2 + 1 < last ? 4 : static_cast<size_t>(g.cg));
                    v = (v & keep) ^ flip;
                    std::memcpy(o + b2 * 4, &v, 4);
                }
            }
            pad_pixels(last, f.e[2]);
            continue;
        }
        for (int64_t b2 = 0; b2 < f.e[2]; ++b2) {
            const int64_t iw = b2 * f.stride[2] + f.org[2];
            const bool inside = iw >= 0 && iw < g.i[2];
            for (int64_t grp = 0; grp < g.groups; ++grp, o += f.cp) {
                if (!inside) {
                    std::memcpy(o, pad_pixel.data() + grp * f.cp, static_cast<size_t>(f.cp) * sizeof(T));
                    continue;
                }
                const uint8_t *in = src + r.src_offset(g, iw) + grp * g.cg;
                if (sizeof(T) == 1 && g.cg < 16) {
                    // A few channels: value by value, cheaper than a call.
                    for (int64_t c = 0; c < g.cg; ++c) o[c] = static_cast<T>(in[c] ^ (flip & 0xffu));
                } else {
                    put(in, g.cg, f.elem == 1 ? f.shift : g.src_s8, o);
                }
                std::fill(o + g.cg, o + f.cp, T(0));
            }
        }
    }
}

} // namespace

bool int8_conv_geometry::reads_padding() const {
    for (int sp = 0; sp < 3; ++sp)
        if (p[sp] > 0 || (o[sp] - 1) * s[sp] + extent(sp) - p[sp] > i[sp]) return true;
    return false;
}

bool int8_src_form::pixels_one_to_one(const int8_conv_geometry &g) const {
    if (g.taps() != 1) return false;
    for (int sp = 0; sp < 3; ++sp)
        if (e[sp] != g.o[sp] || stride[sp] != g.s[sp] || org[sp] != -g.p[sp]) return false;
    return true;
}

size_t int8_src_form::bytes(const int8_conv_geometry &g) const {
    return static_cast<size_t>(g.mb * e[0] * e[1] * e[2] * pixel_bytes(g));
}

void int8_conv_geometry::taps_inside(int sp, int64_t out, int64_t &first, int64_t &last) const {
    // Tap t reads input coordinate out·s - p + t·step, inside when in [0, i).
    const int64_t at0 = out * s[sp] - p[sp];
    first = std::min(k[sp], std::max<int64_t>(0, ceil_div(-at0, step[sp])));
    last = std::max(first, std::min(k[sp], ceil_div(i[sp] - at0, step[sp])));
}

std::vector<int8_tap_row> int8_src_form::tap_rows(const int8_conv_geometry &g, int64_t kw_unroll) const {
    std::vector<int8_tap_row> rows;
    for (int64_t kd = 0; kd < g.k[0]; ++kd)
        for (int64_t kh = 0; kh < g.k[1]; ++kh)
            for (int64_t kw = 0; kw < g.k[2]; kw += kw_unroll)
                rows.push_back({((kd * g.step[0] * e[1] + kh * g.step[1]) * e[2] + kw * g.step[2]) * pixel_bytes(g),
                                (kd * g.k[1] + kh) * g.k[2] + kw});
    return rows;
}

int64_t int8_src_form::last_tap_offset(const int8_conv_geometry &g) const {
    return (((g.k[0] - 1) * g.step[0] * e[1] + (g.k[1] - 1) * g.step[1]) * e[2] + (g.k[2] - 1) * g.step[2])
           * pixel_bytes(g);
}

int64_t int8_src_form::pixel_offset(const int8_conv_geometry &g, int64_t m, int64_t grp) const {
    const int64_t ow = m % g.o[2], oh = m / g.o[2] % g.o[1];
    const int64_t od = m / g.o[2] / g.o[1] % g.o[0], n = m / g.o[2] / g.o[1] / g.o[0];
    const int64_t b0 = (od * g.s[0] - g.p[0] - org[0]) / stride[0];
    const int64_t b1 = (oh * g.s[1] - g.p[1] - org[1]) / stride[1];
    const int64_t b2 = (ow * g.s[2] - g.p[2] - org[2]) / stride[2];
    return (((n * e[0] + b0) * e[1] + b1) * e[2] + b2) * pixel_bytes(g) + grp * cp * elem;
}

int8_src_form make_int8_src_form(const int8_conv_geometry &g, int64_t k_group, bool depthwise,
                                 bool skips_padding) {
    int8_src_form f;
    f.cp = (g.cg + k_group - 1) / k_group * k_group;
    f.elem = depthwise || k_group == 4 ? 1 : 2;
    f.shift = !depthwise && k_group == 4 && g.src_s8;
    f.copy = !(f.elem == 1 && !f.shift && g.cg == f.cp && (skips_padding || !g.reads_padding()));
    const bool strided_1x1 = f.copy && !depthwise && g.taps() == 1 && (g.s[0] > 1 || g.s[1] > 1 || g.s[2] > 1);
    for (int sp = 0; sp < 3; ++sp) {
        f.e[sp] = !f.copy ? g.i[sp] : strided_1x1 ? g.o[sp] : (g.o[sp] - 1) * g.s[sp] + g.extent(sp);
        f.org[sp] = f.copy ? -g.p[sp] : 0;
        f.stride[sp] = strided_1x1 ? g.s[sp] : 1;
    }
    return f;
}

int64_t int8_src_form::rows(const int8_conv_geometry &g) const { return g.mb * e[0] * e[1]; }

void to_int8_src_form(const int8_conv_geometry &g, const int8_src_form &f, const uint8_t *src,
                      const int16_t *pad, void *out) {
    if (f.elem == 1) return convert(g, f, src, pad, static_cast<uint8_t *>(out), 0, f.rows(g), true);
    convert(g, f, src, pad, static_cast<int16_t *>(out), 0, f.rows(g), true);
}

void to_int8_src_form_rows(const int8_conv_geometry &g, const int8_src_form &f, const uint8_t *src,
                           const int16_t *pad, int64_t row0, int64_t row1, void *out) {
    if (f.elem == 1) return convert(g, f, src, pad, static_cast<uint8_t *>(out), row0, row1, false);
    convert(g, f, src, pad, static_cast<int16_t *>(out), row0, row1, false);
}

void to_int8_src_form_slice(const int8_conv_geometry &g, const int8_src_form &f, const uint8_t *src,
                            const int16_t *pad, int64_t row0, int64_t row1, int64_t c0, int64_t c1,
                            uint8_t *out) {
    const int64_t px = f.cp, inside_end = std::min(c1, g.cg); // channels past cg are 0
    const int64_t n = std::max<int64_t>(0, inside_end - c0);   // bytes a pixel copies
    const inside_columns cols(g, f);
    const int64_t in0 = cols.first, in1 = cols.last;
    // Whole pixels, laid out alike in src and form: a row's pixels are one copy (MobileNet v2's
    // 32-channel depthwise layer, one panel: 1.43x on one thread against a copy a pixel).
    const bool whole = c0 == 0 && n == px && g.c_total == px;
    for (int64_t line = row0; line < row1; ++line) {
        const form_row r(g, f, line);
        uint8_t *row = out + (line - row0) * f.e[2] * px;
        for (int64_t b2 = 0; b2 < f.e[2]; ++b2) {
            uint8_t *o = row + b2 * px;
            if (r.inside && b2 >= in0 && b2 < in1) {
                if (whole) { // the run, once, at its first column
                    if (b2 == in0) std::memcpy(o, src + r.src_offset(g, b2 + f.org[2]), static_cast<size_t>((in1 - in0) * px));
                    b2 = in1 - 1;
                    continue;
                }
                // A panel's channels (16-byte pieces inlined instead measured 2% slower).
                if (n > 0) std::memcpy(o + c0, src + r.src_offset(g, b2 + f.org[2]) + c0, static_cast<size_t>(n));
            } else {
                for (int64_t c = c0; c < inside_end; ++c) o[c] = static_cast<uint8_t>(pad[c]);
            }
            for (int64_t c = std::max(c0, inside_end); c < c1; ++c) o[c] = 0;
        }
    }
}

} // namespace jit
} // namespace prim
