// Binary and prelu operands: data, binding, plain copies.
#include "operands.hpp"

#include <cmath>
#include <stdexcept>

#include "attr/algorithm_table.hpp"
#include "common/post_op_operands.hpp"
#include "common/verbose.hpp"
#include "fill.hpp"
#include "problem_case.hpp"

namespace bdl {

std::vector<float> operand_data(const prim::post_ops::entry &e, int index,
                                const prim::memory::dims &dims) {
    std::vector<float> v = buffer(volume(dims));
    fill_operand(v, e, index);
    // An integer operand (int8 cases) holds integers: the values doubled and rounded, made
    // non-negative for u8 (the operand's own type must hold them exactly).
    if (e.kind == prim::post_ops::kind::binary && e.dt != prim::memory::data_type::undef
            && e.dt != prim::memory::data_type::f32)
        for (float &x : v) x = e.dt == prim::memory::data_type::u8 ? std::fabs(std::round(2 * x)) : std::round(2 * x);
    return v;
}

void bind_operand(const prim::post_ops::entry &e, int data_index, int arg_index,
                  const prim::primitive_desc_base &pd, prim::exec_args &args,
                  const prim::memory::dims *dst_dims) {
    const int arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(arg_index)
                    | (e.kind == prim::post_ops::kind::prelu ? prim::PRIM_ARG_WEIGHTS
                                                              : prim::PRIM_ARG_SRC_1);
    const prim::memory::desc md = pd.query_md(arg);
    // The dims the reference assumes (chain_operands): a library that reported others would be
    // compared on different data.
    const prim::memory::dims expected
            = prim::impl::operand_dims(e, dst_dims ? *dst_dims : pd.dst_desc().get_dims());
    const std::string who = "post-op " + std::to_string(arg_index) + "'s operand";
    if (md.is_zero()) throw std::runtime_error("query_md reports no desc for " + who);
    if (md.get_dims() != expected)
        throw std::runtime_error("query_md reports dims " + prim::impl::dims_str(md.get_dims()) + " for "
                                 + who + ", the destination implies " + prim::impl::dims_str(expected));
    args[arg] = from_plain(operand_data(e, data_index, expected), expected, md);
}

void bind_operands(const prim::primitive_desc_base &pd, prim::exec_args &args) {
    const prim::post_ops &po = pd.get_primitive_attr().get_post_ops();
    // A dw post-op follows a 1x1 stride-1 unpadded convolution: its output is src's spatial dims.
    const prim::memory::dims s = pd.src_desc().get_dims(), d = pd.dst_desc().get_dims();
    const prim::memory::dims mid = po.dw_index() >= 0 ? prim::memory::dims {s[0], d[1], s[2], s[3]}
                                                      : prim::memory::dims();
    for (int i = 0; i < po.len(); ++i) {
        const prim::post_ops::entry &e = po.entries()[i];
        if (prim::impl::has_operand(e)) bind_operand(e, i, i, pd, args, i < po.dw_index() ? &mid : nullptr);
        const int params = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | prim::PRIM_ARG_ATTR_POST_OP_PARAMS;
        const prim::memory::desc md = pd.query_md(params);
        if (md.is_zero()) continue;
        prim::memory values(md);
        const std::vector<float> v = runtime_defaults(e);
        std::copy(v.begin(), v.end(), static_cast<float *>(values.get_data_handle()));
        args[params] = values;
    }
}

std::vector<float> runtime_defaults(const prim::post_ops::entry &e) {
    const prim::impl::algorithm_info *info
            = e.kind == prim::post_ops::kind::eltwise ? prim::impl::find_algorithm(e.alg) : nullptr;
    return {info ? info->default_alpha : 0.f, info ? info->default_beta : 0.f, 1.f};
}

prim::post_ops with_runtime_defaults(const prim::post_ops &po) {
    if (!po.has_runtime_params()) return po;
    prim::post_ops out;
    for (const prim::post_ops::entry &given : po.entries()) {
        prim::post_ops::entry e = given;
        const std::vector<float> v = runtime_defaults(e);
        if (prim::is_runtime_f32(e.alpha)) e.alpha = v[0];
        if (prim::is_runtime_f32(e.beta)) e.beta = v[1];
        if (prim::is_runtime_f32(e.scale)) e.scale = v[2];
        prim::impl::append_entry(out, e);
    }
    return out;
}

chain_operands::chain_operands(const prim::post_ops &po, const prim::memory::dims &dst_dims,
                               int first)
    : data_(po.entries().size()), strides_(po.entries().size()), dst_dims_(dst_dims) {
    for (int i = 0; i < po.len(); ++i) {
        const prim::post_ops::entry &e = po.entries()[i];
        if (!prim::impl::has_operand(e)) continue;
        const prim::memory::dims dims = prim::impl::operand_dims(e, dst_dims);
        data_[i] = operand_data(e, first + i, dims);
        std::vector<int64_t> &stride = strides_[i];
        stride.assign(dst_dims.size(), 0);
        int64_t dense = 1;
        for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
            if (dims[d] != 1) stride[d] = dense;
            dense *= dims[d];
        }
    }
}

std::vector<const float *> chain_operands::pointers() const {
    std::vector<const float *> p;
    for (const std::vector<float> &d : data_) p.push_back(d.empty() ? nullptr : d.data());
    return p;
}

void chain_operands::values_at(int64_t dst_index, float *out) const {
    for (size_t i = 0; i < data_.size(); ++i) {
        out[i] = 0.f;
        if (data_[i].empty()) continue;
        int64_t index = dst_index, offset = 0;
        for (int d = static_cast<int>(dst_dims_.size()) - 1; d >= 0; --d) {
            offset += (index % dst_dims_[d]) * strides_[i][d];
            index /= dst_dims_[d];
        }
        out[i] = data_[i][offset];
    }
}

} // namespace bdl
