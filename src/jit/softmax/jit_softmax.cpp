// The JIT softmax, for a dense layout whose innermost dim is the axis (each row contiguous):
// by blocks of rows, each block's work done while it is in the cache:
//   1. max[r] of each row (softmax_reductions.hpp);
//   2. pass A: exp(x - max[r]) into a per-thread scratch block (the library's exp emitter, as an
//      eltwise pass whose first entry subtracts the per-row max);
//   3. the sums of the scratch rows, in double: factor[r] = 1 / sum (softmax) or log(sum) (log);
//   4. pass B over the user's src and dst: chain(exp(x - max[r]) * factor[r]) or
//      chain(x - max[r] - factor[r]), the user's post-ops after the leading entries.
// Softmax with a chain without operands reads the scratch back instead (pass B on the block:
// chain(scratch * factor[r]), dst at the block's rows). With binary or prelu operands, which
// are indexed in the user's whole tensor, pass B computes exp again from src: src, dst and
// dst_old stay what they are (in place and sums work as everywhere else) at the cost of one exp.
// int8 (doc/int8.md; softmax_accurate with a chain without operands): an s8/u8 src is converted
// into a per-thread f32 block first; src's scale (or 2.x's output scale) joins each row's factor,
// so that pass B computes chain(src_scale · softmax(src)); with an int8 dst or a dst scale pass B
// stays in the scratch block, which a last loop multiplies by 1 / dst_scale and stores rounded
// half to even and saturated, as the reference does.
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "common/convert_types.hpp"
#include "common/quant_attr.hpp"
#include "common/softmax_request.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/softmax/softmax_shared.hpp"
#include "jit/softmax/softmax_reductions.hpp"
#include "jit/gen/work_threads.hpp"

namespace prim {
namespace impl {
namespace {

// Rows per block: about this many bytes of a row block, which stays in the L1/L2 cache between
// the steps.
const int64_t block_bytes = 32 * 1024;

struct softmax_passes {
    int64_t block = 0;                    // rows per block
    std::unique_ptr<jit::eltwise_pass> a; // on a plain block x len: exp(x - max[r])
    std::unique_ptr<jit::eltwise_pass> b; // on the user's layout: the result and the chain
    // Or, softmax with a chain without operands: on the block, from the scratch.
    std::unique_ptr<jit::eltwise_pass> b_block;
};

class jit_softmax : public primitive_impl {
public:
    jit_softmax(cpu_isa isa, const softmax_request &req, softmax_passes passes)
        : primitive_impl(softmax_layouts(req)), isa_(isa), prb_(req.prb),
          user_len_(req.attr.get_post_ops().len()), passes_(std::move(passes)),
          src_dt_(req.src.get_data_type()), dst_dt_(softmax_layouts(req).dst.get_data_type()),
          quant_(req.attr.get_quantization()) {}

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        const int64_t rows = prb_.rows(), len = prb_.axis_len(), block = passes_.block;
        const bool log = prb_.alg == algorithm::softmax_log;
        std::vector<float> stats(static_cast<size_t>(2 * rows));
        float *max = stats.data(), *factor = max + rows;
        // Pass B's operands: the leading entries' (softmax: sub, exp, mul; log: sub, sub), then
        // the user's.
        std::vector<const float *> ops = log ? std::vector<const float *> {max, factor}
                                             : std::vector<const float *> {max, nullptr, factor};
        const size_t front = ops.size();
        ops.resize(front + static_cast<size_t>(user_len_), nullptr); // empty post_op: no operands
        std::copy(args.post_op.begin(), args.post_op.end(), ops.begin() + front);

