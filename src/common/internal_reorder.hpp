// The reorder's work (checks and the copy between layouts), shared by the public prim::reorder
// and by implementations that repack an argument inside their own execute().
#pragma once
#include <functional>

#include "common/convert_types.hpp"
#include "common/reorder_tiles.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

// Throws invalid_arguments unless both descs have a layout and the same dims.
void check_reorder_descs(const memory::desc &src, const memory::desc &dst);

// Copies src_mem into dst_mem, whose descs must be src and dst, and zeroes dst's padding;
// converts between data types and applies map on the way (common/convert_types.hpp).
void reorder_data(const memory::desc &src, const memory::desc &dst, const memory &src_mem,
                  const memory &dst_mem, const value_map &map = value_map());

// The copy itself, for any two layouts of the same dims (no check): element by element through
// per-dim offset tables, dst's padding zeroed first. reorder_data uses it where the tile path
// (common/reorder_tiles.hpp) does not apply; tests compare the two.
void copy_by_offsets(const memory::desc &src, const memory::desc &dst, const float *src_data,
                     float *dst_data);
// The same for any data types, each element converted and mapped (common/convert_types.hpp);
// quantizing or dequantizing between equal dense placements with one scale is a flat loop.
void convert_by_offsets(const memory::desc &src, const memory::desc &dst, const void *src_data,
                        void *dst_data, const value_map &map);

// Plain (dense row-major) src copied into dst's layout, each element times its channel's factors
// in turn (a folded batch norm's scale): by the tile path when it takes the pair, else the
// factors applied in src's layout (into dst itself when the descs are equal, else into
// scratch(n), room for n floats, which the generic copy then reorders). Bit-identical either way.
// Throws invalid_arguments when src is not plain, the dims differ, or the leading dims are not
// 1 to the rank.
void reorder_scaled(const memory::desc &src, const memory::desc &dst, const float *src_data,
                    float *dst_data, const channel_factors &factors,
                    const std::function<float *(size_t)> &scratch);

// A reorder run as part of another primitive's execution (e.g. user data repacked into the
// layout a kernel reads). It prints no verbose line: the enclosing primitive prints one line
// for the whole call, and a user's own prim::reorder prints its own.
class internal_reorder {
public:
    internal_reorder(const memory::desc &src, const memory::desc &dst) : src_(src), dst_(dst) {
        check_reorder_descs(src, dst);
    }
    void execute(const memory &src, const memory &dst) const { reorder_data(src_, dst_, src, dst); }

private:
    memory::desc src_, dst_;
};

} // namespace impl
} // namespace prim
