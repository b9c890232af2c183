// move_unblocked: the dims become axes (extent, src stride, dst stride), the work becomes units
// (runs or tiles) indexed row-major over some of them, and each thread walks its share of the
// units, stepping offsets by additions.
#include "common/move_unblocked.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <emmintrin.h>
#include <immintrin.h>
#include <tmmintrin.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/plain_layout.hpp"

namespace prim {
namespace impl {

namespace {

using dim = memory::dim;

// Below this many bytes a move runs on one thread: two threads made the BERT attention's 98 KB
// moves 15-30% slower, and a 3 MB transpose 25-50% faster (bench/permute_timing.cpp). A desc
// has at most 6 dims, so the lists below hold at most 6 axes and 2 more cut into pieces.
constexpr dim parallel_bytes = dim(1) << 18;

// One dim as the two layouts place it: its extent and its stride on each side, in elements.
struct axis {
    dim n, s, d;
};

// A list of axes (at most 8), held in place, not on the heap: a small move's whole cost is a few
// hundred nanoseconds (1x2x2x16 bytes: 0.0003 ms, 0.0007 before).
class axis_list {
public:
    void push_back(const axis &a) { v_[n_++] = a; }
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    axis &operator[](size_t k) { return v_[k]; }
    const axis &operator[](size_t k) const { return v_[k]; }
    axis *begin() { return v_; }
    axis *end() { return v_ + n_; }
    const axis *begin() const { return v_; }
    const axis *end() const { return v_ + n_; }
    const axis &back() const { return v_[n_ - 1]; }
    axis &back() { return v_[n_ - 1]; }
    // The first k axes of another list.
    void assign_first(const axis_list &o, size_t k) {
        for (n_ = 0; n_ < k; ++n_) v_[n_] = o.v_[n_];
    }

private:
    axis v_[8];
    size_t n_ = 0;
};

// The dims of more than one element, outermost in dst first, each merged into the one outside it
// where the pair is contiguous in both layouts (plain -> plain of one shape is one axis). Never
// empty: a single element is one axis of 1.
axis_list merged_axes(const memory::desc &src_md, const memory::desc &dst_md) {
    const memory::dims &dims = dst_md.get_dims(), &ss = src_md.strides(), &ds = dst_md.strides();
    axis_list axes;
    for (size_t i = 0; i < dims.size(); ++i)
        if (dims[i] > 1) axes.push_back({dims[i], ss[i], ds[i]});
    std::stable_sort(axes.begin(), axes.end(), [](const axis &a, const axis &b) { return a.d > b.d; });
    axis_list merged;
    for (const axis &a : axes) {
        if (!merged.empty() && merged.back().d == a.d * a.n && merged.back().s == a.s * a.n) {
            merged.back() = {merged.back().n * a.n, a.s, a.d};
            continue;
        }
        merged.push_back(a);
    }
    if (merged.empty()) merged.push_back({1, 1, 1});
    return merged;
}

// axis cut into pieces of up to `piece` elements: one unit per piece.
axis pieces_of(const axis &a, dim piece) {
    return {(a.n + piece - 1) / piece, a.s * piece, a.d * piece};
}
// The extent of the piece at index i.
dim piece_extent(const axis &a, dim piece, dim i) {
    return std::min(piece, a.n - i * piece);
}

// The units in row-major order over `axes` from unit `start` on: the current unit's index along
// each axis and its src and dst offsets, stepped one unit at a time.
class unit_walk {
public:
    unit_walk(const axis_list &axes, dim start) : axes_(axes) {
        for (int k = static_cast<int>(axes_.size()) - 1; k >= 0; --k) {
            idx_[k] = start % axes_[k].n;
            start /= axes_[k].n;
            src_ += idx_[k] * axes_[k].s;
            dst_ += idx_[k] * axes_[k].d;
        }
    }
    void next() {
        for (int k = static_cast<int>(axes_.size()) - 1; k >= 0; --k) {
            src_ += axes_[k].s;
            dst_ += axes_[k].d;
            if (++idx_[k] < axes_[k].n) return;
            src_ -= axes_[k].n * axes_[k].s;
            dst_ -= axes_[k].n * axes_[k].d;
            idx_[k] = 0;
        }
    }
    dim index(size_t k) const { return idx_[k]; }
    dim src() const { return src_; }
    dim dst() const { return dst_; }

private:
    const axis_list &axes_;
    dim idx_[8] = {};
    dim src_ = 0, dst_ = 0;
};

// Calls f(walk) for every unit over `axes`, each thread a contiguous share of them.
template <typename F>
void for_each_unit(const axis_list &axes, bool parallel, const F &f) {
    dim count = 1;
    for (const axis &a : axes) count *= a.n;
    if (!parallel) {
        unit_walk w(axes, 0);
        for (dim u = 0; u < count; ++u, w.next()) f(w);
        return;
    }
#pragma omp parallel
    {
        dim nthr = 1, ithr = 0;
#ifdef _OPENMP
        nthr = omp_get_num_threads();
        ithr = omp_get_thread_num();
#endif
        const dim chunk = (count + nthr - 1) / nthr;
        const dim begin = std::min(count, chunk * ithr), end = std::min(count, begin + chunk);
        if (begin < end) {
            unit_walk w(axes, begin);
            for (dim u = begin; u < end; ++u, w.next()) f(w);
        }
    }
}

// n bytes, 16 at a time, the last 16 overlapping the ones before (n of at least 16); shorter
// copies byte by byte.
inline void copy_short(const uint8_t *src, uint8_t *dst, size_t n) {
    if (n < 16) {
        for (size_t i = 0; i < n; ++i) dst[i] = src[i];
        return;
    }
    for (size_t i = 0; i + 16 < n; i += 16)
        _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i), _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + n - 16), _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + n - 16)));
}

