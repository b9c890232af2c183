// Primitive creation time: descriptor to ready kernel. The first creation of a shape generates
// code; creating an equal primitive again should hit the kernel cache.
#include <benchmark/benchmark.h>

#include "prim/prim.hpp"

using namespace prim;

namespace {

convolution_forward::primitive_desc create(int oc, const char *chain) {
    using tag = memory::format_tag;
    memory::desc src({2, 64, 56, 56}, memory::data_type::f32, tag::any);
    memory::desc wei({oc, 64, 3, 3}, memory::data_type::f32, tag::any);
    memory::desc dst({2, oc, 56, 56}, memory::data_type::f32, tag::any);
    convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct, src,
                                wei, dst, {1, 1}, {0, 0}, {1, 1}, {1, 1});
    primitive_attr attr;
    attr.set_post_ops(parse_post_ops(chain));
    return convolution_forward::primitive_desc(d, attr);
}

// A new shape every iteration, so no cache can help: code generation from scratch.
void creation_new_kernel(benchmark::State &state, const char *chain) {
    int oc = 16;
    for (auto _ : state) benchmark::DoNotOptimize(create(oc++, chain));
}

// The same shape every iteration: the kernel cache should answer.
void creation_cache_hit(benchmark::State &state, const char *chain) {
    create(64, chain);
    for (auto _ : state) benchmark::DoNotOptimize(create(64, chain));
}

} // namespace

BENCHMARK_CAPTURE(creation_new_kernel, sum_relu, "sum+relu")
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(200);
BENCHMARK_CAPTURE(creation_new_kernel, chain8,
                  "elu:0.5+sum+abs+sqrt+soft_relu:1+logistic+exp+swish:1")
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(200);
BENCHMARK_CAPTURE(creation_cache_hit, sum_relu, "sum+relu")->Unit(benchmark::kMicrosecond);
