// The oneDNN 2.6 side of --cmp=onednn (see onednn_case.hpp). Everything that names oneDNN is
// inside PRIM_WITH_ONEDNN; without it the option is refused and this file only says so.
#include "onednn/onednn_case.hpp"

#ifdef PRIM_WITH_ONEDNN

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include <oneapi/dnnl/dnnl.hpp>

#include "attr/algorithm_table.hpp"
#include "attr/binary_table.hpp"
#include "attr/operand_policy.hpp"
#include "attr_syntax.hpp"
#include "common/post_op_operands.hpp"
#include "fill.hpp"
#include "onednn/onednn_map.hpp"
#include "operands.hpp"
#include "pool/pool_parse.hpp"
#include "problem_parse.hpp"
#include "quant_spec.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

using dnnl::memory;
using tag = dnnl::memory::format_tag;
constexpr auto f32 = dnnl::memory::data_type::f32;

dnnl::algorithm onednn_algorithm(const std::string &name) {
    using a = dnnl::algorithm;
    static const std::unordered_map<std::string, a> table = {
            {"relu", a::eltwise_relu}, {"tanh", a::eltwise_tanh}, {"elu", a::eltwise_elu},
            {"square", a::eltwise_square}, {"abs", a::eltwise_abs}, {"sqrt", a::eltwise_sqrt},
            {"linear", a::eltwise_linear}, {"clip", a::eltwise_clip},
            {"clip_v2", a::eltwise_clip_v2}, {"soft_relu", a::eltwise_soft_relu},
            {"logistic", a::eltwise_logistic}, {"exp", a::eltwise_exp}, {"log", a::eltwise_log},
            {"gelu_tanh", a::eltwise_gelu_tanh}, {"gelu_erf", a::eltwise_gelu_erf},
            {"swish", a::eltwise_swish}, {"mish", a::eltwise_mish}, {"pow", a::eltwise_pow},
            {"round", a::eltwise_round}, {"logsigmoid", a::eltwise_logsigmoid},
            {"hardswish", a::eltwise_hardswish}};
    return table.at(name); // onednn_map.cpp only produces these names
}

dnnl::algorithm onednn_binary(const std::string &name) {
    using a = dnnl::algorithm;
    static const std::unordered_map<std::string, a> table = {
            {"add", a::binary_add}, {"sub", a::binary_sub}, {"mul", a::binary_mul},
            {"div", a::binary_div}, {"max", a::binary_max}, {"min", a::binary_min},
            {"ge", a::binary_ge},   {"gt", a::binary_gt},   {"le", a::binary_le},
            {"lt", a::binary_lt},   {"eq", a::binary_eq},   {"ne", a::binary_ne}};
    return table.at(name); // prim's binary algorithms, all of which oneDNN 2.6 has
}

tag plain_tag(size_t rank) {
    static const tag by_rank[] = {tag::undef, tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde,
                                  tag::abcdef};
    return by_rank[rank];
}

memory::dims onednn_dims(const prim::memory::dims &d) { return memory::dims(d.begin(), d.end()); }

memory::data_type onednn_type(prim::memory::data_type t) {
    switch (t) {
    case prim::memory::data_type::f32: return memory::data_type::f32;
    case prim::memory::data_type::s32: return memory::data_type::s32;
    case prim::memory::data_type::s8: return memory::data_type::s8;
    case prim::memory::data_type::u8: return memory::data_type::u8;
    default: return memory::data_type::undef;
    }
}

// A binary operand for oneDNN: the layout prim was given for it when that is plain (by its
// strides), else format any, which oneDNN settles from its destination's layout as prim's
// "follows the destination" does (read back with query_md).
memory::desc binary_src1(const prim::post_ops::entry &e, const prim::memory::dims &dst_dims) {
    const memory::dims dims = onednn_dims(prim::impl::operand_dims(e, dst_dims));
    const memory::data_type dt = e.dt == prim::memory::data_type::undef ? f32 : onednn_type(e.dt);
    if (!e.src1.is_zero()) {
        const std::string layout = e.src1.layout();
        bool plain = true;
        for (char c : layout) plain = plain && c >= 'a' && c <= 'z';
        if (plain) return memory::desc(dims, dt, onednn_dims(e.src1.strides()));
    }
    return memory::desc(dims, dt, tag::any);
}

// oneDNN 2.6 reads prelu slopes as f32 in "a plain layout (a, ab, acb, acdb, acdeb)" (dnnl.hpp,
// append_prelu): channels last.
memory::desc prelu_weights(const memory::dims &dims) {
    static const tag by_rank[] = {tag::undef, tag::a, tag::ab, tag::acb, tag::acdb, tag::acdeb};
    return memory::desc(dims, f32, dims.size() < 6 ? by_rank[dims.size()] : tag::abcdef);
}

