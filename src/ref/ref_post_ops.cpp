// The reference post-ops chain: ref_chain.hpp.
#include "attr/binary_table.hpp"
#include "attr/eltwise_math.hpp"
#include "common/post_op_operands.hpp"
#include "prim/error.hpp"
#include "ref/ref_chain.hpp"

namespace prim {
namespace impl {

namespace {
void refuse_dw(const post_ops &po) {
    if (po.dw_index() >= 0)
        throw error(status::invalid_arguments,
                    "ref_chain: the chain has a dw entry, which is not elementwise (ref_conv_dw.cpp "
                    "runs it)");
}
} // namespace

ref_chain::ref_chain(const post_ops &po) : po_(po), operands_(po.entries().size()) {
    refuse_dw(po);
    if (po.has_operands())
        throw error(status::invalid_arguments,
                    "ref_chain: the chain has binary or prelu entries, their operands are needed");
}

ref_chain::ref_chain(const post_ops &po, const memory::dims &dst_dims,
                     const std::vector<const float *> &operands)
    : po_(po), dims_(dst_dims), operands_(po.entries().size()) {
    refuse_dw(po);
    for (int i = 0; i < po.len(); ++i) {
        const post_ops::entry &e = po.entries()[i];
        if (!has_operand(e)) continue;
        if (static_cast<size_t>(i) >= operands.size() || !operands[i])
            throw error(status::invalid_arguments,
                        "ref_chain: no data for " + operand_name(e, i));
        operand &op = operands_[i];
        op.data = operands[i];
        const memory::dims op_dims = operand_dims(e, dims_);
        op.stride.assign(dims_.size(), 0);
        int64_t dense = 1;
        for (int d = static_cast<int>(dims_.size()) - 1; d >= 0; --d) {
            if (op_dims[d] != 1) op.stride[d] = dense;
            dense *= op_dims[d];
        }
    }
}

float ref_chain::value_of(const operand &op, int64_t index) const {
    int64_t offset = 0;
    for (int d = static_cast<int>(dims_.size()) - 1; d >= 0; --d) {
        offset += (index % dims_[d]) * op.stride[d];
        index /= dims_[d];
    }
    return op.data[offset];
}

namespace {

// dst_old, a value of type dst_dt, read as the sum's type: the same byte as u8 or as s8.
double sum_operand(const post_ops::entry &e, float dst_old, memory::data_type dst_dt) {
    if (e.dt == memory::data_type::s8 && dst_dt == memory::data_type::u8 && dst_old >= 128.f)
        return static_cast<double>(dst_old) - 256.0;
    if (e.dt == memory::data_type::u8 && dst_dt == memory::data_type::s8 && dst_old < 0.f)
        return static_cast<double>(dst_old) + 256.0;
    return static_cast<double>(dst_old);
}

// One entry on x; b is the entry's operand value (binary, prelu), unused otherwise.
float apply_entry(const post_ops::entry &e, float x, float dst_old, float b,
                  memory::data_type dst_dt = memory::data_type::f32) {
    switch (e.kind) {
    case post_ops::kind::sum:
        // Every sum reads the same dst_old: the value before the primitive ran, less the sum's
        // zero point (doc/int8.md).
        return static_cast<float>(static_cast<double>(x)
                                  + e.scale * (sum_operand(e, dst_old, dst_dt) - e.zero_point));
    case post_ops::kind::eltwise: {
        // f rounded to f32, then one rounded product: an extreme scale (1e-42, FLT_MAX, inf)
        // scales the f32 value, as every kernel does, so exp(89) * 1e-42 is inf * 1e-42.
        const float f = static_cast<float>(eltwise_fwd(e.alg, x, e.alpha, e.beta));
        return static_cast<float>(static_cast<double>(e.scale) * f);
    }
    case post_ops::kind::binary: return binary_fwd(e.alg, x, b);
    case post_ops::kind::prelu: return x > 0.f ? x : x * b;
    case post_ops::kind::dw: break; // ref_chain refuses it: the dw reference splits the chain
    }
    return x;
}

} // namespace

float ref_chain::apply(float x, float dst_old, int64_t index) const {
    for (size_t i = 0; i < po_.entries().size(); ++i) {
        const operand &op = operands_[i];
        x = apply_entry(po_.entries()[i], x, dst_old, op.data ? value_of(op, index) : 0.f, dst_dt_);
    }
    return x;
}

float ref_apply_post_ops(const post_ops &po, float x, float dst_old) {
    refuse_dw(po);
    if (po.has_operands())
        throw error(status::invalid_arguments,
                    "ref_apply_post_ops: the chain has binary or prelu entries, use ref_chain");
    for (const post_ops::entry &e : po.entries()) x = apply_entry(e, x, dst_old, 0.f);
    return x;
}

} // namespace impl
} // namespace prim
