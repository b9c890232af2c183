// The JIT eltwise kernel: dst[i] = chain(src[i]) over `rows` consecutive rows of `row_len`
// elements, where the chain is the primitive's algorithm followed by its attribute's post-ops (a
// sum reads dst's old value). Per row: a loop over blocks of `unroll` vectors, then single
// vectors, then one masked tail; the caller threads over chunks of rows (or of one long row).
// src may equal dst (in place).
//
// Binary and prelu operands (kernel chain masks) are read per row as one value (common:
// broadcast), as a row laid out like dst's (per_tensor: at dst's address plus a difference) or as
// one vector repeated (per_oc: a blocked layout's channel block). Between rows each operand moves by a fixed step, so a per-channel or
// per-pixel operand becomes one or the other by the caller's choice of rows (jit_eltwise.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "jit/gen/isa_traits.hpp"
#include "jit/gen/jit_generator.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace jit {

// What the kernel reads at run time, through one pointer (fields by offsetof).
struct eltwise_call_args {
    const float *src;
    float *dst;
    int64_t row_len;   // elements per row
    int64_t rows = 1;  // rows, consecutive in memory
    // Per chain entry two values, updated by the kernel: [2i] the operand's address for the
    // current row (common) or its difference from dst in bytes (per_tensor), [2i + 1] what is
    // added to [2i] after each row. Null when the chain has no operand.
    int64_t *post_op = nullptr;
    const void *table = nullptr; // the constant table with runtime parameters (runtime_table.hpp)
};
using eltwise_kernel_fn = void (*)(const eltwise_call_args *);

// What the code depends on besides the ISA and the chain (which the kernel takes beside it).
// Its bytes are the kernel cache's key (kernel_key()): integer or bool fields, no padding.
struct eltwise_kernel_conf {
    bool stream_stores = false; // non-temporal stores (large out-of-place runs without sum)
};

template <cpu_isa isa>
class eltwise_kernel : public jit_generator {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    // chain: the primitive's algorithm first, then the attribute's entries.
    eltwise_kernel(const eltwise_kernel_conf &conf, const post_ops &chain);
    // The process-wide kernel cache's key: the ISA, every byte of conf, and the chain.
    static std::string cache_key(const eltwise_kernel_conf &conf, const post_ops &chain);

private:
    void generate() override;
    // Loads, runs the chain on, and stores `n_vecs` vectors at the current pointers.
    void process_block(int n_vecs, bool tail);
    void emit_row(); // the flat loop over one row of reg_n elements at reg_src / reg_dst
    void load_operand(const operand_args &o);

    eltwise_kernel_conf conf_;
    post_ops chain_;
    int unroll_ = 1;
    int n_aux_ = 0;
    bool tail_block_ = false;               // the block being emitted is the masked tail
    post_ops_injector<isa> *injector_ = nullptr; // valid during generate()
    // registers
    Xbyak::Reg64 reg_param, reg_src, reg_dst, reg_n, reg_table, reg_tmp;
    Xbyak::Reg64 reg_rows, reg_src_row, reg_dst_row, reg_values, reg_op;
    int tail_mask_idx_ = 0;                 // opmask (avx512) or vector (avx2)
};

// Creates (or reuses from the kernel cache) the kernel for conf and chain on isa.
std::shared_ptr<const jit_generator> get_eltwise_kernel(cpu_isa isa, const eltwise_kernel_conf &conf,
                                                        const post_ops &chain);

} // namespace jit
} // namespace prim