// rows x run elements: element (r, x) from src[r * rows.s + x * run.s] to dst[r * rows.d +
// x * run.d]. Contiguous runs of 256 bytes or more by memcpy; shorter ones by copy_short (the
// BERT heads' split, rows of 64 bytes: 0.0073 ms with a memcpy call a row, 0.0033 with a loop
// the compiler vectorized, 0.0025 with copy_short).
template <typename T>
void copy_runs(const T *__restrict src, T *__restrict dst, const axis &rows, const axis &run) {
    if (run.s == 1 && run.d == 1 && run.n * static_cast<dim>(sizeof(T)) >= 256) {
        for (dim r = 0; r < rows.n; ++r)
            std::memcpy(dst + r * rows.d, src + r * rows.s, static_cast<size_t>(run.n) * sizeof(T));
    } else if (run.s == 1 && run.d == 1) {
        for (dim r = 0; r < rows.n; ++r)
            copy_short(reinterpret_cast<const uint8_t *>(src + r * rows.s), reinterpret_cast<uint8_t *>(dst + r * rows.d),
                       static_cast<size_t>(run.n) * sizeof(T));
    } else {
        for (dim r = 0; r < rows.n; ++r)
            for (dim x = 0; x < run.n; ++x) dst[r * rows.d + x * run.d] = src[r * rows.s + x * run.s];
    }
}

// n1 pixels of N values each, the values s0 apart in src (the pixels s1 apart), contiguous in dst
// (the pixels d1 apart): N known here, so the loop over a pixel's values unrolls (a first
// layer's input, nchw -> nhwc with 3 channels, 3x faster than the general loop).
template <int N, typename T>
void interleave(const T *src, dim s0, dim s1, T *dst, dim d1, dim n1) {
    for (dim y = 0; y < n1; ++y)
        for (int x = 0; x < N; ++x) dst[y * d1 + x] = src[y * s1 + x * s0];
}

