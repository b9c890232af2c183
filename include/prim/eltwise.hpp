// prim: element-wise operation, in place or out of place, any layout, with optional post-ops.
#pragma once
#include "prim/primitive.hpp"

namespace prim {

struct PRIM_API eltwise_forward : public primitive {
    // dst = f_alg(src; alpha, beta), then the attribute's post-ops (a sum reads dst's old value).
    // src and dst have the same dims; dst may be a zero desc (= same as src) or any layout.
    // In place: pass the same memory as PRIM_ARG_SRC and PRIM_ARG_DST.
    struct PRIM_API desc {
        desc(prop_kind pk, algorithm alg, const memory::desc &src, float alpha, float beta);
        desc(prop_kind pk, algorithm alg, const memory::desc &src, const memory::desc &dst,
             float alpha, float beta);

        prop_kind prop;
        algorithm alg;
        memory::desc src, dst;
        float alpha, beta;
    };

    struct PRIM_API primitive_desc : public primitive_desc_base {
        primitive_desc(const desc &d, const primitive_attr &attr = primitive_attr());
    };

    explicit eltwise_forward(const primitive_desc &pd) : primitive(pd) {}
};

} // namespace prim
