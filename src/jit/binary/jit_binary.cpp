// The JIT binary primitive: one eltwise pass (identity, then binary(alg, src1), then the user's
// chain; binary_chain.hpp), so src1 is read in registers like any binary post-op operand. src0,
// src1 and dst may each be f32, s32, s8 or u8, src0 and src1 with a scale each.
#include "common/binary_chain.hpp"
#include "common/plain_layout.hpp"
#include "jit/eltwise/eltwise_pass.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/binary/jit_binary.hpp"

namespace prim {
namespace impl {
namespace {

class jit_binary : public primitive_impl {
public:
    jit_binary(cpu_isa isa, const binary_request &req, std::unique_ptr<jit::eltwise_pass> pass)
        : primitive_impl(binary_layouts(req)), isa_(isa), pass_(std::move(pass)) {}

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        jit::eltwise_scales scales;
        if (args.quant.src_scales) scales.src = args.quant.src_scales[0];
        if (args.quant.src1_scales) scales.first_operand = args.quant.src1_scales[0];
        pass_->execute(args.src, args.dst, binary_chain_args(args), args.runtime_params, scales);
    }

private:
    cpu_isa isa_;
    std::unique_ptr<jit::eltwise_pass> pass_;
};

} // namespace

std::unique_ptr<primitive_impl> create_jit_binary(const binary_request &req, cpu_isa isa,
                                                  std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;
    // Each of src0, src1 and dst of any of the four types: the pass converts them in registers,
    // and multiplies src0 and src1 by their scales as it loads them (binary creation checked
    // that these are the only quantization, one value each).
    PRIM_DISPATCH(why_not, retyped(req.src0, req.dst.get_data_type()) == req.dst,
                  "src0 and dst layouts differ");
    PRIM_DISPATCH(why_not, req.dst.nelems_padded() == eltwise_problem {req.prb.src0}.nelems(),
                  "padded layout");
    const quantization &q = req.attr.get_quantization();
    jit::eltwise_pass_options opts;
    opts.src_dt = req.src0.get_data_type();
    opts.scale_src = q.src_scale_mask >= 0;
    opts.scale_first_operand = q.src1_scale_mask >= 0;
    auto pass = jit::eltwise_pass::create(kernel_isa, algorithm::eltwise_identity, 0.f, 0.f,
                                          binary_as_chain(req), req.dst,
                                          binary_chain_operands(req), why_not, opts);
    if (!pass) return nullptr;
    return std::make_unique<jit_binary>(kernel_isa, req, std::move(pass));
}

} // namespace impl
} // namespace prim