// The destination entry i of the chain applies to: dst, or before a dw post-op the 1x1's output
// (mid).
const prim::memory::dims &target_of(const prim::post_ops &chain, int i, const prim::memory::dims &dst,
                                    const prim::memory::dims &mid) {
    return i < chain.dw_index() ? mid : dst;
}

dnnl::post_ops to_onednn(const std::vector<onednn_op> &ops, const prim::post_ops &chain,
                         const prim::memory::dims &dst_dims, const prim::memory::dims &mid_dims) {
    dnnl::post_ops po;
    const int rank = static_cast<int>(dst_dims.size());
    for (const onednn_op &op : ops) {
        switch (op.what) {
        case onednn_op::kind::sum: {
            const prim::post_ops::entry &e = chain.entries()[op.entry];
            if (e.zero_point != 0 || e.dt != prim::memory::data_type::undef)
                po.append_sum(op.scale, e.zero_point, onednn_type(e.dt));
            else
                po.append_sum(op.scale);
            break;
        }
        case onednn_op::kind::eltwise:
            po.append_eltwise(op.scale, onednn_algorithm(op.alg), op.alpha, op.beta);
            break;
        case onednn_op::kind::binary:
            po.append_binary(onednn_binary(op.alg), binary_src1(chain.entries()[op.entry],
                                                                target_of(chain, op.entry, dst_dims, mid_dims)));
            break;
        case onednn_op::kind::prelu:
            po.append_prelu(prim::impl::mask_within(chain.entries()[op.entry].mask, rank));
            break;
        case onednn_op::kind::dw: {
            const prim::post_ops::entry::depthwise &d = chain.entries()[op.entry].dw;
            po.append_dw(f32, d.bias_dt == prim::memory::data_type::undef ? memory::data_type::undef : f32,
                         f32, d.kernel, d.stride, d.padding, 0, {});
            break;
        }
        }
    }
    return po;
}

dnnl::prop_kind prop_of(const settings &s) {
    return s.dir == direction::fwd_i ? dnnl::prop_kind::forward_inference
                                     : dnnl::prop_kind::forward_training;
}

std::vector<float> plain_buffer(const memory::dims &dims) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    return std::vector<float>(static_cast<size_t>(n > 0 ? n : 1));
}

std::vector<onednn_op> chain_or_skip(const prim::post_ops &po) {
    std::string why;
    std::vector<onednn_op> ops = map_chain(po, why);
    if (!why.empty()) throw onednn_skip(why);
    return ops;
}

} // namespace

struct onednn_case::state {
    std::vector<onednn_op> ops; // the chain as oneDNN post-ops (conv, ip)
    prim::post_ops chain;       // prim's, whose entries the binary and prelu ops name
    dnnl::engine eng {dnnl::engine::kind::cpu, 0};
    dnnl::stream strm {eng};
    dnnl::primitive prim;
    std::unordered_map<int, memory> args;
    std::string impl;
    memory::dims dst_dims;
    prim::memory::dims dw_mid; // the 1x1's output, before a dw post-op
    std::vector<std::vector<float>> keep; // plain data of the user memories
    int nan_source = -1; // eltwise: the index of its source in keep (see result())

    // A memory in the layout `target` holding `data` (plain, dims).
    memory bind(std::vector<float> data, const memory::dims &dims, const memory::desc &target) {
        keep.push_back(std::move(data));
        memory user({dims, f32, plain_tag(dims.size())}, eng, keep.back().data());
        memory m(target, eng);
        dnnl::reorder(user, m).execute(strm, user, m);
        strm.wait();
        return m;
    }

