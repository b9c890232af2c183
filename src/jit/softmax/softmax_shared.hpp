// What the two JIT softmaxes share (jit_softmax.cpp: the axis innermost; jit_softmax_strided.cpp:
// any other axis on a plain layout): when a run stays on one thread, and how a pass is made.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "common/post_op_operands.hpp"
#include "jit/eltwise/eltwise_pass.hpp"

namespace prim {
namespace impl {

// Below this many elements one thread does the whole run.
constexpr int64_t softmax_min_elems_per_thread = 16 * 1024;

// An eltwise pass (identity) running chain on md, or null with why_not.
inline std::unique_ptr<jit::eltwise_pass> softmax_pass(cpu_isa isa, const post_ops &chain,
                                                       const memory::desc &md, std::string &why_not) {
    return jit::eltwise_pass::create(isa, algorithm::eltwise_identity, 0.f, 0.f, chain, md,
                                     operand_descs(chain, md), why_not);
}

} // namespace impl
} // namespace prim
