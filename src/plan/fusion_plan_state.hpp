// fusion_plan's state: the input, the operators added so far, the output dims they give, the
// options, and once compiled, the shared compiled plan and what was last derived from arguments.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "plan/plan_args.hpp"
#include "plan/plan_compile.hpp"
#include "plan/plan_ops.hpp"

namespace prim {

struct fusion_plan::state {
    memory::desc input;
    std::vector<impl::plan_op> ops;
    memory::dims out_dims; // the input's dims, then each operator's output
    cpu_isa isa = cpu_isa::all;
    bool strict = false;
    std::shared_ptr<const impl::compiled_plan> compiled;
    bool changed_since_compile = false; // an operator or option came after compile()
    mutable std::mutex derived_mutex;
    mutable std::shared_ptr<const impl::derived_args> derived;
};

} // namespace prim
