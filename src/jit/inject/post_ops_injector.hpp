// The post-ops injector: emits, inside a host kernel, the code that applies a whole post-ops
// chain to accumulators that are already in vector registers, so nothing goes to memory between
// the primitive's computation and its store.
//
// How a host kernel (a jit_generator subclass, templated on the ISA) uses it:
//
//   // 1. At creation: can the injector take the chain on this ISA? One reason, worded one way.
//   const std::string reason = post_ops_injector<isa>::why_not(chain);
//   PRIM_DISPATCH(why_not, reason.empty(), reason);
//   // Before generating code: how many spare vector registers the chain needs.
//   int n_aux = post_ops_injector<isa>::aux_vecs_count(chain);
//   // The host picks its register blocking so that n_aux registers stay outside the
//   // accumulators (see the register contract below).
//
//   // 2. In generate(): build the injector, then emit the chain where the accumulators are final.
//   post_ops_injector<isa> inj(*this, chain, [&](const sum_args &s) {
//       // acc += scale * dst_old, dst_old loaded with the same tail mask as the store:
//       Vmm old(s.aux_idx);
//       tail ? mask.load(old, dst_addr_of(s.acc_idx)) : vmovups(old, dst_addr_of(s.acc_idx));
//       if (s.scale == 1.f) vaddps(Vmm(s.acc_idx), Vmm(s.acc_idx), old);
//       else vfmadd231ps(Vmm(s.acc_idx), old, s.scale_vec);
//   });
//   load_table_address(reg_table);        // once, anywhere before compute()
//   ... FMAs ...
//   inj.compute({acc_indices, spare_indices, post_ops_injector<isa>::opmasks(), reg_table});
//   ... stores ...
//
// Semantics (doc/reference.md §1): entries run in order; eltwise: x = scale * f(x; alpha, beta),
// scale applied once after the algorithm and skipped when 1; sum: the host's callback, called
// at the sum's place in the chain, once per accumulator; binary and prelu: the host's operand
// callback loads the operand's values for one accumulator's lanes into a spare register (the
// host knows its addressing: operand_access.hpp names the four kinds), the injector applies the
// entry. Chains may be of any length and order
// with any number of sums. NaN in gives NaN out for every algorithm; MXCSR is never written
// (rounding uses vroundps / vrndscaleps with an explicit rounding mode).
//
// Register contract (the one statement of it; hosts follow it, they do not restate it):
// - Vector registers: the host lends at least aux_vecs_count(chain) spares outside the
//   accumulators. They are borrowed only while the chain runs, i.e. after the FMAs are done, so
//   the registers that held weights or broadcast inputs during the FMAs are fine. If they do
//   not fit the host's blocking, it uses a smaller block or declines; it never spills silently.
//   Lending more lets the injector interleave several accumulators' code (op_sink.hpp).
// - Opmasks (AVX-512): k0 cannot be a write mask; k1 is the host's, for its tail mask, live for
//   the whole kernel (host_tail_opmask); k2..k7 are the injector's, and every host lends all of
//   them (opmasks()). why_not() declines a chain that would need more.
// - The injector writes only the accumulators and the spares it is lent; it reads reg_table;
//   it touches no general register and no memory other than the constant table. Each
//   algorithm's needs are in its row of eltwise_emitter.cpp (find_row()).
//
// Constants (alphas, betas, scales, polynomial coefficients) go into the host's constant table
// (jit_generator::table()), as 32-bit patterns broadcast to a full vector, after the code.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <xbyak/xbyak.h>

#include "jit/gen/isa_traits.hpp"
#include "jit/gen/jit_generator.hpp"
#include "jit/inject/value_range.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace jit {

// What the host's sum callback gets, once per accumulator at each sum entry.
struct sum_args {
    int acc_idx;               // accumulator to update in place: acc += scale * dst_old
    int aux_idx;               // a spare vector register the callback may clobber (for dst_old)
    float scale;               // the sum's scale; 1 means a plain add
    Xbyak::Address scale_vec;  // `scale` broadcast to a full vector, in the constant table
    int entry = -1;            // the sum's index in the chain (its zero point and data type)
};
using sum_callback = std::function<void(const sum_args &)>;