    // The operand of each binary and prelu op: prim's data for that entry, in the layout
    // oneDNN reports (binary) or reads (prelu).
    void bind_operands(const dnnl::primitive_desc_base &pd, const prim::memory::dims &dst) {
        for (size_t k = 0; k < ops.size(); ++k) {
            if (ops[k].entry < 0 || ops[k].what == onednn_op::kind::sum
                || ops[k].what == onednn_op::kind::dw)
                continue;
            const prim::post_ops::entry &e = chain.entries()[ops[k].entry];
            const bool prelu = ops[k].what == onednn_op::kind::prelu;
            const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(k))
                            | (prelu ? DNNL_ARG_WEIGHTS : DNNL_ARG_SRC_1);
            const prim::memory::dims dims = prim::impl::operand_dims(e, target_of(chain, ops[k].entry, dst, dw_mid));
            memory::desc md = prelu ? prelu_weights(onednn_dims(dims))
                                    : pd.query_md(dnnl::query::exec_arg_md, arg);
            if (md.is_zero() || md.data.format_kind == dnnl_format_kind_any)
                md = memory::desc(onednn_dims(dims), e.dt == prim::memory::data_type::undef ? f32 : onednn_type(e.dt),
                                  plain_tag(dims.size()));
            // After a dw post-op, oneDNN 2.6 reports a plain desc for an operand that varies
            // along the spatial dims but reads it in dst's layout (found by the C-mode check:
            // garbage otherwise). dst's dims: dst's desc; any other such operand is skipped.
            const int dw = chain.dw_index();
            bool spatial = false;
            for (size_t d = 2; d < dims.size(); ++d) spatial = spatial || dims[d] != 1;
            if (dw >= 0 && ops[k].entry < dw && spatial)
                throw onednn_skip("an operand varying along the spatial dims before a dw post-op "
                                  "is not compared with oneDNN 2.6 (its layout is not reported)");
            if (dw >= 0 && ops[k].entry > dw && spatial) {
                if (onednn_dims(dims) != pd.dst_desc().dims())
                    throw onednn_skip("oneDNN 2.6 reads an operand varying along the spatial dims "
                                      "after a dw post-op in a layout it does not report");
                md = pd.dst_desc();
            }
            args[arg] = bind(operand_data(e, ops[k].entry, dims), onednn_dims(dims), md);
        }
    }

    void convolution(const problem_case &pc, const settings &s, const dnnl::primitive_attr &attr);
    void inner_product(const problem_case &pc, const settings &s, const dnnl::primitive_attr &attr);
    void eltwise(const problem_case &pc, const settings &s, const prim::post_ops &po);
    void binary(const problem_case &pc, const settings &s, const dnnl::primitive_attr &attr);
    void normalization(driver_kind driver, const problem_case &pc, const settings &s,
                       const dnnl::primitive_attr &attr);
    void softmax(const problem_case &pc, const settings &s, const dnnl::primitive_attr &attr);
    void concat(const problem_case &pc, const settings &s);
    void pooling(const problem_case &pc, const settings &s, const dnnl::primitive_attr &attr);
};

// Softmax (softmax_v2, forward inference): the case's own plain source, dst in oneDNN's choice.
void onednn_case::state::softmax(const problem_case &pc, const settings &s,
                                 const dnnl::primitive_attr &attr) {
    const memory::dims dims = onednn_dims(pc.dst_dims());
    const memory::desc src_md(dims, f32, plain_tag(dims.size())), dst_md(dims, f32, tag::any);
    using sm = dnnl::softmax_v2_forward;
    const auto alg = s.salg == prim::algorithm::softmax_log ? dnnl::algorithm::softmax_log
                                                            : dnnl::algorithm::softmax_accurate;
    const sm::primitive_desc pd(sm::desc(dnnl::prop_kind::forward_inference, alg, src_md, dst_md,
                                         s.axis), attr, eng);
    prim = sm(pd);
    impl = pd.impl_info_str();
    args[DNNL_ARG_SRC] = bind(pc.input(prim::PRIM_ARG_SRC), dims, pd.src_desc());
    args[DNNL_ARG_DST] = bind(pc.dst_old(), dims, pd.dst_desc());
    bind_operands(pd, pc.dst_dims());
    dst_dims = dims;
}

// Concat: the case's own plain inputs (their dims from the descriptor SRC0:SRC1:...), dst in
// oneDNN's choice.
void onednn_case::state::concat(const problem_case &pc, const settings &s) {
    const std::string text = pc.desc().substr(0, pc.desc().find("_n\""));
    std::vector<memory::desc> mds;
    std::vector<memory::dims> srcs;
    for (const std::string &part : split(text, ':')) {
        srcs.push_back(onednn_dims(parse_eltwise_problem(part).dims));
        mds.emplace_back(srcs.back(), f32, plain_tag(srcs.back().size()));
    }
    const dnnl::concat::primitive_desc pd(s.axis, mds, eng);
    prim = dnnl::concat(pd);
    impl = pd.impl_info_str();
    for (size_t i = 0; i < srcs.size(); ++i)
        args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] =
                bind(pc.input(prim::PRIM_ARG_MULTIPLE_SRC + static_cast<int>(i)), srcs[i],
                     pd.src_desc(static_cast<int>(i)));
    dst_dims = onednn_dims(pc.dst_dims());
    args[DNNL_ARG_DST] = bind(pc.dst_old(), dst_dims, pd.dst_desc());
}

