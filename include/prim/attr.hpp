// prim: algorithms, the post-ops chain and the primitive attribute that carries it.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "prim/api.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {

enum class algorithm {
    undef,
    convolution_direct,
    // Eltwise algorithms; formulas in doc/reference.md §1.
    eltwise_relu,
    eltwise_tanh,
    eltwise_elu,
    eltwise_square,
    eltwise_abs,
    eltwise_sqrt,
    eltwise_linear,
    eltwise_clip,
    eltwise_clip_v2,
    eltwise_soft_relu,
    eltwise_logistic,
    eltwise_exp,
    eltwise_log,
    eltwise_gelu_tanh,
    eltwise_gelu_erf,
    eltwise_swish,
    eltwise_hardsigmoid,
    eltwise_hardswish,
    eltwise_mish,
    eltwise_pow,
    eltwise_round,
    eltwise_celu,
    eltwise_selu,
    eltwise_softsign,
    eltwise_shrink,
    eltwise_thresholded_relu,
    eltwise_scaled_tanh,
    eltwise_softplus,
    eltwise_parametric_softplus,
    eltwise_identity,
    eltwise_logsigmoid, // -soft_relu(-x), oneDNN 2.x's definition
    // Binary algorithms (binary post-ops): x op src1. The comparisons give 1.0 or 0.0.
    binary_add,
    binary_sub,
    binary_mul,
    binary_div,
    binary_max, // x > src1 ? x : src1 (x86's maxps: a NaN in either gives src1)
    binary_min, // x < src1 ? x : src1
    binary_ge,
    binary_gt,
    binary_le,
    binary_lt,
    binary_eq,
    binary_ne,  // also 1.0 when either is NaN
    // Softmax algorithms (prim/softmax.hpp).
    softmax_accurate,
    softmax_log,
    // Pooling algorithms (include/prim/pooling.hpp).
    pooling_max,                 // padded taps never win; NaN propagates
    pooling_avg_include_padding, // sum over the real taps / (KD * KH * KW)
    pooling_avg_exclude_padding, // sum over the real taps / their count
};

// A post-op parameter given at execute instead of at creation, as oneDNN 2.x's
// DNNL_RUNTIME_F32_VAL: a NaN with a payload of its own, recognised by its bits only. An eltwise
// entry's alpha, beta or scale, or a sum's scale, may be this value; the chain's kernel is then
// generated for the chain's structure, not for the value, and reads the value at every execute
// from the argument PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_ATTR_POST_OP_PARAMS (see
// prim/memory.hpp). Fusion strings write it '*' ("relu:*", "sum:*").
constexpr uint32_t runtime_f32_bits = 0x7fc000d0u;
inline float runtime_f32_val() {
    float f;
    std::memcpy(&f, &runtime_f32_bits, sizeof f);
    return f;
}
inline bool is_runtime_f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits == runtime_f32_bits;
}
#define PRIM_RUNTIME_F32_VAL (::prim::runtime_f32_val())

// Name as the fusion string prints it ("relu", "gelu_erf", "add"), or nullptr for any other value.
PRIM_API const char *algorithm_name(algorithm alg);

// A chain of operations applied, in order, to a primitive's output before it is stored.
class PRIM_API post_ops {
public:
    enum class kind { sum, eltwise, binary, prelu, dw };

    // Which dims of the destination a binary or prelu operand varies along: bit d set for dim d,
    // every other dim broadcast (size 1 in the operand). Bits beyond the destination's rank are
    // ignored, so per_tensor and per_mb_spatial mean the same thing at every rank.
    struct policy {
        static constexpr int common = 0;                 // one value
        static constexpr int per_oc = 1 << 1;            // along dim 1 (channels)
        static constexpr int per_mb_spatial = ~(1 << 1); // every dim but 1
        static constexpr int per_tensor = ~0;            // the destination's shape
    };

    struct PRIM_API entry {
        post_ops::kind kind = kind::eltwise;
        algorithm alg = algorithm::undef; // eltwise and binary
        float alpha = 0.f, beta = 0.f;    // eltwise only
        float scale = 1.f;                // eltwise and sum
        // sum: dst_old's zero point and the type it is read as (undef: dst's own);
        // binary by mask: the operand's type (undef: f32).
        int32_t zero_point = 0;
        memory::data_type dt = memory::data_type::undef;
        int mask = policy::common;        // binary and prelu: the operand's policy
        // binary: the operand's desc as given to append_binary(alg, desc); a zero desc when the
        // operand follows the destination (append_binary(alg, mask), fusion strings).
        memory::desc src1;
        // dw: the depthwise convolution (append_dw). A type left undef follows the
        // convolution's own (weights, dst); bias_dt undef means no depthwise bias.
        struct depthwise {
            memory::data_type wei_dt = memory::data_type::undef;
            memory::data_type bias_dt = memory::data_type::undef;
            memory::data_type dst_dt = memory::data_type::undef;
            memory::dim kernel = 0, stride = 0, padding = 0;
            int mask = 0;              // the scales' mask (oneDNN's: int8 weights only)
            std::vector<float> scales;
        } dw;
        bool operator==(const entry &o) const;
    };

