// The src as the int8 GEMM kernel reads it (int8_gemm.hpp, ip_int8_kernel.hpp): channels-last
// pixels, each group's channels padded with zeros to the K group (cp), values in the kernel's
// form: u8 for vpdpbusd (an s8 src shifted by +128), s16 for vpmaddwd. A convolution's spatial
// padding is part of the buffer, filled with the src zero point (the real 0, doc/int8.md), so
// every tap of every output pixel reads real memory: the kernel walks the taps by their
// constant offsets, with no border cases, and the compensation -(shift + zp)·Σw it adds makes
// a padded tap contribute exactly 0.
//
// The K order follows: per tap (kd, kh, kw, outermost first), the group's cp channels. An inner
// product is one pixel of c = ic·spatial values with one tap. The kernel's depthwise mode reads
// one group of all channels, padded to whole vectors, bytes as they are (no shift).
#pragma once
#include <cstdint>
#include <vector>

#include "prim/memory.hpp"

namespace prim {
namespace jit {

// The convolution's geometry, as the src form needs it.
struct int8_conv_geometry {
    int64_t mb = 1, c_total = 0, groups = 1, cg = 0; // cg: channels per group
    int64_t i[3] = {1, 1, 1};    // input d, h, w
    int64_t o[3] = {1, 1, 1};    // output d, h, w
    int64_t k[3] = {1, 1, 1};    // kernel d, h, w
    int64_t s[3] = {1, 1, 1};    // stride
    int64_t step[3] = {1, 1, 1}; // distance between taps (dilation + 1)
    int64_t p[3] = {0, 0, 0};    // start padding
    bool src_s8 = false;

    int64_t taps() const { return k[0] * k[1] * k[2]; }
    int64_t out_pixels() const { return mb * o[0] * o[1] * o[2]; }
    int64_t extent(int sp) const { return (k[sp] - 1) * step[sp] + 1; }
    // Some tap of some output pixel reads outside the input.
    bool reads_padding() const;
    // The taps [first, last) of dimension sp that output coordinate `out` reads inside the input
    // (the others read padding).
    void taps_inside(int sp, int64_t out, int64_t &first, int64_t &last) const;
};

// The buffer the kernel reads: [mb][e0][e1][e2][groups][cp] values of elem bytes.
// The kernel walks the taps by rows of kw_unroll taps along w (a tap row: kd, kh and a run of
// kw), each row at its byte offset from the tile's tap (0, 0, 0), the taps of a row kw_bytes
// apart.
struct int8_tap_row {
    int64_t src = 0; // byte offset of the row's first tap
    int64_t tap = 0; // the index of its first tap (kd, kh, kw in order)
};

struct int8_src_form {
    int64_t cp = 0, elem = 1;
    bool shift = false;        // s8 values stored + 128 (as u8), for vpdpbusd
    int64_t e[3] = {1, 1, 1};  // its spatial dims: the input's when it is the user's src, else
                               // those the convolution reads, -p to (o-1)·s + extent - p
    int64_t org[3] = {0, 0, 0}; // the input coordinate of its index 0 (-p when a copy)
    // Input pixels from one of its pixels to the next: 1, or a strided 1x1 convolution's stride
    // when it keeps the pixels the convolution reads alone (e: the output's dims).
    int64_t stride[3] = {1, 1, 1};
    bool copy = true;          // false: the user's channels-last src is this buffer already

    // Output pixel m reads its pixel m alone (one tap): the GEMM's rows are its pixels.
    bool pixels_one_to_one(const int8_conv_geometry &g) const;
    // Bytes from an output pixel's tap 0 to the next pixel's along w.
    int64_t lda(const int8_conv_geometry &g) const { return g.s[2] / stride[2] * pixel_bytes(g); }

    int64_t pixel_bytes(const int8_conv_geometry &g) const { return g.groups * cp * elem; }
    // Its rows ([mb][e0][e1]: e2 pixels each) and their bytes.
    int64_t rows(const int8_conv_geometry &g) const;
    int64_t row_bytes(const int8_conv_geometry &g) const { return e[2] * pixel_bytes(g); }
    size_t bytes(const int8_conv_geometry &g) const;
    // The tap rows of kw_unroll taps (a divisor of kw), kd, kh, kw outermost first, and the
    // bytes between two taps of a row.
    std::vector<int8_tap_row> tap_rows(const int8_conv_geometry &g, int64_t kw_unroll) const;
    int64_t kw_bytes(const int8_conv_geometry &g) const { return g.step[2] * pixel_bytes(g); }
    // The byte offset of the last tap from the first: how far past a pixel's tap 0 it reads.
    int64_t last_tap_offset(const int8_conv_geometry &g) const;
    // Byte offset of tap (0, 0, 0) of output pixel m = ((n·od + d)·oh + h)·ow + w in group grp.
    int64_t pixel_offset(const int8_conv_geometry &g, int64_t m, int64_t grp) const;
};

// The form for the kernel's K group (4: vpdpbusd, else 2), or for its depthwise mode (one
// group of all channels, padded to whole vectors of `k_group` lanes, bytes as they are).
// skips_padding: the kernel never reads a tap in the padding (int8_gemm.cpp), so the user's
// src serves as it is when its bytes are the form's. A strided 1x1 convolution's copy holds the
// pixels it reads alone, whose rows are then its GEMM's (tiles across output rows; a 16-bit form
// copied 4 times the pixels it used). Not where the user's src serves: each thread copying its
// rows for each run of items cost ResNet-50's strided 1x1 layers with VNNI 5-15%.
int8_src_form make_int8_src_form(const int8_conv_geometry &g, int64_t k_group, bool depthwise,
                                 bool skips_padding);

// out = src (channels-last, the user's type) in form f. pad: each channel's (all groups')
// padding value in the kernel's form, shift included.
void to_int8_src_form(const int8_conv_geometry &g, const int8_src_form &f, const uint8_t *src,
                      const int16_t *pad, void *out);
// Rows [row0, row1) of it into out (the place of row row0), by the calling thread alone: a
// thread's part of the src, in its own cache, just before its kernel calls read it.
void to_int8_src_form_rows(const int8_conv_geometry &g, const int8_src_form &f, const uint8_t *src,
                           const int16_t *pad, int64_t row0, int64_t row1, void *out);
// The same for channels [c0, c1) alone (the depthwise form: bytes as they are, one group), the
// other channels of out left as they are: a depthwise panel's part of the rows.
void to_int8_src_form_slice(const int8_conv_geometry &g, const int8_src_form &f, const uint8_t *src,
                            const int16_t *pad, int64_t row0, int64_t row1, int64_t c0, int64_t c1,
                            uint8_t *out);

} // namespace jit
} // namespace prim
