// What execute derives from a fusion_args: the per-channel (or per-pixel) factors of the folded
// bias and batch-norm runs, the convolution's summed bias, and each chain entry's runtime
// parameters. Made again only when the arguments' stamp changed: no code is generated, only
// these small arrays are filled.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "plan/fusion_args_values.hpp"
#include "plan/plan_compile.hpp"

namespace prim {
namespace impl {

struct derived_args {
    uint64_t stamp = 0;
    memory conv_bias;
    std::vector<memory> entry_args; // per chain entry: its operand, or its params; empty if none
};

// Checks that every operator has its arguments, of its kind and in its descs (throws
// invalid_arguments naming the operator), then derives.
std::shared_ptr<const derived_args> derive_args(const std::vector<plan_op> &ops,
        const compiled_plan &cp, const memory::dims &out_dims, const fusion_args::values &args);

// Only the checks, for the arguments execute passes through as they are (weights, src1):
// they are read at every execute, so a cached derivation does not vouch for them.
void check_args(const std::vector<plan_op> &ops, const compiled_plan &cp,
                const fusion_args::values &args);

} // namespace impl
} // namespace prim
