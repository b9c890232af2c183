// What the quantized ops' lowerings share (ops_quant.cpp, ops_qmatmul_runtime_b.cpp): a tensor's
// scales and zero points, the int8 primitive's attribute and value buffers, the chain of a fused
// QDQ op, and the quantized MatMul's shape.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

// Scales and zero points of one tensor: one pair (per tensor) or one per index of `axis`.
struct qparams {
    std::vector<float> scales;
    std::vector<int32_t> zps; // as many as scales; 0 when the zero point is left out
    int axis = -1;            // -1: per tensor
    bool zp_uniform() const {
        for (int32_t z : zps)
            if (z != zps[0]) return false;
        return true;
    }
    bool zp_zero() const { return zp_uniform() && zps[0] == 0; }
};

// A zero point given without a scale (ConvInteger, MatMulInteger, input zi of n, one value or
// `extent`): read as qparams with scale 1.
qparams zero_points(const model &m, const node &n, size_t zi, int64_t extent, const char *what);

// count values of type (4 bytes each) in a buffer written now and kept as long as the plan.
memory value_buffer(plan_builder &b, const void *v, memory::data_type type, int64_t count);

// What the int8 primitive needs besides src, weights and dst: its attribute and value buffers.
struct int8_setup {
    primitive_attr attr;
    exec_args args;
    std::vector<float> bias; // f32, per output channel; empty: none
    qparams x, w, y;         // w and y: scale 1 and no zero point for ConvInteger / MatMulInteger
};

// The attribute of a QLinearConv / QLinearMatMul (scales and zero points) or of ConvInteger /
// MatMulInteger (the data's zero point) with chain po; wei_mask: the weights' per-channel mask.
int8_setup quant_setup(plan_builder &b, const node &n, bool qlinear, int64_t oc, int wei_mask,
                       const post_ops &po = post_ops());

// The chain of a fused QDQ op (fuse_qdq*.cpp): its activations and saturations as eltwise
// entries, and a residual sum reading the other operand's integers in place of the dst (chain's
// sum_operand), after base (entries the host needs first). A QDQ MatMul's f32 bias entries are
// not in it: they go into the bias (add_f32_bias).
post_ops int8_chain(const plan_builder &b, const op &o, lowered_chain &chain, post_ops base = post_ops());

// The f32 bias a fused QDQ MatMul's Add gave (fuse_qdq_matmul.cpp) added to s's bias.
void add_f32_bias(const model &m, const op &o, int64_t channels, int8_setup &s);

// MatMulInteger / QLinearMatMul: A (..., M, K) times B (K, N), or batched: A (batch..., M, K)
// times B (batch..., K, N) with the same batch dims (one inner product per batch).
struct qmatmul_shape {
    int64_t m, k, n;      // m: A's flattened rows (2-D B) or one batch's rows
    int64_t batches = 1;
};
qmatmul_shape qmatmul_of(const node &n, const memory::dims &a, const memory::dims &b);

// The quantized MatMul whose B is computed at run time (ops_qmatmul_runtime_b.cpp).
void lower_qmatmul_runtime_b(plan_builder &b, const op &o, const node &n, const qmatmul_shape &sh);

} // namespace detail
} // namespace graph
} // namespace prim
