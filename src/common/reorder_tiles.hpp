// The reorder's fast path between a blocked layout (inner blocks, "ABcd16b16a", "aBcd16b",
// "Ab128a") and a layout without inner blocks (plain, nhwc, any strides): the blocked side is
// walked in its memory order one tile (its inner blocks, 16 to 256 elements contiguous) at a
// time, the other side's element of each tile entry found by a table built once. Weights go into
// their kernels' layouts this way at load time.
#pragma once
#include <cstdint>
#include <vector>

#include "prim/memory.hpp"

namespace prim {
namespace impl {

// Below this many elements a reorder runs on one thread: a team costs more than it saves, and
// far more when the other core is busy (the team waits for its thread to be scheduled). Above,
// both threads share the work, and the first touch of a new dst's pages (most of a weights
// reorder's time): ResNet-50's compile took a median 53 ms with 2^16, 62 ms with 2^20, 75 ms on
// one thread.
constexpr memory::dim reorder_parallel_elements = memory::dim(1) << 16;
// The same for one-byte elements (int8 weights, reorder_bytes_by_tiles), which copy fast: a team
// pays only for the largest. On busy cores each team waits for a core longer than a smaller copy
// takes: ResNet-50 QDQ's compile on 2 threads at load average 4.8 took 124-145 ms with 2^16
// elements (about 40 teams), 75 ms with 2^22 (4 teams), 67 ms on one thread.
constexpr memory::dim byte_reorder_parallel_elements = memory::dim(1) << 22;

// Per-channel factors multiplied into the elements on their way (a folded batch norm's scale):
// the element whose leading `leading_dims` logical indices give channel c (row-major over those
// dims: 1 for oc, 2 for grouped weights' g, oc/g) is multiplied by lists[0][c], then by
// lists[1][c], and so on: the same products, in the same order, as scaling a copy once per list.
struct channel_factors {
    int leading_dims = 1;
    std::vector<const float *> lists;
};

// Copies src into dst when one of them is a dense blocked layout with tiles of at least 8
// elements and the other has no inner blocks; a blocked dst's padding is written with zeros.
// With factors, only into a blocked dst (src unblocked). Returns false, having written nothing,
// for any other pair (the generic path's job).
bool reorder_by_tiles(const memory::desc &src_md, const memory::desc &dst_md, const float *src,
                      float *dst, const channel_factors *factors = nullptr);
// The same copy for elements of one byte (s8, u8: the int8 weights into "AcdB64a4b"), without
// factors; the caller checks that both descs are of such a type.
bool reorder_bytes_by_tiles(const memory::desc &src_md, const memory::desc &dst_md, const uint8_t *src,
                            uint8_t *dst);

} // namespace impl
} // namespace prim
