// The JIT eltwise kernel: dst[i] = chain(src[i]) over `rows` consecutive rows of `row_len`
// elements, where the chain is the primitive's algorithm followed by its attribute's post-ops (a
// sum reads dst's old value). Per row: a loop over blocks of `unroll` vectors, then single
// vectors, then one masked tail; the caller threads over chunks of rows (or of one long row).
// src may equal dst (in place). src and dst are each f32, s32, s8 or u8 (typed_vectors.hpp):
// the chain runs in f32, an integer dst is rounded half to even and saturated.
//
// Binary and prelu operands (kernel chain masks) are read per row as one value (common:
// broadcast), as a row laid out like dst's (per_tensor: element i of the row at the operand's row
// address plus i times its type's size) or as one vector repeated (per_oc: a blocked layout's
// channel block), converted from the binary entry's data type. Between rows each operand moves by
// a fixed step, so a per-channel or per-pixel operand becomes one or the other by the caller's
// choice of rows (eltwise_rows.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "jit/gen/isa_traits.hpp"
#include "jit/gen/jit_generator.hpp"
#include "jit/gen/typed_vectors.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "prim/attr.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// What the kernel reads at run time, through one pointer (fields by offsetof).
struct eltwise_call_args {
    const void *src;
    void *dst;
    int64_t row_len;   // elements per row
    int64_t rows = 1;  // rows, consecutive in memory
    // Per chain entry two values, updated by the kernel: [2i] the operand's address for the
    // current row, [2i + 1] the bytes added to [2i] after each row. Null when the chain has no
    // operand.
    int64_t *post_op = nullptr;
    const void *table = nullptr; // the constant table with runtime parameters (runtime_table.hpp)
    // The scales of conf's scale_src and scale_first_operand, each repeated in every lane, read
    // as a vector operand (no register to broadcast them into).
    float src_scale[16] = {};
    float first_operand_scale[16] = {};
};
using eltwise_kernel_fn = void (*)(const eltwise_call_args *);

// What the code depends on besides the ISA and the chain (which the kernel takes beside it).
// Its bytes are the kernel cache's key (kernel_key()): integer or bool fields, no padding.
struct eltwise_kernel_conf {
    uint8_t src_dt = static_cast<uint8_t>(memory::data_type::f32); // memory::data_type values
    uint8_t dst_dt = static_cast<uint8_t>(memory::data_type::f32);
    bool stream_stores = false; // non-temporal stores (large out-of-place runs without sum)
    // Values multiplied by a scale as they are loaded (binary's src0 and src1 scales): src
    // before the chain, the chain's first operand (its first binary or prelu entry's).
    bool scale_src = false;
    bool scale_first_operand = false;
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
    // Loads, runs the chain on, and stores `n_vecs` vectors from element reg_i of the row.
    void process_block(int n_vecs, bool tail);
    void emit_row(); // the flat loop over one row of row_len elements at reg_src_row / reg_dst_row
    void sum_dst_old(const sum_args &s);
    void load_operand(const operand_args &o);
    memory::data_type src_dt() const { return static_cast<memory::data_type>(conf_.src_dt); }
    memory::data_type dst_dt() const { return static_cast<memory::data_type>(conf_.dst_dt); }
    // Element reg_i + j·simd_w of a row of type t starting at row.
    Xbyak::RegExp at(const Xbyak::Reg64 &row, memory::data_type t, int j) const {
        const int size = static_cast<int>(data_type_size(t));
        return row + reg_i * size + j * isa_traits<isa>::simd_w * size;
    }
    // The lanes of the block being emitted: a vector's, or reg_n's in the masked tail.
    vector_lanes lanes() const {
        return tail_block_ ? vector_lanes::first_count(reg_n) : vector_lanes::all();
    }

    eltwise_kernel_conf conf_;
    post_ops chain_;
    int unroll_ = 1;
    int n_aux_ = 0;
    bool tail_block_ = false;               // the block being emitted is the masked tail
    int first_operand_entry_ = -1;          // the chain's first entry with an operand
    post_ops_injector<isa> *injector_ = nullptr; // valid during generate()
    // registers: the row's starts, the element index in the row and the elements left from it
    Xbyak::Reg64 reg_param, reg_i, reg_n, reg_table, reg_tmp;
    Xbyak::Reg64 reg_rows, reg_src_row, reg_dst_row, reg_values, reg_op;
    int tail_mask_idx_ = 0;                 // opmask (avx512) or vector (avx2)
};

// Creates (or reuses from the kernel cache) the kernel for conf and chain on isa.
std::shared_ptr<const jit_generator> get_eltwise_kernel(cpu_isa isa, const eltwise_kernel_conf &conf,
                                                        const post_ops &chain);

} // namespace jit
} // namespace prim