// What the host's operand callback gets, once per accumulator at each binary or prelu entry:
// load into Vmm(aux_idx) the entry's operand values for acc_idx's lanes (with the store's tail
// mask where the store has one; masked-off lanes may hold anything).
struct operand_args {
    int entry;   // the entry's index in the chain (its operand is exec_ptrs::post_op[entry])
    int acc_idx; // the accumulator the values are for
    int aux_idx; // the spare register to load them into
    bool first;  // first call of this entry in this compute(): a host may set up an address
                 // register here and keep it for the entry's other accumulators
};
using operand_callback = std::function<void(const operand_args &)>;
// Optional: which accumulators read the same operand values. Equal keys >= 0 for the same entry
// mean equal values (a per-channel operand for every pixel of a channel block), so the injector
// loads them once and keeps them in a spare while the spares allow; -1: values of their own.
using operand_key_callback = std::function<int(int entry, int acc_idx)>;

// The opmask split of the register contract above (AVX-512).
constexpr int host_tail_opmask = 1;      // k1: the host's tail mask
constexpr int injector_first_opmask = 2; // k2..k7: the injector's
constexpr int injector_last_opmask = 7;

// The registers the host lends to compute().
struct injector_regs {
    std::vector<int> acc;      // accumulator vector indices, transformed in place (any number)
    std::vector<int> aux;      // spare vector indices, at least aux_vecs_count(), none in acc
    std::vector<int> opmasks;  // AVX-512: a host lends opmasks() (compute() accepts any of k1..k7)
    Xbyak::Reg64 reg_table;    // holds the address of the host's constant table
};

template <cpu_isa isa>
class post_ops_injector {
public:
    using Vmm = typename isa_traits<isa>::Vmm;

    // host: the kernel being generated (its constant table receives the injector's constants).
    // chain: copied. sum / operand: required when the chain has a sum / a binary or prelu entry
    // (else prim::error(invalid_arguments)). Throws prim::error(unimplemented) with
    // why_not(chain) when that is not empty.
    post_ops_injector(jit_generator &host, const post_ops &chain, sum_callback sum = nullptr,
                      operand_callback operand = nullptr, operand_key_callback operand_key = nullptr);

    // "" when the injector can emit the chain on this ISA, else why not, worded the same for
    // every host: "post-op soft_relu has no JIT emitter", "post-op log needs 8 opmasks, the
    // injector may use 6". The reason for a chain is that of its first entry refused.
    static std::string why_not(const post_ops &chain);
    static std::string why_not(const post_ops::entry &e);

    // The opmasks every host lends: the injector's k2..k7 on AVX-512, none on AVX2.
    static std::vector<int> opmasks();

    // Spare vector registers the chain needs: the maximum over its entries, at least 1 when it
    // has a sum (the callback's aux_idx). 0 for an empty chain. Static: call before generating.
    static int aux_vecs_count(const post_ops &chain);
    // The spares with which the chain runs fastest: twice aux_vecs_count(chain) where an eltwise
    // entry is a long dependent sequence (eltwise_emitter::is_long_sequence: exp, log, tanh,
    // general pow), so that emit_eltwise interleaves two accumulators' code;
    // aux_vecs_count(chain) otherwise.
    // A host with registers to spare (AVX-512's 32) lends them: on Zen 4, a 1x1 convolution
    // with swish, gelu_erf or the 8-entry chain ran 4-13% faster with 2 accumulators fewer.
    static int interleaved_aux_vecs_count(const post_ops &chain);
    // Spare opmask registers (AVX-512; always 0 on AVX2); why_not() checks they fit opmasks().
    static int aux_opmasks_count(const post_ops &chain);
    // The same for a single eltwise algorithm with its parameters.
    // scale: the entry's (eltwise_emitter::keeps_tiny takes more registers for some algorithms).
    static int aux_vecs_count(algorithm alg, float alpha, float beta, float scale = 1.f);
    static int aux_opmasks_count(algorithm alg, float alpha, float beta, float scale = 1.f);

    // Emits the whole chain over regs.acc (entry by entry, each over every accumulator).
    // Throws prim::error(invalid_arguments) if regs lends too few spares or they overlap acc.
    void compute(const injector_regs &regs);

private:
    // Accumulators whose code is interleaved at most (op_sink.hpp).
    static constexpr size_t max_streams = 4;
    // in: what is known of the accumulators' values before the entry (value_range.hpp).
    void emit_eltwise(const post_ops::entry &e, const value_range &in, const injector_regs &regs);
    void emit_with_operand(int index, const injector_regs &regs);
    // acc = acc op b for one binary or prelu entry; b holds the operand's values.
    void apply_operand(const post_ops::entry &e, const Vmm &acc, const Vmm &b,
                       const injector_regs &regs);

    jit_generator &host_;
    post_ops chain_;
    sum_callback sum_;
    operand_callback operand_;
    operand_key_callback operand_key_;
};

extern template class post_ops_injector<cpu_isa::avx2>;
extern template class post_ops_injector<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
