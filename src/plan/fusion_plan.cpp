// fusion_plan: each add_* checks its operator against what came before (so a refusal comes at
// once, with the reason), compile() creates the one primitive (plan_compile.cpp), execute()
// passes the arguments to it.
#include <cmath>

#include "common/problem.hpp"
#include "common/post_op_operands.hpp"
#include "common/verbose.hpp"
#include "plan/activation_map.hpp"
#include "plan/fusion_plan_state.hpp"
#include "prim/error.hpp"

namespace prim {

using impl::plan_op;
using kind = fusion_op::kind;

namespace {

[[noreturn]] void refuse(const fusion_plan::state &s, const std::string &what,
                         const std::string &why) {
    throw error(status::invalid_arguments, "fusion_plan " + impl::ops_string(s.ops) + ": " + what
                                                   + ": " + why);
}

void check_f32(const fusion_plan::state &s, const std::string &what, const memory::desc &md,
               bool any_allowed) {
    if (md.is_zero()) refuse(s, what, "the desc is empty");
    if (md.get_data_type() != memory::data_type::f32) refuse(s, what, "data type must be f32");
    if (md.is_any() && !any_allowed) refuse(s, what, "the desc needs a layout (not 'any')");
}

// A bias or statistics desc: {C}, or the output's rank with dims 1 x C x 1... (per_pixel: the
// output's spatial dims instead of the 1s).
void check_channel_desc(const fusion_plan::state &s, const std::string &what,
                        const memory::desc &md, bool per_pixel) {
    check_f32(s, what, md, false);
    const memory::dims &o = s.out_dims;
    memory::dims want(o.size(), 1);
    want[1] = o[1];
    for (size_t j = 2; per_pixel && j < o.size(); ++j) want[j] = o[j];
    const memory::dims &d = md.get_dims();
    const bool ok = d == want || (!per_pixel && d == memory::dims {o[1]});
    if (!ok)
        refuse(s, what, "dims " + impl::dims_str(d) + " do not fit the output "
                                + impl::dims_str(o) + ": expected " + impl::dims_str(want)
                                + (per_pixel ? "" : " or " + std::to_string(o[1])));
}

template <typename handle_t>
handle_t push(fusion_plan::state &s, const plan_op &op) {
    s.ops.push_back(op);
    if (s.compiled) s.changed_since_compile = true;
    handle_t h;
    h.index = static_cast<int>(s.ops.size()) - 1;
    h.op_kind = op.kind;
    return h;
}

} // namespace

fusion_plan::fusion_plan(fusion_direction direction, const memory::desc &input)
    : state_(new state) {
    state &s = *state_;
    if (direction != fusion_direction::vertical)
        refuse(s, "direction", "only vertical fusion exists (as in MIOpen)");
    check_f32(s, "input", input, false);
    if (input.ndims() < 2 || input.ndims() > 5)
        refuse(s, "input", "must have 2 to 5 dims (N x C x spatial), it has "
                                   + std::to_string(input.ndims()));
    s.input = input;
    s.out_dims = input.get_dims();
}

fusion_plan::fusion_plan(fusion_plan &&) noexcept = default;
fusion_plan &fusion_plan::operator=(fusion_plan &&) noexcept = default;
fusion_plan::~fusion_plan() = default;

convolution_op fusion_plan::add_convolution(const convolution_params &params,
                                            const memory::desc &weights) {
    state &s = *state_;
    const std::string what = "add_convolution";
    if (!s.ops.empty())
        refuse(s, what, "a convolution must be the plan's first operator (the operators after "
                        "it run in its kernel)");
    const memory::dims &in = s.input.get_dims();
    const int rank = s.input.ndims(), nsp = rank - 2;
    if (nsp < 1) refuse(s, what, "the input needs spatial dims (N x C x [D x] [H x] W)");
    check_f32(s, what + " weights", weights, true);
    const memory::dims &w = weights.get_dims();
    const bool grouped = static_cast<int>(w.size()) == rank + 1;
    if (!grouped && static_cast<int>(w.size()) != rank)
        refuse(s, what, "weights have " + std::to_string(w.size()) + " dims, expected "
                                + std::to_string(rank) + " or " + std::to_string(rank + 1)
                                + " (grouped)");
    convolution_params p = params;
    if (p.padding_r.empty()) p.padding_r = p.padding_l;
    for (const auto *v : {&p.strides, &p.dilates, &p.padding_l, &p.padding_r})
        if (static_cast<int>(v->size()) != nsp)
            refuse(s, what, "strides, dilates and paddings need " + std::to_string(nsp)
                                    + " values each (one per spatial dim)");
    impl::conv_problem prb;
    prb.nsp = nsp;
    prb.mb = in[0];
    prb.ic = in[1];
    prb.g = grouped ? w[0] : 1;
    const int wo = grouped ? 1 : 0;
    prb.oc = w[wo] * prb.g;
    if (prb.g < 1 || w[wo + 1] * prb.g != prb.ic)
        refuse(s, what, "weights dims " + impl::dims_str(w) + " do not fit the input's "
                                + std::to_string(prb.ic) + " channels");
    memory::dims out = {prb.mb, prb.oc};
    for (int j = 0; j < nsp; ++j) {
        const int sp = 3 - nsp + j;
        prb.i[sp] = in[2 + j];
        prb.k[sp] = w[wo + 2 + j];
        prb.s[sp] = p.strides[j];
        prb.d[sp] = p.dilates[j];
        prb.p[sp] = p.padding_l[j];
        if (prb.s[sp] < 1 || prb.d[sp] < 0 || prb.k[sp] < 1 || prb.p[sp] < 0)
            refuse(s, what, "spatial dim " + std::to_string(j) + ": kernel and stride must be "
                            "positive, dilation and padding non-negative");
        const int64_t span = prb.i[sp] + p.padding_l[j] + p.padding_r[j] - prb.extent(sp);
        if (span < 0)
            refuse(s, what, "spatial dim " + std::to_string(j) + ": the kernel's extent "
                            + std::to_string(prb.extent(sp)) + " exceeds the padded input "
                            + std::to_string(prb.i[sp] + p.padding_l[j] + p.padding_r[j]));
        prb.o[sp] = span / prb.s[sp] + 1;
        // The end padding the output size implies (as the convolution computes it).
        p.padding_r[j] = (prb.o[sp] - 1) * prb.s[sp] - prb.i[sp] + prb.extent(sp) - prb.p[sp];
        prb.p_end[sp] = p.padding_r[j];
        out.push_back(prb.o[sp]);
    }
    const std::string bad = impl::check_conv_problem(prb);
    if (!bad.empty()) refuse(s, what, bad);
    plan_op op;
    op.kind = kind::convolution;
    op.md = weights;
    op.conv = p;
    s.out_dims = out;
    return push<convolution_op>(s, op);
}

bias_op fusion_plan::add_bias(const memory::desc &bias) {
    state &s = *state_;
    check_channel_desc(s, "add_bias", bias, false);
    plan_op op;
    op.kind = kind::bias;
    op.md = bias;
    return push<bias_op>(s, op);
}

batch_norm_op fusion_plan::add_batch_norm_inference(batch_norm_mode mode,
                                                    const memory::desc &stats) {
    state &s = *state_;
    if (mode != batch_norm_mode::spatial && mode != batch_norm_mode::per_activation)
        refuse(s, "add_batch_norm_inference", "mode " + std::to_string(static_cast<int>(mode))
                                                      + " is not spatial or per_activation");
    check_channel_desc(s, "add_batch_norm_inference", stats,
                       mode == batch_norm_mode::per_activation);
    plan_op op;
    op.kind = kind::batch_norm;
    op.md = stats;
    op.bn_mode = mode;
    return push<batch_norm_op>(s, op);
}

activation_op fusion_plan::add_activation(activation_mode mode) {
    state &s = *state_;
    if (!impl::is_activation_mode(mode))
        refuse(s, "add_activation", "mode " + std::to_string(static_cast<int>(mode))
                                            + " is not an activation_mode");
    plan_op op;
    op.kind = kind::activation;
    op.activation = mode;
    return push<activation_op>(s, op);
}

sum_op fusion_plan::add_sum() {
    plan_op op;
    op.kind = kind::sum;
    return push<sum_op>(*state_, op);
}

binary_op fusion_plan::add_binary(algorithm alg, const memory::desc &src1) {
    state &s = *state_;
    const std::string what = "add_binary";
    check_f32(s, what + " src1", src1, false);
    post_ops po;
    try {
        po.append_binary(alg, src1);
    } catch (const error &e) {
        refuse(s, what, e.what());
    }
    const std::string bad = impl::check_operand_dims(po, s.out_dims);
    if (!bad.empty()) refuse(s, what, bad);
    plan_op op;
    op.kind = kind::binary;
    op.alg = alg;
    op.md = src1;
    return push<binary_op>(s, op);
}

void fusion_plan::set_max_cpu_isa(cpu_isa isa) {
    state_->isa = isa;
    if (state_->compiled) state_->changed_since_compile = true;
}

void fusion_plan::set_strict(bool strict) {
    state_->strict = strict;
    if (state_->compiled) state_->changed_since_compile = true;
}

void fusion_plan::compile() {
    state &s = *state_;
    if (s.ops.empty()) refuse(s, "compile", "the plan has no operators");
    const double start = impl::now_ms();
    impl::plan_key key {s.input, output_desc(), s.ops, s.isa, s.strict};
    bool hit = false;
    auto compiled = impl::compile_plan(key, &hit);
    {
        std::lock_guard<std::mutex> lock(s.derived_mutex);
        s.compiled = std::move(compiled);
        s.derived.reset();
    }
    s.changed_since_compile = false;
    if (impl::verbose_level() >= 2)
        impl::verbose_print("prim_verbose,plan,compile," + impl_name() + ","
                            + impl::ops_string(s.ops) + "," + (hit ? "cache_hit" : "created")
                            + "," + std::to_string(impl::now_ms() - start));
}

bool fusion_plan::is_compiled() const { return state_->compiled && !state_->changed_since_compile; }

memory::desc fusion_plan::input_desc() const { return state_->input; }

memory::desc fusion_plan::output_desc() const {
    return memory::desc(state_->out_dims, memory::data_type::f32, state_->input.layout());
}

memory::desc fusion_plan::weights_desc() const {
    const state &s = *state_;
    if (s.ops.empty() || s.ops[0].kind != kind::convolution) return memory::desc();
    if (!s.ops[0].md.is_any()) return s.ops[0].md;
    if (!is_compiled())
        refuse(s, "weights_desc", "the weights desc was 'any': compile() chooses the layout");
    std::lock_guard<std::mutex> lock(s.derived_mutex);
    return s.compiled->weights_md;
}

std::string fusion_plan::impl_name() const {
    if (!is_compiled()) refuse(*state_, "impl_name", "the plan is not compiled");
    std::lock_guard<std::mutex> lock(state_->derived_mutex);
    return state_->compiled->pd.impl_name();
}

std::string fusion_plan::to_string() const { return impl::ops_string(state_->ops); }

void fusion_plan::execute(const memory &input, const memory &output,
                          const fusion_args &args) const {
    const state &s = *state_;
    if (!s.compiled)
        refuse(s, "execute", "the plan is not compiled: call compile() first");
    if (s.changed_since_compile)
        refuse(s, "execute", "the plan changed since compile() (an operator or option was "
                             "added): call compile() again");
    const fusion_args::values &v = args.get_values();
    std::shared_ptr<const impl::derived_args> da;
    std::shared_ptr<const impl::compiled_plan> compiled;
    {
        std::lock_guard<std::mutex> lock(s.derived_mutex);
        da = s.derived;
        compiled = s.compiled;
    }
    const impl::compiled_plan &cp = *compiled;
    // Every argument present, in its desc, with data; then what was derived is reused only if
    // it was derived from these setter calls and these bytes (MIOpen reads its arguments at
    // every execute: a port may write new statistics into a buffer without calling a setter).
    impl::check_args(s.ops, cp, v);
    if (!da || !impl::is_current(*da, s.ops, v)) {
        da = impl::derive_args(s.ops, cp, s.out_dims, v);
        std::lock_guard<std::mutex> lock(s.derived_mutex);
        s.derived = da;
    }
    exec_args ea;
    ea.emplace(PRIM_ARG_SRC, input);
    ea.emplace(PRIM_ARG_DST, output);
    if (cp.lowered.has_conv) ea.emplace(PRIM_ARG_WEIGHTS, v.find(0)->mems[0]);
    if (!cp.conv_bias_md.is_zero()) ea.emplace(PRIM_ARG_BIAS, da->conv_bias);
    const post_ops &chain = cp.lowered.chain;
    for (int i = 0; i < chain.len(); ++i) {
        const post_ops::entry &e = chain.entries()[i];
        const impl::entry_source &src = cp.lowered.sources[i];
        if (src.what == impl::entry_source::kind::binary)
            ea.emplace(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1,
                       v.find(src.op)->mems[0]);
        else if (e.kind == post_ops::kind::binary)
            ea.emplace(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1, da->entry_args[i]);
        else if (!da->entry_args[i].is_empty())
            ea.emplace(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_ATTR_POST_OP_PARAMS,
                       da->entry_args[i]);
    }
    try {
        cp.prim->execute(ea);
    } catch (const error &e) {
        throw error(e.get_status(), "fusion_plan " + impl::ops_string(s.ops) + ": " + e.what());
    }
}

} // namespace prim
