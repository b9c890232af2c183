// prim: forward inner product (fully connected), with optional bias and post-ops.
#pragma once
#include "prim/primitive.hpp"

namespace prim {

struct PRIM_API inner_product_forward : public primitive {
    // src (mb, ic) or (mb, ic, spatial...); weights (oc, ic) or (oc, ic, spatial...) with the same
    // spatial dims; bias (oc); dst (mb, oc).
    struct PRIM_API desc {
        desc(prop_kind pk, const memory::desc &src, const memory::desc &weights,
             const memory::desc &bias, const memory::desc &dst);
        desc(prop_kind pk, const memory::desc &src, const memory::desc &weights,
             const memory::desc &dst);

        prop_kind prop;
        memory::desc src, weights, bias, dst;
    };

    struct PRIM_API primitive_desc : public primitive_desc_base {
        primitive_desc(const desc &d, const primitive_attr &attr = primitive_attr());
    };

    explicit inner_product_forward(const primitive_desc &pd) : primitive(pd) {}
};

} // namespace prim
