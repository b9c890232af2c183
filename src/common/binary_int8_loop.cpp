// Binary on int8 data and with scales (doc/int8.md) as loops the compiler vectorizes (the store
// in SSE2), over blocks of the dense buffers: src0 and dst in one dense unpadded layout; src1 in
// that layout too, one value, or one per channel. Each block is read as f32 times its source's
// scale, combined, put through the chain (sums and relu as loops, any other chain through
// ref_chain per element: the reference's own arithmetic either way), then stored rounded half to
// even and saturated. The reference takes the rest.
#include <emmintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "attr/binary_table.hpp"
#include "common/binary_chain.hpp"
#include "common/binary_int8_loop.hpp"
#include "common/convert_types.hpp"
#include "ref/ref_chain_operands.hpp"

namespace prim {
namespace impl {
namespace {

using dt = memory::data_type;

constexpr int64_t block = 1024; // elements per step: the three f32 blocks stay in L1

template <typename T>
void load_typed(const T *s, int64_t n, float scale, float *out) {
    for (int64_t i = 0; i < n; ++i) out[i] = scale * static_cast<float>(s[i]);
}

// n elements of type t from p + at (in elements), as f32 times scale.
void load_block(dt t, const void *p, int64_t at, int64_t n, float scale, float *out) {
    switch (t) {
    case dt::u8: return load_typed(static_cast<const uint8_t *>(p) + at, n, scale, out);
    case dt::s8: return load_typed(static_cast<const int8_t *>(p) + at, n, scale, out);
    case dt::s32: return load_typed(static_cast<const int32_t *>(p) + at, n, scale, out);
    default: return load_typed(static_cast<const float *>(p) + at, n, scale, out);
    }
}

// 4 int32 lanes stored as T (u8, s8: narrowed by packs, the values already in T's range).
template <typename T>
void store4(__m128i q, T *d) {
    if (std::is_same<T, int32_t>::value) return _mm_storeu_si128(reinterpret_cast<__m128i *>(d), q);
    const __m128i w = _mm_packs_epi32(q, q);
    const __m128i b = std::is_same<T, uint8_t>::value ? _mm_packus_epi16(w, w) : _mm_packs_epi16(w, w);
    const int32_t four = _mm_cvtsi128_si32(b);
    std::memcpy(d, &four, sizeof four);
}

// NaN to 0, clamped to [lo, hi], rounded half to even: convert_types.hpp's store_from_f32, 4
// values at a time with SSE2 (the x86-64 baseline; the compiler does not vectorize nearbyint):
// max then min clamp (a NaN becomes lo), an ordered-compare mask sends a NaN to 0, cvtps2dq
// rounds half to even under the default MXCSR.
template <typename T>
void store_typed(const float *x, int64_t n, float lo, float hi, T *d) {
    const __m128 l = _mm_set1_ps(lo), h = _mm_set1_ps(hi);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m128 v = _mm_loadu_ps(x + i);
        const __m128 c = _mm_and_ps(_mm_min_ps(_mm_max_ps(v, l), h), _mm_cmpord_ps(v, v));
        store4(_mm_cvtps_epi32(c), d + i);
    }
    for (; i < n; ++i) d[i] = static_cast<T>(saturate_round(x[i], lo, hi));
}

void store_block(dt t, const float *x, int64_t n, void *p, int64_t at) {
    switch (t) {
    case dt::u8: return store_typed(x, n, 0.f, 255.f, static_cast<uint8_t *>(p) + at);
    case dt::s8: return store_typed(x, n, -128.f, 127.f, static_cast<int8_t *>(p) + at);
    case dt::s32: // s32's upper bound is the largest f32 below 2^31
        return store_typed(x, n, -2147483648.f, 2147483520.f, static_cast<int32_t *>(p) + at);
    default: std::copy(x, x + n, static_cast<float *>(p) + at);
    }
}

// x = x op y over n values, the loop chosen once per block (binary_fwd's arithmetic).
void combine(algorithm alg, float *x, const float *y, int64_t n) {
    switch (alg) {
    case algorithm::binary_add: for (int64_t i = 0; i < n; ++i) x[i] = x[i] + y[i]; return;
    case algorithm::binary_sub: for (int64_t i = 0; i < n; ++i) x[i] = x[i] - y[i]; return;
    case algorithm::binary_mul: for (int64_t i = 0; i < n; ++i) x[i] = x[i] * y[i]; return;
    case algorithm::binary_div: for (int64_t i = 0; i < n; ++i) x[i] = x[i] / y[i]; return;
    case algorithm::binary_max: for (int64_t i = 0; i < n; ++i) x[i] = x[i] > y[i] ? x[i] : y[i]; return;
    case algorithm::binary_min: for (int64_t i = 0; i < n; ++i) x[i] = x[i] < y[i] ? x[i] : y[i]; return;
    default: for (int64_t i = 0; i < n; ++i) x[i] = binary_fwd(alg, x[i], y[i]); // comparisons
    }
}

// True when every entry is a sum or relu without slope: the chain then runs as a loop per entry
// over the block (block_chain), with the reference's arithmetic; other chains go through
// ref_chain element by element.
bool block_chain_ok(const post_ops &po) {
    for (const post_ops::entry &e : po.entries()) {
        const bool relu = e.kind == post_ops::kind::eltwise && e.alg == algorithm::eltwise_relu && e.alpha == 0.f;
        if (e.kind != post_ops::kind::sum && !relu) return false;
    }
    return true;
}

// The chain of block_chain_ok on n values; dst holds the old values at `at`, of type td (a sum
// with its own type reads the same bytes as that type: u8 as s8 or back).
void block_chain(const post_ops &po, float *x, int64_t n, dt td, const void *dst, int64_t at) {
    float old[block];
    for (const post_ops::entry &e : po.entries()) {
        if (e.kind == post_ops::kind::sum) {
            load_block(e.dt == dt::undef ? td : e.dt, dst, at, n, 1.f, old);
            const double scale = e.scale, zp = e.zero_point;
            for (int64_t i = 0; i < n; ++i)
                x[i] = static_cast<float>(static_cast<double>(x[i]) + scale * (static_cast<double>(old[i]) - zp));
        } else if (e.scale == 1.f) { // relu
            for (int64_t i = 0; i < n; ++i) x[i] = x[i] > 0.f ? x[i] : 0.f;
        } else { // relu, then its scale (ref_chain: f rounded to f32, then one rounded product)
            const double scale = e.scale;
            for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(scale * (x[i] > 0.f ? x[i] : 0.f));
        }
    }
}

// How src1 meets src0: element for element, one value, or one per channel (dim 1).
enum class src1_shape { full, scalar, per_channel };

class binary_int8_loop : public primitive_impl {
public:
    binary_int8_loop(const binary_request &req, src1_shape shape)
        : primitive_impl(binary_layouts(req)), alg_(req.alg), chain_(req.attr.get_post_ops()),
          shape_(shape), n_(req.dst.nelems_padded()),
          // A 1D tensor has no channel dim (its src1 is then full or one value).
          channels_(req.prb.src0.size() > 1 ? req.prb.src0[1] : 1),
          channel_stride_(req.prb.src0.size() > 1 ? req.dst.strides()[1] : 1) {}

