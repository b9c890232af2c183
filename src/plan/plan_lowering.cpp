#include "plan/plan_lowering.hpp"

#include "plan/activation_map.hpp"

namespace prim {
namespace impl {

namespace {

bool is_affine(const plan_op &op) {
    return op.kind == fusion_op::kind::bias || op.kind == fusion_op::kind::batch_norm;
}

// Operand masks: per channel, or per channel and pixel (every dim but the batch).
constexpr int per_channel_mask = post_ops::policy::per_oc;
constexpr int per_activation_mask = ~1;

void append(lowered_plan &lp, const entry_source &src) { lp.sources.push_back(src); }

} // namespace

lowered_plan lower_plan(const std::vector<plan_op> &ops) {
    lowered_plan lp;
    const float rt = PRIM_RUNTIME_F32_VAL;
    size_t i = 0;
    if (!ops.empty() && ops[0].kind == fusion_op::kind::convolution) {
        lp.has_conv = true;
        i = 1;
        // Biases right after the convolution, with no batch norm in their run: its own bias.
        size_t j = i;
        while (j < ops.size() && is_affine(ops[j])) ++j;
        bool only_bias = j > i;
        for (size_t k = i; k < j; ++k) only_bias &= ops[k].kind == fusion_op::kind::bias;
        if (only_bias) {
            for (size_t k = i; k < j; ++k) lp.conv_bias_ops.push_back(static_cast<int>(k));
            i = j;
        }
    }
    while (i < ops.size()) {
        const plan_op &op = ops[i];
        const int idx = static_cast<int>(i);
        if (is_affine(op)) {
            entry_source src;
            bool any_bn = false;
            for (; i < ops.size() && is_affine(ops[i]); ++i) {
                src.run.push_back(static_cast<int>(i));
                any_bn |= ops[i].kind == fusion_op::kind::batch_norm;
                src.per_activation |= ops[i].kind == fusion_op::kind::batch_norm
                        && ops[i].bn_mode == batch_norm_mode::per_activation;
            }
            const int mask = src.per_activation ? per_activation_mask : per_channel_mask;
            if (any_bn) {
                src.what = entry_source::kind::affine_scale;
                lp.chain.append_binary(algorithm::binary_mul, mask);
                append(lp, src);
            }
            src.what = entry_source::kind::affine_shift;
            lp.chain.append_binary(algorithm::binary_add, mask);
            append(lp, src);
            continue;
        }
        switch (op.kind) {
        case fusion_op::kind::activation: {
            const auto steps = activation_steps(op.activation, 0, 0, 0);
            for (size_t s = 0; s < steps.size(); ++s) {
                const activation_step &st = steps[s];
                lp.chain.append_eltwise(st.alg, st.alpha_at_run_time ? rt : st.alpha,
                                        st.beta_at_run_time ? rt : st.beta, 1.f);
                entry_source src;
                src.what = entry_source::kind::activation;
                src.op = idx;
                src.step = static_cast<int>(s);
                append(lp, src);
            }
            break;
        }
        case fusion_op::kind::sum: {
            lp.chain.append_sum(rt);
            entry_source src;
            src.what = entry_source::kind::sum;
            src.op = idx;
            append(lp, src);
            break;
        }
        case fusion_op::kind::binary: {
            lp.chain.append_binary(op.alg, op.md);
            entry_source src;
            src.what = entry_source::kind::binary;
            src.op = idx;
            append(lp, src);
            break;
        }
        default: break; // a convolution is only ever first (fusion_plan::add_convolution)
        }
        ++i;
    }
    return lp;
}

} // namespace impl
} // namespace prim
