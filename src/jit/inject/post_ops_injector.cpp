// Whether the injector takes a chain (why_not), and walking the chain: entry by entry, each over
// every accumulator. Each eltwise entry is one eltwise_emitter followed by the entry's scale;
// each sum is the host's callback; each binary or prelu entry is the host's operand load and
// one to three instructions.
#include <algorithm>
#include <string>

#include "jit/inject/eltwise_emitter.hpp"
#include "jit/inject/op_sink.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "prim/error.hpp"

namespace prim {
namespace jit {

template <cpu_isa isa>
post_ops_injector<isa>::post_ops_injector(jit_generator &host, const post_ops &chain,
                                          sum_callback sum, operand_callback operand,
                                          operand_key_callback operand_key)
    : host_(host), chain_(chain), sum_(std::move(sum)), operand_(std::move(operand)),
      operand_key_(std::move(operand_key)) {
    const std::string reason = why_not(chain_);
    if (!reason.empty()) throw error(status::unimplemented, "post_ops_injector: " + reason);
    if (chain_.has_sum() && !sum_)
        throw error(status::invalid_arguments,
                    "post_ops_injector: the chain has a sum but the host gave no sum callback");
    if (chain_.has_operands() && !operand_)
        throw error(status::invalid_arguments, "post_ops_injector: the chain has a binary or "
                                               "prelu entry but the host gave no operand callback");
}

template <cpu_isa isa>
std::string post_ops_injector<isa>::why_not(const post_ops &chain) {
    for (const post_ops::entry &e : chain.entries()) {
        const std::string reason = why_not(e);
        if (!reason.empty()) return reason;
    }
    return "";
}

// A chain's opmask need is the largest of its entries' (aux_opmasks_count), so checking each
// entry against the injector's opmasks checks the chain.
template <cpu_isa isa>
std::string post_ops_injector<isa>::why_not(const post_ops::entry &e) {
    if (e.kind != post_ops::kind::eltwise) return ""; // sum, binary, prelu: every ISA
    const char *name = algorithm_name(e.alg);
    const std::string what = std::string("post-op ")
            + (name ? name : "#" + std::to_string(static_cast<int>(e.alg)));
    if (!eltwise_emitter<isa>::is_supported(e.alg)) return what + " has no JIT emitter";
    if (!eltwise_emitter<isa>::takes_runtime_params(e.alg, e.alpha, e.beta))
        return what + " takes alpha and beta as constants only on the JIT (runtime given)";
    const int needed = aux_opmasks_count(e.alg, e.alpha, e.beta, e.scale);
    const int allowed = static_cast<int>(opmasks().size());
    if (needed > allowed)
        return what + " needs " + std::to_string(needed) + " opmasks, the injector may use "
               + std::to_string(allowed);
    return "";
}

template <cpu_isa isa>
std::vector<int> post_ops_injector<isa>::opmasks() {
    std::vector<int> ks;
    if (isa_traits<isa>::has_opmask)
        for (int k = injector_first_opmask; k <= injector_last_opmask; ++k) ks.push_back(k);
    return ks;
}

template <cpu_isa isa>
int post_ops_injector<isa>::aux_vecs_count(algorithm alg, float alpha, float beta, float scale) {
    return eltwise_emitter<isa>::aux_vecs_count(alg, alpha, beta, scale);
}

template <cpu_isa isa>
int post_ops_injector<isa>::aux_opmasks_count(algorithm alg, float alpha, float beta, float scale) {
    return eltwise_emitter<isa>::aux_opmasks_count(alg, alpha, beta, scale);
}

template <cpu_isa isa>
int post_ops_injector<isa>::aux_vecs_count(const post_ops &chain) {
    // sum, binary and prelu need one: dst_old or the operand.
    int n = 0;
    for (const post_ops::entry &e : chain.entries())
        n = std::max(n, e.kind == post_ops::kind::eltwise ? aux_vecs_count(e.alg, e.alpha, e.beta, e.scale) : 1);
    return n;
}

template <cpu_isa isa>
int post_ops_injector<isa>::interleaved_aux_vecs_count(const post_ops &chain) {
    const int n = aux_vecs_count(chain);
    for (const post_ops::entry &e : chain.entries())
        if (e.kind == post_ops::kind::eltwise && eltwise_emitter<isa>::is_long_sequence(e.alg, e.alpha, e.beta))
            return 2 * n;
    return n;
}

template <cpu_isa isa>
int post_ops_injector<isa>::aux_opmasks_count(const post_ops &chain) {
    int n = 0;
    for (const post_ops::entry &e : chain.entries())
        if (e.kind == post_ops::kind::eltwise)
            n = std::max(n, aux_opmasks_count(e.alg, e.alpha, e.beta, e.scale));
        else if (e.kind != post_ops::kind::sum && isa_traits<isa>::has_opmask)
            n = std::max(n, 1); // a comparison's or prelu's lane selection
    return n;
}

template <cpu_isa isa>
void post_ops_injector<isa>::compute(const injector_regs &regs) {
    if (static_cast<int>(regs.aux.size()) < aux_vecs_count(chain_)
            || static_cast<int>(regs.opmasks.size()) < aux_opmasks_count(chain_))
        throw error(status::invalid_arguments,
                    "post_ops_injector: the host lent " + std::to_string(regs.aux.size())
                            + " spare vectors and " + std::to_string(regs.opmasks.size())
                            + " opmasks, the chain needs " + std::to_string(aux_vecs_count(chain_))
                            + " and " + std::to_string(aux_opmasks_count(chain_)));
    for (int a : regs.aux)
        if (std::find(regs.acc.begin(), regs.acc.end(), a) != regs.acc.end())
            throw error(status::invalid_arguments,
                        "post_ops_injector: spare vector " + std::to_string(a) + " is also an accumulator");
    for (int k : regs.opmasks)
        if (k < 1 || k > 7)
            throw error(status::invalid_arguments, "post_ops_injector: opmask k" + std::to_string(k)
                                                   + " is not one of k1..k7");

    // What is known of the accumulators' values before each entry: nothing at first.
    value_range range;
    for (int i = 0; i < chain_.len(); ++i) {
        const post_ops::entry &e = chain_.entries()[i];
        switch (e.kind) {
        case post_ops::kind::sum: {
            const Xbyak::Address scale_vec = host_.table().at(regs.reg_table, e.scale);
            for (int acc : regs.acc)
                sum_(sum_args{acc, regs.aux[0], e.scale, scale_vec, i});
            break;
        }
        case post_ops::kind::eltwise: emit_eltwise(e, range, regs); break;
        case post_ops::kind::binary:
        case post_ops::kind::prelu: emit_with_operand(i, regs); break;
        case post_ops::kind::dw: // choose_impl offers dw chains to the reference only
            throw error(status::runtime_error, "post_ops_injector: a chain with a dw entry");
        }
        range = value_range_after(e, range);
    }
}

// As many operand loads in a row as there are spares, then their operations: the loads of a
// group are in flight together instead of each waiting for the previous operation. Values the
// host says are shared (operand_key_) stay in their spare and are not loaded again while no later
// load needs that spare.
template <cpu_isa isa>
void post_ops_injector<isa>::emit_with_operand(int index, const injector_regs &regs) {
    const post_ops::entry &e = chain_.entries()[index];
    // AVX2's prelu overwrites the spare with the product, so its values cannot be kept.
    const bool keep = operand_key_ && (isa_traits<isa>::has_opmask || e.kind != post_ops::kind::prelu);
    const size_t n_spares = regs.aux.size();
    std::vector<int> held(n_spares, -1); // the key of the values each spare holds, -1: none
    size_t next_spare = 0;
    bool first_load = true;
    for (size_t first = 0; first < regs.acc.size(); first += n_spares) {
        const size_t count = std::min(n_spares, regs.acc.size() - first);
        std::vector<size_t> spare_of(count);
        std::vector<bool> in_group(n_spares, false);
        for (size_t s = 0; s < count; ++s) {
            const int acc = regs.acc[first + s];
            const int key = keep ? operand_key_(index, acc) : -1;
            const auto hit = std::find(held.begin(), held.end(), key);
            if (key >= 0 && hit != held.end()) {
                spare_of[s] = static_cast<size_t>(hit - held.begin());
            } else {
                // The next spare this group does not use yet (there is one: count <= spares).
                while (in_group[next_spare]) next_spare = (next_spare + 1) % n_spares;
                spare_of[s] = next_spare;
                operand_(operand_args{index, acc, regs.aux[next_spare], first_load});
                first_load = false;
                held[next_spare] = key;
                next_spare = (next_spare + 1) % n_spares;
            }
            in_group[spare_of[s]] = true;
        }
        for (size_t s = 0; s < count; ++s)
            apply_operand(e, Vmm(regs.acc[first + s]), Vmm(regs.aux[spare_of[s]]), regs);
    }
}

namespace {
// vcmpps predicates of the comparisons: ordered (false on NaN) except ne, true on NaN, as
// binary_fwd defines them.
uint8_t compare_predicate(algorithm alg) {
    switch (alg) {
    case algorithm::binary_ge: return 0x1D; // _CMP_GE_OQ
    case algorithm::binary_gt: return 0x1E; // _CMP_GT_OQ
    case algorithm::binary_le: return 0x12; // _CMP_LE_OQ
    case algorithm::binary_lt: return 0x11; // _CMP_LT_OQ
    case algorithm::binary_eq: return 0x00; // _CMP_EQ_OQ
    case algorithm::binary_ne: return 0x04; // _CMP_NEQ_UQ
    default: return 0xFF;
    }
}
constexpr uint8_t not_greater_unordered = 0x1A; // _CMP_NGT_UQ: !(a > b), true on NaN
} // namespace

template <cpu_isa isa>
void post_ops_injector<isa>::apply_operand(const post_ops::entry &e, const Vmm &acc, const Vmm &b,
                                           const injector_regs &regs) {
    jit_generator &h = host_;
    constexpr bool avx512 = isa_traits<isa>::has_opmask;
    if (e.kind == post_ops::kind::prelu) {
        // x > 0 ? x : x * slope.
        if constexpr (avx512) {
            const Xbyak::Opmask k(regs.opmasks[0]);
            h.vcmpps(k, acc, h.table().at(regs.reg_table, 0.f), not_greater_unordered);
            h.vmulps(acc | k, acc, b);
        } else {
            // By the sign bit: as the reference except that +0 stays +0 where the reference
            // gives 0 * slope (-0 for a negative slope); -0 and NaN agree.
            h.vmulps(b, b, acc);
            h.vblendvps(acc, acc, b, acc);
        }
        return;
    }
    switch (e.alg) {
    case algorithm::binary_add: h.vaddps(acc, acc, b); return;
    case algorithm::binary_sub: h.vsubps(acc, acc, b); return;
    case algorithm::binary_mul: h.vmulps(acc, acc, b); return;
    case algorithm::binary_div: h.vdivps(acc, acc, b); return;
    case algorithm::binary_max: h.vmaxps(acc, acc, b); return; // acc > b ? acc : b
    case algorithm::binary_min: h.vminps(acc, acc, b); return;
    default: break;
    }
    const uint8_t pred = compare_predicate(e.alg);
    if (pred == 0xFF) throw error(status::runtime_error, "post_ops_injector: unknown binary algorithm");
    if constexpr (avx512) {
        const Xbyak::Opmask k(regs.opmasks[0]);
        h.vcmpps(k, acc, b, pred);
        h.vmovups(acc | k | Xbyak::util::T_z, h.table().at(regs.reg_table, 1.f));
    } else {
        h.vcmpps(acc, acc, b, pred); // all ones where true
        h.vandps(acc, acc, h.table().at(regs.reg_table, 1.f));
    }
}

template <cpu_isa isa>
void post_ops_injector<isa>::emit_eltwise(const post_ops::entry &e, const value_range &in,
                                          const injector_regs &regs) {
    // Up to max_streams accumulators at a time, each with its own spares and opmasks, their
    // instructions interleaved (op_sink.hpp); as many as the lent registers allow.
    const size_t n_aux = aux_vecs_count(e.alg, e.alpha, e.beta, e.scale);
    const size_t n_masks = aux_opmasks_count(e.alg, e.alpha, e.beta, e.scale);
    size_t streams = max_streams;
    if (n_aux > 0) streams = std::min(streams, regs.aux.size() / n_aux);
    if (n_masks > 0) streams = std::min(streams, regs.opmasks.size() / n_masks);
    const auto slice = [](const std::vector<int> &all, size_t i, size_t n) {
        return std::vector<int>(all.begin() + i * n, all.begin() + (i + 1) * n);
    };

    eltwise_emitter<isa> emitter(host_, e.alg, e.alpha, e.beta, in, e.scale);
    op_sink scale_sink(host_);
    for (size_t first = 0; first < regs.acc.size(); first += streams) {
        const size_t count = std::min(streams, regs.acc.size() - first);
        std::vector<op_list> ops(count);
        for (size_t s = 0; s < count; ++s) {
            const int acc = regs.acc[first + s];
            emitter.record_into(&ops[s]);
            emitter.compute(acc, slice(regs.aux, s, n_aux), slice(regs.opmasks, s, n_masks),
                            regs.reg_table);
            if (e.scale != 1.f) {
                scale_sink.record_into(&ops[s]);
                scale_sink.vmulps(Vmm(acc), Vmm(acc), host_.table().at(regs.reg_table, e.scale));
            }
        }
        emitter.record_into(nullptr); // ops is about to go
        scale_sink.record_into(nullptr);
        op_sink::interleave(host_, ops);
    }
}

template class post_ops_injector<cpu_isa::avx2>;
template class post_ops_injector<cpu_isa::avx512>;

} // namespace jit
} // namespace prim
