// The JIT eltwise primitive: one eltwise pass (eltwise_pass.hpp) over src and dst in the same
// dense layout, each of f32, s32, s8 or u8.
#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "jit/eltwise/eltwise_pass.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/eltwise/jit_eltwise.hpp"

namespace prim {
namespace impl {
namespace {

class jit_eltwise : public primitive_impl {
public:
    jit_eltwise(cpu_isa isa, const memory::desc &src, const memory::desc &dst,
                std::unique_ptr<jit::eltwise_pass> pass)
        : primitive_impl({src, {}, {}, dst}), isa_(isa), pass_(std::move(pass)) {}

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        pass_->execute(args.src, args.dst, args.post_op, args.runtime_params);
    }

private:
    cpu_isa isa_;
    std::unique_ptr<jit::eltwise_pass> pass_;
};

} // namespace

std::unique_ptr<primitive_impl> create_jit_eltwise(const eltwise_request &req, cpu_isa isa,
                                                   std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;

    // 'any' takes the other one's layout (each keeps its type), or plain when both are 'any'.
    const memory::data_type src_dt = req.src.get_data_type(), dst_dt = req.dst.get_data_type();
    memory::desc src = req.src, dst = req.dst;
    if (src.is_any() && dst.is_any()) src = plain_desc(req.prb.dims, src_dt);
    if (src.is_any()) src = retyped(dst, src_dt);
    if (dst.is_any()) dst = retyped(src, dst_dt);
    PRIM_DISPATCH(why_not, retyped(src, dst_dt) == dst, "src and dst layouts differ");
    PRIM_DISPATCH(why_not, src.nelems_padded() == req.prb.nelems(), "padded layout");

    const post_ops &chain = req.attr.get_post_ops();
    auto pass = jit::eltwise_pass::create(kernel_isa, req.alg, req.alpha, req.beta, chain, dst,
                                          operand_descs(chain, dst), why_not, {src_dt});
    if (!pass) return nullptr;
    return std::make_unique<jit_eltwise>(kernel_isa, src, dst, std::move(pass));
}

} // namespace impl
} // namespace prim
