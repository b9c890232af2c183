// A plan's operators as added (their structure; values come from fusion_args at execute).
#pragma once
#include <string>
#include <vector>

#include "prim/fusion_plan.hpp"

namespace prim {
namespace impl {

struct plan_op {
    fusion_op::kind kind = fusion_op::kind::convolution;
    // convolution: weights; bias: bias; batch_norm: the statistics; binary: src1.
    memory::desc md;
    fusion_plan::convolution_params conv; // convolution, padding_r filled in
    activation_mode activation = activation_mode::passthru;
    batch_norm_mode bn_mode = batch_norm_mode::spatial;
    algorithm alg = algorithm::undef; // binary

    bool operator==(const plan_op &o) const;
    bool operator!=(const plan_op &o) const { return !(*this == o); }
};

// "activation:relu", "batch_norm:per_activation", "binary:add", "convolution".
std::string op_string(const plan_op &op);
// The operators joined by '+'.
std::string ops_string(const std::vector<plan_op> &ops);

} // namespace impl
} // namespace prim
