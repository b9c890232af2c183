// Concat's fast path: every input and dst dense in one layout whose axis is not blocked. Then
// each input is, for each index of the memory dims outside the axis ("outer"), one contiguous
// chunk of dims[axis] * stride[axis] elements, and dst holds the inputs' chunks one after the
// other: the copy is a memcpy per (outer index, input), threaded over both. Any one data type:
// the chunks count elements, the copy bytes.
#include <omp.h>

#include <algorithm>
#include <cstring>

#include "common/concat_request.hpp"

namespace prim {
namespace impl {
namespace {

// Chunks shorter than this are not split between threads.
const int64_t min_split_elems = 16 * 1024;

struct copy_chunks {
    int64_t outer = 0;                    // outer indices (the same for every input and dst)
    int64_t dst_chunk = 0;                // dst elements per outer index
    std::vector<int64_t> chunk, dst_at;   // per input: elements per outer index, and where
                                          // they go inside dst's chunk
};

class concat_copy : public primitive_impl {
public:
    concat_copy(const concat_request &req, copy_chunks chunks)
        : primitive_impl(concat_layouts(req)), chunks_(std::move(chunks)),
          size_(data_type_size(req.dst.get_data_type())) {}

    std::string name() const override { return "copy"; }

    void execute(const exec_ptrs &args) const override {
        const copy_chunks &p = chunks_;
        const int64_t n_in = static_cast<int64_t>(p.chunk.size());
        const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
        const int64_t total = p.outer * p.dst_chunk;
        const auto copy = [&](int64_t o, int64_t i, int64_t from, int64_t to) {
            const auto *in = reinterpret_cast<const char *>(args.multiple_src[i]);
            std::memcpy(reinterpret_cast<char *>(args.dst) + (o * p.dst_chunk + p.dst_at[i] + from) * size_,
                        in + (o * p.chunk[i] + from) * size_, static_cast<size_t>(to - from) * size_);
        };
        if (p.outer >= 4 * max_threads || total < min_split_elems) {
#pragma omp parallel for collapse(2) schedule(static) if (total >= min_split_elems)
            for (int64_t o = 0; o < p.outer; ++o)
                for (int64_t i = 0; i < n_in; ++i)
                    if (p.chunk[i]) copy(o, i, 0, p.chunk[i]);
            return;
        }
        // Few long chunks (the axis is outermost, or nearly): split each between the threads.
        for (int64_t o = 0; o < p.outer; ++o)
            for (int64_t i = 0; i < n_in; ++i) {
                const int64_t n = p.chunk[i];
                const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(max_threads, n / min_split_elems));
#pragma omp parallel for schedule(static) if (parts > 1)
                for (int64_t t = 0; t < parts; ++t) copy(o, i, n * t / parts, n * (t + 1) / parts);
            }
    }

private:
    copy_chunks chunks_;
    int64_t size_; // bytes per element
};

// The axis' letter is uppercase in a pattern when the axis has an inner block.
bool axis_blocked(const memory::desc &md, int axis) {
    return md.layout().find(static_cast<char>('A' + axis)) != std::string::npos;
}

} // namespace

std::unique_ptr<primitive_impl> create_concat_copy(const concat_request &req, cpu_isa,
                                                   std::string &why_not) {
    const memory::desc &dst = req.dst;
    const int axis = req.axis;
    PRIM_DISPATCH(why_not, dst.is_dense(), "dst is not dense");
    PRIM_DISPATCH(why_not, !axis_blocked(dst, axis), "the axis is blocked in dst");
    copy_chunks p;
    const int64_t stride = dst.strides()[axis];
    p.dst_chunk = dst.get_dims()[axis] * stride;
    PRIM_DISPATCH(why_not, p.dst_chunk > 0 && dst.nelems_padded() % p.dst_chunk == 0,
                  "dst is not whole chunks along the axis");
    p.outer = dst.nelems_padded() / p.dst_chunk;
    int64_t at = 0;
    for (const memory::desc &src : req.srcs) {
        PRIM_DISPATCH(why_not, src.layout() == dst.layout() && src.is_dense(),
                      "an input's layout differs from dst's or is not dense");
        const int64_t len = src.get_dims()[axis];
        PRIM_DISPATCH(why_not, len == 0 || src.strides()[axis] == stride,
                      "an input's axis stride differs from dst's");
        const int64_t chunk = len * stride;
        PRIM_DISPATCH(why_not, src.nelems_padded() == p.outer * chunk,
                      "an input is not whole chunks along the axis");
        p.chunk.push_back(chunk);
        p.dst_at.push_back(at);
        at += chunk;
    }
    return std::make_unique<concat_copy>(req, std::move(p));
}

} // namespace impl
} // namespace prim
