// What fusion_args holds: per operator index, the arguments its setter gave, and a stamp that
// changes with every setter call (unique in the process), so a plan knows when what it derived
// from the arguments is stale.
#pragma once
#include <cstdint>
#include <vector>

#include "prim/fusion_plan.hpp"

namespace prim {

struct fusion_args::values {
    struct op_args {
        bool set = false;
        fusion_op::kind kind = fusion_op::kind::convolution;
        // convolution: {weights}; bias: {bias}; batch_norm: {scale, shift, mean, variance};
        // binary: {src1}.
        std::vector<memory> mems;
        double epsilon = 0, alpha = 0, beta = 0, gamma = 0; // batch_norm, activation
        float sum_scale = 1.f;
    };
    std::vector<op_args> ops; // by operator index
    uint64_t stamp = 0;

    // The arguments of op, or null when never set.
    const op_args *find(int index) const {
        return index >= 0 && index < static_cast<int>(ops.size()) && ops[index].set
                ? &ops[index] : nullptr;
    }
};

} // namespace prim
