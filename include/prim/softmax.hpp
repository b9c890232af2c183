// prim: softmax and log-softmax along one axis, forward inference, with post-ops (oneDNN 2.6's
// softmax_v2_forward).
#pragma once
#include "prim/primitive.hpp"

namespace prim {

// Along the axis, for each position of the other dims (a "row" of dims[axis] values):
//   softmax_accurate: dst = exp(x - max) / sum(exp(x - max))
//   softmax_log:      dst = x - max - log(sum(exp(x - max)))
// then the attribute's post-ops (eltwise, binary, prelu, sum). src: 1 to 5 dims, any layout
// (plain, channels last, blocked, strided), axis in [0, rank). dst: a zero desc (src's) or
// 'any' (src's layout; plain when src is 'any' too) or any layout of src's dims.
// Special values: a NaN in a row makes that whole row NaN; -inf inputs give 0 (log: -inf); a row
// of only -inf gives NaN (max - max = -inf - -inf, as the exp arithmetic gives); a +inf makes the
// row NaN. In place: the same memory as PRIM_ARG_SRC and PRIM_ARG_DST (equal descs).
struct PRIM_API softmax_forward : public primitive {
    struct PRIM_API desc {
        desc(prop_kind pk, algorithm alg, const memory::desc &src, const memory::desc &dst,
             int axis);
        prop_kind prop;
        algorithm alg; // softmax_accurate or softmax_log
        memory::desc src, dst;
        int axis;
    };

    struct PRIM_API primitive_desc : public primitive_desc_base {
        primitive_desc(const desc &d, const primitive_attr &attr = primitive_attr());
    };

    explicit softmax_forward(const primitive_desc &pd) : primitive(pd) {}
};

} // namespace prim
