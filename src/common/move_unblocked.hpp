// Elements of one type moved, unchanged, between two layouts without inner blocks (plain, nhwc,
// a transposed view by strides, gaps allowed): any permutation of the dims. The reorder's fast
// path for same-type copies (internal_reorder.cpp's reorder_elements) and the move half of a
// quantize between layouts.
#pragma once
#include "prim/memory.hpp"

namespace prim {
namespace impl {

// Copies src's elements into dst's places (a gap of a strided dst is left as it is) and returns
// true when both descs have no inner blocks, the same dims and data type, and elements of 1 or
// 4 bytes; returns false having written nothing otherwise. No other check: the caller makes sure
// the buffers are not null and do not overlap.
//
// The dims of more than one element, in dst's order, are merged where contiguous in both
// layouts; then, by the innermost dim of each side:
// - the same dim: runs copied (memcpy where both are contiguous), the other dims around them;
// - dst's innermost 1 to 4 wide and contiguous (nchw -> nhwc of an image): pixels interleaved;
// - two dims: tiles of the pair transposed (16x16 bytes or 4x4 words in SSE2 registers, two
//   such blocks at a time in AVX2 ones where the CPU has it, when both sides are contiguous; a
//   strided loop over the tile otherwise), the other dims around;
// on two threads when the copy is large enough to pay for a team.
bool move_unblocked(const memory::desc &src_md, const memory::desc &dst_md, const void *src, void *dst);

} // namespace impl
} // namespace prim
