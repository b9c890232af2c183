// Interleaving the code of independent vectors. The eltwise emitters write one vector's
// instructions as one dependent chain (exp is about 15 instructions, 45 cycles deep), and a chain
// per accumulator in program order leaves the CPU's schedulers full of instructions that wait:
// measured here, about one instruction per cycle. Emitting two to four accumulators' chains
// instruction by instruction in turn gives the scheduler independent work at every step.
//
// op_sink stands where the emitters used the generator: each instruction either goes straight
// to the generator, or, while a stream is being recorded, is kept as a closure. interleave()
// then replays the recorded streams one instruction from each in turn. The streams must use
// disjoint registers (the injector gives each its own spares and opmasks); the constant table
// is shared, its entries are created at recording time.
#pragma once
#include <algorithm>
#include <functional>
#include <type_traits>
#include <vector>

#include "jit/gen/jit_generator.hpp"

namespace prim {
namespace jit {

using op_list = std::vector<std::function<void(jit_generator &)>>;

class op_sink {
public:
    explicit op_sink(jit_generator &gen) : gen_(gen) {}

    // From now on instructions go to *ops (nullptr: straight to the generator again).
    void record_into(op_list *ops) { ops_ = ops; }
    const_table &table() { return gen_.table(); }

    // One instruction from each stream in turn, until all are emitted.
    static void interleave(jit_generator &gen, const std::vector<op_list> &streams) {
        size_t longest = 0;
        for (const op_list &s : streams) longest = std::max(longest, s.size());
        for (size_t i = 0; i < longest; ++i)
            for (const op_list &s : streams)
                if (i < s.size()) s[i](gen);
    }

    // The instructions the emitters use, each forwarded with its operands copied.
#define PRIM_OP_SINK_FORWARD(op)                                                               \
    template <class... Args>                                                                   \
    void op(const Args &... args) {                                                            \
        static_assert(!(std::is_same_v<Args, Xbyak::Operand> || ...),                          \
                      "pass a Vmm or an Address: a copied Xbyak::Operand loses its type");    \
        if (ops_)                                                                              \
            ops_->emplace_back([=](jit_generator &g) { g.op(args...); });                      \
        else                                                                                   \
            gen_.op(args...);                                                                  \
    }
    PRIM_OP_SINK_FORWARD(vaddps)
    PRIM_OP_SINK_FORWARD(vandnps)
    PRIM_OP_SINK_FORWARD(vandps)
    PRIM_OP_SINK_FORWARD(vblendmps)
    PRIM_OP_SINK_FORWARD(vbroadcastss)
    PRIM_OP_SINK_FORWARD(vblendvps)
    PRIM_OP_SINK_FORWARD(vcmpps)
    PRIM_OP_SINK_FORWARD(vcvtdq2ps)
    PRIM_OP_SINK_FORWARD(vcvtps2dq)
    PRIM_OP_SINK_FORWARD(vdivps)
    PRIM_OP_SINK_FORWARD(vfmadd132ps)
    PRIM_OP_SINK_FORWARD(vfmadd213ps)
    PRIM_OP_SINK_FORWARD(vfmadd231ps)
    PRIM_OP_SINK_FORWARD(vfmsub231ps)
    PRIM_OP_SINK_FORWARD(vfnmadd213ps)
    PRIM_OP_SINK_FORWARD(vfnmadd231ps)
    PRIM_OP_SINK_FORWARD(vfixupimmps)
    PRIM_OP_SINK_FORWARD(vgetexpps)
    PRIM_OP_SINK_FORWARD(vgetmantps)
    PRIM_OP_SINK_FORWARD(vmaxps)
    PRIM_OP_SINK_FORWARD(vminps)
    PRIM_OP_SINK_FORWARD(vmovaps)
    PRIM_OP_SINK_FORWARD(vmovups)
    PRIM_OP_SINK_FORWARD(vmulps)
    PRIM_OP_SINK_FORWARD(vorps)
    PRIM_OP_SINK_FORWARD(vpaddd)
    PRIM_OP_SINK_FORWARD(vpslld)
    PRIM_OP_SINK_FORWARD(vpsrad)
    PRIM_OP_SINK_FORWARD(vpsubd)
    PRIM_OP_SINK_FORWARD(vrndscaleps)
    PRIM_OP_SINK_FORWARD(vroundps)
    PRIM_OP_SINK_FORWARD(vscalefps)
    PRIM_OP_SINK_FORWARD(vsqrtps)
    PRIM_OP_SINK_FORWARD(vsubps)
    PRIM_OP_SINK_FORWARD(vxorps)
#undef PRIM_OP_SINK_FORWARD

private:
    jit_generator &gen_;
    op_list *ops_ = nullptr;
};

} // namespace jit
} // namespace prim
