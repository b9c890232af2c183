// Gemm and MatMul as prim inner products: A (M x K) is the source, B seen as N x K the weights (a
// transposition is a layout, reordered once when B is constant). Gemm: C the bias when it is a
// constant per-column vector and alpha is 1, else entries of the chain (alpha, + C, beta).
// MatMul (numpy semantics): with a 2D B, A's leading dims flatten into M (one inner product);
// with batch dims on both sides, one inner product per batch, each reading its operands through
// strided views (a transposed operand is a layout, not a copy).
#include "graph/batch_views.hpp"
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
        fail(n, "A and B must be 2D, not " + dims_text(a) + " and " + dims_text(bd));
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

// ---- MatMul ---------------------------------------------------------------------------------

struct matmul_shape {
    memory::dims a, b;     // the operands' dims, a 1D A promoted to 1 x K, a 1D B to K x 1
    bool a_vec, b_vec;     // which operand was 1D (its M or N dim is not in the output)
    memory::dims batch;    // A's and B's leading dims, broadcast
    int64_t m, k, n;
    memory::dims full;     // batch + {M, N}: what is computed
    memory::dims out;      // the output's dims: full without the 1D operands' dims
};

matmul_shape matmul_shape_of(const node &n, const memory::dims &ad, const memory::dims &bd) {
    if (ad.empty() || bd.empty())
        fail(n, "A and B must have at least one dim, not " + dims_text(ad) + " and " + dims_text(bd));
    matmul_shape s;
    s.a_vec = ad.size() == 1;
    s.b_vec = bd.size() == 1;
    s.a = s.a_vec ? memory::dims{1, ad[0]} : ad;
    s.b = s.b_vec ? memory::dims{bd[0], 1} : bd;
    s.m = s.a[s.a.size() - 2];
    s.k = s.a.back();
    s.n = s.b.back();
    if (s.b[s.b.size() - 2] != s.k)
        fail(n, "shape mismatch: A (" + dims_text(ad) + ") and B (" + dims_text(bd) + ") do not agree on K");
    const memory::dims a_batch(s.a.begin(), s.a.end() - 2), b_batch(s.b.begin(), s.b.end() - 2);
    if (!broadcast_dims(a_batch, b_batch, s.batch))
        fail(n, "shape mismatch: the batch dims of A (" + dims_text(ad) + ") and B (" + dims_text(bd) +
                    ") do not broadcast");
    s.full = s.batch;
    s.full.push_back(s.m);
    s.full.push_back(s.n);
    s.out = s.batch;
    if (!s.a_vec) s.out.push_back(s.m);
    if (!s.b_vec) s.out.push_back(s.n);
    if (s.full.size() > 6)
        fail(n, "MatMul of rank " + std::to_string(s.full.size()) + " is not supported (at most 6)",
             status::unimplemented);
    if (s.k == 0 && product(s.full) != 0)
        fail(n, "K = 0 (an empty inner dim) is not supported", status::unimplemented);
    return s;
}

std::vector<memory::dims> infer_matmul(const model &, const node &n, const std::vector<memory::dims> &in) {
    return {matmul_shape_of(n, in[0], in[1]).out};
}

// d (broadcasting to the output's dims) as a dims of full's rank: 1s in front, and 1 where the
// output lacks M or N.
memory::dims to_full_rank(const matmul_shape &s, memory::dims d) {
    d.insert(d.begin(), s.out.size() - d.size(), 1);
    if (s.a_vec) d.insert(d.begin() + static_cast<long>(s.batch.size()), 1);
    if (s.b_vec) d.push_back(1);
    return d;
}

// A constant [.., 1, N] operand of an Add: the values a bias takes.
bool is_bias_row(const model &m, const graph_ir &g, const matmul_shape &s, const post_entry &e) {
    const bool add = e.k == post_entry::kind::bias_add ||
                     (e.k == post_entry::kind::binary && e.alg == algorithm::binary_add);
    if (!add || s.b_vec || !m.initializers.count(e.operand)) return false;
    const memory::dims d = to_full_rank(s, g.dims_of(e.operand));
    return product(d) == d.back() && (d.back() == s.n || d.back() == 1);
}

