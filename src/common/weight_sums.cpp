// Weight sums (weight_sums.hpp): from a plain src in its own order where it holds dst's
// values (the ONNX loader's and most users' s8 weights: one pass at memory speed), else from
// dst element by element through its offsets.
#include "common/weight_sums.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/plain_layout.hpp"

namespace prim {
namespace impl {
namespace {

// sums[o] over the dims from `first` on, at offsets from md's strides (unblocked md).
void sum_by_strides(const memory::desc &md, const int8_t *data, int first, int32_t *sums) {
    const memory::dims &dims = md.get_dims(), &strides = md.strides();
    const int n = md.ndims();
    memory::dim outs = 1, rest = 1;
    for (int d = 0; d < first; ++d) outs *= dims[d];
    for (int d = first; d < n; ++d) rest *= dims[d];
    // The other dims one contiguous run (oihw, goihw, an inner product's oi): a plain sum.
    bool contiguous = true;
    memory::dim run = 1;
    for (int d = n - 1; d >= first; run *= dims[d], --d)
        contiguous = contiguous && (dims[d] == 1 || strides[d] == run);
    std::vector<memory::dim> idx(static_cast<size_t>(n));
    const auto sum_from = [&](memory::dim base) {
        int32_t sum = 0;
        if (contiguous) {
            for (memory::dim r = 0; r < rest; ++r) sum += data[base + r];
            return sum;
        }
        // The innermost dim in a loop of its own; the others by odometer.
        std::fill(idx.begin(), idx.end(), 0);
        const memory::dim inner = dims[n - 1], inner_stride = strides[n - 1];
        for (memory::dim r = 0; r < rest; r += inner) {
            memory::dim off = base;
            for (int d = first; d < n - 1; ++d) off += idx[d] * strides[d];
            for (memory::dim i = 0; i < inner; ++i) sum += data[off + i * inner_stride];
            for (int d = n - 2; d >= first && ++idx[d] == dims[d]; --d) idx[d] = 0;
        }
        return sum;
    };
    std::vector<memory::dim> out_idx(static_cast<size_t>(first), 0);
    for (memory::dim o = 0; o < outs; ++o) {
        memory::dim base = 0;
        for (int d = 0; d < first; ++d) base += out_idx[d] * strides[d];
        sums[o] = sum_from(base);
        for (int d = first - 1; d >= 0 && ++out_idx[d] == dims[d]; --d) out_idx[d] = 0;
    }
}

// The same through md.offset() (any layout): slow, for the rare src that is neither.
void sum_by_offsets(const memory::desc &md, const int8_t *data, int first, int32_t *sums) {
    const memory::dims &dims = md.get_dims();
    memory::dim total = 1, rest = 1;
    for (memory::dim x : dims) total *= x;
    for (int d = first; d < md.ndims(); ++d) rest *= dims[d];
    memory::dim outs = 1;
    for (int d = 0; d < first; ++d) outs *= dims[d];
    std::fill(sums, sums + outs, 0);
    std::vector<memory::dim> idx(dims.size(), 0);
    for (memory::dim e = 0; e < total; ++e) {
        sums[e / rest] += data[md.offset(idx.data())];
        for (int d = md.ndims() - 1; d >= 0 && ++idx[d] == dims[d]; --d) idx[d] = 0;
    }
}

} // namespace

void write_weight_sums(const memory::desc &src_md, const void *src, const memory::desc &dst_md,
                       void *dst, bool src_same_values) {
    const int first = dst_md.weight_sums_dims();
    if (first == 0) return;
    auto *sums = const_cast<int32_t *>(weight_sums(dst_md, dst));
    if (src_same_values && is_unblocked(src_md))
        return sum_by_strides(src_md, static_cast<const int8_t *>(src), first, sums);
    if (is_unblocked(dst_md)) return sum_by_strides(dst_md, static_cast<const int8_t *>(dst), first, sums);
    sum_by_offsets(dst_md, static_cast<const int8_t *>(dst), first, sums);
}

} // namespace impl
} // namespace prim
