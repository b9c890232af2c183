// What every primitive shares: queries of the chosen implementation, and execution on an
// argument map (checking each argument, and that dst shares no memory it may not, before any
// kernel sees them).
#include <type_traits>

#include "attr/runtime_params.hpp"
#include "common/overlap.hpp"
#include "common/post_op_operands.hpp"
#include "common/primitive_impl.hpp"
#include "common/verbose.hpp"
#include "prim/error.hpp"
#include "prim/primitive.hpp"

namespace prim {

namespace impl {
const char *primitive_kind_name(primitive_kind k) {
    switch (k) {
    case primitive_kind::convolution: return "convolution";
    case primitive_kind::inner_product: return "inner_product";
    case primitive_kind::eltwise: return "eltwise";
    case primitive_kind::batch_normalization: return "batch_normalization";
    case primitive_kind::layer_normalization: return "layer_normalization";
    case primitive_kind::binary: return "binary";
    case primitive_kind::softmax: return "softmax";
    case primitive_kind::concat: return "concat";
    case primitive_kind::pooling: return "pooling";
    }
    return "unknown";
}
} // namespace impl

std::string primitive_desc_base::impl_name() const { return impl_->impl->name(); }
memory::desc primitive_desc_base::src_desc() const { return impl_->impl->src_md(); }
memory::desc primitive_desc_base::weights_desc() const { return impl_->impl->wei_md(); }
memory::desc primitive_desc_base::bias_desc() const { return impl_->impl->bias_md(); }
memory::desc primitive_desc_base::dst_desc() const { return impl_->impl->dst_md(); }
const primitive_attr &primitive_desc_base::get_primitive_attr() const { return impl_->attr; }

namespace {

// The arguments a primitive reads, by execute id: each is required when the implementation's
// desc for it is not zero.
struct input_arg {
    int id;
    const char *name;
    memory::desc impl::arg_layouts::*md;
    const float *impl::exec_ptrs::*ptr;
};
const input_arg input_args[] = {
    {PRIM_ARG_SRC, "src", &impl::arg_layouts::src, &impl::exec_ptrs::src},
    {PRIM_ARG_SRC_1, "src1", &impl::arg_layouts::src1, &impl::exec_ptrs::src1},
    {PRIM_ARG_WEIGHTS, "weights", &impl::arg_layouts::wei, &impl::exec_ptrs::wei},
    {PRIM_ARG_BIAS, "bias", &impl::arg_layouts::bias, &impl::exec_ptrs::bias},
    {PRIM_ARG_MEAN, "mean", &impl::arg_layouts::mean, &impl::exec_ptrs::mean},
    {PRIM_ARG_VARIANCE, "variance", &impl::arg_layouts::variance, &impl::exec_ptrs::variance},
    {PRIM_ARG_SCALE, "scale", &impl::arg_layouts::scale, &impl::exec_ptrs::scale},
    {PRIM_ARG_SHIFT, "shift", &impl::arg_layouts::shift, &impl::exec_ptrs::shift},
    {PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, "dw post-op weights", &impl::arg_layouts::dw_wei,
     &impl::exec_ptrs::dw_wei},
    {PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS, "dw post-op bias", &impl::arg_layouts::dw_bias,
     &impl::exec_ptrs::dw_bias},
};

// The desc of a post-op's runtime parameters: alpha, beta, scale.
memory::desc runtime_params_md() {
    return memory::desc({impl::runtime_fields}, memory::data_type::f32, memory::format_tag::x);
}

} // namespace

memory::desc primitive_desc_base::query_md(int exec_arg) const {
    if (exec_arg == PRIM_ARG_DST) return dst_desc();
    for (const input_arg &a : input_args)
        if (exec_arg == a.id) return impl_->impl->layouts().*a.md;
    for (const impl::quant_arg &q : impl_->quant_args)
        if (exec_arg == q.id) return q.md;
    const std::vector<memory::desc> &srcs = impl_->impl->layouts().multiple_src;
    if (exec_arg >= PRIM_ARG_MULTIPLE_SRC
            && exec_arg - PRIM_ARG_MULTIPLE_SRC < static_cast<int>(srcs.size()))
        return srcs[static_cast<size_t>(exec_arg - PRIM_ARG_MULTIPLE_SRC)];
    const post_ops &chain = impl_->attr.get_post_ops();
    for (int i = 0; i < chain.len(); ++i) {
        if (exec_arg == impl::operand_arg(chain.entries()[i], i)) return impl_->operand_mds[i];
        if (exec_arg == (PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_ATTR_POST_OP_PARAMS)
            && impl::has_runtime_fields(chain.entries()[i]))
            return runtime_params_md();
    }
    return memory::desc();
}

namespace {

using impl::md_str;

// The data pointer of one argument, after checking that it is there, that its desc is the one
// the implementation runs on, and that it has data.
// name: the argument's name, or a callable that makes it (built only on error).
template <typename name_t>
void *arg_data(const impl::chosen_impl &pi, const exec_args &args, int arg, const name_t &name_of,
               const memory::desc &expected) {
    // The message prefix and name are built only on error: this runs for every argument of
    // every call.
    const auto who = [&] {
        std::string name;
        if constexpr (std::is_invocable_v<name_t>) name = name_of();
        else name = name_of;
        return std::string(impl::primitive_kind_name(pi.kind)) + " " + pi.problem_str + ": " + name;
    };
    auto it = args.find(arg);
    if (it == args.end() || it->second.is_empty())
        throw error(status::invalid_arguments, who() + " argument is missing");
    const memory::desc &md = it->second.get_desc();
    if (md != expected)
        throw error(status::invalid_arguments,
                    who() + " memory desc " + md_str(md) + " differs from the primitive's "
                            + md_str(expected) + " (query it from the primitive_desc)");
    void *p = it->second.get_data_handle();
    if (!p && !pi.empty && expected.get_size() != 0) // an empty input (concat) holds nothing
        throw error(status::invalid_arguments, who() + " memory has no data (null handle)");
    return p;
}

// Refuses a dst that shares bytes with another argument, unless the primitive runs in place
// on it. Convolution and inner product cannot: each output reads many inputs, and a kernel may
// write an output before it has read every input that overlaps it. Eltwise, binary and the
// normalizations can when dst is src itself, the same handle and the same layout: each element is
// read before it is written, and by the same thread. (Reorder has its own rule, in
// internal_reorder.cpp.)
// A desc's byte size is a stored value: on execute's path this is a few comparisons.
void check_dst_overlap(const impl::chosen_impl &pi, const impl::exec_ptrs &ptrs) {
    const impl::primitive_impl &ii = *pi.impl;
    const size_t dst_bytes = ii.dst_md().get_size();
    const auto refuse = [&](const char *name, const char *why) {
        throw error(status::invalid_arguments,
                    std::string(impl::primitive_kind_name(pi.kind)) + " " + pi.problem_str
                            + ": dst and " + name + " overlap in memory (" + why + ")");
    };
    if (impl::bytes_overlap(ptrs.dst, dst_bytes, ptrs.src, ii.src_md().get_size())) {
        if (pi.kind == impl::primitive_kind::convolution)
            refuse("src", "a convolution cannot run in place: give dst its own buffer");
        if (pi.kind == impl::primitive_kind::inner_product)
            refuse("src", "an inner_product cannot run in place: give dst its own buffer");
        if (ptrs.dst != ptrs.src || ii.src_md() != ii.dst_md())
            refuse("src", "in place needs one layout and one buffer: equal src and dst descs "
                          "and the same data handle");
    }
    if (impl::bytes_overlap(ptrs.dst, dst_bytes, ptrs.wei, ii.wei_md().get_size()))
        refuse("weights", "weights are read while dst is written: give dst its own buffer");
    for (const input_arg &a : input_args) {
        if (a.id == PRIM_ARG_SRC || a.id == PRIM_ARG_WEIGHTS) continue; // above
        if (impl::bytes_overlap(ptrs.dst, dst_bytes, ptrs.*a.ptr, (ii.layouts().*a.md).get_size()))
            refuse(a.name, (std::string("the ") + a.name
                            + " is read while dst is written: give dst its own buffer").c_str());
    }
    const std::vector<memory::desc> &srcs = ii.layouts().multiple_src;
    for (size_t i = 0; i < ptrs.multiple_src.size(); ++i)
        if (impl::bytes_overlap(ptrs.dst, dst_bytes, ptrs.multiple_src[i], srcs[i].get_size()))
            refuse(("src " + std::to_string(i)).c_str(),
                   "an input is read while dst is written: give dst its own buffer");
    const post_ops &chain = pi.attr.get_post_ops();
    for (size_t i = 0; i < ptrs.post_op.size(); ++i)
        if (impl::bytes_overlap(ptrs.dst, dst_bytes, ptrs.post_op[i], pi.operand_mds[i].get_size()))
            refuse(impl::operand_name(chain.entries()[i], static_cast<int>(i)).c_str(),
                   "an operand is read while dst is written: give it its own buffer (a sum "
                   "post-op reads dst itself)");
}

// The values of the chain's PRIM_RUNTIME_F32_VAL fields, by slot, checked as creation checks
// constants.
void read_runtime_params(const impl::chosen_impl &pi, const exec_args &args, std::vector<float> &values) {
    const post_ops &chain = pi.attr.get_post_ops();
    values.assign(static_cast<size_t>(impl::runtime_fields * chain.len()), 0.f);
    static const memory::desc md = runtime_params_md();
    for (int i = 0; i < chain.len(); ++i) {
        const post_ops::entry &e = chain.entries()[i];
        if (!impl::has_runtime_fields(e)) continue;
        const auto *given = static_cast<const float *>(arg_data(
                pi, args, PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_ATTR_POST_OP_PARAMS,
                [&] { return "post-op " + std::to_string(i) + " runtime parameters"; }, md));
        for (int f = 0; f < impl::runtime_fields; ++f) values[impl::runtime_fields * i + f] = given[f];
    }
    const std::string problem = impl::check_runtime_values(chain, values);
    if (!problem.empty())
        throw error(status::invalid_arguments, std::string(impl::primitive_kind_name(pi.kind)) + " "
                                                       + pi.problem_str + ": " + problem);
}

// The quantization value lists the attribute asks for (common/quant_attr.hpp).
void read_quant_values(const impl::chosen_impl &pi, const exec_args &args,
                       impl::exec_ptrs::quant_values &values) {
    using slot = impl::quant_slot;
    for (const impl::quant_arg &q : pi.quant_args) {
        const void *p = arg_data(pi, args, q.id, q.name, q.md);
        const auto *f = static_cast<const float *>(p);
        switch (q.slot) {
        case slot::output_scales: values.output_scales = f; break;
        case slot::src_scales: values.src_scales = f; break;
        case slot::wei_scales: values.wei_scales = f; break;
        case slot::dst_scales: values.dst_scales = f; break;
        case slot::src1_scales: values.src1_scales = f; break;
        case slot::src_zero_points: values.src_zero_points = static_cast<const int32_t *>(p); break;
        case slot::dst_zero_points: values.dst_zero_points = static_cast<const int32_t *>(p); break;
        case slot::dw_wei_scales: values.dw_wei_scales = f; break;
        case slot::dw_dst_scales: values.dw_dst_scales = f; break;
        }
    }
}

} // namespace

void primitive::execute(const exec_args &args) const {
    const impl::chosen_impl &pi = *impl_;
    const impl::primitive_impl &ii = *pi.impl;
    impl::exec_ptrs ptrs;
    // src first, then dst, then the other inputs: the first error met is the most basic one.
    // concat has no PRIM_ARG_SRC, its inputs are PRIM_ARG_MULTIPLE_SRC + i.
    if (!ii.src_md().is_zero())
        ptrs.src = static_cast<const float *>(arg_data(pi, args, PRIM_ARG_SRC, "src", ii.src_md()));
    const std::vector<memory::desc> &srcs = ii.layouts().multiple_src;
    ptrs.multiple_src.resize(srcs.size());
    for (size_t i = 0; i < srcs.size(); ++i)
        ptrs.multiple_src[i] = static_cast<const float *>(
                arg_data(pi, args, PRIM_ARG_MULTIPLE_SRC + static_cast<int>(i),
                         [&] { return "src " + std::to_string(i) + " (PRIM_ARG_MULTIPLE_SRC + "
                                      + std::to_string(i) + ")"; },
                         srcs[i]));
    ptrs.dst = static_cast<float *>(arg_data(pi, args, PRIM_ARG_DST, "dst", ii.dst_md()));
    for (const input_arg &a : input_args) {
        const memory::desc &md = ii.layouts().*a.md;
        if (a.id != PRIM_ARG_SRC && !md.is_zero())
            ptrs.*a.ptr = static_cast<const float *>(arg_data(pi, args, a.id, a.name, md));
    }
    const post_ops &chain = pi.attr.get_post_ops();
    if (chain.has_operands()) {
        ptrs.post_op.resize(static_cast<size_t>(chain.len()), nullptr);
        for (int i = 0; i < chain.len(); ++i) {
            const post_ops::entry &e = chain.entries()[i];
            if (!impl::has_operand(e)) continue;
            ptrs.post_op[i] = static_cast<const float *>(
                    arg_data(pi, args, impl::operand_arg(e, i), [&] { return impl::operand_name(e, i); },
                             pi.operand_mds[i]));
        }
    }
    if (chain.has_runtime_params()) read_runtime_params(pi, args, ptrs.runtime_params);
    read_quant_values(pi, args, ptrs.quant);
    check_dst_overlap(pi, ptrs);

    const bool verbose = impl::verbose_level() >= 1;
    const double start = verbose ? impl::now_ms() : 0.0;
    if (!pi.empty) ii.execute(ptrs);
    if (verbose)
        impl::verbose_print_exec(impl::primitive_kind_name(pi.kind),
                                 pi.data_types.empty() ? ii.call_name(ptrs) : ii.call_name(ptrs) + "," + pi.data_types,
                                 pi.problem_str,
                                 to_string(pi.attr.get_post_ops()), start);
}

} // namespace prim
