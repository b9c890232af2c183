// prim::fusion_plan's refusals: each add_* that cannot be fused fails at once naming the reason,
// compile() fails with the reason when no primitive takes the plan, and a plan that is not
// compiled (never, or changed since) or arguments that do not fit are errors at execute, never
// a silent run. Also: an equal plan compiled again reuses the implementation (no code).
#include "api_test_util.hpp"

namespace {

const memory::desc input_md({2, 8, 6, 6}, dt::f32, tag::nchw);
const memory::desc wei_md({16, 8, 3, 3}, dt::f32, tag::oihw);
const fusion_plan::convolution_params same_3x3 {{1, 1}, {0, 0}, {1, 1}, {}};

fusion_plan conv_plan() {
    fusion_plan p(fusion_direction::vertical, input_md);
    p.add_convolution(same_3x3, wei_md);
    return p;
}

} // namespace

TEST_CASE("fusion_plan refusals: the plan and each operator, at once", "[fusion_plan]") {
    CHECK_INVALID(fusion_plan(fusion_direction::horizontal, input_md), "only vertical fusion");
    CHECK_INVALID(fusion_plan(fusion_direction::vertical, memory::desc()), "input: the desc is empty");
    CHECK_INVALID(fusion_plan(fusion_direction::vertical, memory::desc({2, 8, 6, 6}, dt::f32, tag::any)),
                  "needs a layout");
    CHECK_INVALID(fusion_plan(fusion_direction::vertical, memory::desc({8}, dt::f32, tag::x)),
                  "2 to 5 dims");

    fusion_plan p = conv_plan();
    CHECK(p.output_desc().get_dims() == dims {2, 16, 6, 6});
    // A second convolution, or one after another operator.
    CHECK_INVALID(p.add_convolution(same_3x3, wei_md), "must be the plan's first operator");
    // Bias and statistics dims must fit the output's channels (16, not the input's 8).
    CHECK_INVALID(p.add_bias(memory::desc({8}, dt::f32, tag::x)), "do not fit the output 2x16x6x6");
    CHECK_INVALID(p.add_batch_norm_inference(batch_norm_mode::per_activation,
                                             memory::desc({1, 16, 1, 1}, dt::f32, tag::nchw)),
                  "expected 1x16x6x6");
    CHECK_INVALID(p.add_batch_norm_inference(static_cast<batch_norm_mode>(7),
                                             memory::desc({16}, dt::f32, tag::x)),
                  "mode 7 is not spatial or per_activation");
    CHECK_INVALID(p.add_activation(static_cast<activation_mode>(42)), "mode 42 is not an activation_mode");
    CHECK_INVALID(p.add_binary(algorithm::binary_add, memory::desc({2, 16, 3, 6}, dt::f32, tag::nchw)),
                  "dim 2 is 3, it must be 6 or 1");
    CHECK_INVALID(p.add_binary(algorithm::eltwise_relu, memory::desc({1, 16, 1, 1}, dt::f32, tag::nchw)),
                  "add_binary");
    // The refusals left the plan as it was: it still compiles and has one operator.
    CHECK(p.to_string() == "convolution");

    // Convolution geometry: weights that do not fit the input's channels, a kernel larger than
    // the padded input, a group count that does not divide the channels.
    fusion_plan q(fusion_direction::vertical, input_md);
    CHECK_INVALID(q.add_convolution(same_3x3, memory::desc({16, 5, 3, 3}, dt::f32, tag::oihw)),
                  "do not fit the input's 8 channels");
    CHECK_INVALID(q.add_convolution({{1, 1}, {0, 0}, {0, 0}, {}}, memory::desc({16, 8, 9, 3}, dt::f32, tag::oihw)),
                  "exceeds the padded input");
    CHECK_INVALID(q.add_convolution({{1}, {0}, {1}, {}}, wei_md), "one per spatial dim");
    CHECK_INVALID(q.add_convolution(same_3x3, memory::desc({3, 5, 2, 3, 3}, dt::f32, tag::goihw)),
                  "do not fit the input's 8 channels");
    fusion_plan n(fusion_direction::vertical, memory::desc({2, 8}, dt::f32, tag::nc));
    CHECK_INVALID(n.add_convolution({{}, {}, {}, {}}, memory::desc({4, 8}, dt::f32, tag::oi)),
                  "needs spatial dims");
    CHECK_INVALID(n.compile(), "the plan has no operators");
}

