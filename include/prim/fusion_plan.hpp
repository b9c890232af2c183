// prim: fusion plans in MIOpen's shape (doc/fusion_plan.md). A plan is created from the input's
// descriptor, operators are added in order, compile() picks the implementation once, and
// execute() runs it many times with each operator's arguments (weights, bias, batch-norm
// statistics, activation parameters) given at run time: changing an argument generates no code.
//
//   fusion_plan plan(fusion_direction::vertical, input_md);
//   auto conv = plan.add_convolution({strides, dilates, padding}, weights_md);
//   auto bias = plan.add_bias(bias_md);
//   auto act = plan.add_activation(activation_mode::relu);
//   plan.compile();
//   fusion_args args;
//   args.set_convolution(conv, weights);
//   args.set_bias(bias, bias_mem);
//   args.set_activation(act, 0, 0, 0);
//   plan.execute(input, output, args);
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "prim/api.hpp"
#include "prim/attr.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/memory.hpp"

namespace prim {

// MIOpen's miopenFusionDirection_t. Only vertical fusion (each operator reads the previous one's
// output) exists, as in MIOpen; horizontal is refused when the plan is created.
enum class fusion_direction { vertical, horizontal };

// MIOpen's miopenActivationMode_t; alpha, beta, gamma are fusion_args::set_activation's.
enum class activation_mode {
    passthru,     // x
    logistic,     // 1 / (1 + e^-x)
    tanh,         // beta * tanh(alpha * x)
    relu,         // max(0, x)
    soft_relu,    // log(1 + e^x)
    abs,          // |x|
    power,        // (alpha + beta * x)^gamma
    clipped_relu, // min(alpha, max(0, x))
    leaky_relu,   // x > 0 ? x : alpha * x
    elu,          // x > 0 ? x : alpha * (e^x - 1)
};
PRIM_API const char *activation_mode_name(activation_mode mode);

// MIOpen's miopenBatchNormMode_t: statistics per channel (spatial, dims 1 x C x 1...) or per
// channel and pixel (per_activation, dims 1 x C x D x H x W of the output).
enum class batch_norm_mode { spatial, per_activation };

// The handle add_* returns: the operator's position in its plan and its kind, for
// fusion_args' setters. One per kind, so that an argument cannot go to the wrong kind of operator.
struct fusion_op {
    enum class kind { convolution, bias, batch_norm, activation, sum, binary };
    int index = -1;
    kind op_kind = kind::convolution;
};
struct convolution_op : fusion_op {};
struct bias_op : fusion_op {};
struct batch_norm_op : fusion_op {};
struct activation_op : fusion_op {};
struct sum_op : fusion_op {};
struct binary_op : fusion_op {};

// "convolution", "bias", "batch_norm", "activation", "sum", "binary".
PRIM_API const char *fusion_op_kind_name(fusion_op::kind k);

// The arguments of a plan's operators, set per operator and read by execute. Memory objects are
// kept by reference and their buffers are read at every execute, as MIOpen reads its argument
// pointers: new values written into a bias or statistics buffer already set are used by the
// next execute without calling the setter again. (What the plan derives from them, batch norm's
// per-channel factors, is computed again whenever a setter ran or those buffers' bytes changed.)
class PRIM_API fusion_args {
public:
    fusion_args();
    fusion_args(const fusion_args &other);
    fusion_args &operator=(const fusion_args &other);
    ~fusion_args();

    // The convolution's weights, in the desc given to add_convolution (or the plan's
    // weights_desc() when that was 'any').
    void set_convolution(const convolution_op &op, const memory &weights);
    void set_bias(const bias_op &op, const memory &bias);
    // MIOpen's miopenSetOpArgsBatchNormInference: y = scale * (x - mean) / sqrt(variance +
    // epsilon) + shift, the four in the desc given to add_batch_norm_inference. epsilon > 0.
    void set_batch_norm_inference(const batch_norm_op &op, const memory &scale,
                                  const memory &shift, const memory &mean,
                                  const memory &variance, double epsilon);
    // MIOpen's miopenSetOpArgsActivForward: the mode's alpha, beta, gamma (those it does not
    // read are ignored).
    void set_activation(const activation_op &op, double alpha, double beta, double gamma);
    // x += scale * (what the output held before execute); 1 when never set.
    void set_sum(const sum_op &op, float scale);
    // The binary operator's second operand, in the desc given to add_binary.
    void set_binary(const binary_op &op, const memory &src1);