// interleave<3> of bytes whose pixels follow one another in src (a first layer's u8 input,
// nchw -> nhwc): 16 pixels a step, each of the three 16-byte outputs a pshufb of each channel's
// 16 bytes, or-ed (0.024 -> 0.009 ms for 1x3x224x224); the rest as interleave<3>.
__attribute__((target("ssse3"))) void interleave3_bytes(const uint8_t *src, dim s0, uint8_t *dst, dim n1) {
    alignas(16) static const struct masks {
        int8_t m[3][3][16]; // [output chunk q][channel k][byte p]: the pixel it takes, or -128 (zero)
        masks() {
            for (int q = 0; q < 3; ++q)
                for (int k = 0; k < 3; ++k)
                    for (int p = 0; p < 16; ++p) {
                        const int g = 16 * q + p;
                        m[q][k][p] = static_cast<int8_t>(g % 3 == k ? g / 3 : -128);
                    }
        }
    } table;
    dim y = 0;
    for (; y + 16 <= n1; y += 16) {
        __m128i ch[3];
        for (int k = 0; k < 3; ++k) ch[k] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + y + k * s0));
        for (int q = 0; q < 3; ++q) {
            __m128i out = _mm_setzero_si128();
            for (int k = 0; k < 3; ++k)
                out = _mm_or_si128(out, _mm_shuffle_epi8(ch[k], _mm_load_si128(reinterpret_cast<const __m128i *>(table.m[q][k]))));
            _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + 3 * y + 16 * q), out);
        }
    }
    interleave<3>(src + y, s0, 1, dst + 3 * y, 3, n1 - y);
}

// One pixel (pair of axes: `inner`, 1 to 4 wide and contiguous in dst, inside `outer`) run.
template <typename T>
void interleave_pixels(const T *src, T *dst, const axis &inner, const axis &outer) {
    static const bool ssse3 = __builtin_cpu_supports("ssse3");
    switch (inner.n) {
    case 1: interleave<1>(src, inner.s, outer.s, dst, outer.d, outer.n); break;
    case 2: interleave<2>(src, inner.s, outer.s, dst, outer.d, outer.n); break;
    case 3:
        if constexpr (sizeof(T) == 1) {
            if (outer.s == 1 && outer.d == 3 && ssse3) {
                interleave3_bytes(reinterpret_cast<const uint8_t *>(src), inner.s,
                                  reinterpret_cast<uint8_t *>(dst), outer.n);
                break;
            }
        }
        interleave<3>(src, inner.s, outer.s, dst, outer.d, outer.n);
        break;
    default: interleave<4>(src, inner.s, outer.s, dst, outer.d, outer.n); break;
    }
}

// A K x K block whose rows a are contiguous in src (sa apart) into rows b contiguous in dst (db
// apart), in SSE2 registers: each round unpacks row i with row i + K/2, which sends the element
// at (row i, column j) to row 2(i mod K/2) + j/(K/2), column 2(j mod K/2) + i/(K/2): its address
// (row bits then column bits) rotated by one bit. log2(K) rounds rotate row and column into each
// other's place: the transpose, bit for bit.
template <typename T>
struct sse_transpose;
template <>
struct sse_transpose<uint8_t> {
    static constexpr int K = 16;
    static __m128i lo(__m128i a, __m128i b) { return _mm_unpacklo_epi8(a, b); }
    static __m128i hi(__m128i a, __m128i b) { return _mm_unpackhi_epi8(a, b); }
};
template <>
struct sse_transpose<uint32_t> {
    static constexpr int K = 4;
    static __m128i lo(__m128i a, __m128i b) { return _mm_unpacklo_epi32(a, b); }
    static __m128i hi(__m128i a, __m128i b) { return _mm_unpackhi_epi32(a, b); }
};

