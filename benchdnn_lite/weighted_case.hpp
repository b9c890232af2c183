// What the convolution and inner-product cases share: src, weights, an optional bias and
// dst_old in plain buffers filled for exact results, and their binding to a created primitive
// in the layouts it chose.
#pragma once
#include "problem_case.hpp"
#include "quant_spec.hpp"
#include "ref/ref_kernels.hpp"

namespace bdl {

class weighted_case : public problem_case {
public:
    // The reference without post-ops (acc + bias), computed once by compute_reference.
    const std::vector<float> &ref_base() override;

protected:
    // The reference kernel on the plain buffers (src: src_, or int8 less its zero points); dst
    // holds dst_old on entry; stage: the int8 scales and bias (null for f32).
    virtual void compute_reference(const float *src, float *dst,
                                   const prim::impl::ref_acc_stage *stage) const = 0;

    explicit weighted_case(const settings &s);

    // int8 (doc/int8.md): the destination's type, the reference's last step (dst scale, zero
    // point, rounding and saturation), attr with the case's quantization.
    prim::memory::data_type dst_type() const override { return quant_.types.dst; }
    std::string data_types() const override { return quant_.types.int8() ? quant_.types.str() : ""; }
    // src, weights, bias: for --cmp=onednn's int8 side, which takes the case's own data.
    std::vector<float> input(int arg) const override;
    void finish_reference(std::vector<float> &ref) const override;
    prim::primitive_attr with_quantization(const prim::primitive_attr &attr) const;
    // The last int8 step on ref (plain, dims dst_dims_): x / scale + zp[oc], rounded half to
    // even and saturated to type when it is an integer type (finish_reference's, with the
    // convolution's own dst scale, zero point and type).
    void quantize(std::vector<float> &ref, const quant_param &scale, const quant_param &zp,
                  prim::memory::data_type type) const;
    // The values of q's scales and zero points (quant_values) as the primitive reads them at
    // execute, into args: oc output channels, ic input channels (src zero points).
    static void bind_quant_values(const quant_spec &q, int64_t oc, int64_t ic, prim::exec_args &args);

    // Once src_dims_, wei_dims_ and dst_dims_ are set: checks the memory budget (desc names the
    // case), then allocates and fills the buffers. reduction is the number of products summed
    // into one output, which sets the weights' density so the sums stay exact in f32.
    void allocate_and_fill(int64_t oc, int64_t reduction, const std::string &desc);

    // The user-side descriptors: --stag/--wtag/--dtag, plain bias (or none), the direction.
    struct user_descs {
        prim::memory::desc src, wei, bias, dst;
        prim::prop_kind prop;
    };
    user_descs make_user_descs() const;

    // The primitive with its arguments: inputs reordered from the plain data into the layouts
    // pd reports, dst holding dst_old, the chain's operands (operands.hpp). create_ms: what
    // creating pd and p took (create_timed).
    bound_primitive bind(std::shared_ptr<prim::primitive> p,
                         const prim::primitive_desc_base &pd, double create_ms) const;

    settings s_;
    quant_spec quant_;
    bool with_bias_;
    bool grouped_ = false; // conv: weights (g, oc/g, ic/g, ...)
    prim::memory::dims src_dims_, wei_dims_;
    std::vector<float> src_, wei_, bias_;

private:
    std::vector<float> ref_;
    bool ref_done_ = false;
};

} // namespace bdl