// Pooling: oneDNN 2.6's pooling_v2, forward inference, on the case's own source (plain), dst in
// oneDNN's choice.
void onednn_case::state::pooling(const problem_case &pc, const settings &s,
                                 const dnnl::primitive_attr &attr) {
    for (const onednn_op &op : ops) {
        if (op.what == onednn_op::kind::sum)
            throw onednn_skip("oneDNN 2.6's pooling has no sum post-op");
        // As its inner product and binary: "could not execute a primitive" for any prelu mask.
        if (op.what == onednn_op::kind::prelu)
            throw onednn_skip("oneDNN 2.6's pooling fails to execute prelu post-ops");
    }
    const prim::impl::pool_problem prb = parse_pool_problem(pc.desc(), s);
    memory::dims src {prb.mb, prb.ic}, dst {prb.mb, prb.ic}, strides, kernel, dilation, pad_l, pad_r;
    for (int sp = 3 - prb.nsp; sp < 3; ++sp) {
        src.push_back(prb.i[sp]);
        dst.push_back(prb.o[sp]);
        strides.push_back(prb.s[sp]);
        kernel.push_back(prb.k[sp]);
        dilation.push_back(prb.d[sp]); // 0 is dense, as benchdnn
        pad_l.push_back(prb.p[sp]);
        pad_r.push_back(std::max<int64_t>(0, prb.p_end[sp])); // as the pool driver gives prim
    }
    const dnnl::algorithm alg = prb.is_max() ? dnnl::algorithm::pooling_max
            : prb.alg == prim::algorithm::pooling_avg_include_padding
                    ? dnnl::algorithm::pooling_avg_include_padding
                    : dnnl::algorithm::pooling_avg_exclude_padding;
    using pool = dnnl::pooling_v2_forward;
    // src in the layout prim runs on ('any': channels-last, as prim's JIT chooses).
    const std::string pattern = s.stag == "any"
            ? std::string(src.size() == 3 ? "acb" : src.size() == 4 ? "acdb" : "acdeb")
            : make_desc(src, s.stag, "--tag").layout();
    static const std::unordered_map<std::string, tag> tags = {
            {"abc", tag::abc}, {"acb", tag::acb}, {"abcd", tag::abcd}, {"acdb", tag::acdb},
            {"abcde", tag::abcde}, {"acdeb", tag::acdeb}, {"aBc8b", tag::aBc8b},
            {"aBcd8b", tag::aBcd8b}, {"aBcde8b", tag::aBcde8b}, {"aBc16b", tag::aBc16b},
            {"aBcd16b", tag::aBcd16b}, {"aBcde16b", tag::aBcde16b}};
    const auto src_tag = tags.find(pattern);
    if (src_tag == tags.end()) throw onednn_skip("layout " + pattern + " is not mapped to oneDNN");
    const pool::primitive_desc pd(
            pool::desc(dnnl::prop_kind::forward_inference, alg,
                       memory::desc(src, f32, src_tag->second), memory::desc(dst, f32, tag::any),
                       strides, kernel, dilation, pad_l, pad_r),
            attr, eng);
    prim = pool(pd);
    impl = pd.impl_info_str();
    args[DNNL_ARG_SRC] = bind(pc.input(prim::PRIM_ARG_SRC), src, pd.src_desc());
    args[DNNL_ARG_DST] = bind(pc.dst_old(), dst, pd.dst_desc());
    bind_operands(pd, pc.dst_dims());
    dst_dims = dst;
}

// Binary: the case's own sources, plain; dst in oneDNN's choice.
void onednn_case::state::binary(const problem_case &pc, const settings &s,
                                const dnnl::primitive_attr &attr) {
    const prim::impl::binary_problem prb = parse_binary_problem_named(pc.desc(), nullptr);
    const memory::dims src0 = onednn_dims(prb.src0), src1 = onednn_dims(prb.src1);
    const memory::desc src0_md(src0, f32, plain_tag(src0.size())),
            src1_md(src1, f32, plain_tag(src1.size())), dst_md(src0, f32, tag::any);
    const dnnl::binary::desc d(onednn_binary(prim::impl::find_binary(s.balg)->name), src0_md,
                               src1_md, dst_md);
    const dnnl::binary::primitive_desc pd(d, attr, eng);
    prim = dnnl::binary(pd);
    impl = pd.impl_info_str();
    args[DNNL_ARG_SRC_0] = bind(pc.input(prim::PRIM_ARG_SRC_0), src0, pd.src_desc(0));
    args[DNNL_ARG_SRC_1] = bind(pc.input(prim::PRIM_ARG_SRC_1), src1, pd.src_desc(1));
    args[DNNL_ARG_DST] = bind(pc.dst_old(), src0, pd.dst_desc());
    bind_operands(pd, pc.dst_dims());
    dst_dims = src0;
}

