// prim: memory descriptors (shape + layout) and memory objects (descriptor + data).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "prim/api.hpp"

namespace prim {

class PRIM_API memory {
public:
    using dim = int64_t;
    using dims = std::vector<dim>;

    // f32 for every primitive; s32, s8 and u8 for quantized (int8) inference
    // (doc/int8.md): convolution and inner product, reorder and the post-op operands.
    enum class data_type { undef, f32, s32, s8, u8 };

    // Plain layouts by name. Letters follow oneDNN: a is the outermost logical dimension
    // (n for data, o for weights, g for grouped weights), and the order of letters is the
    // order in memory, outermost first.
    enum class format_tag {
        undef,
        any, // let the primitive choose; query the chosen descriptor from its primitive_desc
        a, ab, ba, abc, acb, cba, abcd, acdb, cdba, abcde, acdeb, cdeba, abcdef,
        x = a,
        nc = ab, oi = ab, io = ba,
        ncw = abc, nwc = acb, oiw = abc, wio = cba, owi = acb,
        nchw = abcd, nhwc = acdb, oihw = abcd, hwio = cdba, ohwi = acdb, goiw = abcd,
        ncdhw = abcde, ndhwc = acdeb, oidhw = abcde, odhwi = acdeb, goihw = abcde, dhwio = cdeba,
        goidhw = abcdef,
    };

    // A shape plus a layout. The layout is "blocked" in oneDNN's sense: every logical dim has an
    // outer stride, and inner blocks (nChw16c = "aBcd16b"); a dim may be blocked at several
    // levels, as oneDNN's VNNI weights are ("AB16b64a4b": 16 along b, 64 along a, 4 along b).
    class PRIM_API desc {
    public:
        desc() = default;
        desc(const dims &d, data_type dt, format_tag tag);
        // A layout by pattern: one letter per dim, outermost first, uppercase when blocked,
        // then the inner blocks outermost first, e.g. "aBcd16b" or "ABcd16b16a".
        desc(const dims &d, data_type dt, const std::string &pattern);
        // A plain layout by strides, in elements, one per dim (oneDNN's desc(dims, dt,
        // strides)): any order, gaps allowed (a view into a larger buffer), no two elements in
        // one place. Its buffer spans 1 + sum((d - 1) * stride) elements; gaps are never written.
        desc(const dims &d, data_type dt, const dims &strides);

        const dims &get_dims() const { return dims_; }
        int ndims() const { return static_cast<int>(dims_.size()); }
        data_type get_data_type() const { return dt_; }
        bool is_any() const { return kind_ == kind::any; }
        bool is_zero() const { return kind_ == kind::undef; }   // a default-constructed desc
        // Elements (padding included) and bytes of a buffer holding this desc; 0 for an 'any'
        // or empty desc, which has no buffer.
        dim nelems_padded() const;
        size_t get_size() const;
        // The queries of the layout itself throw invalid_arguments on an 'any' or empty desc.
        // Offset, in elements, of a logical index (one entry per dim, each within its dim).
        dim offset(const dim *idx) const;
        const dims &strides() const;     // per dim, in elements, of its outer blocks
        const dims &padded_dims() const; // dims rounded up to their inner blocks
        // The layout as a pattern string ("abcd", "aBcd16b"), or "any"/"undef". A layout by
        // strides gives its dims' order, outermost first, as a pattern would ("acdb").
        std::string layout() const;
        // True when the elements fill their buffer with no gap (padding of blocks aside).
        bool is_dense() const;
        // oneDNN's memory "extra" compensation, for int8 weights: after the elements, one s32
        // per index of the leading `out_dims` dims (an output channel; a group and an output
        // channel when the weights are grouped), the sum of the s8 weights over the other
        // dims. An int8 primitive's chosen weights desc carries it, so that the reorder into it
        // (which writes the sums) does once what the primitive would do at every execute; a
        // layout built from dims and a tag or pattern has none (0).
        int weight_sums_dims() const { return weight_sums_dims_; }
        // This s8 desc with the sums over all but its leading out_dims dims (1 or 2; 0 removes
        // them).
        desc with_weight_sums(int out_dims) const;
        // True when both describe the same shape and the same placement of every element (and
        // the same weight sums).
        bool operator==(const desc &o) const;
        bool operator!=(const desc &o) const { return !(*this == o); }

