// The operands of a chain's binary and prelu entries: the check of their dims against the
// destination, their descs (given, or following the destination), and their execute arguments.
#pragma once
#include <string>
#include <vector>

#include "prim/attr.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

inline bool has_operand(const post_ops::entry &e) {
    return e.kind == post_ops::kind::binary || e.kind == post_ops::kind::prelu;
}

// The data type of entry e's operand: a binary operand has the type it was appended with (undef,
// append_binary's default, is f32); a prelu's slopes are f32.
inline memory::data_type operand_type(const post_ops::entry &e) {
    return e.kind == post_ops::kind::binary && e.dt != memory::data_type::undef ? e.dt
                                                                                 : memory::data_type::f32;
}

// "" when every given src1 of entries [first, end) broadcasts against a destination of these
// dims (same rank, each dim equal or 1), else a message naming the entry and the dim.
std::string check_operand_dims(const post_ops &chain, const memory::dims &dst_dims, int first = 0);

// Entry e's operand dims against a destination of dst_dims: src1's when given, else dst_dims with
// the broadcast dims set to 1. Empty for an entry without an operand.
memory::dims operand_dims(const post_ops::entry &e, const memory::dims &dst_dims);

// Entry e's operand desc against the destination's layout: src1 when given, else the
// destination's layout with e's broadcast dims set to 1 (a broadcast dim loses its block). A zero
// desc for an entry without an operand.
memory::desc operand_desc(const post_ops::entry &e, const memory::desc &dst);
// One per entry, zero descs for entries without an operand. The entries before a dw post-op
// follow before_dw instead (the 1x1's output, common/dw_post_op.hpp) when it is not zero.
std::vector<memory::desc> operand_descs(const post_ops &chain, const memory::desc &dst,
                                        const memory::desc &before_dw = memory::desc());

// Appends a copy of e to po (a binary entry with its src1 desc when it has one).
void append_entry(post_ops &po, const post_ops::entry &e);

// The binary primitive's and the normalizations' own entries put before the user's chain: the
// combined chain, whose operand i + front.len() is the user's operand i.
post_ops chain_after(const post_ops &front, const post_ops &user);

// Entry index's execute argument: PRIM_ARG_ATTR_MULTIPLE_POST_OP(index) | PRIM_ARG_SRC_1 (binary)
// or | PRIM_ARG_WEIGHTS (prelu); 0 for an entry without an operand.
int operand_arg(const post_ops::entry &e, int index);
// "post-op 2 (add) src1", "post-op 0 (prelu) weights", for messages.
std::string operand_name(const post_ops::entry &e, int index);

} // namespace impl
} // namespace prim