        const float before = src_factor(args.quant), after = args.quant.dst_scales ? 1.f / args.quant.dst_scales[0] : 1.f;
        const bool int8_src = src_dt_ != memory::data_type::f32;
        const bool via_scratch = dst_dt_ != memory::data_type::f32 || after != 1.f; // the last loop stores
        const int64_t blocks = (rows + block - 1) / block;
        const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
        const int nthr = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(
                {max_threads, blocks, prb_.nelems() / softmax_min_elems_per_thread})));
        const auto run = [&](int t) {
            std::vector<float> scratch(static_cast<size_t>(block * len));
            std::vector<float> src_block(int8_src ? static_cast<size_t>(block * len) : 0);
            for (int64_t b = blocks * t / nthr; b < blocks * (t + 1) / nthr; ++b) {
                const int64_t first = b * block, count = std::min(block, rows - first);
                const float *src = args.src + first * len;
                if (int8_src) {
                    widen(args.src, first * len, count * len, src_block.data());
                    src = src_block.data();
                }
                for (int64_t r = 0; r < count; ++r)
                    max[first + r] = jit::softmax_row_max(isa_, src + r * len, len);
                passes_.a->execute_rows(src, scratch.data(), {max + first, nullptr}, args.runtime_params, 0,
                                        count);
                for (int64_t r = 0; r < count; ++r) {
                    const double sum = jit::softmax_row_sum(isa_, scratch.data() + r * len, len);
                    factor[first + r] = static_cast<float>(log ? std::log(sum) : 1.0 / sum) * before;
                }
                if (passes_.b_block) {
                    float *out = via_scratch ? scratch.data() : args.dst + first * len;
                    passes_.b_block->execute_rows(scratch.data(), out, block_ops(factor + first),
                                                  args.runtime_params, 0, count);
                    if (via_scratch) store_scaled(scratch.data(), count * len, after, args.dst, first * len);
                } else
                    passes_.b->execute_rows(args.src, args.dst, ops, args.runtime_params, first,
                                            count);
            }
        };
        jit::run_parts(nthr, run);
    }

private:
    // What multiplies softmax's result before the chain: src's scale or 2.x's output scale.
    float src_factor(const exec_ptrs::quant_values &v) const {
        if (quant_.has_output_scales) return v.output_scales ? v.output_scales[0] : quant_.output_scales[0];
        return v.src_scales ? v.src_scales[0] : 1.f;
    }

    // n int8 values of src (of src_dt_) from element `at` as f32.
    void widen(const float *src, int64_t at, int64_t n, float *out) const {
        if (src_dt_ == memory::data_type::u8) widen_from(reinterpret_cast<const uint8_t *>(src) + at, n, out);
        else widen_from(reinterpret_cast<const int8_t *>(src) + at, n, out);
    }
    template <typename T>
    static void widen_from(const T *in, int64_t n, float *out) {
        for (int64_t i = 0; i < n; ++i) out[i] = in[i];
    }

    // n values times `after` into dst (of dst_dt_) from element `at`: an integer dst rounded half
    // to even and saturated (a NaN gives 0), as the reference's copy back (saturate_round).
    void store_scaled(const float *v, int64_t n, float after, float *dst, int64_t at) const {
        if (dst_dt_ == memory::data_type::f32) {
            for (int64_t i = 0; i < n; ++i) dst[at + i] = v[i] * after;
            return;
        }
        if (dst_dt_ == memory::data_type::u8) narrow_to(v, n, after, 0.f, 255.f, reinterpret_cast<uint8_t *>(dst) + at);
        else narrow_to(v, n, after, -128.f, 127.f, reinterpret_cast<int8_t *>(dst) + at);
    }
    // 16 values a step in SSE2 registers (x86-64's baseline): NaN to 0, clamped, converted with
    // the default rounding (half to even), packed with saturation; the tail one by one. The
    // reorder's quantize_flat (internal_reorder.cpp) does the same per 16 values, but opens an
    // OpenMP region per call: on this per-block store it cost 12x128x128 f32 -> u8 0.040 ->
    // 0.053 ms.
    template <typename T>
    static void narrow_to(const float *v, int64_t n, float after, float lo, float hi, T *out) {
        const __m128 f = _mm_set1_ps(after), l = _mm_set1_ps(lo), h = _mm_set1_ps(hi);
        const auto lane = [&](int64_t i) {
            const __m128 x = _mm_mul_ps(_mm_loadu_ps(v + i), f);
            return _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(_mm_and_ps(x, _mm_cmpord_ps(x, x)), l), h));
        };
        int64_t i = 0;
        for (; i + 16 <= n; i += 16) {
            const __m128i lo8 = _mm_packs_epi32(lane(i), lane(i + 4)), hi8 = _mm_packs_epi32(lane(i + 8), lane(i + 12));
            const __m128i bytes = std::is_same<T, uint8_t>::value ? _mm_packus_epi16(lo8, hi8) : _mm_packs_epi16(lo8, hi8);
            _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i), bytes);
        }
        for (; i < n; ++i) out[i] = static_cast<T>(saturate_round(v[i] * after, lo, hi));
    }

    // b_block's operands: the per-row factor, then none for the user's entries.
    std::vector<const float *> block_ops(const float *factor) const {
        std::vector<const float *> ops(1 + static_cast<size_t>(user_len_), nullptr);
        ops[0] = factor;
        return ops;
    }

    cpu_isa isa_;
    softmax_problem prb_;
    int user_len_;
    softmax_passes passes_;
    memory::data_type src_dt_, dst_dt_;
    quantization quant_;
};

