// The public reorder's fast path for one-byte elements (s8, u8) copied unchanged between a layout
// without inner blocks and a blocked one: the int8 weights into their kernels' layouts
// ("AcdB64a4b", "AB64a4b") at compile. The generic walk (convert_by_offsets) converts every
// element through f32 at per-element offsets; the tile path (reorder_tiles.hpp) copies bytes.
#pragma once
#include "common/convert_types.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

// Copies src into dst (dst's padding zeroed) and returns true when: both descs are of the same
// one-byte type, map is the identity, the memories carry exactly these descs with non-null,
// non-overlapping data, dst holds nothing beyond its padded elements (no data appended after
// them), and the tile path takes the pair. Otherwise returns false having written nothing: the
// caller runs reorder_data, which makes the checks and names what is wrong.
bool reorder_int8_by_tiles(const memory::desc &src_md, const memory::desc &dst_md, const memory &src,
                           const memory &dst, const value_map &map);

} // namespace impl
} // namespace prim
