// The one decision of which post-ops chain a JIT kernel runs. Every JIT creator asks it once,
// for its kernel's ISA, the request's chain and the destination; its configuration reads the
// answer and nothing rewrites it:
//   - the chain the kernel runs: the request's (whose runtime parameters choose_impl.hpp made
//     slots for every implementation), each binary or prelu operand's mask replaced by its
//     access (operand_access.hpp), and, for kernels that convert operands, each binary entry's
//     data type set to its operand's;
//   - the spare vector registers the host lends the injector (AVX2's tail mask for operand loads
//     included where the kernel keeps one);
//   - the reason when no kernel runs the chain ("" otherwise).
// What a primitive checks beyond this (how its kernel strides through an operand, whether its
// registers fit) stays its own.
#pragma once
#include <string>

#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// How the kernel meets the chain.
struct kernel_chain_needs {
    // Every kernel call covers one image (convolution, pooling): an operand's variation along
    // dim 0 is absorbed by the call.
    bool batch_per_call = false;
    // Binary entries carry their operand's data type, which the kernel converts from (int8).
    bool operand_types = false;
    // On AVX2 the kernel keeps the operand loads' tail mask in one more spare vector.
    bool operand_mask_spare = false;
};

struct kernel_chain_plan {
    post_ops chain;               // the chain the kernel runs; part of its cache key
    int aux_vecs = 0;             // spare vectors it needs (the injector's and the mask's)
    int interleaved_aux_vecs = 0; // the same for two accumulators' code interleaved
    std::string why_not;          // "" or why no kernel runs the chain
};

// The plan for user (the request's chain) on a kernel of isa (avx2 or avx512) writing dst.
kernel_chain_plan plan_kernel_chain(cpu_isa isa, const post_ops &user, const memory::desc &dst,
                                    const kernel_chain_needs &needs);

// Its second half, for a chain whose operand accesses the caller decided itself (the eltwise
// pass's rows, eltwise_rows.hpp): the injector's verdict and the spares.
kernel_chain_plan admit_kernel_chain(cpu_isa isa, const post_ops &kernel_chain,
                                     const kernel_chain_needs &needs);

} // namespace jit
} // namespace prim