TEST_CASE("fusion_plan refusals: not compiled, changed since compile, arguments", "[fusion_plan]") {
    fusion_plan p = conv_plan();
    const bias_op b = p.add_bias(memory::desc({16}, dt::f32, tag::x));
    const activation_op a = p.add_activation(activation_mode::leaky_relu);
    const memory src(p.input_desc()), dst(p.output_desc()), wei(wei_md);
    const memory bias(memory::desc({16}, dt::f32, tag::x));
    fusion_args args;
    CHECK_INVALID(p.execute(src, dst, args), "not compiled: call compile() first");
    p.compile();
    CHECK(p.is_compiled());
    // Missing arguments, named with their setter.
    CHECK_INVALID(p.execute(src, dst, args), "operator 0 (convolution): no arguments: call fusion_args::set_convolution");
    args.set_convolution(convolution_op {{0, fusion_op::kind::convolution}}, wei);
    CHECK_INVALID(p.execute(src, dst, args), "operator 1 (bias): no arguments");
    args.set_bias(b, bias);
    CHECK_INVALID(p.execute(src, dst, args), "operator 2 (activation:leaky_relu): no arguments: call fusion_args::set_activation");
    args.set_activation(a, 0.1, 0, 0);
    p.execute(src, dst, args);
    // A bias memory of another desc than the operator's.
    fusion_args wrong = args;
    wrong.set_bias(b, memory(memory::desc({1, 16, 1, 1}, dt::f32, tag::nchw)));
    CHECK_INVALID(p.execute(src, dst, wrong), "bias memory desc");
    // Arguments of another kind at an operator's index (a handle of another plan).
    fusion_args other = args;
    other.set_sum(sum_op {{1, fusion_op::kind::sum}}, 2.f);
    CHECK_INVALID(p.execute(src, dst, other), "were set with set_sum, this operator takes set_bias");
    // Handles whose kind does not match the setter, bad values.
    CHECK_INVALID(args.set_bias(bias_op {{1, fusion_op::kind::sum}}, bias), "not returned by fusion_plan's add_bias");
    CHECK_INVALID(args.set_activation(a, nan_f, 0, 0), "must not be NaN");
    CHECK_INVALID(args.set_batch_norm_inference(batch_norm_op {{3, fusion_op::kind::batch_norm}}, bias, bias, bias, bias, 0.0),
                  "epsilon=0.000000 must be positive");
    // Input and output in other descs than the plan's.
    CHECK_INVALID(p.execute(memory(memory::desc({2, 8, 6, 6}, dt::f32, tag::nhwc)), dst, args), "src memory desc");
    // An operator added after compile(): the plan must be compiled again.
    p.add_activation(activation_mode::relu);
    CHECK_FALSE(p.is_compiled());
    CHECK_INVALID(p.execute(src, dst, args), "changed since compile()");
    p.compile();
    p.execute(src, dst, args);
    p.set_max_cpu_isa(cpu_isa::none);
    CHECK_INVALID(p.execute(src, dst, args), "changed since compile()");
    p.compile();
    CHECK(p.impl_name() == "ref");
    p.execute(src, dst, args);
}

TEST_CASE("fusion_plan: an equal plan compiles from the cache, args changes generate no code",
          "[fusion_plan]") {
    if (get_effective_cpu_isa() < cpu_isa::avx2) return;
    const auto make = [] {
        fusion_plan p(fusion_direction::vertical, memory::desc({1, 24, 7, 9}, dt::f32, tag::nhwc));
        p.add_convolution({{1, 1}, {0, 0}, {1, 1}, {}}, memory::desc({40, 24, 3, 3}, dt::f32, tag::any));
        p.add_batch_norm_inference(batch_norm_mode::spatial, memory::desc({40}, dt::f32, tag::x));
        p.add_activation(activation_mode::elu);
        return p;
    };
    fusion_plan first = make();
    first.compile();
    const int64_t before = get_generated_kernel_count();
    fusion_plan second = make();
    second.compile();
    CHECK(get_generated_kernel_count() == before);
    CHECK(second.weights_desc() == first.weights_desc());
    CHECK(second.weights_desc().layout() != "abcd"); // 'any' let the convolution choose
    // An activation of another mode is another plan: new code.
    fusion_plan third = make();
    third.add_activation(activation_mode::tanh);
    third.compile();
    CHECK(get_generated_kernel_count() > before);
}