    // x = scale * f_alg(x; alpha, beta). Throws invalid_arguments for an unknown algorithm, a
    // NaN parameter, or a parameter the algorithm forbids (soft_relu with alpha 0). Any of
    // alpha, beta, scale may be PRIM_RUNTIME_F32_VAL (checked at execute instead).
    void append_eltwise(algorithm alg, float alpha, float beta, float scale = 1.f);
    // x = x + scale * (dst_old - zero_point), dst_old read as dt (undef: the destination's
    // type), as oneDNN 2.6. Throws invalid_arguments for a NaN scale; PRIM_RUNTIME_F32_VAL is
    // allowed. A zero point needs an integer destination and dt the destination's size: checked
    // when a primitive is created.
    void append_sum(float scale = 1.f, int32_t zero_point = 0,
                    memory::data_type dt = memory::data_type::undef);
    // x = x op src1, src1 an execute argument (PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1
    // for entry i) of this desc: the destination's rank, each dim equal to the destination's or
    // 1 (broadcast), of type f32, s32, s8 or u8 (read as f32). Throws invalid_arguments for a
    // non-binary algorithm or a desc that is zero or 'any'; the dims are checked against the
    // destination when a primitive is created.
    void append_binary(algorithm alg, const memory::desc &src1);
    // The same with an operand that follows the destination: dims as the destination's where
    // mask (a policy) has the bit, 1 elsewhere, laid out as the destination (a broadcast dim loses
    // its block), of type dt. Query its desc with primitive_desc_base::query_md(arg).
    void append_binary(algorithm alg, int mask,
                       memory::data_type dt = memory::data_type::f32);
    // x = x > 0 ? x : x * slope, the slopes an execute argument (PRIM_ARG_ATTR_MULTIPLE_POST_OP(i)
    // | PRIM_ARG_WEIGHTS) that follows the destination as append_binary(alg, mask) describes.
    void append_prelu(int mask);
    // The depthwise post-op, as oneDNN 2.6: a depthwise convolution (groups = channels, a
    // kernel x kernel window, stride and start padding along h and w) applied to the output of
    // a 2D 1x1 stride-1 unpadded convolution, with its own weights and bias given at execute
    // (PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS / | PRIM_ARG_BIAS, descs from query_md).
    // Entries before it apply to the 1x1's output, entries after it to the depthwise output;
    // dst has the depthwise output's dims: ceil(o / stride) per spatial dim. A type left undef
    // follows the convolution's (weights_dt: its weights type, dst_dt: its dst type); bias_dt
    // undef: no bias. Throws invalid_arguments for a kernel or stride below 1, a padding that is
    // negative or not below the kernel (a window would hold padding only), a negative mask, a
    // NaN scale, or a type that is not f32, s32, s8 or u8. Where it may stand in a chain is
    // checked when a primitive is created (doc/reference.md §1, "The dw post-op").
    void append_dw(memory::data_type weights_dt, memory::data_type bias_dt,
                   memory::data_type dst_dt, memory::dim kernel, memory::dim stride,
                   memory::dim padding_l, int mask, const std::vector<float> &scales);
    void append_dw_k3s1p1(memory::data_type weights_dt, memory::data_type bias_dt,
                          memory::data_type dst_dt, int mask, const std::vector<float> &scales) {
        append_dw(weights_dt, bias_dt, dst_dt, 3, 1, 1, mask, scales);
    }
    void append_dw_k3s2p1(memory::data_type weights_dt, memory::data_type bias_dt,
                          memory::data_type dst_dt, int mask, const std::vector<float> &scales) {
        append_dw(weights_dt, bias_dt, dst_dt, 3, 2, 1, mask, scales);
    }

    int len() const { return static_cast<int>(entries_.size()); }
    kind get_kind(int index) const;
    void get_params_eltwise(int index, algorithm &alg, float &alpha, float &beta, float &scale) const;
    void get_params_sum(int index, float &scale) const;
    void get_params_sum(int index, float &scale, int32_t &zero_point, memory::data_type &dt) const;
    // src1 is a zero desc when the operand follows the destination (then mask says how).
    void get_params_binary(int index, algorithm &alg, memory::desc &src1) const;
    void get_params_binary(int index, algorithm &alg, int &mask) const;
    void get_params_prelu(int index, int &mask) const;
    void get_params_dw(int index, memory::data_type &weights_dt, memory::data_type &bias_dt,
                       memory::data_type &dst_dt, memory::dim &kernel, memory::dim &stride,
                       memory::dim &padding_l, int &mask, std::vector<float> &scales) const;

    const std::vector<entry> &entries() const { return entries_; }
    bool has_sum() const;
    // True when an entry reads an execute argument (binary, prelu).
    bool has_operands() const;
    // True when an entry has a PRIM_RUNTIME_F32_VAL parameter.
    bool has_runtime_params() const;
    // The index of the first dw entry, or -1.
    int dw_index() const;
    bool operator==(const post_ops &o) const { return entries_ == o.entries_; }
    bool operator!=(const post_ops &o) const { return !(*this == o); }

private:
    const entry &at(int index, const char *who) const;
    const entry &at_kind(int index, kind k, const char *who) const;
    std::vector<entry> entries_;
};

