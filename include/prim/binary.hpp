// prim: binary operation dst = src0 op src1 (src1 broadcast against src0), with optional post-ops.
#pragma once
#include "prim/primitive.hpp"

namespace prim {

struct PRIM_API binary : public primitive {
    // dst = src0 op src1 (algorithm::binary_add ... binary_ne), then the attribute's post-ops.
    // src1 has src0's rank, each dim equal to src0's or 1 (broadcast); dst has src0's dims. Any
    // of them may be format_tag::any: dst then takes src0's layout, src1 follows dst's (as a
    // post-op operand given by a policy does). In place: dst may be src0 itself (same memory,
    // same desc). Execute args: PRIM_ARG_SRC_0, PRIM_ARG_SRC_1, PRIM_ARG_DST, and the post-ops'
    // operands.
    struct PRIM_API desc {
        desc(algorithm alg, const memory::desc &src0, const memory::desc &src1,
             const memory::desc &dst);
        algorithm alg;
        memory::desc src0, src1, dst;
    };

    struct PRIM_API primitive_desc : public primitive_desc_base {
        primitive_desc(const desc &d, const primitive_attr &attr = primitive_attr());
        memory::desc src0_desc() const { return src_desc(); }
        memory::desc src1_desc() const { return query_md(PRIM_ARG_SRC_1); }
    };

    explicit binary(const primitive_desc &pd) : primitive(pd) {}
};

} // namespace prim
