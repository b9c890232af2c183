// Post-op chains entry by entry, through the public API: copying one entry into another chain
// (the unfused pipeline gives each pass its own; a chain is rebuilt with an operand given by
// its desc), and the text of a chain whose binary operands may have their own layout.
#pragma once
#include <string>

#include "attr/operand_policy.hpp"
#include "common/post_op_operands.hpp"
#include "prim/attr.hpp"

namespace bdl {

// The library's own copy (common/post_op_operands.hpp): every field kept, a sum's zero point and
// type and a binary operand's type included.
inline void append_entry(prim::post_ops &out, const prim::post_ops::entry &e) {
    prim::impl::append_entry(out, e);
}

// prim::to_string, except that a binary operand given by its desc is written
// ALG:f32:POLICY:LAYOUT (its layout as a letter pattern, "acdb"), as benchdnn's syntax writes an
// operand's TAG: the perf lines then name the case as REPRO does.
inline std::string chain_string(const prim::post_ops &po) {
    std::string s;
    for (const prim::post_ops::entry &e : po.entries()) {
        std::string one;
        if (e.kind == prim::post_ops::kind::binary && !e.src1.is_zero()) {
            one = std::string(prim::algorithm_name(e.alg)) + ":f32:"
                  + prim::impl::policy_name(e.mask) + ":" + e.src1.layout();
        } else {
            prim::post_ops single;
            append_entry(single, e);
            one = prim::to_string(single);
        }
        s += (s.empty() ? "" : "+") + one;
    }
    return s;
}

} // namespace bdl
