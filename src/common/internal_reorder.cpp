// The copy between two layouts of the same shape, and the checks every reorder makes.
#include "common/internal_reorder.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/overlap.hpp"
#include "common/reorder_tiles.hpp"
#include "common/verbose.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {

namespace {
[[noreturn]] void invalid(const std::string &msg) {
    throw error(status::invalid_arguments, msg);
}

// For each dim i and index x along it, the offset of the element whose indices are all 0 but
// x along i: a blocked layout's offset is the sum of these terms over the dims.
struct dim_offsets {
    std::vector<std::vector<memory::dim>> of_dim;
    explicit dim_offsets(const memory::desc &md) {
        const auto &dims = md.get_dims();
        std::vector<memory::dim> idx(dims.size(), 0);
        for (size_t i = 0; i < dims.size(); ++i) {
            of_dim.emplace_back(static_cast<size_t>(dims[i]));
            for (memory::dim x = 0; x < dims[i]; ++x) {
                idx[i] = x;
                of_dim[i][static_cast<size_t>(x)] = md.offset(idx.data());
            }
            idx[i] = 0;
        }
    }
    // The dim whose next index is nearest in memory: the one a walk in memory order runs along.
    int innermost() const {
        int best = static_cast<int>(of_dim.size()) - 1;
        for (int i = 0; i < static_cast<int>(of_dim.size()); ++i)
            if (of_dim[i].size() > 1
                    && (of_dim[best].size() < 2 || std::abs(of_dim[i][1]) < std::abs(of_dim[best][1])))
                best = i;
        return best;
    }
};
} // namespace

void check_reorder_descs(const memory::desc &src, const memory::desc &dst) {
    if (src.is_any() || dst.is_any() || src.is_zero() || dst.is_zero())
        invalid("reorder: both descs need a layout (not 'any' or empty)");
    if (src.get_dims() != dst.get_dims())
        invalid("reorder: src dims " + dims_str(src.get_dims()) + " differ from dst dims "
                + dims_str(dst.get_dims()));
}

void reorder_data(const memory::desc &src_md, const memory::desc &dst_md, const memory &src_mem,
                  const memory &dst_mem) {
    if (src_mem.get_desc() != src_md || dst_mem.get_desc() != dst_md)
        invalid("reorder: memory descs differ from the ones the reorder was created for");
    const float *src = static_cast<const float *>(src_mem.get_data_handle());
    float *dst = static_cast<float *>(dst_mem.get_data_handle());
    memory::dim total = 1;
    for (auto d : src_md.get_dims()) total *= d;
    if (total == 0) return;
    if (!src || !dst) invalid("reorder: null data handle");
    // In place only between equal descs on the same handle, where the copy is a no-op. Between
    // two layouts, an element may be written where another not yet read lives (ab -> ba in one
    // 8x8 buffer left 28 of 64 wrong); a partial overlap breaks even the equal-desc memcpy.
    const bool same = src_md == dst_md;
    if (bytes_overlap(dst, dst_md.get_size(), src, src_md.get_size()) && !(same && src == dst))
        invalid("reorder: dst and src overlap in memory (a reorder runs in place only between "
                "equal descs on the same data handle, as a no-op: give dst its own buffer)");
    if (same) {
        if (src != dst) std::memcpy(dst, src, src_md.get_size());
        return;
    }
    // Blocked <-> unblocked (weights into their kernels' layouts): a tile at a time.
    if (!reorder_by_tiles(src_md, dst_md, src, dst)) copy_by_offsets(src_md, dst_md, src, dst);
}