// Batch and layer normalization, forward inference, plain data (oneDNN's own choice for a
// given src), the flags as oneDNN 2.6 spells them.
void onednn_case::state::normalization(driver_kind driver, const problem_case &pc,
                                       const settings &s, const dnnl::primitive_attr &attr) {
    const unsigned f = norm_flags_of(s.flags);
    using nf = dnnl::normalization_flags;
    nf flags = nf::none;
    if (f & prim::impl::norm_flags::global_stats) flags |= nf::use_global_stats;
    if (f & prim::impl::norm_flags::scale) flags |= nf::use_scale;
    if (f & prim::impl::norm_flags::shift) flags |= nf::use_shift;
    const memory::dims dims = onednn_dims(pc.dst_dims());
    const memory::desc md(dims, f32, plain_tag(dims.size()));
    const auto prop = dnnl::prop_kind::forward_inference;
    memory::dims stat_dims, c_dims;
    dnnl::primitive_desc_base pd_any;
    if (driver == driver_kind::bnorm) {
        const prim::impl::bnorm_problem prb = parse_bnorm_problem(pc.desc());
        using bn = dnnl::batch_normalization_forward;
        const bn::primitive_desc pd(bn::desc(prop, md, prb.eps, flags), attr, eng);
        prim = bn(pd);
        pd_any = pd;
        stat_dims = c_dims = {dims[1]};
    } else {
        std::string name;
        const prim::impl::lnorm_problem prb = parse_lnorm_problem_named(pc.desc(), &name);
        using ln = dnnl::layer_normalization_forward;
        const ln::primitive_desc pd(ln::desc(prop, md, prb.eps, flags), attr, eng);
        prim = ln(pd);
        pd_any = pd;
        stat_dims = memory::dims(dims.begin(), dims.end() - 1);
        c_dims = {dims.back()};
    }
    impl = pd_any.impl_info_str();
    auto md_of = [&](int arg) { return pd_any.query_md(dnnl::query::exec_arg_md, arg); };
    args[DNNL_ARG_SRC] = bind(pc.input(prim::PRIM_ARG_SRC), dims, md_of(DNNL_ARG_SRC));
    if (f & prim::impl::norm_flags::global_stats) {
        args[DNNL_ARG_MEAN] = bind(pc.input(prim::PRIM_ARG_MEAN), stat_dims, md_of(DNNL_ARG_MEAN));
        args[DNNL_ARG_VARIANCE] = bind(pc.input(prim::PRIM_ARG_VARIANCE), stat_dims, md_of(DNNL_ARG_VARIANCE));
    }
    if (f & prim::impl::norm_flags::scale)
        args[DNNL_ARG_SCALE] = bind(pc.input(prim::PRIM_ARG_SCALE), c_dims, md_of(DNNL_ARG_SCALE));
    if (f & prim::impl::norm_flags::shift)
        args[DNNL_ARG_SHIFT] = bind(pc.input(prim::PRIM_ARG_SHIFT), c_dims, md_of(DNNL_ARG_SHIFT));
    args[DNNL_ARG_DST] = bind(pc.dst_old(), dims, md_of(DNNL_ARG_DST));
    bind_operands(pd_any, pc.dst_dims());
    dst_dims = dims;
}

// An int8 convolution or inner product (doc/int8.md) as oneDNN 2.6 takes it: the case's own
// data and types, output scales and zero points given at execute; v3 per-argument scales have
// no oneDNN 2.6 form here.
struct int8_side {
    quant_spec q;
    bool int8 = false;
    explicit int8_side(const settings &s) {
        parse_quant_spec(s, q);
        int8 = q.types.int8();
        if (int8 && (q.src_scale.given || q.wei_scale.given || q.dst_scale.given))
            throw onednn_skip("per-argument scales (oneDNN v3) have no oneDNN 2.6 form for this primitive");
    }
    memory::data_type type(prim::memory::data_type t) const { return int8 ? onednn_type(t) : f32; }
    // The attribute with the quantization: output scales as constants (oneDNN 2.6's int8
    // convolutions refuse runtime ones), zero points at execute.
    dnnl::primitive_attr attr(const dnnl::primitive_attr &given, int64_t oc) const {
        dnnl::primitive_attr a = given;
        if (q.oscale.given) a.set_output_scales(q.oscale.per_channel ? 1 << 1 : 0, quant_values(q.oscale, oc, false));
        if (q.src_zp.given)
            a.set_zero_points(DNNL_ARG_SRC, q.src_zp.per_channel ? 1 << 1 : 0, {DNNL_RUNTIME_S32_VAL});
        if (q.dst_zp.given)
            a.set_zero_points(DNNL_ARG_DST, q.dst_zp.per_channel ? 1 << 1 : 0, {DNNL_RUNTIME_S32_VAL});
        return a;
    }
    void bind_values(dnnl::engine &eng, std::unordered_map<int, memory> &args, int64_t ic,
                     int64_t oc) const {
        const auto values = [&](const quant_param &p, int arg, int64_t channels, bool zp) {
            if (!p.given) return;
            const std::vector<float> v = quant_values(p, channels, zp);
            memory m({{static_cast<int64_t>(v.size())}, zp ? memory::data_type::s32 : f32, tag::x}, eng);
            for (size_t i = 0; i < v.size(); ++i) {
                if (zp) static_cast<int32_t *>(m.get_data_handle())[i] = static_cast<int32_t>(v[i]);
                else static_cast<float *>(m.get_data_handle())[i] = v[i];
            }
            args[arg] = m;
        };
        values(q.src_zp, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, ic, true);
        values(q.dst_zp, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, oc, true);
    }
};

