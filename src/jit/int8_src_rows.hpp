// Where the int8 GEMM's src rows come from (int8_gemm.hpp): one row per output pixel of a
// convolution (an inner product: one row per mb), its K values in the weights' K order, made in
// the kernel's form: u8 for vpdpbusd (an s8 src shifted by +128), s16 for vpmaddwd.
//
// K order: per tap (kd, kh, kw, outermost first), the group's channels, padded with zeros to
// the K group (cp values per tap). An inner product is one "pixel" of c = ic·spatial values
// with one tap: its rows are its src rows as they are.
//
// A tap that falls in the padding reads the src zero point (the real 0, doc/int8.md): the
// caller passes each channel's padding value already in the kernel's form, shift included, so
// the compensation -(shift + zp)·Σw the kernel adds makes the padding contribute exactly 0.
#pragma once
#include <cstdint>

#include "prim/memory.hpp"

namespace prim {
namespace jit {

struct int8_src_rows {
    // The src as channels-last [mb][id][ih][iw][c_total], one byte per value.
    int64_t mb = 1, c_total = 0;
    int64_t i[3] = {1, 1, 1};   // input d, h, w
    int64_t o[3] = {1, 1, 1};   // output d, h, w: a row per output pixel
    int64_t k[3] = {1, 1, 1};   // kernel d, h, w
    int64_t s[3] = {1, 1, 1};   // stride
    int64_t step[3] = {1, 1, 1}; // distance between taps (dilation + 1)
    int64_t p[3] = {0, 0, 0};   // start padding
    int64_t cg = 0;             // channels a group reads per tap
    int64_t cp = 0;             // cg rounded up to the K group
    bool src_s8 = false;

    int64_t taps() const { return k[0] * k[1] * k[2]; }
    int64_t rows() const { return mb * o[0] * o[1] * o[2]; }
    int64_t kp() const { return taps() * cp; }
    // Row m is pixel m of src, group g at column g·cg: one tap, unit stride, no padding.
    bool rows_are_pixels() const;
};

// out = rows [m0, m1) of group g, kp() values each (u8 when vnni, else s16), row after row.
// pad: the padding value of each of the group's channels in the kernel's form (cg values).
void make_int8_rows(const int8_src_rows &r, const uint8_t *src, int64_t g, int64_t m0, int64_t m1,
                    bool vnni, const int16_t *pad, void *out);

} // namespace jit
} // namespace prim
