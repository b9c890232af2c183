// A plan's operators as one primitive: its head (a convolution, or an identity eltwise pass when
// the plan has none) and the post-ops chain that runs in the head's kernel. Consecutive bias and
// batch-norm operators fold into one per-channel affine x -> a * x + b (a binary mul and add;
// the add alone when the run has no batch norm); a run of biases right after the convolution is
// the convolution's own bias. Every value a chain entry needs comes from the arguments at
// execute (operands, or PRIM_RUNTIME_F32_VAL fields), so the chain depends on the operators only.
#pragma once
#include <vector>

#include "plan/fusion_args_values.hpp"
#include "plan/plan_ops.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace impl {

// Where execute takes chain entry i's operand or parameters from.
struct entry_source {
    enum class kind { affine_scale, affine_shift, activation, sum, binary };
    kind what = kind::activation;
    std::vector<int> run; // affine: the run's bias and batch-norm operators, in order
    bool per_activation = false; // affine: the run has a per-activation batch norm
    int op = -1;          // activation, sum, binary: the operator
    int step = 0;         // activation: which of the mode's entries
};

struct lowered_plan {
    bool has_conv = false;
    std::vector<int> conv_bias_ops; // summed into the convolution's bias; empty: no bias
    post_ops chain;
    std::vector<entry_source> sources; // one per chain entry
};

lowered_plan lower_plan(const std::vector<plan_op> &ops);

} // namespace impl
} // namespace prim