    private:
        enum class kind { undef, any, blocked };
        kind kind_ = kind::undef;
        data_type dt_ = data_type::undef;
        dims dims_, padded_, strides_;
        dim span_ = 0;                 // elements of a buffer: padded dims, or strides' reach
        std::vector<int> inner_idx_;   // which dim each inner block blocks
        dims inner_blk_;               // its size
        std::vector<int> order_;       // dims outermost first
        int weight_sums_dims_ = 0;
    };

    memory() = default;
    // Wraps a user buffer (not owned; may be null and set later).
    memory(const desc &md, void *handle);
    // Owns a new zero-filled 64-byte-aligned buffer.
    explicit memory(const desc &md);

    const desc &get_desc() const;
    void *get_data_handle() const;
    void set_data_handle(void *handle) const;
    bool is_empty() const { return !impl_; }

private:
    struct impl;
    std::shared_ptr<impl> impl_;
};

// Bytes of one element: 4 for f32 and s32, 1 for s8 and u8, 0 for undef.
PRIM_API size_t data_type_size(memory::data_type dt);
// "f32", "s32", "s8", "u8", "undef": as benchdnn and PRIM_VERBOSE write them.
PRIM_API const char *data_type_name(memory::data_type dt);

// Argument ids for execute(), as in oneDNN.
enum : int {
    PRIM_ARG_SRC = 1,
    PRIM_ARG_FROM = PRIM_ARG_SRC,
    PRIM_ARG_SRC_1 = 2,
    PRIM_ARG_DST = 17,
    PRIM_ARG_TO = PRIM_ARG_DST,
    PRIM_ARG_SRC_0 = PRIM_ARG_SRC,
    PRIM_ARG_WEIGHTS = 33,
    PRIM_ARG_BIAS = 41,
    PRIM_ARG_MEAN = 49,
    PRIM_ARG_VARIANCE = 50,
    PRIM_ARG_SCALE = 51,
    PRIM_ARG_SHIFT = 52,
    // concat's inputs: PRIM_ARG_MULTIPLE_SRC + i for input i (oneDNN's number).
    PRIM_ARG_MULTIPLE_SRC = 1024,
    // Quantization values at execute (oneDNN 2.6's numbers; doc/int8.md):
    // oneDNN 2.x output scales, f32 {1} or {OC}, when set_output_scales gave PRIM_RUNTIME_F32_VAL;
    PRIM_ARG_ATTR_OUTPUT_SCALES = 513,
    // | PRIM_ARG_SRC / PRIM_ARG_DST: zero points, s32 {1} or {channels};
    PRIM_ARG_ATTR_ZERO_POINTS = 4096,
    // | PRIM_ARG_WEIGHTS / PRIM_ARG_BIAS: the dw post-op's weights and bias (prim/attr.hpp,
    // post_ops::append_dw); their descs from primitive_desc_base::query_md.
    PRIM_ARG_ATTR_POST_OP_DW = 8192,
    // | PRIM_ARG_SRC / PRIM_ARG_WEIGHTS / PRIM_ARG_DST: oneDNN v3 scales, f32 {1} or {OC}.
    PRIM_ARG_ATTR_SCALES = 1048576,
};

// The argument of post-op idx's operand: | PRIM_ARG_SRC_1 for a binary entry, | PRIM_ARG_WEIGHTS
// for a prelu entry's slopes (oneDNN's numbers).
#define PRIM_ARG_ATTR_MULTIPLE_POST_OP(idx) (16384 * ((idx) + 1))
// | PRIM_ARG_ATTR_POST_OP_PARAMS: the values of post-op idx's PRIM_RUNTIME_F32_VAL parameters, a
// memory of three f32 (dims {3}, tag x): alpha, beta, scale (a sum's scale in the third). Only
// the fields the chain left to run time are read; each is checked as append_eltwise checks it.
enum : int { PRIM_ARG_ATTR_POST_OP_PARAMS = 2048 };

using exec_args = std::unordered_map<int, memory>;

} // namespace prim

// reorder was declared here before it had its own header: programs that include only this
// header and use prim::reorder keep building.
#include "prim/reorder.hpp"
