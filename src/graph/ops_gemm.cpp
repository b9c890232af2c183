// Gemm and 2D MatMul as a prim inner product: A (M x K) is the source, B seen as N x K the
// weights (a transposition is a layout, reordered once when B is constant), C the bias when it is
// a constant per-column vector and alpha is 1, else entries of the chain (alpha, + C, beta).
#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

struct gemm_shape {
    int64_t m, k, n;
    bool trans_a, trans_b;
};

gemm_shape shape_of(const node &n, const memory::dims &a, const memory::dims &bd) {
    const bool is_gemm = n.op_type == "Gemm";
    if (a.size() != 2 || bd.size() != 2)
        fail(n, is_gemm ? "A and B must be 2D, not " + dims_text(a) + " and " + dims_text(bd)
                        : "only 2D MatMul is supported, not " + dims_text(a) + " x " + dims_text(bd) +
                              " (batched or 1D MatMul is not implemented)",
             is_gemm ? status::invalid_arguments : status::unimplemented);
    gemm_shape s;
    s.trans_a = is_gemm && attr_int(n, "transA", 0) != 0;
    s.trans_b = is_gemm && attr_int(n, "transB", 0) != 0;
    s.m = s.trans_a ? a[1] : a[0];
    s.k = s.trans_a ? a[0] : a[1];
    const int64_t kb = s.trans_b ? bd[1] : bd[0];
    s.n = s.trans_b ? bd[0] : bd[1];
    if (kb != s.k)
        fail(n, "shape mismatch: A (" + dims_text(a) + ") and B (" + dims_text(bd) + ") do not agree on K");
    return s;
}

void check_gemm(const model &, const node &n) {
    for (const char *a : {"transA", "transB"}) {
        const int64_t v = attr_int(n, a, 0);
        if (v != 0 && v != 1) fail(n, std::string("bad attribute ") + a + "=" + std::to_string(v));
    }
    (void)attr_float(n, "alpha", 1.f);
    (void)attr_float(n, "beta", 1.f);
}

std::vector<memory::dims> infer_gemm(const model &, const node &n, const std::vector<memory::dims> &in) {
    const gemm_shape s = shape_of(n, in[0], in[1]);
    const memory::dims out = {s.m, s.n};
    memory::dims bc;
    if (in.size() > 2 && has_input(n, 2) && (!broadcast_dims(out, in[2], bc) || bc != out))
        fail(n, "C (" + dims_text(in[2]) + ") does not broadcast to " + dims_text(out));
    return {out};
}

void lower_gemm(plan_builder &b, const op &o) {
    const node &n = *o.n;
    const model &m = *b.g.m;
    const memory::dims &ad = b.g.dims_of(o.inputs[0]), &bd = b.g.dims_of(o.inputs[1]);
    const gemm_shape s = shape_of(n, ad, bd);
    const memory::dims out = {s.m, s.n};
    const float alpha = n.op_type == "Gemm" ? attr_float(n, "alpha", 1.f) : 1.f;
    const float beta = n.op_type == "Gemm" ? attr_float(n, "beta", 1.f) : 1.f;
    const bool c_used = n.op_type == "Gemm" && has_input(n, 2) && beta != 0.f;

    fold_state fold;
    fold.oc = s.n;
    fold.bias.assign(s.n, 0.f);
    post_ops base;
    exec_args base_args;
    bool has_bias = false;
    if (c_used) {
        const memory::dims &cd = b.g.dims_of(o.inputs[2]);
        const bool per_column = product(cd) == 1 || (cd.back() == s.n && product(cd) == s.n);
        if (alpha == 1.f && per_column && m.initializers.count(o.inputs[2])) {
            const auto &v = m.initializers.at(o.inputs[2]).data;
            for (int64_t i = 0; i < s.n; ++i) fold.bias[i] = beta * v[v.size() == 1 ? 0 : i];
            has_bias = true;
        } else {
            // alpha * AB + beta * C = beta * ((alpha / beta) * AB + C)
            if (alpha != beta) base.append_eltwise(algorithm::eltwise_linear, alpha / beta, 0.f);
            memory cm = broadcast_operand(b, o.inputs[2], out);
            base_args[PRIM_ARG_ATTR_MULTIPLE_POST_OP(base.len()) | PRIM_ARG_SRC_1] = cm;
            base.append_binary(algorithm::binary_add, cm.get_desc());
            if (beta != 1.f) base.append_eltwise(algorithm::eltwise_linear, beta, 0.f);
        }
    } else if (alpha != 1.f) {
        base.append_eltwise(algorithm::eltwise_linear, alpha, 0.f);
    }
    lowered_chain c = lower_chain(b, o, out, base, &fold);
    has_bias = has_bias || fold.changed;
    const bool constant = b.all_constant(o);

    // A as M x K, plain.
    memory a_plain = b.plain(o.inputs[0]);
    memory src = a_plain;
    if (s.trans_a) {
        memory view = b.view(a_plain, memory::desc({s.m, s.k}, memory::data_type::f32, memory::dims{1, s.m}));
        src = b.alloc(plan_builder::plain_desc({s.m, s.k}));
        b.reorder_step("transpose " + o.inputs[0], view, src, b.is_constant(o.inputs[0]));
    }
    // B as N x K: a view of B's plain buffer.
    memory b_plain = b.plain(o.inputs[1]);
    memory wei_view = b.view(b_plain, memory::desc({s.n, s.k}, memory::data_type::f32,
                                                   s.trans_b ? memory::dims{s.k, 1} : memory::dims{1, s.n}));
    memory bias;
    if (has_bias) {
        bias = b.persistent(plan_builder::plain_desc({s.n}));
        std::copy(fold.bias.begin(), fold.bias.end(), static_cast<float *>(bias.get_data_handle()));
    }
    post_ops po = c.po;
    const memory::desc wei_any({s.n, s.k}, memory::data_type::f32, memory::format_tag::any);
    const memory::desc dst_any(out, memory::data_type::f32, memory::format_tag::any);
    inner_product_forward::desc d =
        has_bias ? inner_product_forward::desc(prop_kind::forward_inference, src.get_desc(), wei_any,
                                               bias.get_desc(), dst_any)
                 : inner_product_forward::desc(prop_kind::forward_inference, src.get_desc(), wei_any,
                                               dst_any);
    inner_product_forward::primitive_desc pd(d, b.attr(po));
    memory wei = wei_view;
    if (pd.weights_desc() != wei_view.get_desc()) {
        wei = b.alloc(pd.weights_desc());
        b.reorder_step("reorder " + o.inputs[1] + " -> " + pd.weights_desc().layout(), wei_view, wei,
                       b.is_constant(o.inputs[1]));
    }
    exec_args args = c.args;
    for (auto &kv : base_args) args[kv.first] = kv.second;
    if (has_bias) args[PRIM_ARG_BIAS] = bias;
    memory dst = host_destination(b, c, pd.dst_desc(), constant);
    args[PRIM_ARG_SRC] = b.in_layout_memory(src, pd.src_desc(), constant);
    args[PRIM_ARG_WEIGHTS] = wei;
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(step_text(o, "inner_product", pd.impl_name(), c), inner_product_forward(pd), args,
                     constant);
    b.set(o.outputs[0], dst, constant, true);
}

} // namespace

std::vector<op_def> gemm_ops() {
    return {{"Gemm", 2, 3, 1, check_gemm, infer_gemm, lower_gemm},
            {"MatMul", 2, 2, 1, nullptr, infer_gemm, lower_gemm}};
}

} // namespace detail
} // namespace graph
} // namespace prim
