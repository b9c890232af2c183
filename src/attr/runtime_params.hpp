// Runtime post-op parameters inside the library (PRIM_RUNTIME_F32_VAL in prim/attr.hpp).
//
// Creation gives every runtime field of the user's chain a slot, 3 * entry + field, and writes
// it into the chain as a quiet NaN whose payload names the slot. From there on the value is an
// opaque constant: the kernel cache keys on it (so two chains that differ only in runtime values
// share one kernel), the JIT's constant table records where it lands (a negated one too, for
// emitters that read -beta), and each execute patches a copy of that table with the values.
// The reference substitutes the values into its chain. The slot travels with the value, so
// entries a primitive puts before the user's chain (binary, normalizations) change nothing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "prim/attr.hpp"

namespace prim {
namespace impl {

// The three fields of PRIM_ARG_ATTR_POST_OP_PARAMS' memory, in its order.
enum runtime_field : int { runtime_alpha = 0, runtime_beta = 1, runtime_scale = 2 };
constexpr int runtime_fields = 3;
constexpr int max_runtime_slots = 4096;

// The NaN that stands for slot k in a chain.
float runtime_slot_value(int slot);
// The slot a bit pattern stands for (its negation too: *negated says which), or -1.
int runtime_slot_of_bits(uint32_t bits, bool *negated = nullptr);
// PRIM_RUNTIME_F32_VAL or a slot: a value given at execute.
bool is_runtime_param(float v);
// True when one of the entry's alpha, beta, scale is PRIM_RUNTIME_F32_VAL (the user's chain): it
// takes a PRIM_ARG_ATTR_POST_OP_PARAMS argument.
bool has_runtime_fields(const post_ops::entry &e);

// The chain with each PRIM_RUNTIME_F32_VAL field replaced by its slot.
post_ops with_runtime_slots(const post_ops &user_chain);
// The chain with each slot replaced by values[slot] (values: runtime_fields per user entry).
// Throws invalid_arguments, naming the entry, for a value the entry's algorithm refuses.
post_ops with_runtime_values(const post_ops &chain, const std::vector<float> &values);
// "" when the chain's runtime fields can take these values, else the problem ("post-op 1
// (eltwise): soft_relu: alpha must be non-zero"). Cheap: runs on every execute.
std::string check_runtime_values(const post_ops &user_chain, const std::vector<float> &values);

} // namespace impl
} // namespace prim
