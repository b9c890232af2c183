// How the JIT eltwise walks a dense destination so that each binary or prelu operand is, along a
// row, either one value or laid out like the destination: the kernel then reads it with no index
// arithmetic (eltwise_kernel.hpp). The destination is seen as its memory dims, outermost first
// (nChw16c: n, C/16, h, w, 16c); a row is the longest run of innermost memory dims over which
// every operand is constant or follows the destination element for element. The next dim out is
// the row dim (rows one after another in one kernel call, each operand moving by a fixed step);
// the dims beyond it are walked by the caller.
//   nchw, per_oc:          rows = planes (h, w), one value each, the row dim c
//   nhwc, per_oc:          rows = pixels (c), the same channel vector for every pixel
//   nchw, per_mb_spatial:  rows = planes, the same plane of the operand for every channel
//   nChw16c, per_oc:       rows = planes of a channel block (h, w, 16c), one vector repeated
//   no operand, common, per_tensor in dst's layout: one row, the whole tensor
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "prim/attr.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace jit {

struct eltwise_rows {
    int64_t row_len = 0;              // elements per row
    int64_t rows = 1;                 // rows per outer index (the row dim's size; 1: one row)
    std::vector<int64_t> outer_sizes; // the dims beyond the row dim, outermost first
    std::vector<int64_t> dst_outer;   // dst's strides along them, elements

    // How a row reads an operand.
    enum class read {
        one_value,      // one value for the whole row, broadcast
        follows_dst,    // laid out like dst along the row
        repeats_vector, // one vector repeated along the row: the row's innermost memory dim is a
                        // block of exactly one vector (nChw16c on AVX-512) along which the
                        // operand is contiguous, and it is constant along the row's other dims
    };
    struct operand {
        bool present = false;
        read how = read::one_value;
        std::vector<int64_t> outer;      // strides along the outer dims, elements
        int64_t row_step = 0;            // stride along the row dim, elements
    };
    std::vector<operand> operands; // per chain entry

    int64_t outer_count() const {
        int64_t n = 1;
        for (int64_t s : outer_sizes) n *= s;
        return n;
    }
};

// Plans the walk of dst (dense) for the chain's operands (mds: per entry, zero for entries
// without one) with vectors of simd_w lanes, and sets kernel_chain to the chain with each
// operand's mask saying how a row reads it: common (one value), per_tensor (follows dst) or
// per_oc (repeats one vector). Returns "" or why the kernel cannot read an operand.
std::string plan_eltwise_rows(const memory::desc &dst, const post_ops &chain,
                              const std::vector<memory::desc> &mds, int simd_w,
                              eltwise_rows &plan, post_ops &kernel_chain);

} // namespace jit
} // namespace prim
