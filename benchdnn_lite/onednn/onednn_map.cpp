// prim's algorithms in oneDNN 2.6 terms (see onednn_map.hpp for the table).
#include "onednn/onednn_map.hpp"

#include <cstdio>
#include <cstring>

#include "attr/float_text.hpp"

namespace bdl {

namespace {

onednn_op eltwise(const char *alg, float alpha = 0.f, float beta = 0.f, float scale = 1.f) {
    onednn_op op;
    op.alg = alg;
    op.alpha = alpha;
    op.beta = beta;
    op.scale = scale;
    return op;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string number(float v) { return prim::impl::float_text(v); }

} // namespace

std::vector<onednn_op> map_eltwise(prim::algorithm alg, float alpha, float beta, float scale,
                                   std::string &why) {
    using a = prim::algorithm;
    why.clear();
    switch (alg) {
    // Same definition, same parameters.
    case a::eltwise_relu: return {eltwise("relu", alpha, 0.f, scale)};
    case a::eltwise_tanh: return {eltwise("tanh", 0.f, 0.f, scale)};
    case a::eltwise_elu: return {eltwise("elu", alpha, 0.f, scale)};
    case a::eltwise_square: return {eltwise("square", 0.f, 0.f, scale)};
    case a::eltwise_abs: return {eltwise("abs", 0.f, 0.f, scale)};
    case a::eltwise_sqrt: return {eltwise("sqrt", 0.f, 0.f, scale)};
    case a::eltwise_linear: return {eltwise("linear", alpha, beta, scale)};
    case a::eltwise_clip: return {eltwise("clip", alpha, beta, scale)};
    case a::eltwise_clip_v2: return {eltwise("clip_v2", alpha, beta, scale)};
    case a::eltwise_logistic: return {eltwise("logistic", 0.f, 0.f, scale)};
    case a::eltwise_exp: return {eltwise("exp", 0.f, 0.f, scale)};
    case a::eltwise_log: return {eltwise("log", 0.f, 0.f, scale)};
    case a::eltwise_gelu_tanh: return {eltwise("gelu_tanh", 0.f, 0.f, scale)};
    case a::eltwise_gelu_erf: return {eltwise("gelu_erf", 0.f, 0.f, scale)};
    case a::eltwise_swish: return {eltwise("swish", alpha, 0.f, scale)};
    case a::eltwise_mish: return {eltwise("mish", 0.f, 0.f, scale)};
    case a::eltwise_pow: return {eltwise("pow", alpha, beta, scale)};
    case a::eltwise_round: return {eltwise("round", 0.f, 0.f, scale)};
    case a::eltwise_logsigmoid: return {eltwise("logsigmoid", 0.f, 0.f, scale)};
    // Written differently in oneDNN 2.6.
    case a::eltwise_soft_relu:
    case a::eltwise_softplus:
        if (alpha == 1.f) return {eltwise("soft_relu", 0.f, 0.f, scale)};
        // log(1 + e^(A x)) / A: the argument scaled by a linear op, the result by the scale.
        return {eltwise("linear", alpha, 0.f), eltwise("soft_relu", 0.f, 0.f, scale / alpha)};
    case a::eltwise_parametric_softplus:
        if (beta == 1.f) return {eltwise("soft_relu", 0.f, 0.f, scale * alpha)};
        return {eltwise("linear", beta, 0.f), eltwise("soft_relu", 0.f, 0.f, scale * alpha)};
    case a::eltwise_hardswish:
        if (same_bits(alpha, 1.f / 6.f) && same_bits(beta, 0.5f))
            return {eltwise("hardswish", 0.f, 0.f, scale)};
        why = "oneDNN 2.6's hardswish is fixed (alpha 1/6, beta 0.5), not alpha " + number(alpha)
              + " beta " + number(beta);
        return {};
    case a::eltwise_hardsigmoid:
        return {eltwise("linear", alpha, beta), eltwise("clip", 0.f, 1.f, scale)};
    case a::eltwise_selu: return {eltwise("elu", alpha, 0.f, scale * beta)};
    case a::eltwise_celu:
        if (alpha > 0.f)
            return {eltwise("linear", 1.f / alpha, 0.f), eltwise("elu", 1.f, 0.f, scale * alpha)};
        why = "celu with a negative alpha has no oneDNN 2.6 equivalent";
        return {};
    case a::eltwise_scaled_tanh:
        if (beta == 1.f) return {eltwise("tanh", 0.f, 0.f, scale * alpha)};
        return {eltwise("linear", beta, 0.f), eltwise("tanh", 0.f, 0.f, scale * alpha)};
    case a::eltwise_identity: return {eltwise("linear", 1.f, 0.f, scale)};
    default: break;
    }
    const char *name = prim::algorithm_name(alg);
    why = std::string("oneDNN 2.6 has no ") + (name ? name : "such algorithm");
    return {};
}

std::vector<onednn_op> map_chain(const prim::post_ops &po, std::string &why) {
    why.clear();
    int sums = 0;
    for (const prim::post_ops::entry &e : po.entries())
        if (e.kind == prim::post_ops::kind::sum) ++sums;
    if (sums > 1) {
        // Its inner product even accepts two and silently computes something else.
        why = "oneDNN 2.6 supports one sum per chain";
        return {};
    }
    std::vector<onednn_op> out;
    for (int i = 0; i < po.len(); ++i) {
        const prim::post_ops::entry &e = po.entries()[i];
        onednn_op op;
        switch (e.kind) {
        case prim::post_ops::kind::eltwise: break;
        case prim::post_ops::kind::sum:
            op.what = onednn_op::kind::sum;
            op.entry = i; // its zero point and data type (int8)
            op.scale = e.scale;
            out.push_back(op);
            continue;
        case prim::post_ops::kind::binary:
            op.what = onednn_op::kind::binary;
            op.alg = prim::algorithm_name(e.alg);
            op.entry = i;
            out.push_back(op);
            continue;
        case prim::post_ops::kind::prelu:
            op.what = onednn_op::kind::prelu;
            op.entry = i;
            out.push_back(op);
            continue;
        case prim::post_ops::kind::dw:
            op.what = onednn_op::kind::dw;
            op.entry = i;
            out.push_back(op);
            continue;
        }
        const std::vector<onednn_op> ops = map_eltwise(e.alg, e.alpha, e.beta, e.scale, why);
        if (ops.empty()) return {};
        out.insert(out.end(), ops.begin(), ops.end());
    }
    return out;
}

std::string to_string(const std::vector<onednn_op> &ops) {
    std::string s;
    for (const onednn_op &op : ops) {
        if (!s.empty()) s += "+";
        switch (op.what) {
        case onednn_op::kind::sum: s += "sum:" + number(op.scale); break;
        case onednn_op::kind::eltwise:
            s += op.alg + ":" + number(op.alpha) + ":" + number(op.beta) + ":" + number(op.scale);
            break;
        case onednn_op::kind::binary: s += op.alg + "(post-op " + std::to_string(op.entry) + ")"; break;
        case onednn_op::kind::prelu: s += "prelu(post-op " + std::to_string(op.entry) + ")"; break;
        case onednn_op::kind::dw: s += "dw(post-op " + std::to_string(op.entry) + ")"; break;
        }
    }
    return s;
}

} // namespace bdl
