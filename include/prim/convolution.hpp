// prim: forward convolution, 1D/2D/3D, with groups, strides, dilations, padding and post-ops.
#pragma once
#include "prim/primitive.hpp"

namespace prim {

struct PRIM_API convolution_forward : public primitive {
    // As oneDNN: src is (mb, ic, [d,] [h,] w); weights (oc, ic/g, k...) or, grouped,
    // (g, oc/g, ic/g, k...); bias (oc); dst (mb, oc, o...). Dilations count the gaps between
    // taps (0 = dense). padding_r may be negative when the last input rows are unused.
    struct PRIM_API desc {
        desc(prop_kind pk, algorithm alg, const memory::desc &src, const memory::desc &weights,
             const memory::desc &bias, const memory::desc &dst, const memory::dims &strides,
             const memory::dims &dilates, const memory::dims &padding_l,
             const memory::dims &padding_r);
        // Without bias.
        desc(prop_kind pk, algorithm alg, const memory::desc &src, const memory::desc &weights,
             const memory::desc &dst, const memory::dims &strides, const memory::dims &dilates,
             const memory::dims &padding_l, const memory::dims &padding_r);

        prop_kind prop;
        algorithm alg;
        memory::desc src, weights, bias, dst;
        memory::dims strides, dilates, padding_l, padding_r;
    };

    struct PRIM_API primitive_desc : public primitive_desc_base {
        // Validates the descriptor (throws invalid_arguments naming the problem) and picks the
        // fastest implementation that takes it (throws unimplemented if none does).
        primitive_desc(const desc &d, const primitive_attr &attr = primitive_attr());
    };

    explicit convolution_forward(const primitive_desc &pd) : primitive(pd) {}
};

} // namespace prim