    std::string name() const override { return "loop"; }

    void execute(const exec_ptrs &args) const override {
        const float s0 = args.quant.src_scales ? args.quant.src_scales[0] : 1.f;
        const float s1 = args.quant.src1_scales ? args.quant.src1_scales[0] : 1.f;
        const dt t0 = src_md().get_data_type(), t1 = layouts().src1.get_data_type(),
                 td = dst_md().get_data_type();
        const post_ops valued = ref_chain_operands::with_values(chain_, args);
        ref_chain chain(valued);
        chain.set_dst_type(td);
        const bool with_chain = chain_.len() > 0, with_sum = chain_.has_sum();
        const bool by_block = block_chain_ok(valued);
        // A scalar or per-channel src1, read and scaled once.
        std::vector<float> small;
        if (shape_ != src1_shape::full) {
            small.resize(static_cast<size_t>(shape_ == src1_shape::scalar ? 1 : channels_));
            load_block(t1, args.src1, 0, static_cast<int64_t>(small.size()), s1, small.data());
        }
        const int64_t blocks = (n_ + block - 1) / block;
#pragma omp parallel for schedule(static) if (blocks > 1)
        for (int64_t b = 0; b < blocks; ++b) {
            float x[block], y[block], old[block];
            const int64_t at = b * block, n = std::min(block, n_ - at);
            load_block(t0, args.src, at, n, s0, x);
            src1_block(args.src1, t1, s1, small, at, n, y);
            combine(alg_, x, y, n);
            if (with_chain && by_block) {
                block_chain(valued, x, n, td, args.dst, at);
            } else if (with_chain) {
                if (with_sum) load_block(td, args.dst, at, n, 1.f, old);
                for (int64_t i = 0; i < n; ++i) x[i] = chain.apply(x[i], with_sum ? old[i] : 0.f, at + i);
            }
            store_block(td, x, n, args.dst, at);
        }
    }

private:
    // The n values of src1 that meet src0's elements at + 0 ... at + n - 1.
    void src1_block(const float *src1, dt t1, float s1, const std::vector<float> &small, int64_t at,
                    int64_t n, float *y) const {
        if (shape_ == src1_shape::full) return load_block(t1, src1, at, n, s1, y);
        if (shape_ == src1_shape::scalar) return std::fill(y, y + n, small[0]);
        // Per channel in a dense unblocked layout: the channel of offset o is (o / stride) % C,
        // constant over runs of `stride` offsets.
        const int64_t stride = channel_stride_;
        int64_t c = (at / stride) % channels_;
        for (int64_t i = 0; i < n;) {
            const int64_t run = std::min(n - i, stride - (at + i) % stride);
            std::fill(y + i, y + i + run, small[static_cast<size_t>(c)]);
            i += run;
            if (++c == channels_) c = 0;
        }
    }

