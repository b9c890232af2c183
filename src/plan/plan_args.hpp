// What execute derives from a fusion_args: the per-channel (or per-pixel) factors of the folded
// bias and batch-norm runs, the convolution's summed bias, and each chain entry's runtime
// parameters. Made again when the arguments' stamp changed (a setter ran) or when the bytes of
// a bias or statistics buffer differ from those it was made from (a port wrote new values into
// a buffer already set, as MIOpen allows): no code is generated, only these arrays are filled.
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
    std::vector<char> source_bytes; // every bias and statistics buffer read, as it was read
};

// Checks that every operator has its arguments, of its kind and in its descs (throws
// invalid_arguments naming the operator), then derives.
std::shared_ptr<const derived_args> derive_args(const std::vector<plan_op> &ops,
        const compiled_plan &cp, const memory::dims &out_dims, const fusion_args::values &args);

// Whether da was derived from args as they are now: the same setter calls and the same bytes
// in every bias and statistics buffer.
bool is_current(const derived_args &da, const std::vector<plan_op> &ops,
                const fusion_args::values &args);

// Only the checks (every argument, at every execute, before is_current reads the buffers).
void check_args(const std::vector<plan_op> &ops, const compiled_plan &cp,
                const fusion_args::values &args);

} // namespace impl
} // namespace prim
