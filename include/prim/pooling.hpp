// prim: max and average pooling, forward inference, with post-ops (oneDNN 2.6's pooling_v2).
#pragma once
#include "prim/primitive.hpp"

namespace prim {

// dst[n][c][o] = reduce over the window's taps, then the attribute's post-ops. For each spatial
// dim the window of output o covers the input positions o * stride - padding_l + k * (dilation
// + 1), k = 0 .. kernel - 1 (dilation 0 means dense, as oneDNN); positions outside the input are
// padding:
//   pooling_max                  the largest real tap (padding never wins); a NaN tap gives NaN
//   pooling_avg_include_padding  the sum of the real taps / (KD * KH * KW), padding counted as 0
//   pooling_avg_exclude_padding  the sum of the real taps / their count
// src N x C x [D x] [H x] W (3 to 5 dims); dst has its N and C and the output sizes
// (i + padding_l + padding_r - extent) / stride + 1, extent = (kernel - 1) * (dilation + 1) + 1.
// padding_r may exceed padding_l (ONNX's ceil_mode). Every window must hold a real tap.
// Inference only: prop_kind::forward_training is taken for the average algorithms (they have no
// workspace) and refused for max (oneDNN's training max pooling outputs a workspace).
// 'any': dst takes src's layout; both 'any' let the implementation choose (query them).
// Execute args: PRIM_ARG_SRC, PRIM_ARG_DST and the post-ops' operands.
struct PRIM_API pooling_forward : public primitive {
    struct PRIM_API desc {
        desc(prop_kind pk, algorithm alg, const memory::desc &src, const memory::desc &dst,
             const memory::dims &strides, const memory::dims &kernel,
             const memory::dims &dilation, const memory::dims &padding_l,
             const memory::dims &padding_r);

        prop_kind prop;
        algorithm alg;
        memory::desc src, dst;
        memory::dims strides, kernel, dilation, padding_l, padding_r;
    };

    struct PRIM_API primitive_desc : public primitive_desc_base {
        primitive_desc(const desc &d, const primitive_attr &attr = primitive_attr());
    };

    explicit pooling_forward(const primitive_desc &pd) : primitive(pd) {}
};

} // namespace prim
