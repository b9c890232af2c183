#include "plan/plan_ops.hpp"

namespace prim {
namespace impl {

bool plan_op::operator==(const plan_op &o) const {
    return kind == o.kind && md == o.md && conv.strides == o.conv.strides
            && conv.dilates == o.conv.dilates && conv.padding_l == o.conv.padding_l
            && conv.padding_r == o.conv.padding_r && activation == o.activation
            && bn_mode == o.bn_mode && alg == o.alg;
}

std::string op_string(const plan_op &op) {
    std::string s = fusion_op_kind_name(op.kind);
    switch (op.kind) {
    case fusion_op::kind::activation: return s + ":" + activation_mode_name(op.activation);
    case fusion_op::kind::batch_norm:
        return op.bn_mode == batch_norm_mode::spatial ? s : s + ":per_activation";
    case fusion_op::kind::binary: {
        const char *name = algorithm_name(op.alg);
        return s + ":" + (name ? name : "?");
    }
    default: return s;
    }
}

std::string ops_string(const std::vector<plan_op> &ops) {
    std::string s;
    for (const plan_op &op : ops) s += (s.empty() ? "" : "+") + op_string(op);
    return s.empty() ? "(no operators)" : s;
}

} // namespace impl

const char *fusion_op_kind_name(fusion_op::kind k) {
    switch (k) {
    case fusion_op::kind::convolution: return "convolution";
    case fusion_op::kind::bias: return "bias";
    case fusion_op::kind::batch_norm: return "batch_norm";
    case fusion_op::kind::activation: return "activation";
    case fusion_op::kind::sum: return "sum";
    case fusion_op::kind::binary: return "binary";
    }
    return "unknown";
}

} // namespace prim
