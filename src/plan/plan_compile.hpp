// compile(): the plan's primitive, created once per distinct plan in the process. A cache keyed
// by the input desc, the operators and the options hands an equal plan the primitive created
// before, so compiling it again generates no code and creates nothing.
#pragma once
#include <memory>
#include <vector>

#include "plan/plan_lowering.hpp"
#include "plan/plan_ops.hpp"
#include "prim/primitive.hpp"

namespace prim {
namespace impl {

struct plan_key {
    memory::desc input, output;
    std::vector<plan_op> ops;
    cpu_isa isa = cpu_isa::all;
    bool strict = false;
    bool operator==(const plan_key &o) const {
        return input == o.input && output == o.output && ops == o.ops && isa == o.isa
                && strict == o.strict;
    }
};

// Immutable once made; shared by every plan equal to the one it was compiled for.
struct compiled_plan {
    lowered_plan lowered;
    primitive_desc_base pd;
    std::shared_ptr<const primitive> prim;
    std::vector<memory::desc> operand_mds; // per chain entry (zero where no operand)
    memory::desc conv_bias_md;             // zero without a bias
    memory::desc weights_md;               // zero without a convolution
    plan_key key;                          // what it was compiled for
};

// The compiled plan for key, from the cache or created (and cached). *hit says which. Throws
// what the primitive's creation throws, prefixed with the plan.
std::shared_ptr<const compiled_plan> compile_plan(const plan_key &key, bool *hit);

} // namespace impl
} // namespace prim
