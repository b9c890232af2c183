// The QDQ matmuls: DequantizeLinear(x) -> Gemm (weights and int32 bias each behind a
// DequantizeLinear of a constant) or MatMul (weights behind one, then an Add of a constant f32
// bias) -> [an activation: Relu, a GELU form...] -> QuantizeLinear, or no QuantizeLinear (an f32
// output: a classifier's logits), becomes one QLinearMatMul op (ops_quant.cpp lowers it: prim's
// int8 inner product with src/weights/dst scales and zero points, the activation in its chain,
// an f32 dst when there is no QuantizeLinear). A MatMul of two dequantized activations
// (attention's) becomes one too, its B computed at run time (ops_qmatmul_runtime_b.cpp).
#include <algorithm>

#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"
#include "graph/qdq_match.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

using dt = memory::data_type;

// The f32 bias a MatMul's only reader adds: an Add of a constant of N values (or broadcast to N
// along the last dim), else nullptr.
op *bias_add_after(graph_ir &g, const op &mm) {
    op *add = only_reader(g, mm.outputs[0]);
    if (!add || add->type != "Add" || add->inputs.size() != 2) return nullptr;
    const std::string &other = add->inputs[0] == mm.outputs[0] ? add->inputs[1] : add->inputs[0];
    const tensor *b = initializer(g, other);
    const memory::dims &out = g.dims_of(mm.outputs[0]);
    if (!b || b->dt != dt::f32 || out.empty() || static_cast<int64_t>(b->data.size()) != out.back()) return nullptr;
    for (size_t k = 0; k + 1 < b->dims.size(); ++k)
        if (b->dims[k] != 1) return nullptr;
    return add;
}

// Why the Gemm's own attributes keep it from the int8 inner product ("" when they do not).
std::string gemm_problem(const op &gemm) {
    if (attr_float(*gemm.n, "alpha", 1.f) != 1.f || attr_float(*gemm.n, "beta", 1.f) != 1.f)
        return "alpha or beta is not 1";
    if (attr_int(*gemm.n, "transA", 0) != 0) return "transA is set";
    return "";
}

// Why a MatMul's B computed at run time (attention's Q·Kᵀ and P·V) keeps it from the int8 inner
// product ("" when nothing does): ops_qmatmul_runtime_b.cpp takes B per tensor, u8 or s8, 2-D or
// with A's batch dims.
std::string runtime_b_problem(const graph_ir &g, const op &mm, const op &dqb) {
    if (mm.type == "Gemm") return "its B is computed at run time (a Gemm)";
    if (!per_tensor(g, dqb)) return "its B is computed at run time and not dequantized per tensor";
    const dt bt = g.type_of(dqb.inputs[0]);
    if (bt != dt::u8 && bt != dt::s8) return "its B is not dequantized from u8 or s8";
    const memory::dims &a = g.dims_of(mm.inputs[0]), &b = g.dims_of(mm.inputs[1]);
    if (a.size() < 2 || b.size() < 2) return "A or B has fewer than 2 dims";
    if (b.size() > 2 && (a.size() != b.size() || !std::equal(b.begin(), b.end() - 2, a.begin())))
        return "A and B have other batch dims";
    return "";
}

