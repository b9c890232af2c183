// Fused entries to prim post-ops, with the load-time folds of per-channel entries.
#include "graph/post_ops_lowering.hpp"

#include <cmath>
#include <utility>

namespace prim {
namespace graph {
namespace detail {

memory broadcast_operand(plan_builder &b, const std::string &t, const memory::dims &out) {
    memory p = b.plain(t);
    memory::dims d = b.g.dims_of(t);
    d.insert(d.begin(), out.size() - d.size(), 1);
    return b.view(p, plan_builder::plain_desc(d));
}

namespace {

// A per-channel operand's values, one per channel (the operand broadcasts along every other dim).
std::vector<float> channel_values(const model &m, const std::string &t, int64_t oc) {
    const tensor &v = m.initializers.at(t);
    std::vector<float> out(oc);
    for (int64_t c = 0; c < oc; ++c) out[c] = v.data.size() == 1 ? v.data[0] : v.data[c];
    return out;
}

struct bn_params {
    std::string scale, shift, mean, var;
    float eps;
};
bn_params bn_of(const node &bn) {
    return {bn.inputs[1], bn.inputs[2], bn.inputs[3], bn.inputs[4],
            attr_float(bn, "epsilon", 1e-5f)};
}

// y = x * a + c with a = scale / sqrt(var + eps), c = shift - mean * a: computed in double, as
// the folded weights and the per-channel entries both use it.
void bn_coefficients(const float *scale, const float *shift, const float *mean, const float *var,
                     float eps, int64_t n, float *a, float *c) {
    for (int64_t i = 0; i < n; ++i) {
        const double ai = double(scale[i]) / std::sqrt(double(var[i]) + double(eps));
        a[i] = float(ai);
        c[i] = float(double(shift[i]) - double(mean[i]) * ai);
    }
}

// An eltwise entry with a parameter read at every run (Clip's bound as a graph input): the
// chain holds PRIM_RUNTIME_F32_VAL there, and a step before the host's copies the one-value
// tensors into the entry's parameters argument (alpha, beta, scale).
void append_runtime_eltwise(plan_builder &b, lowered_chain &c, const eltwise_fn &fn) {
    const memory params = b.alloc(plan_builder::plain_desc({3}));
    const memory alpha_src = fn.alpha_input.empty() ? memory() : b.plain(fn.alpha_input);
    const memory beta_src = fn.beta_input.empty() ? memory() : b.plain(fn.beta_input);
    std::vector<memory> uses {params};
    std::string from;
    for (const memory *m : {&alpha_src, &beta_src})
        if (!m->is_empty()) uses.push_back(*m);
    for (const std::string *t : {&fn.alpha_input, &fn.beta_input})
        if (!t->empty()) from += (from.empty() ? "" : ", ") + *t;
    const float alpha = fn.alpha, beta = fn.beta;
    b.step(std::string(algorithm_name(fn.alg)) + " parameters from " + from, [=] {
        float *p = static_cast<float *>(params.get_data_handle());
        p[0] = alpha_src.is_empty() ? alpha : *static_cast<const float *>(alpha_src.get_data_handle());
        p[1] = beta_src.is_empty() ? beta : *static_cast<const float *>(beta_src.get_data_handle());
        p[2] = 1.f;
    }, false, uses);
    c.args[PRIM_ARG_ATTR_MULTIPLE_POST_OP(c.po.len()) | PRIM_ARG_ATTR_POST_OP_PARAMS] = params;
    c.po.append_eltwise(fn.alg, fn.alpha_input.empty() ? fn.alpha : PRIM_RUNTIME_F32_VAL,
                        fn.beta_input.empty() ? fn.beta : PRIM_RUNTIME_F32_VAL);
}

} // namespace

const post_entry::depthwise *dw_entry_of(const op &o) {
    for (const auto &e : o.post)
        if (e.k == post_entry::kind::dw) return &e.dw_conv;
    return nullptr;
}

lowered_chain lower_chain(plan_builder &b, const op &o, const memory::dims &host_out, const post_ops &base,
                          fold_state *fold, dw_lowering *dw) {
    lowered_chain c;
    c.po = base;
    const model &m = *b.g.m;
    bool folding = fold && base.len() == 0 && fold->bias_constant;
    memory::dims out = host_out; // the depthwise output's after a dw entry
    const int64_t oc = out.size() > 1 ? out[1] : 1; // the depthwise keeps the channels
    memory::dims per_channel(out.size(), 1);
    if (out.size() > 1) per_channel[1] = oc;

    auto add_binary = [&](algorithm alg, const memory &operand) {
        c.args[PRIM_ARG_ATTR_MULTIPLE_POST_OP(c.po.len()) | PRIM_ARG_SRC_1] = operand;
        c.po.append_binary(alg, operand.get_desc());
    };

    for (const auto &e : o.post) {
        switch (e.k) {
        case post_entry::kind::dw: {
            if (!dw) throw error(status::runtime_error, "graph: a dw entry on " + o.n->name + ", which takes none");
            const post_entry::depthwise &d = e.dw_conv;
            c.po.append_dw(memory::data_type::f32, memory::data_type::f32, memory::data_type::f32, d.kernel,
                           d.stride, d.padding, 0, {});
            // From here on the entries follow the depthwise output and fold into its weights.
            out = dw->out;
            fold = &dw->fold;
            folding = fold->bias_constant;
            break;
        }
        case post_entry::kind::eltwise:
            folding = false;
            if (e.fn.has_runtime_params())
                append_runtime_eltwise(b, c, e.fn);
            else
                c.po.append_eltwise(e.fn.alg, e.fn.alpha, e.fn.beta);
            break;
        case post_entry::kind::sum:
            folding = false;
            c.sum_operand = e.operand;
            c.po.append_sum(1.f);
            break;
        case post_entry::kind::binary:
            folding = false;
            // An operand of the output's dims is read in its own layout (often the host's).
            if (b.g.dims_of(e.operand) == out && b.get(e.operand).get_desc().is_dense())
                add_binary(e.alg, b.get(e.operand));
            else
                add_binary(e.alg, broadcast_operand(b, e.operand, out));
            break;
        case post_entry::kind::bias_add:
            if (folding && b.is_constant(e.operand) && m.initializers.count(e.operand)) {
                const auto v = channel_values(m, e.operand, fold->oc);
                for (int64_t i = 0; i < fold->oc; ++i) fold->bias[i] += v[i];
                fold->changed = true;
                c.folded.push_back("bias " + e.operand);
            } else {
                folding = false;
                add_binary(algorithm::binary_add, broadcast_operand(b, e.operand, out));
            }
            break;
        case post_entry::kind::scale:
            if (folding && b.is_constant(e.operand) && m.initializers.count(e.operand) &&
                fold->weights_constant) {
                auto v = channel_values(m, e.operand, fold->oc);
                for (int64_t i = 0; i < fold->oc; ++i) fold->bias[i] *= v[i];
                fold->weight_scales.push_back(std::move(v));
                fold->changed = true;
                c.folded.push_back("scale " + e.operand);
            } else {
                folding = false;
                add_binary(algorithm::binary_mul, broadcast_operand(b, e.operand, out));
            }
            break;
        case post_entry::kind::bnorm: {
            const bn_params p = bn_of(*e.bn);
            const bool params_constant = m.initializers.count(p.scale) && m.initializers.count(p.shift) &&
                                         m.initializers.count(p.mean) && m.initializers.count(p.var);
            if (folding && params_constant && fold->weights_constant) {
                std::vector<float> a(oc), sh(oc);
                bn_coefficients(m.initializers.at(p.scale).data.data(),
                                m.initializers.at(p.shift).data.data(),
                                m.initializers.at(p.mean).data.data(),
                                m.initializers.at(p.var).data.data(), p.eps, oc, a.data(), sh.data());
                for (int64_t i = 0; i < oc; ++i) fold->bias[i] = fold->bias[i] * a[i] + sh[i];
                fold->weight_scales.push_back(std::move(a));
                fold->changed = true;
                c.folded.push_back("batch norm " + e.bn->name);
                break;
            }
            // Per-channel entries: x * a + c, the coefficients computed from the statistics
            // when they change (at every run when they are graph inputs).
            folding = false;
            memory ma = b.alloc(plan_builder::plain_desc(per_channel));
            memory mc = b.alloc(plan_builder::plain_desc(per_channel));
            memory s = b.plain(p.scale), sh = b.plain(p.shift), mu = b.plain(p.mean), va = b.plain(p.var);
            const float eps = p.eps;
            const bool constant = b.is_constant(p.scale) && b.is_constant(p.shift) &&
                                  b.is_constant(p.mean) && b.is_constant(p.var);
            b.step(e.bn->name + ": batch norm coefficients (graph kernel)", [=] {
                bn_coefficients(static_cast<float *>(s.get_data_handle()),
                                static_cast<float *>(sh.get_data_handle()),
                                static_cast<float *>(mu.get_data_handle()),
                                static_cast<float *>(va.get_data_handle()), eps, oc,
                                static_cast<float *>(ma.get_data_handle()),
                                static_cast<float *>(mc.get_data_handle()));
            }, constant, {s, sh, mu, va, ma, mc});
            add_binary(algorithm::binary_mul, ma);
            add_binary(algorithm::binary_add, mc);
            break;
        }
        }
    }
    return c;
}

memory sum_destination(plan_builder &b, const lowered_chain &c, const memory::desc &want,
                       bool constant) {
    memory residual = b.get(c.sum_operand);
    if (residual.get_desc() == want && b.may_overwrite(c.sum_operand)) return residual;
    memory dst = b.alloc(want);
    b.reorder_step("copy " + c.sum_operand + " into the sum's destination (" + want.layout() + ")",
                   residual, dst, constant && b.is_constant(c.sum_operand));
    return dst;
}

memory host_destination(plan_builder &b, const lowered_chain &c, const memory::desc &md,
                        bool constant) {
    return c.sum_operand.empty() ? b.alloc(md) : sum_destination(b, c, md, constant);
}

std::string step_text(const op &o, const std::string &what, const std::string &impl,
                      const lowered_chain &c) {
    std::string names;
    for (size_t i = 0; i < o.merged.size(); ++i) names += (i ? "+" : "") + o.merged[i];
    std::string s = names + ": " + what + " " + impl;
    for (const auto &f : c.folded) s += " folded " + f;
    if (c.po.len()) s += " post-ops " + to_string(c.po);
    return s;
}

} // namespace detail
} // namespace graph
} // namespace prim