// No inner block, and the axis is innermost or only dims of size 1 are inside it (a classifier's
// N x C x 1 x 1 with axis 1): rows are contiguous.
bool axis_innermost(const memory::desc &md, int axis) {
    return static_cast<int>(md.layout().size()) == md.ndims() && md.strides()[axis] == 1;
}

} // namespace

std::unique_ptr<primitive_impl> create_jit_softmax(const softmax_request &req, cpu_isa isa,
                                                   std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;
    const softmax_problem &prb = req.prb;
    const arg_layouts l = softmax_layouts(req);
    PRIM_DISPATCH(why_not, retyped(l.dst, l.src.get_data_type()) == l.src, "src and dst layouts differ");
    PRIM_DISPATCH(why_not, l.src.is_dense() && l.src.nelems_padded() == prb.nelems(),
                  "the layout is not dense or is padded");
    PRIM_DISPATCH(why_not, axis_innermost(l.src, prb.axis),
                  "the axis is not the innermost dim, unblocked");
    const bool quantized = l.src.get_data_type() != memory::data_type::f32 ||
                           l.dst.get_data_type() != memory::data_type::f32;
    const post_ops &chain = req.attr.get_post_ops();
    PRIM_DISPATCH(why_not, !quantized || (prb.alg == algorithm::softmax_accurate && !chain.has_operands() && !chain.has_sum()),
                  "int8 data with softmax_log, a sum or a chain with operands (the reference runs it)");
    PRIM_DISPATCH(why_not, prb.axis_len() > 1, "the axis has one element");
    softmax_passes passes;
    if (prb.nelems() == 0) // executes as a no-op: nothing to generate
        return std::make_unique<jit_softmax>(kernel_isa, req, std::move(passes));

    const int64_t rows = prb.rows(), len = prb.axis_len();
    passes.block = std::max<int64_t>(1, std::min<int64_t>(rows, block_bytes / (len * 4)));
    const memory::desc block_md({passes.block, len}, memory::data_type::f32, memory::format_tag::ab);
    post_ops a;
    a.append_binary(algorithm::binary_sub, 1); // per row of the block
    a.append_eltwise(algorithm::eltwise_exp, 0.f, 0.f);
    passes.a = softmax_pass(kernel_isa, a, block_md, why_not);
    if (!passes.a) return nullptr;
    PRIM_DISPATCH(why_not, passes.a->row_len() == len && passes.a->total_rows() == passes.block,
                  "the exp pass does not walk the block by rows");

    // Per row: every dim but the axis, laid out in the rows' memory order (the axis is
    // innermost, so dropping it keeps the order of the others).
    const int per_row = ~(1 << prb.axis);
    post_ops front;
    front.append_binary(algorithm::binary_sub, per_row);
    if (prb.alg == algorithm::softmax_log) {
        front.append_binary(algorithm::binary_sub, per_row);
    } else {
        front.append_eltwise(algorithm::eltwise_exp, 0.f, 0.f);
        front.append_binary(algorithm::binary_mul, per_row);
    }
    const post_ops &user = req.attr.get_post_ops();
    if (prb.alg == algorithm::softmax_accurate && !user.has_operands()) {
        post_ops scale;
        scale.append_binary(algorithm::binary_mul, 1); // per row of the block
        passes.b_block = softmax_pass(kernel_isa, chain_after(scale, user), block_md, why_not);
        if (!passes.b_block) return nullptr;
        PRIM_DISPATCH(why_not, passes.b_block->row_len() == len
                          && passes.b_block->total_rows() == passes.block,
                      "the scaling pass does not walk the block by rows");
        return std::make_unique<jit_softmax>(kernel_isa, req, std::move(passes));
    }
    passes.b = softmax_pass(kernel_isa, chain_after(front, user), l.dst, why_not);
    if (!passes.b) return nullptr;
    PRIM_DISPATCH(why_not, passes.b->row_len() == len && passes.b->total_rows() == rows,
                  "the pass does not walk the tensor by rows of the axis");
    return std::make_unique<jit_softmax>(kernel_isa, req, std::move(passes));
}

} // namespace impl
} // namespace prim
