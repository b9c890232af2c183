// The oneDNN 2.6 side of --cmp=onednn (see onednn_case.hpp). Everything that names oneDNN is
// inside PRIM_WITH_ONEDNN; without it the option is refused and this file only says so.
#include "onednn/onednn_case.hpp"

#ifdef PRIM_WITH_ONEDNN

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include <oneapi/dnnl/dnnl.hpp>

#include "attr/operand_policy.hpp"
#include "common/post_op_operands.hpp"
#include "onednn/onednn_state.hpp"
#include "operands.hpp"
#include "driver_table.hpp"

namespace bdl {

using namespace onednn_names;

dnnl::algorithm onednn_eltwise_alg(const std::string &name) {
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

dnnl::algorithm onednn_binary_alg(const std::string &name) {
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

dnnl::prop_kind prop_of(const settings &s) {
    return s.dir == direction::fwd_i ? dnnl::prop_kind::forward_inference
                                     : dnnl::prop_kind::forward_training;
}

std::vector<float> plain_buffer(const memory::dims &dims) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    return std::vector<float>(static_cast<size_t>(n > 0 ? n : 1));
}

namespace {

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
                         const prim::memory::dims &dst_dims, const prim::memory::dims &mid_dims,
                         const onednn_dw_int8 &dw_int8) {
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
            po.append_eltwise(op.scale, onednn_eltwise_alg(op.alg), op.alpha, op.beta);
            break;
        case onednn_op::kind::binary:
            po.append_binary(onednn_binary_alg(op.alg), binary_src1(chain.entries()[op.entry],
                                                                target_of(chain, op.entry, dst_dims, mid_dims)));
            break;
        case onednn_op::kind::prelu:
            po.append_prelu(prim::impl::mask_within(chain.entries()[op.entry].mask, rank));
            break;
        case onednn_op::kind::dw: {
            const prim::post_ops::entry::depthwise &d = chain.entries()[op.entry].dw;
            const auto bias = d.bias_dt == prim::memory::data_type::undef ? memory::data_type::undef : f32;
            if (dw_int8.int8)
                po.append_dw(onednn_type(dw_int8.wei), bias, onednn_type(dw_int8.dst), d.kernel, d.stride,
                             d.padding, dw_int8.mask, dw_int8.scales);
            else
                po.append_dw(f32, bias, f32, d.kernel, d.stride, d.padding, 0, {});
            break;
        }
        }
    }
    return po;
}

std::vector<onednn_op> chain_or_skip(const prim::post_ops &po) {
    std::string why;
    std::vector<onednn_op> ops = map_chain(po, why);
    if (!why.empty()) throw onednn_skip(why);
    return ops;
}

} // namespace

// A memory in the layout `target` holding `data` (plain, dims).
memory onednn_state::bind(std::vector<float> data, const memory::dims &dims, const memory::desc &target) {
    keep.push_back(std::move(data));
    memory user({dims, f32, plain_tag(dims.size())}, eng, keep.back().data());
    memory m(target, eng);
    dnnl::reorder(user, m).execute(strm, user, m);
    strm.wait();
    return m;
}

// The operand of each binary and prelu op: prim's data for that entry, in the layout
// oneDNN reports (binary) or reads (prelu).
void onednn_state::bind_operands(const dnnl::primitive_desc_base &pd, const prim::memory::dims &dst) {
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

dnnl::primitive_attr onednn_state::post_ops_attr(const prim::post_ops &po, const problem_case &pc,
                                                const char *fails_prelu) {
    ops = chain_or_skip(po);
    chain = po;
    // Found by the C-mode check: its ref:any inner product is chosen and throws "could not
    // execute a primitive" for any prelu mask; its binary primitive too.
    if (fails_prelu)
        for (const onednn_op &op : ops)
            if (op.what == onednn_op::kind::prelu)
                throw onednn_skip(std::string("oneDNN 2.6's ") + fails_prelu
                                  + " fails to execute prelu post-ops");
    if (dw_int8.int8) { // each half's v3 dst scale after its chain
        // The eltwise op before `at` takes it as its scale; else a linear op at `at`. (oneDNN
        // 2.6 computes two consecutive linear ops after its int8 dw wrong: found by the C-mode
        // check, linear:0.5 then linear:0.25 giving x / 4.)
        const auto scale_before = [this](size_t at, float inv) {
            if (inv == 1.f) return;
            if (at > 0 && ops[at - 1].what == onednn_op::kind::eltwise) {
                ops[at - 1].scale *= inv;
                return;
            }
            onednn_op op;
            op.alg = "linear";
            op.alpha = inv;
            ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(at), op);
        };
        scale_before(ops.size(), dw_int8.dst_inv_scale);
        const auto dw_op = std::find_if(ops.begin(), ops.end(), [](const onednn_op &op) {
            return op.what == onednn_op::kind::dw;
        });
        scale_before(static_cast<size_t>(dw_op - ops.begin()), dw_int8.mid_inv_scale);
    }
    dnnl::primitive_attr attr;
    // Its ref_fused_convolution hands the two convolutions their binary operands only: a
    // prelu's weights never arrive (a crash, found by the C-mode check).
    if (po.dw_index() >= 0)
        for (const onednn_op &op : ops)
            if (op.what == onednn_op::kind::prelu)
                throw onednn_skip("oneDNN 2.6's fused depthwise convolution does not pass "
                                  "prelu weights (it crashes)");
    attr.set_post_ops(to_onednn(ops, po, pc.dst_dims(), dw_mid, dw_int8));
    return attr;
}

bool onednn_available() { return true; }

onednn_case::onednn_case(driver_kind driver, const problem_case &pc, const settings &s,
                         const prim::post_ops &po)
    : st_(std::make_unique<onednn_state>()) {
    // The int8 or scaled cases of the other drivers (io_spec.hpp) are checked against the
    // reference only, but eltwise's (one integer type, no scales: eltwise_onednn.cpp).
    const driver_info &row = driver_of(driver);
    const bool quantized = !pc.data_types().empty() || !s.scales.empty() || !s.oscale.empty();
    if (quantized && row.family != driver_family::weighted && driver != driver_kind::eltwise)
        throw onednn_skip(std::string("oneDNN's side of int8 or scaled --") + row.name
                          + " cases is not built (convolution, inner product and eltwise only)");
    try {
        row.onednn(*st_, pc, s, po);
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

struct onednn_state {};

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