void onednn_case::state::convolution(const problem_case &pc, const settings &s,
                                     const dnnl::primitive_attr &given_attr) {
    const int8_side i8(s);
    const prim::impl::conv_problem prb = parse_conv_problem(pc.desc());
    const dnnl::primitive_attr attr = i8.attr(given_attr, prb.oc);
    memory::dims src {prb.mb, prb.ic}, dst {prb.mb, prb.oc};
    memory::dims wei = prb.g > 1 ? memory::dims {prb.g, prb.ocg(), prb.icg()}
                                 : memory::dims {prb.oc, prb.ic};
    memory::dims strides, dilates, pad_l, pad_r;
    for (int sp = 3 - prb.nsp; sp < 3; ++sp) {
        src.push_back(prb.i[sp]);
        dst.push_back(prb.o[sp]);
        wei.push_back(prb.k[sp]);
        strides.push_back(prb.s[sp]);
        dilates.push_back(prb.d[sp]); // oneDNN counts dilation as benchdnn does: 0 is dense
        pad_l.push_back(prb.p[sp]);
        pad_r.push_back(prb.p_end[sp]);
    }
    const bool with_bias = s.dir != direction::fwd_d && i8.q.types.bias != prim::memory::data_type::undef;
    const weighted_types &t = i8.q.types;
    const memory::desc src_md(src, i8.type(t.src), tag::any), wei_md(wei, i8.type(t.wei), tag::any),
            dst_md(dst, i8.type(t.dst), tag::any), bias_md({prb.oc}, i8.type(t.bias), tag::any);
    using conv = dnnl::convolution_forward;
    const auto alg = dnnl::algorithm::convolution_direct;
    const conv::desc d = with_bias
            ? conv::desc(prop_of(s), alg, src_md, wei_md, bias_md, dst_md, strides, dilates,
                         pad_l, pad_r)
            : conv::desc(prop_of(s), alg, src_md, wei_md, dst_md, strides, dilates, pad_l, pad_r);
    const conv::primitive_desc pd(d, attr, eng);
    prim = conv(pd);
    impl = pd.impl_info_str();
    std::vector<float> src_data = plain_buffer(src), wei_data = plain_buffer(wei);
    fill_src(src_data, tensor_id::src);
    fill_wei(wei_data, prb.icg() * prb.k[0] * prb.k[1] * prb.k[2]);
    if (i8.int8) src_data = pc.input(prim::PRIM_ARG_SRC); // the case's own int8 filling
    args[DNNL_ARG_SRC] = bind(std::move(src_data), src, pd.src_desc());
    args[DNNL_ARG_WEIGHTS] = bind(std::move(wei_data), wei, pd.weights_desc());
    if (with_bias) {
        std::vector<float> bias_data = plain_buffer({prb.oc});
        fill_src(bias_data, tensor_id::bias);
        args[DNNL_ARG_BIAS] = bind(std::move(bias_data), {prb.oc}, pd.bias_desc());
    }
    if (chain.dw_index() >= 0) { // dst is the depthwise output; its weights and bias, the case's
        dst = onednn_dims(pc.dst_dims());
        const prim::post_ops::entry &e = chain.entries()[chain.dw_index()];
        const memory::dims dw_wei {prb.oc, 1, 1, e.dw.kernel, e.dw.kernel};
        const int wei_arg = DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS;
        const int bias_arg = DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS;
        args[wei_arg] = bind(pc.input(prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_WEIGHTS), dw_wei,
                             pd.query_md(dnnl::query::exec_arg_md, wei_arg));
        if (e.dw.bias_dt != prim::memory::data_type::undef)
            args[bias_arg] = bind(pc.input(prim::PRIM_ARG_ATTR_POST_OP_DW | prim::PRIM_ARG_BIAS),
                                  {prb.oc}, pd.query_md(dnnl::query::exec_arg_md, bias_arg));
    }
    args[DNNL_ARG_DST] = bind(pc.dst_old(), dst, pd.dst_desc());
    bind_operands(pd, pc.dst_dims());
    i8.bind_values(eng, args, prb.ic, prb.oc);
    dst_dims = dst;
}

