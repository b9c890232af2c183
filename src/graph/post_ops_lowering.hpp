// The fused entries of an op as prim post-ops: eltwise entries as they are, a sum reading the
// residual's buffer, binary entries with their operands broadcast to the output, and the
// per-channel entries (bias add, scale, batch norm) folded into the weights and bias where the host has
// constant ones and nothing came before them, else per-channel binary entries.
#pragma once
#include <string>
#include <vector>

#include "graph/plan.hpp"

namespace prim {
namespace graph {
namespace detail {

// Weights and bias that may absorb leading per-channel entries (oc-major). The weights are not
// copied here: the factors are recorded, and the host applies them in order (w * a1 * a2...)
// while it writes its weights into their final layout.
struct fold_state {
    int64_t oc = 0;
    bool weights_constant = false; // false: the weights are not an initializer, no scale folds
    std::vector<std::vector<float>> weight_scales; // per-oc factors, in the chain's order
    std::vector<float> bias;       // oc values (zeros when the host had none)
    bool bias_constant = true;     // false: the bias is a graph input, nothing folds
    bool changed = false;          // something was folded: use these copies
};

// The depthwise convolution of a chain's dw entry (fuse_dw_pairs.cpp): its output dims and the
// weights and bias the entries after the dw may fold into, as fold_state does for the host's.
struct dw_lowering {
    const post_entry::depthwise *conv = nullptr;
    memory::dims out;
    fold_state fold;
};

// The depthwise convolution of o's dw entry, or nullptr when o has none.
const post_entry::depthwise *dw_entry_of(const op &o);

struct lowered_chain {
    post_ops po;
    exec_args args;              // the operands of binary entries
    std::string sum_operand;     // the tensor a sum reads ("" when none)
    std::vector<std::string> folded; // what went into the weights and bias, for the step text
};

// base: entries the host itself needs first (Gemm's alpha and beta); fold: null when the host has
// no weights or bias to fold into. dw: the depthwise convolution of the chain's dw entry (null
// when it has none): the entries after that entry apply to its output and fold into its weights.
lowered_chain lower_chain(plan_builder &b, const op &o, const memory::dims &out, const post_ops &base,
                          fold_state *fold, dw_lowering *dw = nullptr);

// The destination of a host whose chain has a sum: the residual's own buffer when it may be
// overwritten and has the layout want, else a new buffer the residual is copied into first.
memory sum_destination(plan_builder &b, const lowered_chain &c, const memory::desc &want,
                       bool constant);

// Text for a step: "Conv_0+Relu_1: convolution jit:avx512 post-ops relu".
std::string step_text(const op &o, const std::string &what, const std::string &impl,
                      const lowered_chain &c);

// The operand of a binary entry: t's plain data viewed with out's rank (1s in front).
memory broadcast_operand(plan_builder &b, const std::string &t, const memory::dims &out);

// Output tensor's memory for a host with a chain: a new buffer of desc, or the sum's destination.
memory host_destination(plan_builder &b, const lowered_chain &c, const memory::desc &md,
                        bool constant);

} // namespace detail
} // namespace graph
} // namespace prim
