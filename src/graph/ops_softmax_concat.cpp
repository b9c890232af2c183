// Softmax (opset 13's: along one axis; the front end refuses older opsets' flattened form on
// another axis than the last) as prim's softmax with its fused chain, and Concat as prim's concat
// of plain inputs (its copy path: one dense layout, a memcpy per block).
#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"
#include "graph/quant_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

// An axis attribute in [-rank, rank) made non-negative; fails naming the node.
int normalized_axis(const node &n, int64_t dflt, size_t rank) {
    int64_t axis = attr_int(n, "axis", dflt);
    const int64_t r = static_cast<int64_t>(rank);
    if (axis < -r || axis >= r)
        fail(n, "bad attribute axis=" + std::to_string(axis) + " for rank " + std::to_string(rank));
    return static_cast<int>(axis < 0 ? axis + r : axis);
}

std::vector<memory::dims> infer_softmax(const model &, const node &n, const std::vector<memory::dims> &in) {
    if (in[0].empty() || in[0].size() > 5) fail(n, "input must have 1 to 5 dims, not " + dims_text(in[0]));
    normalized_axis(n, -1, in[0].size());
    return {in[0]};
}

void lower_softmax(plan_builder &b, const op &o) {
    const memory::dims &xd = b.g.dims_of(o.inputs[0]);
    const int axis = normalized_axis(*o.n, -1, xd.size());
    lowered_chain c = lower_chain(b, o, xd, post_ops(), nullptr);
    const bool constant = b.all_constant(o);
    memory src = b.plain(o.inputs[0]);
    // A fused QuantizeLinear (fuse_qdq_softmax.cpp): an int8 dst, its scale the dst scale.
    const memory::data_type ydt = b.g.type_of(o.outputs[0]);
    memory dst = host_destination(b, c, plan_builder::plain_desc(xd, ydt), constant);
    primitive_attr attr = b.attr(c.po);
    exec_args args = c.args;
    if (o.inputs.size() > 1) {
        const float y_scale = b.g.m->initializers.at(o.inputs[1]).data[0];
        attr.set_scales_mask(PRIM_ARG_DST, 0);
        args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST] = value_buffer(b, &y_scale, memory::data_type::f32, 1);
    }
    softmax_forward::primitive_desc pd(
            softmax_forward::desc(prop_kind::forward_inference, algorithm::softmax_accurate,
                                  src.get_desc(), dst.get_desc(), axis),
            attr);
    args[PRIM_ARG_SRC] = src;
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(step_text(o, "softmax", pd.impl_name(), c), softmax_forward(pd), args, constant);
    b.set(o.outputs[0], dst, constant, true);
}

std::vector<memory::dims> infer_concat(const model &, const node &n, const std::vector<memory::dims> &in) {
    if (!has_attr(n, "axis")) fail(n, "attribute axis is required");
    const int axis = normalized_axis(n, 0, in[0].size());
    memory::dims out = in[0];
    for (size_t i = 1; i < in.size(); ++i) {
        bool same = in[i].size() == out.size();
        for (size_t d = 0; same && d < out.size(); ++d)
            same = static_cast<int>(d) == axis || in[i][d] == out[d];
        if (!same)
            fail(n, "shape mismatch: input " + std::to_string(i) + " has dims " + dims_text(in[i]) +
                        ", input 0 has " + dims_text(in[0]) + " (they may differ along axis " +
                        std::to_string(axis) + " only)");
        out[axis] += in[i][axis];
    }
    return {out};
}

void lower_concat(plan_builder &b, const op &o) {
    const memory::dims &out = b.g.dims_of(o.outputs[0]);
    const int axis = normalized_axis(*o.n, 0, out.size());
    const bool constant = b.all_constant(o);
    std::vector<memory> srcs;
    std::vector<memory::desc> mds;
    for (const std::string &t : o.inputs) {
        srcs.push_back(b.plain(t));
        mds.push_back(srcs.back().get_desc());
    }
    concat::primitive_desc pd(plan_builder::plain_desc(out), axis, mds);
    memory dst = constant ? b.persistent(pd.dst_desc()) : b.alloc(pd.dst_desc());
    exec_args args;
    for (size_t i = 0; i < srcs.size(); ++i) args[PRIM_ARG_MULTIPLE_SRC + static_cast<int>(i)] = srcs[i];
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(o.n->name + ": concat " + pd.impl_name(), concat(pd), args, constant);
    b.set(o.outputs[0], dst, constant, true);
}

} // namespace

std::vector<op_def> softmax_concat_ops() {
    return {{"Softmax", 1, 1, 1, nullptr, infer_softmax, lower_softmax},
            {"Concat", 1, 1 << 16, 1, nullptr, infer_concat, lower_concat}};
}

} // namespace detail
} // namespace graph
} // namespace prim