    struct values; // src/plan/fusion_args_values.hpp
    const values &get_values() const { return *values_; }

private:
    std::unique_ptr<values> values_;
};

// A vertical fusion plan. Each add_* checks at once that the operator fits what came before
// and throws invalid_arguments with the reason if not; compile() creates the implementation and
// throws (invalid_arguments or unimplemented, with the reason) if no primitive takes it.
// Adding an operator after compile() invalidates the plan until compile() runs again; executing
// a plan that is not compiled throws invalid_arguments.
class PRIM_API fusion_plan {
public:
    // input: the plan's input (f32, 2 to 5 dims N x C x spatial, a concrete layout).
    fusion_plan(fusion_direction direction, const memory::desc &input);
    fusion_plan(const fusion_plan &) = delete;
    fusion_plan &operator=(const fusion_plan &) = delete;
    fusion_plan(fusion_plan &&) noexcept;
    fusion_plan &operator=(fusion_plan &&) noexcept;
    ~fusion_plan();

    // The convolution's geometry; groups follow from the weights' rank (oc, ic/g, k...) or
    // (g, oc/g, ic/g, k...). Dilations count the gaps between taps (0 = dense; MIOpen's 1 is
    // prim's 0). padding_r empty: the same as padding_l, and the output size is
    // floor((i + padding_l + padding_r - extent) / stride) + 1, as MIOpen computes it.
    struct convolution_params {
        memory::dims strides, dilates, padding_l, padding_r;
    };
    // The first operator only (everything after it runs in its kernel).
    convolution_op add_convolution(const convolution_params &params, const memory::desc &weights);
    // bias: C values, dims {C} or 1 x C x 1... (MIOpen's 1 x C x 1 x 1).
    bias_op add_bias(const memory::desc &bias);
    // stats: the desc of scale, shift, mean and variance: spatial C values ({C} or 1 x C x 1...),
    // per_activation 1 x C x spatial of the output.
    batch_norm_op add_batch_norm_inference(batch_norm_mode mode, const memory::desc &stats);
    // Any number of activations, anywhere after the convolution.
    activation_op add_activation(activation_mode mode);
    // A residual in the output buffer: x += scale * output's old value.
    sum_op add_sum();
    // x = x alg src1 (binary_add ... binary_ne); src1 has the output's rank, each dim the
    // output's or 1.
    binary_op add_binary(algorithm alg, const memory::desc &src1);

    // Caps the instruction set (combined with PRIM_MAX_CPU_ISA, the lower wins); strict refuses
    // a fallback to the reference. Both invalidate a compiled plan.
    void set_max_cpu_isa(cpu_isa isa);
    void set_strict(bool strict);

    // Creates the implementation. An equal plan compiled before in this process (same input,
    // operators, descs and options) reuses its implementation: no code is generated.
    void compile();
    bool is_compiled() const;

    memory::desc input_desc() const;
    // The output's desc: the input's layout with the output's dims (known once the operators
    // are added).
    memory::desc output_desc() const;
    // The convolution's weights desc the plan runs on (the one given, or the layout chosen for
    // 'any'); needs compile() when the desc given was 'any'.
    memory::desc weights_desc() const;
    // "jit:avx512", "jit:avx2" or "ref", after compile().
    std::string impl_name() const;
    // The operators, "convolution+bias+batch_norm+activation:relu".
    std::string to_string() const;

    // Runs the plan on input and output (descs input_desc() and output_desc()) with args.
    // Thread-safe. Throws invalid_arguments, naming the operator, for a missing or mismatched
    // argument, and for a plan not compiled.
    void execute(const memory &input, const memory &output, const fusion_args &args) const;

    struct state; // src/plan/fusion_plan_state.hpp

private:
    std::unique_ptr<state> state_;
};

} // namespace prim