void onednn_case::state::inner_product(const problem_case &pc, const settings &s,
                                       const dnnl::primitive_attr &given_attr) {
    const int8_side i8(s);
    const prim::impl::ip_problem prb = parse_ip_problem(pc.desc());
    const dnnl::primitive_attr attr = i8.attr(given_attr, prb.oc);
    memory::dims src {prb.mb, prb.ic}, wei {prb.oc, prb.ic}, dst {prb.mb, prb.oc};
    for (int sp = 3 - prb.nsp; sp < 3 && prb.nsp > 0; ++sp) {
        src.push_back(prb.i[sp]);
        wei.push_back(prb.i[sp]);
    }
    const bool with_bias = s.dir != direction::fwd_d && i8.q.types.bias != prim::memory::data_type::undef;
    const weighted_types &t = i8.q.types;
    const memory::desc src_md(src, i8.type(t.src), tag::any), wei_md(wei, i8.type(t.wei), tag::any),
            dst_md(dst, i8.type(t.dst), tag::any), bias_md({prb.oc}, i8.type(t.bias), tag::any);
    using ip = dnnl::inner_product_forward;
    const ip::desc d = with_bias ? ip::desc(prop_of(s), src_md, wei_md, bias_md, dst_md)
                                 : ip::desc(prop_of(s), src_md, wei_md, dst_md);
    const ip::primitive_desc pd(d, attr, eng);
    prim = ip(pd);
    impl = pd.impl_info_str();
    std::vector<float> src_data = plain_buffer(src), wei_data = plain_buffer(wei);
    fill_src(src_data, tensor_id::src);
    fill_wei(wei_data, prb.ic * prb.spatial());
    if (i8.int8) src_data = pc.input(prim::PRIM_ARG_SRC); // the case's own int8 filling
    args[DNNL_ARG_SRC] = bind(std::move(src_data), src, pd.src_desc());
    args[DNNL_ARG_WEIGHTS] = bind(std::move(wei_data), wei, pd.weights_desc());
    if (with_bias) {
        std::vector<float> bias_data = plain_buffer({prb.oc});
        fill_src(bias_data, tensor_id::bias);
        args[DNNL_ARG_BIAS] = bind(std::move(bias_data), {prb.oc}, pd.bias_desc());
    }
    args[DNNL_ARG_DST] = bind(pc.dst_old(), dst, pd.dst_desc());
    bind_operands(pd, pc.dst_dims());
    i8.bind_values(eng, args, prb.ic, prb.oc);
    dst_dims = dst;
}

// The eltwise case's algorithm comes back from its REPRO options ("--alg=NAME [--alpha=X]
// [--beta=Y] "), which eltwise_case writes from the algorithm's main name and exact values.
void onednn_case::state::eltwise(const problem_case &pc, const settings &s,
                                 const prim::post_ops &po) {
    const std::string opts = pc.repro_options();
    auto value_of = [&](const std::string &key) -> std::string {
        const size_t at = opts.find(key);
        if (at == std::string::npos) return "";
        const size_t begin = at + key.size();
        return opts.substr(begin, opts.find(' ', begin) - begin);
    };
    const prim::impl::algorithm_info *info = prim::impl::find_algorithm(value_of("--alg="));
    if (!info) throw onednn_skip("cannot read the eltwise algorithm from '" + opts + "'");
    const std::string a = value_of("--alpha="), b = value_of("--beta=");
    const float alpha = a.empty() ? info->default_alpha : std::strtof(a.c_str(), nullptr);
    const float beta = b.empty() ? info->default_beta : std::strtof(b.c_str(), nullptr);

    // oneDNN 2.6's eltwise primitive (ref:any) accepts post-ops but computes them wrongly: a sum
    // gives garbage, and so does any chain on a 1D tensor (found by the C-mode check). So only
    // an algorithm that is one oneDNN op, without a chain, is compared.
    if (po.len() > 0)
        throw onednn_skip(
                "oneDNN 2.6's eltwise primitive gets post-ops wrong (a sum; any chain on 1D)");
    std::string why;
    const std::vector<onednn_op> main_ops = map_eltwise(info->alg, alpha, beta, 1.f, why);
    if (main_ops.empty()) throw onednn_skip(why);
    if (main_ops.size() > 1 || main_ops[0].scale != 1.f)
        throw onednn_skip(std::string("oneDNN 2.6 has no single algorithm for ") + info->name
                          + " with these parameters");
    const onednn_op first = main_ops.front();
    const dnnl::primitive_attr attr;

    const prim::impl::eltwise_problem prb = parse_eltwise_problem(pc.desc());
    const memory::dims dims(prb.dims.begin(), prb.dims.end());
    const memory::desc md(dims, f32, plain_tag(dims.size()));
    using elt = dnnl::eltwise_forward;
    const elt::desc d(prop_of(s), onednn_algorithm(first.alg), md, first.alpha, first.beta);
    const elt::primitive_desc pd(d, attr, eng);
    prim = elt(pd);
    impl = pd.impl_info_str();
    std::vector<float> src_data = plain_buffer(dims);
    fill_eltwise_src(src_data, info->alg);
    args[DNNL_ARG_SRC] = bind(std::move(src_data), dims, pd.src_desc());
    nan_source = static_cast<int>(keep.size()) - 1;
    args[DNNL_ARG_DST] = bind(pc.dst_old(), dims, pd.dst_desc());
    dst_dims = dims;
}

