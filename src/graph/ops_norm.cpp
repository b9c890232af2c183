// BatchNormalization (inference, statistics given) and LayerNormalization as prim's batch and
// layer normalization primitives, with their fused chains; LayerNormalization's Mean and
// InvStdDev outputs on a small graph kernel.
#include <algorithm>
#include <cmath>

#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

void refuse_extra_outputs(const node &n) {
    for (size_t i = 1; i < n.outputs.size(); ++i)
        if (!n.outputs[i].empty())
            fail(n, "output " + std::to_string(i) + " (" + n.outputs[i] +
                        ") is not supported: inference computes Y only", status::unimplemented);
}

void check_bnorm(const model &, const node &n) {
    if (attr_int(n, "training_mode", 0) != 0)
        fail(n, "bad attribute training_mode=1: only inference is supported", status::unimplemented);
    if (attr_int(n, "spatial", 1) != 1)
        fail(n, "bad attribute spatial=0 is not supported", status::unimplemented);
    (void)attr_float(n, "epsilon", 1e-5f);
    refuse_extra_outputs(n);
}

std::vector<memory::dims> infer_bnorm(const model &, const node &n, const std::vector<memory::dims> &in) {
    if (in[0].size() < 2 || in[0].size() > 5) fail(n, "X must have 2 to 5 dims, not " + dims_text(in[0]));
    const char *names[] = {"X", "scale", "B", "input_mean", "input_var"};
    for (size_t i = 1; i < 5; ++i)
        if (in[i] != memory::dims{in[0][1]})
            fail(n, std::string("shape mismatch: ") + names[i] + " has dims " + dims_text(in[i]) +
                        ", X has " + std::to_string(in[0][1]) + " channels");
    return {in[0]};
}

void lower_bnorm(plan_builder &b, const op &o) {
    const node &n = *o.n;
    const memory::dims &out = b.g.dims_of(o.outputs[0]);
    lowered_chain c = lower_chain(b, o, out, post_ops(), nullptr);
    const bool constant = b.all_constant(o);
    memory src = b.get(o.inputs[0]);
    memory dst = host_destination(b, c, src.get_desc(), constant);
    const auto flags = normalization_flags::use_global_stats | normalization_flags::use_scale |
                       normalization_flags::use_shift;
    batch_normalization_forward::primitive_desc pd(
        batch_normalization_forward::desc(prop_kind::forward_inference, src.get_desc(), dst.get_desc(),
                                          attr_float(n, "epsilon", 1e-5f), flags), b.attr(c.po));
    exec_args args = c.args;
    const std::pair<int, memory::desc> params[] = {{PRIM_ARG_SCALE, pd.scale_desc()},
                                                   {PRIM_ARG_SHIFT, pd.shift_desc()},
                                                   {PRIM_ARG_MEAN, pd.mean_desc()},
                                                   {PRIM_ARG_VARIANCE, pd.variance_desc()}};
    for (int i = 0; i < 4; ++i)
        args[params[i].first] = b.in_layout_memory(b.plain(o.inputs[i + 1]), params[i].second,
                                                   b.is_constant(o.inputs[i + 1]));
    args[PRIM_ARG_SRC] = src;
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(step_text(o, "batch_normalization", pd.impl_name(), c),
                     batch_normalization_forward(pd), args, constant);
    b.set(o.outputs[0], dst, constant, true);
}

int64_t lnorm_axis(const node &n, size_t rank) {
    int64_t axis = attr_int(n, "axis", -1);
    if (axis < 0) axis += static_cast<int64_t>(rank);
    if (axis < 0 || axis >= static_cast<int64_t>(rank))
        fail(n, "bad attribute axis=" + std::to_string(attr_int(n, "axis", -1)) + " for rank " +
                    std::to_string(rank));
    return axis;
}

void check_lnorm(const model &, const node &n) { (void)attr_float(n, "epsilon", 1e-5f); }

std::vector<memory::dims> infer_lnorm(const model &, const node &n, const std::vector<memory::dims> &in) {
    if (in[0].empty()) fail(n, "X must have at least one dim");
    const int64_t axis = lnorm_axis(n, in[0].size());
    const memory::dims norm(in[0].begin() + axis, in[0].end());
    // Scale and B broadcast to X (numpy rules); the primitive takes one value per normalized
    // element, so they must be the normalized dims, with leading 1s at most: a Scale varying
    // along the other axes (4x1 for X 4x4, axis -1) or repeating along normalized ones is refused.
    for (size_t i = 1; i < in.size(); ++i) {
        if (!has_input(n, i)) continue;
        memory::dims d = in[i], to_x;
        while (d.size() > norm.size() && d.front() == 1) d.erase(d.begin());
        if (d == norm) continue;
        const std::string what = std::string(i == 1 ? "Scale" : "B") + " has dims " + dims_text(in[i]) +
                                 ", the normalized dims are " + dims_text(norm);
        if (!broadcast_dims(in[i], in[0], to_x) || to_x != in[0])
            fail(n, "shape mismatch: " + what + " and X " + dims_text(in[0]) + " (it does not broadcast to X)");
        fail(n, "shape mismatch: " + what + " (a " + (i == 1 ? "Scale" : "B") +
                    " broadcast along other dims is not supported)", status::unimplemented);
    }
    // Mean and InvStdDev keep X's rank with the normalized dims as 1.
    memory::dims stats = in[0];
    std::fill(stats.begin() + axis, stats.end(), 1);
    return {in[0], stats, stats};
}