template <typename T>
inline void transpose_block(const T *src, dim sa, T *dst, dim db) {
    using op = sse_transpose<T>;
    constexpr int K = op::K;
    __m128i r[K], t[K];
    for (int i = 0; i < K; ++i) r[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i * sa));
    for (int bit = 1; bit < K; bit *= 2) {
        for (int i = 0; i < K / 2; ++i) {
            t[2 * i] = op::lo(r[i], r[i + K / 2]);
            t[2 * i + 1] = op::hi(r[i], r[i + K / 2]);
        }
        for (int i = 0; i < K; ++i) r[i] = t[i];
    }
    for (int i = 0; i < K; ++i) _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i * db), r[i]);
}

// Two K x K blocks side by side along b (K = 16 / sizeof(T)), one in each 128-bit lane of AVX2
// registers: rows of 32 bytes loaded whole, the same rounds (the unpacks stay within lanes),
// each register's lanes stored to rows b and b + K. Half the loads and unpacks of two
// transpose_block calls.
template <typename T>
struct avx2_unpack;
template <>
struct avx2_unpack<uint8_t> {
    __attribute__((target("avx2"))) static __m256i lo(__m256i a, __m256i b) { return _mm256_unpacklo_epi8(a, b); }
    __attribute__((target("avx2"))) static __m256i hi(__m256i a, __m256i b) { return _mm256_unpackhi_epi8(a, b); }
};
template <>
struct avx2_unpack<uint32_t> {
    __attribute__((target("avx2"))) static __m256i lo(__m256i a, __m256i b) { return _mm256_unpacklo_epi32(a, b); }
    __attribute__((target("avx2"))) static __m256i hi(__m256i a, __m256i b) { return _mm256_unpackhi_epi32(a, b); }
};

template <typename T>
__attribute__((target("avx2"))) void transpose_block_pair(const T *src, dim sa, T *dst, dim db) {
    using op = avx2_unpack<T>;
    constexpr int K = sse_transpose<T>::K;
    __m256i r[K], t[K];
    for (int i = 0; i < K; ++i) r[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + i * sa));
    for (int bit = 1; bit < K; bit *= 2) {
        for (int i = 0; i < K / 2; ++i) {
            t[2 * i] = op::lo(r[i], r[i + K / 2]);
            t[2 * i + 1] = op::hi(r[i], r[i + K / 2]);
        }
        for (int i = 0; i < K; ++i) r[i] = t[i];
    }
    for (int i = 0; i < K; ++i) {
        _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i * db), _mm256_castsi256_si128(r[i]));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + (i + K) * db), _mm256_extracti128_si256(r[i], 1));
    }
}

// The tile of na x nb elements: element (a, b) from src[a * sa + b * sb] to dst[a * da + b * db].
template <typename T>
void transpose_strided(const T *src, dim sa, dim sb, T *dst, dim da, dim db, dim na, dim nb) {
    for (dim a = 0; a < na; ++a)
        for (dim b = 0; b < nb; ++b) dst[a * da + b * db] = src[a * sa + b * sb];
}

// The same tile, by K x K register blocks where b is contiguous in src and a in dst, the edges
// (na or nb not a multiple of K) element by element.
template <typename T>
void transpose_tile(const T *src, dim sa, dim sb, T *dst, dim da, dim db, dim na, dim nb) {
    constexpr dim K = sse_transpose<T>::K;
    if (sb != 1 || da != 1) return transpose_strided(src, sa, sb, dst, da, db, na, nb);
    static const bool avx2 = __builtin_cpu_supports("avx2");
    const dim fa = na / K * K, fb = nb / K * K, fb2 = avx2 ? nb / (2 * K) * (2 * K) : 0;
    for (dim a = 0; a < fa; a += K) {
        for (dim b = 0; b < fb2; b += 2 * K) transpose_block_pair(src + a * sa + b, sa, dst + b * db + a, db);
        for (dim b = fb2; b < fb; b += K) transpose_block(src + a * sa + b, sa, dst + b * db + a, db);
        transpose_strided(src + a * sa + fb, sa, 1, dst + fb * db + a, 1, db, K, nb - fb);
    }
    transpose_strided(src + fa * sa, sa, 1, dst + fa, 1, db, na - fa, nb);
}

