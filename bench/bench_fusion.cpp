// Fused against unfused: one convolution applying sum+relu in registers, against the same
// convolution without post-ops followed by a sum pass and a relu pass (the eltwise primitive).
#include <benchmark/benchmark.h>

#include "bench_util.hpp"

using namespace prim;

namespace {

// ResNet-50's 1x1 ic64 -> oc256 layer at 56x56, mb2: the layer of issue 4's fusion target.
constexpr int mb = 2, ic = 64, oc = 256, hw = 56, k = 1;

void conv_fused(benchmark::State &state) {
    auto c = bench::make_conv(mb, ic, oc, hw, k, "sum+relu");
    const auto args = c.args();
    for (auto _ : state) c.conv.execute(args);
    state.SetLabel(c.pd.impl_name());
}

void conv_unfused(benchmark::State &state) {
    auto c = bench::make_conv(mb, ic, oc, hw, k, "");
    memory tmp(c.pd.dst_desc());
    exec_args conv_args = c.args();
    conv_args[PRIM_ARG_DST] = tmp;
    const memory::desc md = c.pd.dst_desc();
    post_ops sum;
    sum.append_sum(1.f);
    primitive_attr sum_attr;
    sum_attr.set_post_ops(sum);
    // dst = tmp + dst_old, then dst = relu(dst) in place.
    eltwise_forward sum_pass(eltwise_forward::primitive_desc(
            eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_identity, md,
                                  md, 0.f, 0.f),
            sum_attr));
    eltwise_forward relu_pass(eltwise_forward::primitive_desc(eltwise_forward::desc(
            prop_kind::forward_inference, algorithm::eltwise_relu, md, 0.f, 0.f)));
    for (auto _ : state) {
        c.conv.execute(conv_args);
        sum_pass.execute({{PRIM_ARG_SRC, tmp}, {PRIM_ARG_DST, c.dst}});
        relu_pass.execute({{PRIM_ARG_SRC, c.dst}, {PRIM_ARG_DST, c.dst}});
    }
    state.SetLabel(c.pd.impl_name());
}

} // namespace

BENCHMARK(conv_fused)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(conv_unfused)->Unit(benchmark::kMillisecond)->UseRealTime();
