// How the batched MatMuls (ops_gemm.cpp, ops_qmatmul_runtime_b.cpp) see their operands: each
// batch's 2-D slice as a strided view of the tensor's own memory (a transposition is a layout, not
// a copy), each batch's offset into it, and whether the batches go over the threads.
#pragma once
#include <string>
#include <vector>

#include "graph/plan.hpp"

namespace prim {
namespace graph {
namespace detail {

// t's memory as its producer left it when that is a layout by strides (a Transpose's view, a
// plain buffer), else its plain copy.
memory strided_or_plain(plan_builder &b, const std::string &t);

// The 2-D desc of the last two dims of a strided tensor (rows x cols), or its transposition.
memory::desc last_two(const memory::dims &d, const memory::dims &st, memory::data_type dt, bool transposed);

// Offsets, in elements, of each batch (row-major over batch) into a tensor of dims d (its leading
// dims broadcasting to batch, right-aligned) and strides st: broadcast dims do not move.
std::vector<int64_t> batch_offsets(const memory::dims &batch, const memory::dims &d, const memory::dims &st);

// Whether the batches of m x k times k x n products go over the threads, each product on one
// (attention's are small: one parallel region instead of one per batch, each a barrier on a busy
// machine), or run one after another, each product threading itself.
inline bool batches_over_threads(int64_t batches, int64_t m, int64_t n, int64_t k) {
    return batches > 1 && 2.0 * m * n * k * batches > double(1 << 20);
}

} // namespace detail
} // namespace graph
} // namespace prim