void fuse_at(graph_ir &g, op &mm) {
    op *dqx = producer_of(g, mm.inputs[0], "DequantizeLinear");
    op *dqw = producer_of(g, mm.inputs[1], "DequantizeLinear");
    if (!dqx || !dqw || !mm.post.empty()) return;
    const auto refuse = [&](const std::string &why) { log_refused(g.log, dqx->n->name, mm.n->name, why); };
    if (!per_tensor(g, *dqx)) return refuse("its input is not dequantized per tensor");
    const dt xt = g.type_of(dqx->inputs[0]);
    if (xt != dt::u8 && xt != dt::s8) return refuse("its input is not dequantized from u8 or s8");
    const bool gemm = mm.type == "Gemm";
    const bool trans_b = gemm && attr_int(*mm.n, "transB", 0) != 0;
    if (gemm && !gemm_problem(mm).empty()) return refuse(gemm_problem(mm));
    const bool runtime_b = !initializer(g, dqw->inputs[0]);
    if (runtime_b) {
        const std::string bp = runtime_b_problem(g, mm, *dqw);
        if (!bp.empty()) return refuse(bp);
    } else {
        if (g.dims_of(mm.inputs[1]).size() != 2) return refuse("its weights do not have 2 dims");
        const std::string wp = weights_problem(g, *dqw, trans_b ? 0 : 1);
        if (!wp.empty()) return refuse(wp);
    }
    op *dqb = nullptr, *add = nullptr;
    if (gemm && !input_at(mm, 2).empty()) {
        dqb = producer_of(g, mm.inputs[2], "DequantizeLinear");
        if (!dqb) return refuse("its bias is not a DequantizeLinear");
        const std::string bp = bias_problem(g, *dqb, *dqx, *dqw);
        if (!bp.empty()) return refuse(bp);
        if (initializer(g, dqb->inputs[0])->data.size() != static_cast<size_t>(g.dims_of(mm.outputs[0]).back()))
            return refuse("its bias does not have one value per output channel");
    }
    if (!gemm) add = bias_add_after(g, mm);
    const std::string &summed = add ? add->outputs[0] : mm.outputs[0];
    eltwise_fn fn;
    op *act = only_reader(g, summed);
    if (act && (act->inputs[0] != summed || !chain_activation(g, *act, fn))) act = nullptr;
    const std::string &result = act ? act->outputs[0] : summed;
    op *q = quantize_of(g, result);
    if (q && !per_tensor(g, *q)) q = nullptr; // then an f32 dst
    std::vector<std::string> nodes = {dqx->n->name, mm.n->name};
    mm.pattern = "DequantizeLinear+" + mm.type + (runtime_b ? "(B at run time)" : "");
    if (add) {
        post_entry e;
        e.k = post_entry::kind::bias_add;
        e.operand = add->inputs[0] == mm.outputs[0] ? add->inputs[1] : add->inputs[0];
        mm.post.push_back(e);
        nodes.push_back(add->n->name);
        mm.pattern += "+Add(bias)";
        add->alive = false;
    }
    if (act) {
        post_entry e;
        e.fn = fn;
        mm.post.push_back(e);
        nodes.insert(nodes.end(), act->merged.begin(), act->merged.end());
        mm.pattern += "+" + activation_name(*act);
        act->alive = false;
    }
    // QLinearMatMul's inputs: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp (both "" for an
    // f32 output), and the int32 bias.
    mm.inputs = {input_at(*dqx, 0), input_at(*dqx, 1), input_at(*dqx, 2), input_at(*dqw, 0), input_at(*dqw, 1),
                 input_at(*dqw, 2), q ? input_at(*q, 1) : "", q ? input_at(*q, 2) : ""};
    if (dqb) mm.inputs.push_back(dqb->inputs[0]);
    mm.type = "QLinearMatMul";
    if (q) {
        nodes.push_back(q->n->name);
        mm.outputs = q->outputs;
        q->alive = false;
        mm.pattern += "+QuantizeLinear(int8)";
    } else {
        mm.outputs = {result};
        mm.pattern += "(int8 to f32)";
    }
    mm.merged = nodes;
    for (op *dq : {dqx, dqw, dqb}) drop_if_unread(g, dq);
    log_fused(g.log, mm.pattern, nodes);
}

} // namespace

void fuse_qdq_matmuls(graph_ir &g) {
    for (size_t i = g.ops.size(); i-- > 0;)
        if (g.ops[i].alive && (g.ops[i].type == "Gemm" || g.ops[i].type == "MatMul")) fuse_at(g, g.ops[i]);
}

} // namespace detail
} // namespace graph
} // namespace prim