// The fusion string of a chain ("sum+relu:0.1"), as doc/reference.md §2 prints it.
PRIM_API std::string to_string(const post_ops &po);
// Parses one chain (no commas). Throws invalid_arguments naming the bad token and its position.
PRIM_API post_ops parse_post_ops(const std::string &chain);
// Parses a comma-separated list of chains; "" is one empty chain, "," two.
PRIM_API std::vector<post_ops> parse_post_ops_list(const std::string &chains);

// Quantization (doc/int8.md), for convolution and inner product on int8 data and for reorder.
// Two ways to give scales, not mixed in one attribute: oneDNN 2.x output scales, or oneDNN v3
// per-argument scales. Masks are oneDNN's: bit d set means one value per index of dim d.
struct PRIM_API quantization {
    // oneDNN 2.x: x = (acc + bias) * scales[oc]. mask 0 (one value) or 1 << 1 (per output
    // channel); values one or OC of them, or {PRIM_RUNTIME_F32_VAL}: given at execute as
    // PRIM_ARG_ATTR_OUTPUT_SCALES.
    bool has_output_scales = false;
    int output_scales_mask = 0;
    std::vector<float> output_scales;
    // oneDNN v3: per argument (PRIM_ARG_SRC, PRIM_ARG_WEIGHTS, PRIM_ARG_DST) a mask, the values
    // at execute as PRIM_ARG_ATTR_SCALES | arg. -1: no scale for that argument.
    int src_scale_mask = -1, wei_scale_mask = -1, dst_scale_mask = -1;
    // Binary's second source (PRIM_ARG_SRC_1; its first, PRIM_ARG_SRC_0, is PRIM_ARG_SRC):
    // dst = binary(src_scale * src0, src1_scale * src1), as oneDNN. -1: none.
    int src1_scale_mask = -1;
    // Zero points of PRIM_ARG_SRC and PRIM_ARG_DST (PRIM_ARG_WEIGHTS is refused by convolution
    // and inner product, as oneDNN does): a mask, the s32 values at execute as
    // PRIM_ARG_ATTR_ZERO_POINTS | arg. -1: none.
    int src_zp_mask = -1, wei_zp_mask = -1, dst_zp_mask = -1;
    // The dw post-op's depthwise convolution (oneDNN v3's PRIM_ARG_ATTR_POST_OP_DW |
    // PRIM_ARG_WEIGHTS / | PRIM_ARG_DST): its weights' scales (mask 0, or per channel: 1 or 3 over
    // its {C, 1, 1, K, K} weights) and its dst scale (mask 0), the values at execute as
    // PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | arg. Its src scale is the convolution's
    // dst scale (the 1x1's output is its input). -1: none.
    int dw_wei_scale_mask = -1, dw_dst_scale_mask = -1;

    bool any() const;
};

class PRIM_API primitive_attr {
public:
    void set_post_ops(const post_ops &po) { post_ops_ = po; }
    const post_ops &get_post_ops() const { return post_ops_; }
    // Caps the instruction set for this primitive; combined with PRIM_MAX_CPU_ISA by taking the lower.
    void set_max_cpu_isa(cpu_isa isa) { max_isa_ = isa; }
    cpu_isa get_max_cpu_isa() const { return max_isa_; }
    // Strict: creation fails (unimplemented, with the reason) instead of falling back to a
    // slower implementation than the best one the ISA allows.
    void set_strict(bool strict) { strict_ = strict; }
    bool get_strict() const { return strict_; }

    // oneDNN 2.x output scales; see quantization. Throws invalid_arguments for an empty or NaN
    // list or a negative mask.
    void set_output_scales(int mask, const std::vector<float> &scales);
    void get_output_scales(int &mask, std::vector<float> &scales) const;
    // oneDNN v3 scales of PRIM_ARG_SRC (= PRIM_ARG_SRC_0), PRIM_ARG_SRC_1 (binary),
    // PRIM_ARG_WEIGHTS or PRIM_ARG_DST, or of the dw post-op's PRIM_ARG_ATTR_POST_OP_DW |
    // PRIM_ARG_WEIGHTS / | PRIM_ARG_DST; throws invalid_arguments for another argument or a
    // negative mask. Which arguments and masks a primitive takes is checked at its creation.
    void set_scales_mask(int arg, int mask);
    // Zero points of PRIM_ARG_SRC, PRIM_ARG_WEIGHTS or PRIM_ARG_DST (primitives say which they
    // take); throws invalid_arguments for another argument or a negative mask.
    void set_zero_points_mask(int arg, int mask);
    const quantization &get_quantization() const { return quant_; }

private:
    post_ops post_ops_;
    quantization quant_;
    cpu_isa max_isa_ = cpu_isa::all;
    bool strict_ = false;
};

} // namespace prim
