// The copy between two layouts of the same shape, and the checks every reorder makes.
#include "common/internal_reorder.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/overlap.hpp"
#include "common/verbose.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {

namespace {
[[noreturn]] void invalid(const std::string &msg) {
    throw error(status::invalid_arguments, msg);
}
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
    const auto &dims = src_md.get_dims();
    const int n = static_cast<int>(dims.size());
    memory::dim total = 1;
    for (auto d : dims) total *= d;
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
    // Padding of a blocked dst must hold zeros (kernels may read it).
    if (dst_md.nelems_padded() != total) std::memset(dst, 0, dst_md.get_size());

    // Walk the logical elements; each thread decodes its first index once, then counts up.
#pragma omp parallel
    {
        int nthr = 1, ithr = 0;
#ifdef _OPENMP
        nthr = omp_get_num_threads();
        ithr = omp_get_thread_num();
#endif
        const memory::dim chunk = (total + nthr - 1) / nthr;
        const memory::dim begin = std::min(total, chunk * ithr);
        const memory::dim end = std::min(total, begin + chunk);
        std::vector<memory::dim> idx(n);
        memory::dim rest = begin;
        for (int i = n - 1; i >= 0; --i) {
            idx[i] = rest % dims[i];
            rest /= dims[i];
        }
        for (memory::dim e = begin; e < end; ++e) {
            dst[dst_md.offset(idx.data())] = src[src_md.offset(idx.data())];
            for (int i = n - 1; i >= 0; --i) {
                if (++idx[i] < dims[i]) break;
                idx[i] = 0;
            }
        }
    }
}

} // namespace impl
} // namespace prim
