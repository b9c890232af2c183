// Pooling on int8 data as vectorizable loops (pool_int8_loop.hpp).
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/convert_types.hpp"
#include "common/plain_layout.hpp"
#include "common/pool_int8_loop.hpp"
#include "common/pool_problem.hpp"

namespace prim {
namespace impl {
namespace {

using dt = memory::data_type;

class pool_int8_loop : public primitive_impl {
public:
    pool_int8_loop(const pool_problem &prb, arg_layouts layouts)
        : primitive_impl(std::move(layouts)), prb_(prb) {}

    std::string name() const override { return "loop"; }

    void execute(const exec_ptrs &args) const override {
        if (src_md().get_data_type() == dt::u8) return run<uint8_t>(args);
        run<int8_t>(args);
    }

private:
    // The max runs on bytes (SSE2's pmaxub vectorizes it): an s8 value with its top bit flipped
    // orders as a u8. The average sums in s32.
    template <typename T>
    void run(const exec_ptrs &args) const {
        const pool_problem &p = prb_;
        const uint8_t *src = reinterpret_cast<const uint8_t *>(args.src);
        const dt dst_dt = dst_md().get_data_type();
        const bool same_type = dst_dt == src_md().get_data_type();
        const uint8_t flip = std::is_signed<T>::value ? 0x80 : 0;
        const int64_t C = p.ic, lines = p.mb * p.o[0] * p.o[1];
#pragma omp parallel if (p.dst_nelems() * p.kernel_volume() > (1 << 16))
        {
        // Each thread's sums or maxes of one output pixel's channels.
        std::vector<int32_t> sums(static_cast<size_t>(C));
        std::vector<uint8_t> maxes(static_cast<size_t>(C));
        int32_t *sum = sums.data();
        uint8_t *mx = maxes.data();
#pragma omp for schedule(static)
        for (int64_t line = 0; line < lines; ++line) {
            const int64_t oh = line % p.o[1], od = line / p.o[1] % p.o[0], n = line / p.o[1] / p.o[0];
            const tap_range rd = real_taps(p, 0, od), rh = real_taps(p, 1, oh);
            for (int64_t ow = 0; ow < p.o[2]; ++ow) {
                const tap_range rw = real_taps(p, 2, ow);
                if (p.is_max()) std::fill(maxes.begin(), maxes.end(), uint8_t(0));
                else std::fill(sums.begin(), sums.end(), 0);
                for (int64_t kd = rd.first; kd < rd.first + rd.count; ++kd)
                    for (int64_t kh = rh.first; kh < rh.first + rh.count; ++kh)
                        for (int64_t kw = rw.first; kw < rw.first + rw.count; ++kw) {
                            const int64_t id = od * p.s[0] - p.p[0] + kd * (p.d[0] + 1);
                            const int64_t ih = oh * p.s[1] - p.p[1] + kh * (p.d[1] + 1);
                            const int64_t iw = ow * p.s[2] - p.p[2] + kw * (p.d[2] + 1);
                            const uint8_t *v = src + (((n * p.i[0] + id) * p.i[1] + ih) * p.i[2] + iw) * C;
                            if (p.is_max()) {
                                for (int64_t c = 0; c < C; ++c)
                                    mx[c] = std::max<uint8_t>(mx[c], static_cast<uint8_t>(v[c] ^ flip));
                            } else {
                                const T *t = reinterpret_cast<const T *>(v);
                                for (int64_t c = 0; c < C; ++c) sum[c] += t[c];
                            }
                        }
                const int64_t out = (((n * p.o[0] + od) * p.o[1] + oh) * p.o[2] + ow) * C;
                if (p.is_max() && same_type) {
                    uint8_t *d = static_cast<uint8_t *>(static_cast<void *>(args.dst)) + out;
                    for (int64_t c = 0; c < C; ++c) d[c] = static_cast<uint8_t>(mx[c] ^ flip);
                    continue;
                }
                const int64_t taps = rd.count * rh.count * rw.count;
                const double divisor = static_cast<double>(
                        p.alg == algorithm::pooling_avg_include_padding ? p.kernel_volume() : taps);
                for (int64_t c = 0; c < C; ++c) {
                    // As the reference: the exact sum divided in double, then rounded to f32.
                    const float x = p.is_max()
                            ? static_cast<float>(static_cast<T>(mx[c] ^ flip))
                            : static_cast<float>(static_cast<double>(sum[c]) / divisor);
                    store_from_f32(dst_dt, args.dst, out + c, x);
                }
            }
        }
        }
    }

    pool_problem prb_;
};

} // namespace

std::unique_ptr<primitive_impl> create_pool_int8_loop(const pool_request &req, cpu_isa,
                                                      std::string &why_not) {
    const dt s = req.src.get_data_type();
    PRIM_DISPATCH(why_not, s == dt::u8 || s == dt::s8, "src is not u8 or s8");
    PRIM_DISPATCH(why_not, req.attr.get_post_ops().len() == 0, "a post-ops chain (the reference runs it)");
    const memory::desc src = channels_last_desc(req.src.get_dims(), req.src.get_data_type());
    const memory::desc dst = channels_last_desc(req.dst.get_dims(), req.dst.get_data_type());
    PRIM_DISPATCH(why_not, req.src.is_any() || req.src == src, "src is not channels-last");
    PRIM_DISPATCH(why_not, req.dst.is_any() || req.dst == dst, "dst is not channels-last");
    arg_layouts layouts;
    layouts.src = src;
    layouts.dst = dst;
    return std::make_unique<pool_int8_loop>(req.prb, std::move(layouts));
}

} // namespace impl
} // namespace prim