// ONNX's optional outputs Mean and InvStdDev (1 / sqrt(variance + epsilon)) of each row, when a
// node or the graph reads them: prim's inference primitive does not return its statistics, so a
// small graph kernel computes them (in double) before the primitive runs, as the primitive may
// write Y over X.
void lower_lnorm_stats(plan_builder &b, const op &o, const memory &src, int64_t rows, int64_t d) {
    const node &n = *o.n;
    const bool want_mean = n.outputs.size() > 1 && !n.outputs[1].empty();
    const bool want_inv = n.outputs.size() > 2 && !n.outputs[2].empty();
    if (!want_mean && !want_inv) return;
    const memory::dims &sd = b.g.dims_of(want_mean ? n.outputs[1] : n.outputs[2]);
    memory mean = b.alloc(plan_builder::plain_desc(sd)), inv = b.alloc(plan_builder::plain_desc(sd));
    const bool constant = b.all_constant(o);
    const double eps = attr_float(n, "epsilon", 1e-5f);
    b.step(n.name + ": layer normalization statistics graph kernel", [src, mean, inv, rows, d, eps] {
        const float *x = static_cast<const float *>(src.get_data_handle());
        float *mu = static_cast<float *>(mean.get_data_handle());
        float *is = static_cast<float *>(inv.get_data_handle());
#pragma omp parallel for schedule(static)
        for (int64_t r = 0; r < rows; ++r) {
            const float *row = x + r * d;
            double sum = 0.;
            for (int64_t j = 0; j < d; ++j) sum += row[j];
            const double m = sum / static_cast<double>(d);
            double sq = 0.;
            for (int64_t j = 0; j < d; ++j) sq += (row[j] - m) * (row[j] - m);
            mu[r] = static_cast<float>(m);
            is[r] = static_cast<float>(1. / std::sqrt(sq / static_cast<double>(d) + eps));
        }
    }, constant, {src, mean, inv});
    if (want_mean) b.set(n.outputs[1], mean, constant, true);
    if (want_inv) b.set(n.outputs[2], inv, constant, true);
}

// Normalized over the dims from axis on: viewed as rows x D (plain), or in its own dims when the
// axis is the last of 2 to 5 dims (then the fused chain's operands broadcast as usual).
void lower_lnorm(plan_builder &b, const op &o) {
    const node &n = *o.n;
    const memory::dims &xd = b.g.dims_of(o.inputs[0]);
    const int64_t axis = lnorm_axis(n, xd.size());
    const int64_t d = product(memory::dims(xd.begin() + axis, xd.end()));
    const bool own_dims = axis == static_cast<int64_t>(xd.size()) - 1 && xd.size() >= 2 && xd.size() <= 5;
    const memory::dims view = own_dims ? xd : memory::dims{product(xd) / d, d};
    lowered_chain c = lower_chain(b, o, view, post_ops(), nullptr);
    const bool constant = b.all_constant(o);
    memory src = b.view(b.plain(o.inputs[0]), plan_builder::plain_desc(view));
    lower_lnorm_stats(b, o, src, product(xd) / d, d);
    memory dst = host_destination(b, c, src.get_desc(), constant);
    auto flags = normalization_flags::use_scale;
    if (has_input(n, 2)) flags |= normalization_flags::use_shift;
    layer_normalization_forward::primitive_desc pd(
        layer_normalization_forward::desc(prop_kind::forward_inference, src.get_desc(), dst.get_desc(),
                                          memory::desc(), attr_float(n, "epsilon", 1e-5f), flags),
        b.attr(c.po));
    exec_args args = c.args;
    args[PRIM_ARG_SCALE] = b.view(b.plain(o.inputs[1]), plan_builder::plain_desc({d}));
    if (has_input(n, 2))
        args[PRIM_ARG_SHIFT] = b.view(b.plain(o.inputs[2]), plan_builder::plain_desc({d}));
    args[PRIM_ARG_SRC] = src;
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(step_text(o, "layer_normalization", pd.impl_name(), c),
                     layer_normalization_forward(pd), args, constant);
    b.set(o.outputs[0], b.view(dst, plan_builder::plain_desc(xd)), constant, true);
}

} // namespace

std::vector<op_def> norm_ops() {
    return {{"BatchNormalization", 5, 5, 5, check_bnorm, infer_bnorm, lower_bnorm},
            {"LayerNormalization", 2, 3, 3, check_lnorm, infer_lnorm, lower_lnorm}};
}

} // namespace detail
} // namespace graph
} // namespace prim
