// reorder_by_tiles: the blocked side's buffer is a sequence of tiles (dense), tile t holding the
// elements whose outer indices are t's digits in the layout's dim order; within a tile, entry j
// is one combination of the inner-block indices. The other side's offset is linear in the logical
// indices, so it is base(t) + table[j]. Tiles that cross a dim's end (the padding of a block)
// check each entry.
#include "common/reorder_tiles.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace prim {
namespace impl {

namespace {

using dim = memory::dim;

// A layout's dim order (outermost first) and inner blocks (outermost first), read from its
// pattern ("ABcd16b16a": order a b c d, blocks 16 along b then 16 along a).
struct pattern {
    std::vector<int> order;
    std::vector<std::pair<int, dim>> blocks; // (dim, size)
};

pattern parse(const std::string &p) {
    pattern r;
    size_t pos = 0;
    while (pos < p.size() && std::isalpha(static_cast<unsigned char>(p[pos])))
        r.order.push_back(std::tolower(static_cast<unsigned char>(p[pos++])) - 'a');
    while (pos < p.size()) {
        size_t end = pos;
        while (end < p.size() && std::isdigit(static_cast<unsigned char>(p[end]))) ++end;
        r.blocks.push_back({p[end] - 'a', std::atoll(p.substr(pos, end - pos).c_str())});
        pos = end + 1;
    }
    return r;
}

// What an element becomes on its way: itself, or itself times its channel's factors in order.
struct no_scale {
    template <typename T>
    T operator()(T v, dim) const { return v; }
};
struct scale_by_channel {
    const channel_factors *f;
    float operator()(float v, dim c) const {
        for (const float *l : f->lists) v *= l[c];
        return v;
    }
};
// The usual case (one batch norm folded): no loop over the lists, so the compiler can keep the
// factor of a tile's column in a register (1x1 weights: 0.72 -> 0.5 ns per element).
struct scale_by_one_list {
    const float *l;
    float operator()(float v, dim c) const { return v * l[c]; }
};

// A full tile: entries (r0, r1) of at most two blocks (sizes b0 x b1, b1 innermost; b0 = 1 for
// one block), at linear offsets r0 * s0 + r1 * s1 and channels c + r0 * c0 + r1 * c1. The loop
// runs along whichever side is contiguous so that one side streams.
template <bool to_blocked, typename T, typename Scale>
void copy_full_tile(const T *src, T *dst, dim b0, dim b1, dim s0, dim s1, const Scale &sc,
                    dim c, dim c0, dim c1) {
    if (s1 == 1 || s0 != 1) {
        for (dim r0 = 0; r0 < b0; ++r0)
            for (dim r1 = 0; r1 < b1; ++r1) {
                if (to_blocked) dst[r0 * b1 + r1] = sc(src[r0 * s0 + r1 * s1], c + r0 * c0 + r1 * c1);
                else dst[r0 * s0 + r1 * s1] = src[r0 * b1 + r1];
            }
    } else { // the linear side is contiguous along the outer block
        for (dim r1 = 0; r1 < b1; ++r1)
            for (dim r0 = 0; r0 < b0; ++r0) {
                if (to_blocked) dst[r0 * b1 + r1] = sc(src[r0 + r1 * s1], c + r0 * c0 + r1 * c1);
                else dst[r0 + r1 * s1] = src[r0 * b1 + r1];
            }
    }
}

// One pass over the blocked side's tiles, a row of them (along the layout's innermost outer
// dim) at a time. to_blocked: src is the linear side, dst the blocked. The channel of an
// element (for sc) is linear in its logical indices, as the linear side's offset is: ch_stride
// plays the part of lin_stride.
template <typename T, typename Scale>
void copy_tiles(const memory::desc &blocked_md, const memory::desc &linear_md, const pattern &pat,
                const T *src, T *dst, bool to_blocked, const Scale &sc,
                const memory::dims &ch_stride) {
    const memory::dims &dims = blocked_md.get_dims();
    const memory::dims &padded = blocked_md.padded_dims();
    const memory::dims &lin_stride = linear_md.strides();
    const int n = static_cast<int>(dims.size());

    std::vector<dim> blk(n, 1);
    for (const auto &b : pat.blocks) blk[b.first] = b.second;
    dim tile = 1;
    for (const auto &b : pat.blocks) tile *= b.second;
    // Entry j of a tile: its inner index along each blocked dim and its linear-side offset (for
    // tiles that cross a dim's end, and layouts of three blocks or more).
    std::vector<dim> lin_of_entry(tile, 0), ch_of_entry(tile, 0);
    std::vector<std::vector<dim>> inner_of_entry(pat.blocks.size(), std::vector<dim>(tile));
    for (dim j = 0; j < tile; ++j) {
        dim rest = j;
        for (int k = static_cast<int>(pat.blocks.size()) - 1; k >= 0; --k) {
            const dim r = rest % pat.blocks[k].second;
            rest /= pat.blocks[k].second;
            inner_of_entry[k][j] = r;
            lin_of_entry[j] += r * lin_stride[pat.blocks[k].first];
            ch_of_entry[j] += r * ch_stride[pat.blocks[k].first];
        }
    }
    const bool two_levels = pat.blocks.size() <= 2;
    const dim b0 = pat.blocks.size() == 2 ? pat.blocks[0].second : 1;
    const dim b1 = pat.blocks.back().second;
    const dim s0 = pat.blocks.size() == 2 ? lin_stride[pat.blocks[0].first] : 0;
    const dim s1 = lin_stride[pat.blocks.back().first];
    const dim c0 = pat.blocks.size() == 2 ? ch_stride[pat.blocks[0].first] : 0;
    const dim c1 = ch_stride[pat.blocks.back().first];

    const dim parallel_elements = sizeof(T) == 1 ? byte_reorder_parallel_elements : reorder_parallel_elements;
    const int row_dim = pat.order[n - 1];
    const bool across_rows = pat.blocks.size() == 1 && blk[row_dim] == 1 && lin_stride[row_dim] == 1 && s1 != 1;
    const dim row_len = padded[row_dim] / blk[row_dim];
    dim rows = 1;
    for (int k = 0; k < n - 1; ++k) rows *= padded[pat.order[k]] / blk[pat.order[k]];

#pragma omp parallel for schedule(static) if (rows * row_len * tile >= parallel_elements)
    for (dim row = 0; row < rows; ++row) {
        // The row's first logical index along each dim, and whether a dim other than the row's
        // ends inside it.
        dim rest = row, lin_row = 0, ch_row = 0;
        bool full = true;
        dim first[6] = {0, 0, 0, 0, 0, 0};
        for (int k = n - 2; k >= 0; --k) {
            const int d = pat.order[k];
            const dim count = padded[d] / blk[d];
            first[d] = (rest % count) * blk[d];
            rest /= count;
            lin_row += first[d] * lin_stride[d];
            ch_row += first[d] * ch_stride[d];
            full = full && first[d] + blk[d] <= dims[d];
        }
        dim u = 0;
        // One block whose entries lie far apart on the linear side while the row runs along
        // its contiguous dim ("Ab128a" of a row-major matrix): 16 tiles at a time, so that each
        // cache line read serves 16 of them instead of one (a column walk with a power-of-two
        // stride evicts its own lines).
        if (full && across_rows)
            for (; u + 16 <= row_len && (u + 16) * blk[row_dim] <= dims[row_dim]; u += 16) {
                const T *in = to_blocked ? src + lin_row + u : src + (row * row_len + u) * tile;
                T *out = to_blocked ? dst + (row * row_len + u) * tile : dst + lin_row + u;
                const dim ch = ch_row + u * ch_stride[row_dim];
                for (dim r1 = 0; r1 < b1; ++r1)
                    for (dim v = 0; v < 16; ++v) {
                        if (to_blocked) out[v * tile + r1] = sc(in[r1 * s1 + v], ch + r1 * c1 + v * ch_stride[row_dim]);
                        else out[r1 * s1 + v] = in[v * tile + r1];
                    }
            }
        for (; u < row_len; ++u) {
            first[row_dim] = u * blk[row_dim];
            const dim lin_base = lin_row + first[row_dim] * lin_stride[row_dim];
            const dim tile_base = (row * row_len + u) * tile;
            const dim ch_base = ch_row + first[row_dim] * ch_stride[row_dim];
            if (full && first[row_dim] + blk[row_dim] <= dims[row_dim]) {
                if (two_levels && to_blocked)
                    copy_full_tile<true>(src + lin_base, dst + tile_base, b0, b1, s0, s1, sc, ch_base, c0, c1);
                else if (two_levels)
                    copy_full_tile<false>(src + tile_base, dst + lin_base, b0, b1, s0, s1, sc, ch_base, c0, c1);
                else if (to_blocked)
                    for (dim j = 0; j < tile; ++j)
                        dst[tile_base + j] = sc(src[lin_base + lin_of_entry[j]], ch_base + ch_of_entry[j]);
                else
                    for (dim j = 0; j < tile; ++j) dst[lin_base + lin_of_entry[j]] = src[tile_base + j];
                continue;
            }
            for (dim j = 0; j < tile; ++j) {
                bool inside = true;
                for (size_t k = 0; k < pat.blocks.size(); ++k) {
                    const int d = pat.blocks[k].first;
                    inside = inside && first[d] + inner_of_entry[k][j] < dims[d];
                }
                if (to_blocked)
                    dst[tile_base + j] = inside ? sc(src[lin_base + lin_of_entry[j]], ch_base + ch_of_entry[j]) : T(0);
                else if (inside) dst[lin_base + lin_of_entry[j]] = src[tile_base + j];
            }
        }
    }
}

} // namespace

namespace {

// The pattern of the blocked side when the tile path takes the pair (see reorder_by_tiles), with
// to_blocked telling which side that is; nothing otherwise.
bool tile_pair(const memory::desc &src_md, const memory::desc &dst_md, bool with_factors, pattern &pat,
               bool &to_blocked) {
    const pattern ps = parse(src_md.layout()), pd = parse(dst_md.layout());
    to_blocked = ps.blocks.empty() && !pd.blocks.empty();
    const bool from_blocked = pd.blocks.empty() && !ps.blocks.empty() && !with_factors;
    if (!to_blocked && !from_blocked) return false;
    const memory::desc &blocked = to_blocked ? dst_md : src_md;
    pat = to_blocked ? pd : ps;
    dim tile = 1;
    for (const auto &b : pat.blocks) tile *= b.second;
    if (tile < 8 || blocked.ndims() > 6 || !blocked.is_dense()) return false;
    // One block per dim (a dim blocked twice, "AB16b64a4b", goes the generic way).
    for (size_t i = 0; i < pat.blocks.size(); ++i)
        for (size_t j = i + 1; j < pat.blocks.size(); ++j)
            if (pat.blocks[i].first == pat.blocks[j].first) return false;
    // A dim of 0 leaves nothing to copy; the generic path handles that.
    for (dim d : blocked.get_dims())
        if (d == 0) return false;
    return true;
}

} // namespace

bool reorder_by_tiles(const memory::desc &src_md, const memory::desc &dst_md, const float *src,
                      float *dst, const channel_factors *factors) {
    pattern pat;
    bool to_blocked = false;
    if (!tile_pair(src_md, dst_md, factors != nullptr, pat, to_blocked)) return false;
    const memory::desc &blocked = to_blocked ? dst_md : src_md;
    const memory::desc &linear = to_blocked ? src_md : dst_md;
    const memory::dims &dims = blocked.get_dims();
    memory::dims ch_stride(dims.size(), 0);
    if (!factors) {
        copy_tiles(blocked, linear, pat, src, dst, to_blocked, no_scale(), ch_stride);
        return true;
    }
    if (factors->leading_dims < 1 || factors->leading_dims > static_cast<int>(dims.size())) return false;
    dim s = 1;
    for (int d = factors->leading_dims - 1; d >= 0; s *= dims[d], --d) ch_stride[d] = s;
    if (factors->lists.size() == 1)
        copy_tiles(blocked, linear, pat, src, dst, to_blocked, scale_by_one_list{factors->lists[0]}, ch_stride);
    else
        copy_tiles(blocked, linear, pat, src, dst, to_blocked, scale_by_channel{factors}, ch_stride);
    return true;
}

bool reorder_bytes_by_tiles(const memory::desc &src_md, const memory::desc &dst_md, const uint8_t *src,
                            uint8_t *dst) {
    pattern pat;
    bool to_blocked = false;
    if (!tile_pair(src_md, dst_md, false, pat, to_blocked)) return false;
    const memory::desc &blocked = to_blocked ? dst_md : src_md;
    const memory::desc &linear = to_blocked ? src_md : dst_md;
    copy_tiles(blocked, linear, pat, src, dst, to_blocked, no_scale(), memory::dims(blocked.ndims(), 0));
    return true;
}

} // namespace impl
} // namespace prim