bool onednn_available() { return true; }

onednn_case::onednn_case(driver_kind driver, const problem_case &pc, const settings &s,
                         const prim::post_ops &po)
    : st_(std::make_unique<state>()) {
    // The int8 or scaled cases of the other drivers (io_spec.hpp) are checked against the
    // reference only.
    const bool quantized = !pc.data_types().empty() || !s.scales.empty() || !s.oscale.empty();
    if (quantized && driver != driver_kind::conv && driver != driver_kind::ip)
        throw onednn_skip(std::string("oneDNN's side of int8 or scaled --") + driver_name(driver)
                          + " cases is not built (convolution and inner product only)");
    try {
        if (driver == driver_kind::eltwise) {
            st_->eltwise(pc, s, po);
        } else {
            st_->ops = chain_or_skip(po);
            st_->chain = po;
            // Found by the C-mode check: its ref:any inner product is chosen and throws
            // "could not execute a primitive" for any prelu mask; its binary primitive too.
            if (driver == driver_kind::ip || driver == driver_kind::binary)
                for (const onednn_op &op : st_->ops)
                    if (op.what == onednn_op::kind::prelu)
                        throw onednn_skip(std::string("oneDNN 2.6's ")
                                          + (driver == driver_kind::ip ? "inner product" : "binary")
                                          + " fails to execute prelu post-ops");
            dnnl::primitive_attr attr;
            // Its ref_fused_convolution hands the two convolutions their binary operands only:
            // a prelu's weights never arrive (a crash, found by the C-mode check).
            if (po.dw_index() >= 0)
                for (const onednn_op &op : st_->ops)
                    if (op.what == onednn_op::kind::prelu)
                        throw onednn_skip("oneDNN 2.6's fused depthwise convolution does not pass "
                                          "prelu weights (it crashes)");
            if (driver == driver_kind::conv && po.dw_index() >= 0) {
                const prim::impl::conv_problem prb = parse_conv_problem(pc.desc());
                st_->dw_mid = {prb.mb, prb.oc, prb.o[1], prb.o[2]};
            }
            attr.set_post_ops(to_onednn(st_->ops, po, pc.dst_dims(), st_->dw_mid));
            if (driver == driver_kind::conv) st_->convolution(pc, s, attr);
            else if (driver == driver_kind::binary) st_->binary(pc, s, attr);
            else if (is_norm(driver)) st_->normalization(driver, pc, s, attr);
            else if (driver == driver_kind::softmax) st_->softmax(pc, s, attr);
            else if (driver == driver_kind::concat) st_->concat(pc, s);
            else if (driver == driver_kind::pool) st_->pooling(pc, s, attr);
            else st_->inner_product(pc, s, attr);
        }
    } catch (const dnnl::error &e) {
        // Typically "could not create a primitive descriptor iterator": no oneDNN
        // implementation takes this shape or chain.
        throw onednn_skip(std::string("oneDNN refuses it: ") + e.what());
    }
}

onednn_case::~onednn_case() = default;

void onednn_case::execute() {
    st_->prim.execute(st_->strm, st_->args);
    st_->strm.wait();
}

std::vector<float> onednn_case::result() const {
    std::vector<float> out = plain_buffer(st_->dst_dims);
    memory user({st_->dst_dims, f32, plain_tag(st_->dst_dims.size())}, st_->eng, out.data());
    memory dst = st_->args.at(DNNL_ARG_DST);
    dnnl::reorder(dst, user).execute(st_->strm, dst, user);
    st_->strm.wait();
    if (st_->nan_source >= 0) {
        const std::vector<float> &src = st_->keep[st_->nan_source];
        for (size_t i = 0; i < out.size() && i < src.size(); ++i)
            if (std::isnan(src[i])) out[i] = NAN;
    }
    return out;
}

const std::string &onednn_case::impl() const { return st_->impl; }

} // namespace bdl

#else // built without oneDNN

namespace bdl {

struct onednn_case::state {};

bool onednn_available() { return false; }

onednn_case::onednn_case(driver_kind, const problem_case &, const settings &,
                         const prim::post_ops &) {
    throw onednn_skip("built without oneDNN");
}

onednn_case::~onednn_case() = default;

void onednn_case::execute() {}

std::vector<float> onednn_case::result() const { return {}; }

const std::string &onednn_case::impl() const {
    static const std::string none = "none";
    return none;
}

} // namespace bdl

#endif
