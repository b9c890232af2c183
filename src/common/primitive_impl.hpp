// The internal side of a primitive: an implementation chosen at creation, run on raw pointers.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/pool_problem.hpp"
#include "common/problem.hpp"
#include "common/quant_attr.hpp"
#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

enum class primitive_kind {
    convolution,
    inner_product,
    eltwise,
    batch_normalization,
    layer_normalization,
    binary,
    softmax,
    concat,
    pooling,
};
const char *primitive_kind_name(primitive_kind k); // "convolution", ...

// Data pointers of one execution, already checked: non-null (unless the problem is empty) and
// laid out as the implementation's descriptors say. Unused ones are null (bias without bias).
struct exec_ptrs {
    const float *src = nullptr;
    const float *wei = nullptr;
    const float *bias = nullptr;
    float *dst = nullptr;
    const float *src1 = nullptr;     // binary's second input
    const float *mean = nullptr;     // normalizations' statistics, when given
    const float *variance = nullptr;
    const float *scale = nullptr;    // normalizations' scale and shift
    const float *shift = nullptr;
    const float *dw_wei = nullptr;   // the dw post-op's weights and bias, when it has them
    const float *dw_bias = nullptr;
    // One per post-op entry when the chain has binary or prelu entries (else empty): the
    // entry's operand, laid out as chosen_impl::operand_mds says; null for other entries.
    std::vector<const float *> post_op;
    // The chain's runtime parameters by slot (attr/runtime_params.hpp: 3 per entry, alpha, beta,
    // scale), read from PRIM_ARG_ATTR_POST_OP_PARAMS and checked; empty when it has none.
    std::vector<float> runtime_params;
    // concat's inputs (PRIM_ARG_MULTIPLE_SRC + i), one per arg_layouts::multiple_src.
    std::vector<const float *> multiple_src;
    // Quantization values given at execute (common/quant_attr.hpp), null when not asked for.
    struct quant_values {
        const float *output_scales = nullptr;
        const float *src_scales = nullptr, *wei_scales = nullptr, *dst_scales = nullptr;
        const float *src1_scales = nullptr; // binary's
        const float *dw_wei_scales = nullptr, *dw_dst_scales = nullptr; // the dw post-op's
        const int32_t *src_zero_points = nullptr, *dst_zero_points = nullptr;
    } quant;
};

// An argument whose data type is not f32 (int8 src, weights, dst) still comes as one of the
// float pointers above: the implementation that took it reads it as its type.
template <typename T>
const T *typed(const float *p) { return reinterpret_cast<const T *>(p); }
template <typename T>
T *typed(float *p) { return reinterpret_cast<T *>(p); }

// The layouts an implementation runs on (never 'any'); a zero desc for an argument the
// primitive does not have. Each non-zero one is a required execute argument (primitive.cpp
// lists their ids and names).
struct arg_layouts {
    arg_layouts() = default;
    // The weighted primitives' and eltwise's four.
    arg_layouts(memory::desc src_, memory::desc wei_, memory::desc bias_, memory::desc dst_)
        : src(std::move(src_)), wei(std::move(wei_)), bias(std::move(bias_)), dst(std::move(dst_)) {}
    memory::desc src, wei, bias, dst;
    memory::desc src1, mean, variance, scale, shift;
    memory::desc dw_wei, dw_bias; // the dw post-op's (PRIM_ARG_ATTR_POST_OP_DW | ...)
    // The 1x1's output a dw post-op reads, the destination of the entries before it: their
    // operands follow it. Not an argument.
    memory::desc dw_src;
    std::vector<memory::desc> multiple_src; // concat's inputs; src is then a zero desc
};

// One implementation bound to one problem, complete when its constructor returns and immutable
// after, so execute() may run from many threads at once; scratch memory is per call.
class primitive_impl {
public:
    explicit primitive_impl(arg_layouts layouts) : layouts_(std::move(layouts)) {}
    virtual ~primitive_impl() = default;
    // "jit:avx512", "jit:avx2", "ref".
    virtual std::string name() const = 0;
    virtual void execute(const exec_ptrs &args) const = 0;
    // What ran one call, for its PRIM_VERBOSE exec line: name(), or, from an implementation
    // that hands some calls to another (values given at execute decide), that one's call_name.
    virtual std::string call_name(const exec_ptrs &) const { return name(); }

