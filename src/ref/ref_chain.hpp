// The reference post-ops chain (doc/reference.md §1) on one value at a time, with the operands
// of its binary and prelu entries. Each entry is computed in double (or exactly in f32) and
// rounded to f32 right after it (an eltwise's f before its scale), as the JIT kernels do, so both
// take the same branch at discontinuities (round, shrink, clip, the comparisons).
#pragma once
#include <cstdint>
#include <vector>

#include "prim/attr.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

class ref_chain {
public:
    // A chain without binary or prelu entries (throws invalid_arguments otherwise).
    ref_chain(const post_ops &po); // NOLINT: implicit, so kernels take a plain chain as well
    // operands[i]: entry i's operand, plain row-major in its own dims (dst_dims with the
    // broadcast dims 1); null for entries without an operand.
    ref_chain(const post_ops &po, const memory::dims &dst_dims,
              const std::vector<const float *> &operands);

    // x through the chain. dst_old: what the destination held before the primitive ran (the
    // sums read it); index: the element's row-major index in the destination's dims.
    float apply(float x, float dst_old, int64_t index) const;
    const post_ops &chain() const { return po_; }
    // The destination's type, for a sum that reads dst_old as another type (u8 as s8 or back);
    // f32 unless set.
    void set_dst_type(memory::data_type dt) { dst_dt_ = dt; }

private:
    struct operand {
        const float *data = nullptr;
        std::vector<int64_t> stride; // per destination dim, innermost last; 0 where broadcast
    };
    float value_of(const operand &op, int64_t index) const;

    post_ops po_;
    memory::dims dims_;
    std::vector<operand> operands_; // one per entry, data null for entries without one
    memory::data_type dst_dt_ = memory::data_type::f32;
};

// The same on a chain without operands (throws invalid_arguments otherwise).
float ref_apply_post_ops(const post_ops &po, float x, float dst_old);

} // namespace impl
} // namespace prim
