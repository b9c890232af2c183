// Fusion plan compile time (doc/fusion_plan.md): a C+B+N+A plan on ResNet-50's res3a_branch2b
// compiled for the first time (each iteration a new output channel count, so nothing is cached)
// and compiled again when an equal plan was compiled before (the plan cache).
#include <benchmark/benchmark.h>

#include "prim/prim.hpp"

using namespace prim;

namespace {

fusion_plan make_plan(memory::dim oc) {
    using tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    fusion_plan p(fusion_direction::vertical, memory::desc({2, 128, 28, 28}, f32, tag::nhwc));
    p.add_convolution({{1, 1}, {0, 0}, {1, 1}, {}}, memory::desc({oc, 128, 3, 3}, f32, tag::any));
    p.add_bias(memory::desc({oc}, f32, tag::x));
    p.add_batch_norm_inference(batch_norm_mode::spatial, memory::desc({oc}, f32, tag::x));
    p.add_activation(activation_mode::relu);
    return p;
}

void plan_compile_new(benchmark::State &state) {
    static memory::dim oc = 1000; // never seen before in this process
    for (auto _ : state) {
        fusion_plan p = make_plan(++oc);
        p.compile();
    }
}
BENCHMARK(plan_compile_new)->Unit(benchmark::kMicrosecond);

void plan_compile_cached(benchmark::State &state) {
    make_plan(128).compile();
    for (auto _ : state) {
        fusion_plan p = make_plan(128);
        p.compile();
    }
}
BENCHMARK(plan_compile_cached)->Unit(benchmark::kMicrosecond);

} // namespace
