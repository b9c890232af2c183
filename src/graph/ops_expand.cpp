// Expand: X broadcast (numpy's rules) to the given shape, as a prim binary add of X onto zeros of
// the output's dims. The shape is an attribute (the ONNX front end's form) or a constant input.
#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

std::vector<int64_t> expand_shape(const model &m, const node &n) {
    if (has_attr(n, "shape")) return attr_ints(n, "shape", {});
    if (!has_input(n, 1)) fail(n, "input shape is required");
    const tensor &t = constant_input(m, n, 1, "shape");
    return std::vector<int64_t>(t.data.begin(), t.data.end());
}

void check_expand(const model &m, const node &n) {
    for (auto d : expand_shape(m, n))
        if (d < 1) fail(n, "bad shape: dims must be >= 1, not " + std::to_string(d), status::unimplemented);
}

std::vector<memory::dims> infer_expand(const model &m, const node &n, const std::vector<memory::dims> &in) {
    const memory::dims shape = expand_shape(m, n);
    memory::dims out;
    if (!broadcast_dims(in[0], shape, out))
        fail(n, "shape mismatch: X " + dims_text(in[0]) + " does not broadcast to " + dims_text(shape));
    return {out};
}

void lower_expand(plan_builder &b, const op &o) {
    const memory::dims &out = b.g.dims_of(o.outputs[0]);
    memory zeros = b.persistent(plan_builder::plain_desc(out));
    memory x = broadcast_operand(b, o.inputs[0], out);
    memory dst = b.alloc(plan_builder::plain_desc(out));
    binary::primitive_desc pd(binary::desc(algorithm::binary_add, zeros.get_desc(), x.get_desc(), dst.get_desc()),
                              b.attr());
    const bool constant = b.is_constant(o.inputs[0]);
    b.primitive_step(o.n->name + ": binary add onto zeros " + pd.impl_name() + " (expand to " + dims_text(out) + ")",
                     binary(pd), {{PRIM_ARG_SRC_0, zeros}, {PRIM_ARG_SRC_1, x}, {PRIM_ARG_DST, dst}}, constant);
    b.set(o.outputs[0], dst, constant, true);
}

} // namespace

std::vector<op_def> expand_ops() { return {{"Expand", 1, 2, 1, check_expand, infer_expand, lower_expand}}; }

} // namespace detail
} // namespace graph
} // namespace prim
