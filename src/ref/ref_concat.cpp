// The reference concat: every element of every input placed by the layouts' offset(), for any
// pair of layouts and any one data type (copied bit for bit). dst's padding (a blocked dim's
// tail) is zeroed first, as a reorder does.
#include <cstring>

#include "common/concat_request.hpp"
#include "common/convert_types.hpp"

namespace prim {
namespace impl {
namespace {

class ref_concat : public primitive_impl {
public:
    explicit ref_concat(const concat_request &req)
        : primitive_impl(concat_layouts(req)), axis_(req.axis) {}

    std::string name() const override { return "ref"; }

    void execute(const exec_ptrs &args) const override {
        const memory::desc &dst = dst_md();
        const int rank = dst.ndims();
        const size_t size = data_type_size(dst.get_data_type());
        // Only a blocked layout pads, and its buffer has no gaps: zeroing it all is safe.
        if (dst.padded_dims() != dst.get_dims()) std::memset(args.dst, 0, dst.get_size());
        int64_t at = 0; // where the input starts along the axis
        for (size_t i = 0; i < layouts().multiple_src.size(); ++i) {
            const memory::desc &src = layouts().multiple_src[i];
            const memory::dims &d = src.get_dims();
            const int64_t n = nelems(d);
            const void *in = args.multiple_src[i];
#pragma omp parallel for schedule(static)
            for (int64_t e = 0; e < n; ++e) {
                memory::dim idx[6];
                int64_t rest = e;
                for (int k = rank - 1; k >= 0; --k) {
                    idx[k] = rest % d[k];
                    rest /= d[k];
                }
                const memory::dim from = src.offset(idx);
                idx[axis_] += at;
                copy_element(size, in, from, args.dst, dst.offset(idx));
            }
            at += d[axis_];
        }
    }

private:
    static int64_t nelems(const memory::dims &d) {
        int64_t n = 1;
        for (memory::dim x : d) n *= x;
        return n;
    }
    int axis_;
};

} // namespace

std::unique_ptr<primitive_impl> create_ref_concat(const concat_request &req, cpu_isa,
                                                  std::string &) {
    return std::make_unique<ref_concat>(req); // the reference takes every valid problem
}

} // namespace impl
} // namespace prim
