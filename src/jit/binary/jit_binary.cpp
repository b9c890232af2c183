// The JIT binary primitive: one eltwise pass (identity, then binary(alg, src1), then the user's
// chain; binary_chain.hpp), so src1 is read in registers like any binary post-op operand. src0,
// src1 and dst may each be f32, s32, s8 or u8 (without scales: those run the int8 loop).
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
        pass_->execute(args.src, args.dst, binary_chain_args(args), args.runtime_params);
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
    // Each of src0, src1 and dst of any of the four types: the pass converts them in registers.
    PRIM_DISPATCH(why_not, !req.attr.get_quantization().any(),
                  "src0 or src1 scales (the int8 loop or the reference applies them)");
    PRIM_DISPATCH(why_not, retyped(req.src0, req.dst.get_data_type()) == req.dst,
                  "src0 and dst layouts differ");
    PRIM_DISPATCH(why_not, req.dst.nelems_padded() == eltwise_problem {req.prb.src0}.nelems(),
                  "padded layout");
    auto pass = jit::eltwise_pass::create(kernel_isa, algorithm::eltwise_identity, 0.f, 0.f,
                                          binary_as_chain(req), req.dst,
                                          binary_chain_operands(req), why_not,
                                          req.src0.get_data_type());
    if (!pass) return nullptr;
    return std::make_unique<jit_binary>(kernel_isa, req, std::move(pass));
}

} // namespace impl
} // namespace prim