template <typename T>
void move(const axis_list &axes, const T *src, T *dst, bool parallel) {
    const axis inner = axes.back(); // dst's innermost
    size_t from = axes.size() - 1;  // src's innermost
    for (size_t k = 0; k < axes.size(); ++k)
        if (axes[k].s < axes[from].s) from = k;
    axis_list units;
    if (inner.d == 1 && inner.n <= 4 && axes.size() > 1) { // pixels of 1 to 4 channels into channels-last
        const axis outer = axes[axes.size() - 2];
        units.assign_first(axes, axes.size() - 2);
        if (units.empty()) units.push_back({1, 0, 0});
        for_each_unit(units, parallel, [&](const unit_walk &w) {
            interleave_pixels(src + w.src(), dst + w.dst(), inner, outer);
        });
        return;
    }
    if (from == axes.size() - 1) { // runs along the dim innermost on both sides
        // A unit: up to 16 KB of rows, each up to 64 KB of its run.
        const axis rows = axes.size() > 1 ? axes[axes.size() - 2] : axis{1, 0, 0};
        const dim run_piece = (dim(1) << 16) / static_cast<dim>(sizeof(T));
        const dim row_piece = std::max<dim>(1, (dim(1) << 14) / (std::min(inner.n, run_piece) * static_cast<dim>(sizeof(T))));
        units.assign_first(axes, axes.size() - std::min<size_t>(axes.size(), 2));
        units.push_back(pieces_of(rows, row_piece));
        units.push_back(pieces_of(inner, run_piece));
        const size_t r_unit = units.size() - 2, x_unit = units.size() - 1;
        for_each_unit(units, parallel, [&](const unit_walk &w) {
            copy_runs(src + w.src(), dst + w.dst(), {piece_extent(rows, row_piece, w.index(r_unit)), rows.s, rows.d},
                      {piece_extent(inner, run_piece, w.index(x_unit)), inner.s, inner.d});
        });
        return;
    }
    // Tiles of (dst's innermost) x (src's innermost): 64 x 64 bytes, or 32 x 32 words, each
    // side's lines used whole while they are in L1.
    const dim tile = sizeof(T) == 1 ? 64 : 32;
    const axis across = axes[from];
    for (size_t k = 0; k + 1 < axes.size(); ++k)
        if (k != from) units.push_back(axes[k]);
    units.push_back(pieces_of(inner, tile));
    units.push_back(pieces_of(across, tile));
    const size_t a_unit = units.size() - 2, b_unit = units.size() - 1;
    for_each_unit(units, parallel, [&](const unit_walk &w) {
        transpose_tile(src + w.src(), inner.s, across.s, dst + w.dst(), inner.d, across.d,
                       piece_extent(inner, tile, w.index(a_unit)), piece_extent(across, tile, w.index(b_unit)));
    });
}

bool unblocked(const memory::desc &md) {
    return !md.is_any() && !md.is_zero() && is_unblocked(md) && md.padded_dims() == md.get_dims();
}

} // namespace

bool move_unblocked(const memory::desc &src_md, const memory::desc &dst_md, const void *src, void *dst) {
    const memory::data_type t = src_md.get_data_type();
    const size_t size = data_type_size(t);
    if (t != dst_md.get_data_type() || (size != 1 && size != 4) || !unblocked(src_md) || !unblocked(dst_md)
            || src_md.get_dims() != dst_md.get_dims())
        return false;
    dim total = 1;
    for (dim x : src_md.get_dims()) total *= x;
    if (total == 0) return true;
    const axis_list axes = merged_axes(src_md, dst_md);
    const bool parallel = total * static_cast<dim>(size) >= parallel_bytes;
    if (size == 1) move(axes, static_cast<const uint8_t *>(src), static_cast<uint8_t *>(dst), parallel);
    else move(axes, static_cast<const uint32_t *>(src), static_cast<uint32_t *>(dst), parallel);
    return true;
}

} // namespace impl
} // namespace prim