    const memory::desc &src_md() const { return layouts_.src; }
    const memory::desc &wei_md() const { return layouts_.wei; }
    const memory::desc &bias_md() const { return layouts_.bias; }
    const memory::desc &dst_md() const { return layouts_.dst; }
    const arg_layouts &layouts() const { return layouts_; }

private:
    const arg_layouts layouts_;
};

// A primitive as creation leaves it: the implementation chosen, and what execution's argument
// checks and verbose lines say about the primitive. Built whole by choose_impl().
struct chosen_impl {
    primitive_kind kind;
    std::string problem_str; // doc/reference.md §3 descriptor, for messages and verbose lines
    primitive_attr attr;
    bool empty;              // mb0: execute is a no-op
    std::unique_ptr<const primitive_impl> impl;
    // Per post-op entry, its operand's desc (post_op_operands.hpp); zero for other entries.
    std::vector<memory::desc> operand_mds;
    // The quantization values read at execute (common/quant_attr.hpp).
    std::vector<quant_arg> quant_args;
    // "u8:s8:u8" (src:weights:dst) for a primitive that is not all f32, else empty: printed in
    // PRIM_VERBOSE's exec line after the implementation's name.
    std::string data_types;
};

// What a primitive's creation hands to each implementation in its list: the validated problem,
// the descriptors as the user gave them (any of them may be 'any'), and the attribute. With a
// dw post-op, the problem is the 1x1 convolution's and dst has the depthwise output's dims
// (common/dw_post_op.hpp).
template <typename problem>
struct weighted_request {
    problem prb;
    bool with_bias = false;
    memory::desc src, wei, bias, dst;
    primitive_attr attr;
    // With a dw post-op: the 1x1's output type (the convolution desc's dst type, the depthwise's
    // src; dw_types_of), dst being the depthwise output.
    memory::data_type dw_mid_dt = memory::data_type::undef;
};
using conv_request = weighted_request<conv_problem>;
using ip_request = weighted_request<ip_problem>;

struct eltwise_request {
    eltwise_problem prb;
    algorithm alg = algorithm::undef;
    float alpha = 0.f, beta = 0.f;
    memory::desc src, dst; // dst never zero here: creation copies src when the user gave none
    primitive_attr attr;
};

struct binary_request {
    binary_problem prb;
    algorithm alg = algorithm::undef;
    memory::desc src0, src1, dst; // as the user gave them (any of them may be 'any')
    primitive_attr attr;
};

// The normalizations: epsilon and flags are in the problem. dst never zero (creation copies
// src when the user gave none); stat (layer normalization's mean and variance layout) never zero
// either ('any' or a layout).
struct bnorm_request {
    bnorm_problem prb;
    memory::desc src, dst;
    primitive_attr attr;
};
struct lnorm_request {
    lnorm_problem prb;
    memory::desc src, dst, stat;
    primitive_attr attr;
};

// Pooling: the algorithm is in the problem; src and dst as the user gave them (either may be
// 'any'; dst never zero).
struct pool_request {
    pool_problem prb;
    memory::desc src, dst;
    primitive_attr attr;
};

// An implementation list entry: builds the implementation, or returns null and says why not
// (the reason goes to PRIM_VERBOSE's dispatch line and to strict mode's error).
// quantized: the implementation takes int8 data, quantization attributes and chains with int8
// operands or sums with a zero point (choose_impl offers it nothing else to decline).
// dw_post_op: it takes chains with a dw entry (choose_impl offers the others none).
template <typename request>
struct impl_entry {
    const char *name;
    std::unique_ptr<primitive_impl> (*create)(const request &req, cpu_isa isa, std::string &why_not);
    bool quantized = false;
    bool dw_post_op = false;
};

// Fastest first, reference last. Defined in src/common/impl_list.cpp.
const std::vector<impl_entry<conv_request>> &conv_impl_list();
const std::vector<impl_entry<ip_request>> &ip_impl_list();
const std::vector<impl_entry<eltwise_request>> &eltwise_impl_list();
const std::vector<impl_entry<binary_request>> &binary_impl_list();
const std::vector<impl_entry<bnorm_request>> &bnorm_impl_list();
const std::vector<impl_entry<lnorm_request>> &lnorm_impl_list();
const std::vector<impl_entry<pool_request>> &pool_impl_list();

// One check of an implementation's create(): if cond fails, write the reason to why_not (its
// create()'s out parameter) and decline.
#define PRIM_DISPATCH(why_not, cond, reason)                                                   \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            (why_not) = (reason);                                                              \
            return nullptr;                                                                    \
        }                                                                                      \
    } while (0)

} // namespace impl
} // namespace prim
