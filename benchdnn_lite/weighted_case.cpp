#include "weighted_case.hpp"

#include <algorithm>
#include <cmath>

#include "common/plain_layout.hpp"
#include "fill.hpp"
#include "operands.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

// The range benchdnn fills an int8 type with; f32 data keep their small integers.
std::pair<int, int> int_range(prim::memory::data_type t) {
    if (t == prim::memory::data_type::u8) return {0, 255};
    if (t == prim::memory::data_type::s8) return {-128, 127};
    return {-1000, 1000}; // s32
}

// The channel of element i of a plain (mb, channels, spatial...) tensor.
int64_t channel_of(int64_t i, const prim::memory::dims &dims) {
    int64_t inner = 1;
    for (size_t d = 2; d < dims.size(); ++d) inner *= dims[d];
    return (i / inner) % dims[1];
}

// A memory {values.size()} of type t (f32 or s32) holding values.
prim::memory value_memory(const std::vector<float> &values, prim::memory::data_type t) {
    prim::memory m(prim::memory::desc({static_cast<int64_t>(values.size())}, t, prim::memory::format_tag::x));
    for (size_t i = 0; i < values.size(); ++i) {
        if (t == prim::memory::data_type::s32)
            static_cast<int32_t *>(m.get_data_handle())[i] = static_cast<int32_t>(values[i]);
        else static_cast<float *>(m.get_data_handle())[i] = values[i];
    }
    return m;
}

} // namespace

weighted_case::weighted_case(const settings &s)
    : s_(s), with_bias_(s.dir != direction::fwd_d) {
    parse_quant_spec(s, quant_); // the case list skipped what it refuses
    if (quant_.types.bias == prim::memory::data_type::undef) with_bias_ = false;
}

void weighted_case::allocate_and_fill(int64_t oc, int64_t reduction, const std::string &desc) {
    // Plain copies, the primitive's copies, the reference and results: about 3x each.
    check_memory_budget(
            3.0 * 4 * (volume_f(src_dims_) + volume_f(wei_dims_) + 3.0 * volume_f(dst_dims_)),
            desc);
    src_ = buffer(volume(src_dims_));
    wei_ = buffer(volume(wei_dims_));
    bias_ = buffer(oc);
    dst_old_ = buffer(volume(dst_dims_));
    fill_src(src_, tensor_id::src);
    fill_wei(wei_, reduction);
    fill_src(bias_, tensor_id::bias);
    fill_dst_old(dst_old_);
    if (quant_.types.int8()) { // the whole range of each type (weights keep their sparse -2..2)
        fill_int(src_, tensor_id::src, int_range(quant_.types.src).first, int_range(quant_.types.src).second);
        if (quant_.types.dst != prim::memory::data_type::f32)
            fill_int(dst_old_, tensor_id::dst_old, int_range(quant_.types.dst).first, int_range(quant_.types.dst).second);
    }
}

std::vector<float> weighted_case::input(int arg) const {
    if (arg == prim::PRIM_ARG_SRC) return src_;
    if (arg == prim::PRIM_ARG_WEIGHTS) return wei_;
    if (arg == prim::PRIM_ARG_BIAS) return bias_;
    return {};
}

prim::primitive_attr weighted_case::with_quantization(const prim::primitive_attr &attr) const {
    prim::primitive_attr a = attr;
    add_quantization(quant_, grouped_, a);
    return a;
}

void weighted_case::finish_reference(std::vector<float> &ref) const {
    if (quant_.types.int8()) quantize(ref, quant_.dst_scale, quant_.dst_zp, quant_.types.dst);
}

void weighted_case::bind_quant_values(const quant_spec &q, int64_t oc, int64_t ic, prim::exec_args &args) {
    using prim::PRIM_ARG_SRC, prim::PRIM_ARG_WEIGHTS, prim::PRIM_ARG_DST;
    const auto bind = [&](const quant_param &p, int arg, int64_t channels, bool zp) {
        if (p.given)
            args[arg] = value_memory(quant_values(p, channels, zp),
                                     zp ? prim::memory::data_type::s32 : prim::memory::data_type::f32);
    };
    const int scales = prim::PRIM_ARG_ATTR_SCALES, zero_points = prim::PRIM_ARG_ATTR_ZERO_POINTS;
    bind(q.oscale, prim::PRIM_ARG_ATTR_OUTPUT_SCALES, oc, false);
    bind(q.src_scale, scales | PRIM_ARG_SRC, 1, false);
    bind(q.wei_scale, scales | PRIM_ARG_WEIGHTS, oc, false);
    bind(q.dst_scale, scales | PRIM_ARG_DST, 1, false);
    bind(q.src_zp, zero_points | PRIM_ARG_SRC, ic, true);
    bind(q.dst_zp, zero_points | PRIM_ARG_DST, oc, true);
    // A dw post-op's (its depthwise convolution has the 1x1's oc channels).
    const int dw_scales = scales | prim::PRIM_ARG_ATTR_POST_OP_DW;
    bind(q.dw_wei_scale, dw_scales | PRIM_ARG_WEIGHTS, oc, false);
    bind(q.dw_dst_scale, dw_scales | PRIM_ARG_DST, 1, false);
}