void reorder_scaled(const memory::desc &src_md, const memory::desc &dst_md, const float *src,
                    float *dst, const channel_factors &factors,
                    const std::function<float *(size_t)> &scratch) {
    check_reorder_descs(src_md, dst_md);
    const memory::dims &dims = src_md.get_dims();
    memory::dims row_major(dims.size(), 1);
    for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) row_major[i] = row_major[i + 1] * dims[i + 1];
    if (!src_md.is_dense() || src_md.strides() != row_major || src_md.layout().find_first_of("0123456789") != std::string::npos)
        invalid("reorder_scaled: src must be plain (dense row-major), not " + src_md.layout());
    if (factors.leading_dims < 1 || factors.leading_dims > static_cast<int>(dims.size()))
        invalid("reorder_scaled: leading dims " + std::to_string(factors.leading_dims) + " outside 1 to the rank "
                + std::to_string(dims.size()));
    memory::dim channels = 1, total = 1;
    for (int i = 0; i < factors.leading_dims; ++i) channels *= dims[i];
    for (auto d : dims) total *= d;
    if (total == 0) return;
    if (!src || !dst) invalid("reorder_scaled: null data pointer");
    if (reorder_by_tiles(src_md, dst_md, src, dst, &factors)) return;
    const bool same = src_md == dst_md;
    float *out = same ? dst : scratch(static_cast<size_t>(total));
    const memory::dim per_channel = total / channels;
    // Each channel's row times each factor in turn (the products of scaling a copy per list).
#pragma omp parallel for schedule(static) if (total >= reorder_parallel_elements)
    for (memory::dim c = 0; c < channels; ++c) {
        const float *in = src + c * per_channel;
        float *row = out + c * per_channel;
        for (const float *l : factors.lists) {
            const float f = l[c];
            for (memory::dim k = 0; k < per_channel; ++k) row[k] = in[k] * f;
            in = row;
        }
        if (factors.lists.empty() && row != in) std::memcpy(row, in, static_cast<size_t>(per_channel) * sizeof(float));
    }
    if (!same) copy_by_offsets(src_md, dst_md, out, dst);
}

void copy_by_offsets(const memory::desc &src_md, const memory::desc &dst_md, const float *src,
                     float *dst) {
    const auto &dims = src_md.get_dims();
    const int n = static_cast<int>(dims.size());
    memory::dim total = 1;
    for (auto d : dims) total *= d;
    if (total == 0) return;
    // Padding of a blocked dst must hold zeros (kernels may read it). The gaps of a layout by
    // strides are not padding: they may be someone else's data.
    if (dst_md.padded_dims() != dims) std::memset(dst, 0, dst_md.get_size());

    // A layout's offset is a sum of one term per dim (each dim has at most one inner block), so
    // per-dim tables of those terms give any element's offset in both layouts by additions.
    // The two innermost loops run along the dims that are innermost in memory in dst, then in
    // src: both sides then stream through cache lines instead of one side revisiting each line
    // once per index of the other's inner dim (nhwc -> nchw read src 16 times over otherwise).
    const dim_offsets from(src_md), to(dst_md);
    const int inner = from.innermost(), middle = to.innermost() == inner ? -1 : to.innermost();
    std::vector<int> outer_dims;
    for (int i = 0; i < n; ++i)
        if (i != inner && i != middle) outer_dims.push_back(i);
    const memory::dim n_middle = middle < 0 ? 1 : dims[middle];
    const memory::dim n_outer = total / dims[inner] / n_middle;
#pragma omp parallel if (total >= reorder_parallel_elements)
    {
        int nthr = 1, ithr = 0;
#ifdef _OPENMP
        nthr = omp_get_num_threads();
        ithr = omp_get_thread_num();
#endif
        const memory::dim chunk = (n_outer + nthr - 1) / nthr;
        const memory::dim begin = std::min(n_outer, chunk * ithr);
        const memory::dim end = std::min(n_outer, begin + chunk);
        const memory::dim *src_in = from.of_dim[inner].data(), *dst_in = to.of_dim[inner].data();
        for (memory::dim o = begin; o < end; ++o) {
            // The offsets of the element at o's outer indices, 0 along the inner two dims.
            memory::dim src_base = 0, dst_base = 0, rest = o;
            for (auto it = outer_dims.rbegin(); it != outer_dims.rend(); ++it) {
                const memory::dim x = rest % dims[*it];
                rest /= dims[*it];
                src_base += from.of_dim[*it][x];
                dst_base += to.of_dim[*it][x];
            }
            for (memory::dim m = 0; m < n_middle; ++m) {
                const memory::dim s0 = src_base + (middle < 0 ? 0 : from.of_dim[middle][m]);
                const memory::dim d0 = dst_base + (middle < 0 ? 0 : to.of_dim[middle][m]);
                for (memory::dim x = 0; x < dims[inner]; ++x) dst[d0 + dst_in[x]] = src[s0 + src_in[x]];
            }
        }
    }
}

} // namespace impl
} // namespace prim
