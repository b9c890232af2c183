#include "common/reorder_int8_tiles.hpp"

#include <cstdint>

#include "common/overlap.hpp"
#include "common/reorder_tiles.hpp"

namespace prim {
namespace impl {

bool reorder_int8_by_tiles(const memory::desc &src_md, const memory::desc &dst_md, const memory &src,
                           const memory &dst, const value_map &map) {
    const memory::data_type t = src_md.get_data_type();
    if (t != dst_md.get_data_type() || (t != memory::data_type::s8 && t != memory::data_type::u8)) return false;
    if (!map.identity() || src.get_desc() != src_md || dst.get_desc() != dst_md) return false;
    if (src_md.get_dims() != dst_md.get_dims()) return false;
    const void *from = src.get_data_handle();
    void *to = dst.get_data_handle();
    if (!from || !to || bytes_overlap(to, dst_md.get_size(), from, src_md.get_size())) return false;
    return reorder_bytes_by_tiles(src_md, dst_md, static_cast<const uint8_t *>(from), static_cast<uint8_t *>(to));
}

} // namespace impl
} // namespace prim