    algorithm alg_;
    post_ops chain_;
    src1_shape shape_;
    int64_t n_, channels_, channel_stride_;
};

// A dense layout without blocks or padding (every element's offset is its strides' sum).
bool dense_unblocked(const memory::desc &md) {
    return md.is_dense() && md.padded_dims() == md.get_dims()
            && md.layout().find_first_of("ABCDEF") == std::string::npos;
}

} // namespace

std::unique_ptr<primitive_impl> create_binary_int8_loop(const binary_request &req, cpu_isa,
                                                        std::string &why_not) {
    const memory::desc &src0 = req.src0, &src1 = req.src1, &dst = req.dst;
    PRIM_DISPATCH(why_not, dense_unblocked(dst) && dense_unblocked(src0) && src0.strides() == dst.strides(),
                  "src0 and dst are not in one dense unblocked layout");
    const post_ops &chain = req.attr.get_post_ops();
    PRIM_DISPATCH(why_not, !chain.has_operands() && chain.dw_index() < 0,
                  "the chain has binary or prelu operands (the reference reads them)");
    PRIM_DISPATCH(why_not, dense_unblocked(src1), "src1 is not dense and unblocked");
    const memory::dims &d0 = req.prb.src0, &d1 = req.prb.src1;
    int64_t ones = 0;
    for (memory::dim v : d1) ones += v == 1;
    const bool scalar = ones == static_cast<int64_t>(d1.size());
    const bool per_channel = d0.size() > 1 && d1[1] == d0[1] && d0[1] > 1
            && ones == static_cast<int64_t>(d1.size()) - 1;
    const bool full = d1 == d0 && dense_unblocked(src1) && src1.strides() == dst.strides();
    PRIM_DISPATCH(why_not, full || scalar || per_channel,
                  "src1 is not src0's layout, one value or one per channel");
    const src1_shape shape = full ? src1_shape::full : scalar ? src1_shape::scalar : src1_shape::per_channel;
    return std::make_unique<binary_int8_loop>(req, shape);
}

} // namespace impl
} // namespace prim
