// fusion_args: the setters record each operator's arguments and move the stamp.
#include <atomic>
#include <cmath>

#include "plan/fusion_args_values.hpp"
#include "prim/error.hpp"

namespace prim {

namespace {

uint64_t next_stamp() {
    static std::atomic<uint64_t> counter {0};
    return ++counter;
}

[[noreturn]] void invalid(const std::string &msg) {
    throw error(status::invalid_arguments, "fusion_args: " + msg);
}

// The slot of op after checking the handle; marks it set with kind k.
fusion_args::values::op_args &slot(fusion_args::values &v, const fusion_op &op, fusion_op::kind k,
                                   const char *setter) {
    if (op.index < 0 || op.op_kind != k)
        invalid(std::string(setter) + ": the operator handle was not returned by fusion_plan's add_"
                + fusion_op_kind_name(k));
    if (op.index >= static_cast<int>(v.ops.size())) v.ops.resize(static_cast<size_t>(op.index) + 1);
    fusion_args::values::op_args &a = v.ops[op.index];
    a = fusion_args::values::op_args();
    a.set = true;
    a.kind = k;
    v.stamp = next_stamp();
    return a;
}

void require(const memory &m, const char *setter, const char *name) {
    if (m.is_empty()) invalid(std::string(setter) + ": " + name + " is an empty memory");
}

} // namespace

fusion_args::fusion_args() : values_(new values) { values_->stamp = next_stamp(); }
fusion_args::fusion_args(const fusion_args &other) : values_(new values(*other.values_)) {}
fusion_args &fusion_args::operator=(const fusion_args &other) {
    *values_ = *other.values_;
    return *this;
}
fusion_args::~fusion_args() = default;

void fusion_args::set_convolution(const convolution_op &op, const memory &weights) {
    require(weights, "set_convolution", "weights");
    slot(*values_, op, fusion_op::kind::convolution, "set_convolution").mems = {weights};
}

void fusion_args::set_bias(const bias_op &op, const memory &bias) {
    require(bias, "set_bias", "bias");
    slot(*values_, op, fusion_op::kind::bias, "set_bias").mems = {bias};
}

void fusion_args::set_batch_norm_inference(const batch_norm_op &op, const memory &scale,
        const memory &shift, const memory &mean, const memory &variance, double epsilon) {
    const char *who = "set_batch_norm_inference";
    require(scale, who, "scale");
    require(shift, who, "shift");
    require(mean, who, "mean");
    require(variance, who, "variance");
    if (!(epsilon > 0) || std::isinf(epsilon))
        invalid(std::string(who) + ": epsilon=" + std::to_string(epsilon)
                + " must be positive and finite");
    values::op_args &a = slot(*values_, op, fusion_op::kind::batch_norm, who);
    a.mems = {scale, shift, mean, variance};
    a.epsilon = epsilon;
}

void fusion_args::set_activation(const activation_op &op, double alpha, double beta, double gamma) {
    if (std::isnan(alpha) || std::isnan(beta) || std::isnan(gamma))
        invalid("set_activation: alpha, beta and gamma must not be NaN");
    values::op_args &a = slot(*values_, op, fusion_op::kind::activation, "set_activation");
    a.alpha = alpha;
    a.beta = beta;
    a.gamma = gamma;
}

void fusion_args::set_sum(const sum_op &op, float scale) {
    if (std::isnan(scale)) invalid("set_sum: scale must not be NaN");
    slot(*values_, op, fusion_op::kind::sum, "set_sum").sum_scale = scale;
}

void fusion_args::set_binary(const binary_op &op, const memory &src1) {
    require(src1, "set_binary", "src1");
    slot(*values_, op, fusion_op::kind::binary, "set_binary").mems = {src1};
}

} // namespace prim
