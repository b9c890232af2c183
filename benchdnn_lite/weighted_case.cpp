#include "weighted_case.hpp"

#include "fill.hpp"
#include "operands.hpp"
#include "tags.hpp"

namespace bdl {

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
}

weighted_case::user_descs weighted_case::make_user_descs() const {
    const int64_t oc = static_cast<int64_t>(bias_.size());
    return {user_desc(src_dims_, s_.stag, s_.strides, 0, 3, "--stag"),
            user_desc(wei_dims_, s_.wtag, s_.strides, 1, 3, "--wtag"),
            with_bias_ ? plain_desc({oc}) : prim::memory::desc(),
            user_desc(dst_dims_, s_.dtag, s_.strides, 2, 3, "--dtag"),
            s_.dir == direction::fwd_i ? prim::prop_kind::forward_inference
                                       : prim::prop_kind::forward_training};
}

const std::vector<float> &weighted_case::ref_base() {
    if (!ref_done_) {
        ref_ = dst_old_;
        compute_reference(ref_.data());
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
    return b;
}

} // namespace bdl
