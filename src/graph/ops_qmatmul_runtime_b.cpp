// The quantized MatMul whose B is computed at run time: attention's Q·Kᵀ and P·V in a QDQ
// transformer (fuse_qdq_matmul.cpp), QLinearMatMul and MatMulInteger with B a graph tensor.
// prim's int8 inner product takes s8 weights without a zero point, so at every run each batch's
// B is copied into plain s8 weights (the inner product packs them) as b' = b − 128 (u8: exact) or
// b itself (s8), and what B's zero point leaves over, w = zp_B − 128 (u8) or zp_B (s8), goes
// in as the chain's first entry:
//   Σ_k (a − zp_a)(b − zp_B) = Σ_k (a − zp_a)·b' − w·R[m],   R[m] = Σ_k (a − zp_a)
// the second term one value per row of A: an f32 binary add of −s_a·s_B·w·R[m], R summed from A at
// each run. Exact as the f32 route is: while the values are integers below 2^24.
#include "graph/batch_views.hpp"
#include "graph/quant_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

using dt = memory::data_type;

// R[m] = Σ_k (a[m][k] − zp) for the rows of one batch of A (plain, rows x k), times factor.
template <typename T>
void scaled_row_sums(const T *a, int64_t rows, int64_t k, int32_t zp, float factor, float *out) {
    for (int64_t m = 0; m < rows; ++m) {
        int32_t sum = 0;
        for (int64_t i = 0; i < k; ++i) sum += a[m * k + i];
        out[m] = factor * static_cast<float>(sum - static_cast<int32_t>(k) * zp);
    }
}

// One batch of B, an N x K view of one-byte values with any strides, copied into the dense N x K
// s8 weights the inner product takes (it packs them itself, sums included), each byte xor'ed with
// flip (0x80: u8 b to s8 b − 128).
void dense_weights(const uint8_t *src, const memory::desc &view, uint8_t flip, uint8_t *dst) {
    const memory::dims &d = view.get_dims(), &st = view.strides();
    for (int64_t n = 0; n < d[0]; ++n) {
        const uint8_t *in = src + n * st[0];
        uint8_t *out = dst + n * d[1];
        if (st[1] == 1)
            for (int64_t k = 0; k < d[1]; ++k) out[k] = in[k] ^ flip;
        else // V's columns: a transposition, its src lines reused from the cache
            for (int64_t k = 0; k < d[1]; ++k) out[k] = in[k * st[1]] ^ flip;
    }
}

} // namespace

