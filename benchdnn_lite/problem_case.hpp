// One descriptor under the current options (for eltwise: and one algorithm): its data, its
// reference result before post-ops, and how to create and bind its primitive through the public
// API exactly as a user would. The drivers (conv/, ip/, eltwise/) implement it; run_case.cpp
// runs it once per post-ops chain.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "perf.hpp"
#include "prim/prim.hpp"
#include "settings.hpp"

namespace bdl {

// A primitive with its arguments, ready to execute.
struct bound_primitive {
    std::shared_ptr<prim::primitive> prim;
    prim::exec_args args;
    std::string impl; // primitive_desc::impl_name()
    double create_ms = 0; // the primitive_desc and the primitive (create_timed), nothing else


    void execute() const { prim->execute(args); }
    const prim::memory &dst() const { return args.at(prim::PRIM_ARG_DST); }
};

// The primitive P of d and attr with its primitive_desc, built under a stopwatch: ms is what a
// user's creation costs (the primitive_desc and the primitive), none of the driver's set-up
// (buffers, fills, reorders into the chosen layouts), which -v2 reports apart as setup=.
template <typename P>
struct timed_creation {
    typename P::primitive_desc pd;
    std::shared_ptr<P> prim;
    double ms;
};
template <typename P>
timed_creation<P> create_timed(const typename P::desc &d, const prim::primitive_attr &attr) {
    const double t0 = now_ms();
    typename P::primitive_desc pd(d, attr);
    std::shared_ptr<P> p = std::make_shared<P>(pd);
    const double ms = now_ms() - t0;
    return {std::move(pd), std::move(p), ms};
}

class problem_case {
public:
    virtual ~problem_case() = default;

    // The descriptor of doc/reference.md §3, canonical form.
    virtual std::string desc() const = 0;
    // Extra REPRO options of this case (eltwise: "--alg=... "), each followed by a space.
    virtual std::string repro_options() const { return ""; }
    // Creates the primitive with attr and binds its arguments: inputs reordered from the plain
    // data into the layouts the primitive chose, dst holding dst_old, the operands of the chain's
    // binary and prelu entries (operands.hpp). Throws prim::error.
    virtual bound_primitive create(const prim::primitive_attr &attr) const = 0;
    // The reference result before post-ops (plain dst layout), computed once and kept.
    virtual const std::vector<float> &ref_base() = 0;
    // The accuracy budget of the primitive itself (eltwise: its algorithm), before post-ops; for
    // an integer destination, in its units beyond the contract's +-1.
    virtual double base_tolerance() const { return 0; }
    // The part of the chain the driver applies to ref_base() element by element: the whole
    // chain, except for a case whose reference runs part of it itself (a dw post-op: ref_base()
    // holds the depthwise output, the entries up to the dw included already in it).
    virtual prim::post_ops elementwise_chain(const prim::post_ops &po) const { return po; }
    // The unfused pipeline of a case whose chain does not split into the primitive and eltwise
    // passes (a dw post-op: two convolutions, each with its part of the chain), its steps in
    // order, the last one writing the result; empty for every other case (unfused.hpp).
    virtual std::vector<bound_primitive> unfused_steps(const prim::post_ops &po) const {
        (void)po;
        return {};
    }
    // Whether an int8 case has an unfused pipeline: its own steps, each quantized (a dw post-op's
    // two int8 convolutions); the eltwise passes of the others are f32 only.
    virtual bool int8_unfused() const { return false; }
    // For perf lines: FLOPs (conv, ip) or bytes read + written (eltwise) per execution.
    virtual double work(const prim::post_ops &po) const = 0;

    // The plain data of input `arg` (PRIM_ARG_SRC_1, PRIM_ARG_MEAN, ...), for --cmp=onednn to give
    // oneDNN the same data; empty when the case has no such input or does not say (the drivers
    // whose data oneDNN's side regenerates from fill.hpp).
    virtual std::vector<float> input(int arg) const { (void)arg; return {}; }

    // int8 cases (doc/int8.md): the destination's type (f32 otherwise), and the reference's
    // last step after the chain (dst scale, zero point, rounding and saturation).
    virtual prim::memory::data_type dst_type() const { return prim::memory::data_type::f32; }
    // "u8:s8:u8" for an int8 case, "" for f32.
    virtual std::string data_types() const { return ""; }
    virtual void finish_reference(std::vector<float> &ref) const { (void)ref; }

    const std::vector<float> &dst_old() const { return dst_old_; }
    const prim::memory::dims &dst_dims() const { return dst_dims_; }

protected:
    std::vector<float> dst_old_;
    prim::memory::dims dst_dims_;
};

// A memory in layout `target` (any other than 'any') holding the plain data.
prim::memory from_plain(const std::vector<float> &data, const prim::memory::dims &dims,
                        const prim::memory::desc &target);
// The contents of m in the plain layout of dims.
std::vector<float> to_plain(const prim::memory &m, const prim::memory::dims &dims);
// Product of dims; in double for size estimates that must not overflow.
int64_t volume(const prim::memory::dims &dims);
double volume_f(const prim::memory::dims &dims);
// A vector of n elements (at least one, so its data pointer is never null).
std::vector<float> buffer(int64_t n);
// Refuses problems whose buffers would not fit comfortably in memory (throws unimplemented).
void check_memory_budget(double bytes, const std::string &desc);

} // namespace bdl
