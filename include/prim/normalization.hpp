// prim: batch and layer normalization, forward inference, with post-ops (oneDNN 2.6's semantics).
#pragma once
#include "prim/primitive.hpp"

namespace prim {

// oneDNN's flag values. Without use_global_stats the statistics are computed from src (mean and
// biased variance); with it they are execute arguments (PRIM_ARG_MEAN, PRIM_ARG_VARIANCE).
// use_scale and use_shift add the arguments PRIM_ARG_SCALE and PRIM_ARG_SHIFT (1 and 0 otherwise).
enum class normalization_flags : unsigned {
    none = 0,
    use_global_stats = 0x1,
    use_scale = 0x8,
    use_shift = 0x10,
};

constexpr normalization_flags operator|(normalization_flags a, normalization_flags b) {
    return static_cast<normalization_flags>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
constexpr normalization_flags operator&(normalization_flags a, normalization_flags b) {
    return static_cast<normalization_flags>(static_cast<unsigned>(a) & static_cast<unsigned>(b));
}
constexpr normalization_flags operator^(normalization_flags a, normalization_flags b) {
    return static_cast<normalization_flags>(static_cast<unsigned>(a) ^ static_cast<unsigned>(b));
}
constexpr normalization_flags operator~(normalization_flags a) {
    return static_cast<normalization_flags>(~static_cast<unsigned>(a));
}
inline normalization_flags &operator|=(normalization_flags &a, normalization_flags b) { return a = a | b; }
inline normalization_flags &operator&=(normalization_flags &a, normalization_flags b) { return a = a & b; }
inline normalization_flags &operator^=(normalization_flags &a, normalization_flags b) { return a = a ^ b; }
// True when every bit of b is set in a.
constexpr bool has_flags(normalization_flags a, normalization_flags b) { return (a & b) == b; }

// dst = (src - mean[c]) / sqrt(variance[c] + epsilon) * scale[c] + shift[c], then the
// attribute's post-ops; c the channel (dim 1) of src N x C [x D] [x H] [x W] (2 to 5 dims).
// mean, variance, scale and shift are 1D {C}. Inference only: prop_kind::forward_training is
// refused (it would output the statistics). dst may be a zero desc (src's) or 'any' (src's
// layout). In place: the same memory as PRIM_ARG_SRC and PRIM_ARG_DST.
struct PRIM_API batch_normalization_forward : public primitive {
    struct PRIM_API desc {
        desc(prop_kind pk, const memory::desc &src, float epsilon, normalization_flags flags);
        desc(prop_kind pk, const memory::desc &src, const memory::desc &dst, float epsilon,
             normalization_flags flags);

        prop_kind prop;
        memory::desc src, dst;
        float epsilon;
        normalization_flags flags;
    };

    struct PRIM_API primitive_desc : public primitive_desc_base {
        primitive_desc(const desc &d, const primitive_attr &attr = primitive_attr());
        // The descs of the optional arguments; a zero desc when the flags do not ask for it.
        memory::desc mean_desc() const;
        memory::desc variance_desc() const;
        memory::desc scale_desc() const;
        memory::desc shift_desc() const;
    };

    explicit batch_normalization_forward(const primitive_desc &pd) : primitive(pd) {}
};

// dst = (src - mean[r]) / sqrt(variance[r] + epsilon) * scale[c] + shift[c], then the post-ops;
// over the last dim of src (2 to 5 dims): r indexes the other dims (a row), c the last dim.
// mean and variance have src's dims without the last (stat desc: any layout, a zero desc or
// 'any' for plain); scale and shift are 1D {last dim}. Inference only, as batch normalization.
struct PRIM_API layer_normalization_forward : public primitive {
    struct PRIM_API desc {
        desc(prop_kind pk, const memory::desc &src, float epsilon, normalization_flags flags);
        // oneDNN 2.6's form: the statistics' layout (used with use_global_stats).
        desc(prop_kind pk, const memory::desc &src, const memory::desc &stat, float epsilon,
             normalization_flags flags);
        desc(prop_kind pk, const memory::desc &src, const memory::desc &dst,
             const memory::desc &stat, float epsilon, normalization_flags flags);

        prop_kind prop;
        memory::desc src, dst, stat;
        float epsilon;
        normalization_flags flags;
    };

    struct PRIM_API primitive_desc : public primitive_desc_base {
        primitive_desc(const desc &d, const primitive_attr &attr = primitive_attr());
        memory::desc mean_desc() const;
        memory::desc variance_desc() const;
        memory::desc scale_desc() const;
        memory::desc shift_desc() const;
    };

    explicit layer_normalization_forward(const primitive_desc &pd) : primitive(pd) {}
};

} // namespace prim
