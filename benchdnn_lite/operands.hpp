// The operands of a chain's binary and prelu entries. Like every other tensor (fill.hpp) an
// operand's values are a function of (post-op index, plain index) only: the fused primitive,
// each pass of the unfused pipeline, oneDNN and the reference all see the same data, each in
// its own layout.
#pragma once
#include <cstdint>
#include <vector>

#include "prim/prim.hpp"

namespace bdl {

// Entry `index`'s operand in the plain layout of dims.
std::vector<float> operand_data(const prim::post_ops::entry &e, int index,
                                const prim::memory::dims &dims);

// Adds the operand of entry e, post-op `data_index` of the case's chain, to args as the operand
// of post-op `arg_index` of the primitive pd describes (PRIM_ARG_ATTR_MULTIPLE_POST_OP(arg_index)
// | PRIM_ARG_SRC_1, or | PRIM_ARG_WEIGHTS for prelu), reordered into the layout pd reports. The
// indices differ in the unfused pipeline, whose passes hold one entry each. Throws
// std::runtime_error when pd reports no desc or other dims than the destination implies.
// dst_dims: the destination the entry applies to when it is not pd's dst (an entry before a dw
// post-op: the 1x1's output).
void bind_operand(const prim::post_ops::entry &e, int data_index, int arg_index,
                  const prim::primitive_desc_base &pd, prim::exec_args &args,
                  const prim::memory::dims *dst_dims = nullptr);
// Every operand of pd's chain (those before a dw post-op against the 1x1's output), and the
// values of its runtime parameters.
void bind_operands(const prim::primitive_desc_base &pd, prim::exec_args &args);

// A runtime parameter ('*' in a fusion string) runs with the value the string gives when the
// field is left out (relu:* computes relu:0): the chain with those values, for the reference,
// the unfused pipeline and oneDNN, and each entry's three values (alpha, beta, scale).
prim::post_ops with_runtime_defaults(const prim::post_ops &po);
std::vector<float> runtime_defaults(const prim::post_ops::entry &e);

// A chain's operands in plain buffers, for the reference (ref_chain) and the comparison's second
// chance, against a destination of dst_dims.
class chain_operands {
public:
    // first: the index in the case's chain of po's first entry (po may be its tail), whose
    // operand data are those of that index.
    chain_operands(const prim::post_ops &po, const prim::memory::dims &dst_dims, int first = 0);
    // One per entry, null for entries without an operand: what ref_chain takes.
    std::vector<const float *> pointers() const;
    // Each entry's operand value for the destination element at plain index dst_index (0 for
    // entries without an operand), into out[0 .. po.len()).
    void values_at(int64_t dst_index, float *out) const;

private:
    std::vector<std::vector<float>> data_;       // per entry, empty without an operand
    std::vector<std::vector<int64_t>> strides_;  // per entry, per dst dim; 0 where broadcast
    prim::memory::dims dst_dims_;
};

} // namespace bdl
