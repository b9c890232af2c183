// Policies of binary and prelu operands (post_ops::policy): the benchdnn names fusion strings use
// for them, and the policy of an operand given by its desc.
#pragma once
#include <string>

#include "prim/memory.hpp"

namespace prim {
namespace impl {

// "common", "per_oc", "per_dim_0", "per_dim_01", "per_mb_spatial", "per_tensor"; other masks are
// printed "maskN" (N the mask in decimal, negative for a rank-free mask such as ~4), which the
// parser also reads.
std::string policy_name(int mask);
// false when name is none of those.
bool parse_policy(const std::string &name, int &mask);

// The policy of an operand of these dims: bit d set where dims[d] != 1, written as per_tensor or
// per_mb_spatial when it covers every dim (but 1), so that equal policies compare equal.
int policy_of(const memory::dims &dims);

// The mask's bits within a rank: the dims an operand of that policy keeps.
inline int mask_within(int mask, int rank) { return mask & ((1 << rank) - 1); }

} // namespace impl
} // namespace prim
