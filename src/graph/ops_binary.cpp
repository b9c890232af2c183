// Add, Sub, Mul, Div with numpy broadcasting as a prim binary: src0 is the operand with the
// output's dims (swapped for Add and Mul, Sub computed as -(B - A)); when neither has them, A is
// first broadcast into an output-shaped buffer (a binary add onto zeros).
#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

algorithm binary_alg(const std::string &type) {
    if (type == "Add") return algorithm::binary_add;
    if (type == "Sub") return algorithm::binary_sub;
    if (type == "Mul") return algorithm::binary_mul;
    return algorithm::binary_div;
}

std::vector<memory::dims> infer_binary(const model &, const node &n, const std::vector<memory::dims> &in) {
    memory::dims out;
    if (!broadcast_dims(in[0], in[1], out))
        fail(n, "shape mismatch: " + dims_text(in[0]) + " and " + dims_text(in[1]) + " do not broadcast");
    return {out};
}

void lower_binary(plan_builder &b, const op &o) {
    const memory::dims &out = b.g.dims_of(o.outputs[0]);
    std::string a = o.inputs[0], c1 = o.inputs[1];
    const bool commutative = o.type == "Add" || o.type == "Mul";
    post_ops base;
    if (b.g.dims_of(a) != out && b.g.dims_of(c1) == out && (commutative || o.type == "Sub")) {
        std::swap(a, c1);
        if (o.type == "Sub") base.append_eltwise(algorithm::eltwise_linear, -1.f, 0.f);
    }
    const bool constant = b.all_constant(o);
    memory src0;
    if (b.g.dims_of(a) == out) {
        src0 = b.get(a);
    } else {
        // Neither operand has the output's dims: broadcast A first.
        memory zeros = b.persistent(plan_builder::plain_desc(out));
        src0 = b.alloc(plan_builder::plain_desc(out));
        memory a_b = broadcast_operand(b, a, out);
        binary bc(binary::primitive_desc(binary::desc(algorithm::binary_add, zeros.get_desc(),
                                                      a_b.get_desc(), src0.get_desc()), b.attr()));
        b.step(o.n->name + ": broadcast " + a + " to " + dims_text(out),
               [bc, zeros, a_b, src0] {
                   bc.execute({{PRIM_ARG_SRC_0, zeros}, {PRIM_ARG_SRC_1, a_b}, {PRIM_ARG_DST, src0}});
               }, b.is_constant(a), {zeros, a_b, src0});
    }
    memory src1 = b.g.dims_of(c1) == out ? b.get(c1) : broadcast_operand(b, c1, out);
    lowered_chain c = lower_chain(b, o, out, base, nullptr);
    memory dst = host_destination(b, c, src0.get_desc(), constant);
    binary::primitive_desc pd(binary::desc(binary_alg(o.type), src0.get_desc(), src1.get_desc(),
                                           dst.get_desc()), b.attr(c.po));
    exec_args args = c.args;
    args[PRIM_ARG_SRC_0] = src0;
    args[PRIM_ARG_SRC_1] = src1;
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(step_text(o, std::string("binary ") + algorithm_name(binary_alg(o.type)), pd.impl_name(), c),
                     binary(pd), args, constant);
    b.set(o.outputs[0], dst, constant, true);
}

} // namespace

std::vector<op_def> binary_ops() {
    std::vector<op_def> v;
    for (const char *t : {"Add", "Sub", "Mul", "Div"})
        v.push_back({t, 2, 2, 1, nullptr, infer_binary, lower_binary});
    return v;
}

} // namespace detail
} // namespace graph
} // namespace prim
