// The public reorder's fast path for one-byte elements (s8, u8) copied unchanged between a layout
// without inner blocks and a blocked one: the int8 weights into their kernels' layouts
// ("AcdB64a4b", "AB64a4b") at compile. The generic walk (convert_by_offsets) converts every
// element through f32 at per-element offsets; the tile path (reorder_tiles.hpp) copies bytes.
#pragma once
#include "common/convert_types.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

// Copies src's elements into dst (dst's padding zeroed; its weight sums are reorder_data's) and
// returns true when: both descs are of the same one-byte type, map is the identity, the
// memories carry exactly these descs with non-null, non-overlapping data, and the tile path
// takes the pair. Otherwise returns false having written nothing: reorder_data goes on with
// the generic paths, which make the checks and name what is wrong.
bool reorder_int8_by_tiles(const memory::desc &src_md, const memory::desc &dst_md, const memory &src,
                           const memory &dst, const value_map &map);

} // namespace impl
} // namespace prim