// One argument of the per-batch inner products: the base memory, the desc one batch sees, and
// each batch's offset into the base, in elements.
struct batch_arg {
    int key;
    memory base;
    memory::desc md;
    std::vector<int64_t> offsets;
};

void lower_matmul(plan_builder &b, const op &o) {
    const node &n = *o.n;
    const model &m = *b.g.m;
    const matmul_shape s = matmul_shape_of(n, b.g.dims_of(o.inputs[0]), b.g.dims_of(o.inputs[1]));
    const bool constant = b.all_constant(o);

    // Leading Adds of a constant row of N values become the bias (BERT's projections).
    op rest = o;
    std::vector<float> bias_values(static_cast<size_t>(s.n), 0.f);
    std::vector<std::string> folded;
    size_t lead = 0;
    for (; lead < o.post.size() && is_bias_row(m, b.g, s, o.post[lead]); ++lead) {
        const auto &v = m.initializers.at(o.post[lead].operand).data;
        for (int64_t i = 0; i < s.n; ++i) bias_values[i] += v[v.size() == 1 ? 0 : i];
        folded.push_back("bias " + o.post[lead].operand);
    }
    rest.post.erase(rest.post.begin(), rest.post.begin() + static_cast<long>(lead));
    // The chain over the output's dims (each operand viewed with its rank), then each binary
    // operand plain and of full's rank.
    lowered_chain c = lower_chain(b, rest, s.out, post_ops(), nullptr);
    c.folded = folded;
    std::vector<memory> operands(c.po.len());
    for (int i = 0; i < c.po.len(); ++i) {
        if (c.po.entries()[i].kind != post_ops::kind::binary) continue;
        const int key = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1;
        memory x = c.args.at(key);
        const memory::dims d = x.get_desc().get_dims();
        x = b.in_layout_memory(x, plan_builder::plain_desc(d), constant);
        operands[i] = b.view(x, plan_builder::plain_desc(to_full_rank(s, d)));
    }

    // One inner product over A's flattened rows when B has no batch dims and every operand either
    // varies along all of the output's rows or along none.
    const int64_t rows = product(s.batch) * s.m;
    bool flat = product(s.b) == s.k * s.n;
    for (const auto &x : operands) {
        if (x.is_empty()) continue;
        const memory::dims &d = x.get_desc().get_dims();
        const int64_t lead_rows = product(d) / d.back();
        flat = flat && (lead_rows == 1 || lead_rows == rows);
    }

    memory bias;
    if (!folded.empty()) {
        bias = b.persistent(plan_builder::plain_desc({s.n}));
        std::copy(bias_values.begin(), bias_values.end(), static_cast<float *>(bias.get_data_handle()));
    }
    memory dst = host_destination(b, c, plan_builder::plain_desc(s.out), constant);

    // The chain with each operand as one inner product sees it.
    post_ops po;
    std::vector<batch_arg> walk;
    for (int i = 0; i < c.po.len(); ++i) {
        const post_ops::entry &e = c.po.entries()[i];
        if (e.kind == post_ops::kind::eltwise) po.append_eltwise(e.alg, e.alpha, e.beta, e.scale);
        else if (e.kind == post_ops::kind::sum) po.append_sum(e.scale);
        if (e.kind != post_ops::kind::binary) {
            // Runtime parameters (a Clip bound from a graph input): the same memory every batch.
            const int key = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_ATTR_POST_OP_PARAMS;
            const auto it = c.args.find(key);
            if (it != c.args.end()) walk.push_back({key, it->second, it->second.get_desc(), {}});
            continue;
        }
        const memory::desc &fd = operands[i].get_desc();
        const memory::dims &d = fd.get_dims();
        const int64_t lead_rows = product(d) / d.back();
        const memory::desc md = flat ? plan_builder::plain_desc({lead_rows, d.back()})
                                     : last_two(d, fd.strides(), memory::data_type::f32, false);
        po.append_binary(e.alg, md);
        walk.push_back({PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1, operands[i], md,
                        flat ? std::vector<int64_t>{0} : batch_offsets(s.batch, d, fd.strides())});
    }
    auto ip_desc = [&](const memory::desc &src, const memory::desc &wei, const memory::desc &dd) {
        return bias.is_empty()
                       ? inner_product_forward::desc(prop_kind::forward_inference, src, wei, dd)
                       : inner_product_forward::desc(prop_kind::forward_inference, src, wei,
                                                     bias.get_desc(), dd);
    };
    const memory::desc dst2d = plan_builder::plain_desc({flat ? rows : s.m, s.n});

    // B's N x K (its K x N transposed) as a strided view.
    const memory bm = strided_or_plain(b, o.inputs[1]);
    memory::dims b_st = bm.get_desc().strides();
    if (s.b_vec) b_st.push_back(1);
    const memory::desc b2d = last_two(s.b, b_st, memory::data_type::f32, true);

    if (flat) {
        // A plain as rows x K; B packed once when constant, else read through its view (the
        // inner product packs it per call).
        memory src = b.view(b.plain(o.inputs[0]), plan_builder::plain_desc({rows, s.k}));
        memory wei_view = b.view(bm, b2d);
        const bool b_constant = b.is_constant(o.inputs[1]);
        const memory::desc wei_any({s.n, s.k}, memory::data_type::f32, memory::format_tag::any);
        inner_product_forward::primitive_desc pd(ip_desc(src.get_desc(), b_constant ? wei_any : b2d, dst2d),
                                                 b.attr(po));
        memory wei = b.in_layout_memory(wei_view, pd.weights_desc(), b_constant);
        exec_args args;
        for (const auto &w : walk) args[w.key] = b.view(w.base, w.md);
        if (!bias.is_empty()) args[PRIM_ARG_BIAS] = bias;
        args[PRIM_ARG_SRC] = src;
        args[PRIM_ARG_WEIGHTS] = wei;
        args[PRIM_ARG_DST] = b.view(dst, dst2d);
        b.primitive_step(step_text(o, "inner_product", pd.impl_name(), c), inner_product_forward(pd), args,
                         constant);
        b.set(o.outputs[0], dst, constant, true);
        return;
    }

    // Batched: per batch, A's M x K and B's N x K (B's K x N transposed) as strided views.
    const memory am = strided_or_plain(b, o.inputs[0]);
    memory::dims a_st = am.get_desc().strides();
    if (s.a_vec) a_st.insert(a_st.begin(), s.k);
    const memory::desc a2d = last_two(s.a, a_st, memory::data_type::f32, false);
    inner_product_forward::primitive_desc pd(ip_desc(a2d, b2d, dst2d), b.attr(po));
    walk.push_back({PRIM_ARG_SRC, am, a2d, batch_offsets(s.batch, s.a, a_st)});
    walk.push_back({PRIM_ARG_WEIGHTS, bm, b2d, batch_offsets(s.batch, s.b, b_st)});
    const memory::desc dst_full = plan_builder::plain_desc(s.full);
    walk.push_back({PRIM_ARG_DST, dst, dst2d, batch_offsets(s.batch, s.full, dst_full.strides())});
    if (!bias.is_empty()) walk.push_back({PRIM_ARG_BIAS, bias, bias.get_desc(), {}});
    std::vector<memory> uses;
    for (const auto &w : walk) uses.push_back(w.base);
    const inner_product_forward ip(pd);
    const size_t batches = static_cast<size_t>(product(s.batch));
    const bool threaded = batches_over_threads(static_cast<int64_t>(batches), s.m, s.n, s.k);
    b.step(step_text(o, "inner_product", pd.impl_name(), c) + " x" + std::to_string(batches) + " batches",
           [ip, walk, batches, threaded] {
               const int64_t nb = static_cast<int64_t>(batches);
#pragma omp parallel for schedule(static) if (threaded)
               for (int64_t bi = 0; bi < nb; ++bi) {
                   exec_args args;
                   for (const auto &w : walk) {
                       float *base = static_cast<float *>(w.base.get_data_handle());
                       args[w.key] = memory(w.md, base + (w.offsets.empty() ? 0 : w.offsets[bi]));
                   }
                   ip.execute(args);
               }
           },
           constant, uses);
    b.set(o.outputs[0], dst, constant, true);
}

} // namespace

std::vector<op_def> gemm_ops() {
    return {{"Gemm", 2, 3, 1, check_gemm, infer_gemm, lower_gemm},
            {"MatMul", 2, 2, 1, nullptr, infer_matmul, lower_matmul}};
}

} // namespace detail
} // namespace graph
} // namespace prim