void lower_qmatmul_runtime_b(plan_builder &b, const op &o, const node &n, const qmatmul_shape &sh) {
    const model &m = *b.g.m;
    const bool qlinear = o.type == "QLinearMatMul";
    const std::string &bname = o.inputs[qlinear ? 3 : 1];
    if (n.op_type == "Gemm") fail(n, "a Gemm whose B is computed at run time is not supported", status::unimplemented);
    const dt xdt = b.g.type_of(o.inputs[0]), bdt = b.g.type_of(bname), ydt = b.g.type_of(o.outputs[0]);
    const qparams bzp = zero_points(m, n, qlinear ? 5 : 3, sh.n, "B");
    if (!bzp.zp_uniform())
        fail(n, "B (" + bname + ") is computed at run time and has a zero point per column: one per tensor is supported",
             status::unimplemented);
    const int32_t leftover = bdt == dt::u8 ? bzp.zps[0] - 128 : bzp.zps[0];

    // The chain: the correction first (when B's zero point leaves one), then the op's own.
    const memory::desc row_operand = plan_builder::plain_desc({sh.m, 1});
    post_ops correction;
    if (leftover != 0) correction.append_binary(algorithm::binary_add, row_operand);
    lowered_chain chain;
    const post_ops po = int8_chain(b, o, chain, correction);
    int8_setup s = quant_setup(b, n, qlinear, sh.n, 1, po);
    // The correction's factor is one value per row: B's scale must be one too.
    if (leftover != 0 && s.w.scales.size() != 1)
        fail(n, "B (" + bname + ") is computed at run time and has a scale per column with a zero point of " +
                    std::to_string(bzp.zps[0]) + ": one scale per tensor is supported",
             status::unimplemented);
    add_f32_bias(m, o, sh.n, s);
    const float factor = -s.x.scales[0] * s.w.scales[0] * static_cast<float>(leftover);
    const int32_t zp_a = s.x.zps[0];

    // One inner product for every batch: A's rows and B's plain.
    const memory::dims &yd = b.g.dims_of(o.outputs[0]);
    const memory::desc src2d = plan_builder::plain_desc({sh.m, sh.k}, xdt),
                       dst2d = plan_builder::plain_desc({sh.m, sh.n}, ydt);
    memory bias;
    if (!s.bias.empty()) bias = value_buffer(b, s.bias.data(), dt::f32, sh.n);
    const memory::desc wei2d = plan_builder::plain_desc({sh.n, sh.k}, dt::s8);
    const auto d = bias.is_empty()
            ? inner_product_forward::desc(prop_kind::forward_inference, src2d, wei2d, dst2d)
            : inner_product_forward::desc(prop_kind::forward_inference, src2d, wei2d, bias.get_desc(), dst2d);
    inner_product_forward::primitive_desc pd(d, s.attr);

    // B's batches as N x K views of its memory (Kᵀ from a Transpose is its producer's rows), each
    // copied into dense s8 weights: less 128 for u8.
    const memory bm = strided_or_plain(b, bname);
    const memory::dims &bd = b.g.dims_of(bname), &b_st = bm.get_desc().strides();
    const memory::desc b2d = last_two(bd, b_st, bdt, true);
    const memory::dims batch(bd.begin(), bd.end() - 2);
    const std::vector<int64_t> b_offsets = batch_offsets(batch, bd, b_st); // bytes: B is u8 or s8
    const uint8_t flip = bdt == dt::u8 ? 0x80 : 0;

    const memory src = b.plain(o.inputs[0]);
    memory wei = b.persistent(plan_builder::plain_desc({sh.batches * sh.n * sh.k}, dt::s8));
    memory corr;
    if (leftover != 0) corr = b.persistent(plan_builder::plain_desc({sh.batches * sh.m}));
    const bool constant = b.all_constant(o);
    const memory dst = host_destination(b, chain, plan_builder::plain_desc(yd, ydt), constant);
    exec_args args = s.args;
    if (!bias.is_empty()) args[PRIM_ARG_BIAS] = bias;
    std::vector<memory> uses = {src, bm, dst, wei};
    for (const auto &kv : args) uses.push_back(kv.second);

    const inner_product_forward ip(pd);
    const int64_t batches = sh.batches, rows = sh.m, k = sh.k, nk = sh.n * sh.k;
    const size_t a_bytes = src2d.get_size(), y_bytes = dst2d.get_size();
    const bool threaded = batches_over_threads(batches, sh.m, sh.n, sh.k);
    const auto at = [](const memory &base, size_t offset) { return static_cast<char *>(base.get_data_handle()) + offset; };
    b.step(o.n->name + ": inner product " + pd.impl_name() + " " + data_type_name(xdt) + ":s8:" +
                   data_type_name(ydt) + ", B (" + data_type_name(bdt) + ") packed at every run" +
                   (leftover ? ", its zero point's rest by row sums" : "") + " x" + std::to_string(batches) + " batches",
           [=] {
#pragma omp parallel for schedule(static) if (threaded)
               for (int64_t bt = 0; bt < batches; ++bt) {
                   const char *a = at(src, static_cast<size_t>(bt) * a_bytes);
                   exec_args run = args;
                   if (leftover != 0) {
                       float *r = static_cast<float *>(corr.get_data_handle()) + bt * rows;
                       if (xdt == dt::u8) scaled_row_sums(reinterpret_cast<const uint8_t *>(a), rows, k, zp_a, factor, r);
                       else scaled_row_sums(reinterpret_cast<const int8_t *>(a), rows, k, zp_a, factor, r);
                       run[PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1] = memory(row_operand, r);
                   }
                   char *w = at(wei, static_cast<size_t>(bt * nk));
                   dense_weights(reinterpret_cast<const uint8_t *>(at(bm, static_cast<size_t>(b_offsets[static_cast<size_t>(bt)]))),
                                 b2d, flip, reinterpret_cast<uint8_t *>(w));
                   run[PRIM_ARG_SRC] = memory(src2d, const_cast<char *>(a));
                   run[PRIM_ARG_WEIGHTS] = memory(wei2d, w);
                   run[PRIM_ARG_DST] = memory(dst2d, at(dst, static_cast<size_t>(bt) * y_bytes));
                   ip.execute(run);
               }
           },
           constant, uses);
    b.set(o.outputs[0], dst, constant, true);
}

} // namespace detail
} // namespace graph
} // namespace prim