void weighted_case::quantize(std::vector<float> &ref, const quant_param &scale,
                             const quant_param &zp_param, prim::memory::data_type type) const {
    const int64_t oc = dst_dims_[1];
    const std::vector<float> dst_scale = quant_values(scale, 1, false);
    const std::vector<float> zp = quant_values(zp_param, oc, true);
    const float inv = scale.given ? 1.f / dst_scale[0] : 1.f;
    const bool integer = type != prim::memory::data_type::f32;
    const auto [lo, hi] = integer && type != prim::memory::data_type::s32
            ? int_range(type) : std::pair<int, int>(0, 0);
    for (int64_t i = 0; i < static_cast<int64_t>(ref.size()); ++i) {
        float x = ref[i] * inv;
        if (zp_param.given) x += zp[zp_param.per_channel ? channel_of(i, dst_dims_) : 0];
        if (integer) {
            x = std::isnan(x) ? 0.f : x;
            if (lo != hi) x = std::min(std::max(x, static_cast<float>(lo)), static_cast<float>(hi));
            else x = std::min(std::max(x, -2147483648.f), 2147483520.f);
            x = std::nearbyint(x);
        }
        ref[i] = x;
    }
}

weighted_case::user_descs weighted_case::make_user_descs() const {
    const int64_t oc = static_cast<int64_t>(bias_.size());
    const weighted_types &t = quant_.types;
    return {prim::impl::retyped(user_desc(src_dims_, s_.stag, s_.strides, 0, 3, "--stag"), t.src),
            prim::impl::retyped(user_desc(wei_dims_, s_.wtag, s_.strides, 1, 3, "--wtag"), t.wei),
            with_bias_ ? prim::impl::retyped(plain_desc({oc}), t.bias) : prim::memory::desc(),
            prim::impl::retyped(user_desc(dst_dims_, s_.dtag, s_.strides, 2, 3, "--dtag"), t.dst),
            s_.dir == direction::fwd_i ? prim::prop_kind::forward_inference
                                       : prim::prop_kind::forward_training};
}

const std::vector<float> &weighted_case::ref_base() {
    if (!ref_done_) {
        ref_ = dst_old_;
        if (!quant_.types.int8()) {
            compute_reference(src_.data(), ref_.data(), nullptr);
        } else {
            // src less its zero points (padding stays the real 0); the scales per oc.
            const int64_t oc = static_cast<int64_t>(bias_.size()), ic = src_dims_[1];
            std::vector<float> src = src_;
            if (quant_.src_zp.given) {
                const std::vector<float> zp = quant_values(quant_.src_zp, ic, true);
                for (int64_t i = 0; i < static_cast<int64_t>(src.size()); ++i)
                    src[i] -= zp[quant_.src_zp.per_channel ? channel_of(i, src_dims_) : 0];
            }
            std::vector<float> pre(oc, 1.f), post(oc, 1.f);
            const std::vector<float> os = quant_values(quant_.oscale, oc, false),
                                     ss = quant_values(quant_.src_scale, 1, false),
                                     ws = quant_values(quant_.wei_scale, oc, false);
            for (int64_t c = 0; c < oc; ++c) {
                if (quant_.oscale.given) post[c] = os[quant_.oscale.per_channel ? c : 0];
                pre[c] = (quant_.src_scale.given ? ss[0] : 1.f)
                        * (quant_.wei_scale.given ? ws[quant_.wei_scale.per_channel ? c : 0] : 1.f);
            }
            const prim::impl::ref_acc_stage stage {pre.data(), post.data()};
            compute_reference(src.data(), ref_.data(), &stage);
        }
        ref_done_ = true;
    }
    return ref_;
}

bound_primitive weighted_case::bind(std::shared_ptr<prim::primitive> p,
                                    const prim::primitive_desc_base &pd, double create_ms) const {
    bound_primitive b;
    b.prim = std::move(p);
    b.create_ms = create_ms;
    b.impl = pd.impl_name();
    b.args[prim::PRIM_ARG_SRC] = from_plain(src_, src_dims_, pd.src_desc());
    b.args[prim::PRIM_ARG_WEIGHTS] = from_plain(wei_, wei_dims_, pd.weights_desc());
    if (with_bias_)
        b.args[prim::PRIM_ARG_BIAS] = from_plain(
                bias_, {static_cast<int64_t>(bias_.size())}, pd.bias_desc());
    b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, dst_dims_, pd.dst_desc());
    bind_operands(pd, b.args);
    // The quantization values, as the reference uses them.
    bind_quant_values(quant_, static_cast<int64_t>(bias_.size()), src_dims_[1], b.args);
    return b;
}

} // namespace bdl
