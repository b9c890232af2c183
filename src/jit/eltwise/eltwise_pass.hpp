// One JIT pass over a dense tensor: dst = chain(f_alg(src)), the chain's binary and prelu entries
// reading their operands row by row (eltwise_rows.hpp), threaded over chunks of the flat buffer
// or of the rows. The JIT eltwise is one such pass; the binary primitive and the normalizations
// are too, with their second input or their per-channel factors as operands of entries placed
// before the user's chain.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jit/eltwise/eltwise_rows.hpp"
#include "jit/gen/jit_generator.hpp"
#include "jit/gen/runtime_table.hpp"
#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

// What a pass reads besides f32 data: src's type, and scales applied as values are loaded
// (binary's: dst = chain(alg(s0·src0, s1·src1)), src1 the chain's first operand).
struct eltwise_pass_options {
    memory::data_type src_dt = memory::data_type::f32;
    bool scale_src = false;           // src times eltwise_scales::src
    bool scale_first_operand = false; // the chain's first operand times eltwise_scales::first_operand
};
// One execute's values of those scales.
struct eltwise_scales {
    float src = 1.f, first_operand = 1.f;
};

class eltwise_pass {
public:
    // isa: avx2 or avx512. md: dst's desc, dense; src has its layout and type opts.src_dt (each
    // of f32, s32, s8, u8). chain: applied after f_alg, its operands in operand_mds (one per
    // entry, zero for entries without one), binary operands of any of the four types. Returns
    // null and sets why_not when the kernel cannot read an operand or the injector cannot take
    // the chain.
    static std::unique_ptr<eltwise_pass> create(cpu_isa isa, algorithm alg, float alpha, float beta,
                                                const post_ops &chain, const memory::desc &md,
                                                const std::vector<memory::desc> &operand_mds,
                                                std::string &why_not,
                                                const eltwise_pass_options &opts = {});

    // operands: one per chain entry (null for entries without one), in operand_mds' layouts.
    // runtime_params: the chain's runtime parameters by slot (exec_ptrs::runtime_params).
    // scales: the values of the options' scales.
    void execute(const void *src, void *dst, const std::vector<const float *> &operands,
                 const std::vector<float> &runtime_params, const eltwise_scales &scales = {}) const;

    // The walk's rows (eltwise_rows.hpp): total_rows() of row_len() elements, in memory order.
    int64_t row_len() const { return plan_.row_len; }
    int64_t total_rows() const { return plan_.rows * plan_.outer_count(); }
    // Rows [first, first + count) on the calling thread, for callers that thread the work
    // themselves and interleave their own with it (layer normalization's statistics).
    void execute_rows(const void *src, void *dst, const std::vector<const float *> &operands,
                      const std::vector<float> &runtime_params, int64_t first, int64_t count) const;

private:
    eltwise_pass(cpu_isa isa, const post_ops &kernel_chain, int64_t nelems, eltwise_rows plan,
                 const eltwise_pass_options &opts, memory::data_type dst_dt);
    // Non-temporal stores for this call: large, out of place, dst aligned, no sum.
    bool stream(const void *src, const void *dst) const;
    // Rows [first, first + count), cut where the outer index changes.
    void run_rows(const void *src, void *dst, const std::vector<const float *> &operands,
                  const runtime_tables &tables, const eltwise_scales &scales, bool stream,
                  int64_t first, int64_t count) const;
    // One kernel call: rows of row_len elements from element start of the outer index outer.
    void call(const void *src, void *dst, const std::vector<const float *> &operands,
              const runtime_tables &tables, const eltwise_scales &scales, bool stream,
              int64_t outer, int64_t start, int64_t row_len, int64_t rows,
              std::vector<int64_t> &values) const;
    runtime_tables tables_for(const std::vector<float> &runtime_params) const {
        return runtime_tables({kernel_.get(), stream_kernel_.get()}, runtime_params);
    }

    cpu_isa isa_;
    int64_t nelems_;
    eltwise_rows plan_;
    int64_t src_size_, dst_size_;        // bytes per element
    std::vector<int64_t> operand_sizes_; // per chain entry (0 without an operand)
    bool has_operands_;
    std::shared_ptr<const jit_generator> kernel_, stream_kernel_;
};

} // namespace jit
} // namespace prim
