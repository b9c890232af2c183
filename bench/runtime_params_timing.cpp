// Runtime post-op parameters against baked ones (doc/performance.md): the 20 ResNet-50 layers at
// mb2 with a batch norm's chain after the convolution, mul:f32:per_oc+add:f32:per_oc, then a
// leaky relu and a linear: once with alpha, beta and scale in the code, once read at execute
// (PRIM_RUNTIME_F32_VAL). The two run in rotation, ARG1 rounds (default 21); per layer the medians
// and runtime / baked, then the geomean, and the kernels the runtime side generated when its
// values changed (must be 0).
//   OMP_NUM_THREADS=2 ./bench/prim_runtime_params_timing 21
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "resnet50_layers.hpp"

namespace {

const char *const baked_chain = "mul:f32:per_oc+add:f32:per_oc+relu:0.1+linear:1.5:0.25:2";
const char *const runtime_chain = "mul:f32:per_oc+add:f32:per_oc+relu:*+linear:*:*:*";

struct bound_conv {
    std::shared_ptr<prim::convolution_forward> conv;
    prim::exec_args args;
    void operator()() const { conv->execute(args); }
};

bound_conv make(const bench::resnet_layer &l, const char *chain) {
    const prim::post_ops po = prim::parse_post_ops(chain);
    prim::primitive_attr attr;
    attr.set_post_ops(po);
    prim::convolution_forward::primitive_desc pd(bench::conv_desc(l, 2), attr);
    bound_conv b{std::make_shared<prim::convolution_forward>(pd),
                 {{prim::PRIM_ARG_SRC, prim::memory(pd.src_desc())},
                  {prim::PRIM_ARG_WEIGHTS, prim::memory(pd.weights_desc())},
                  {prim::PRIM_ARG_BIAS, prim::memory(pd.bias_desc())},
                  {prim::PRIM_ARG_DST, prim::memory(pd.dst_desc())}}};
    for (int i = 0; i < po.len(); ++i)
        for (int sub : {int(prim::PRIM_ARG_SRC_1), int(prim::PRIM_ARG_ATTR_POST_OP_PARAMS)}) {
            const int arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | sub;
            const prim::memory::desc md = pd.query_md(arg);
            if (!md.is_zero()) b.args[arg] = prim::memory(md);
        }
    for (auto &a : b.args) bench::fill(a.second);
    // The runtime values equal the baked chain's: relu 0.1, linear 1.5, 0.25, scale 2.
    const float values[2][3] = {{0.1f, 0.f, 1.f}, {1.5f, 0.25f, 2.f}};
    for (int i = 2; i < 4; ++i) {
        auto it = b.args.find(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | prim::PRIM_ARG_ATTR_POST_OP_PARAMS);
        if (it == b.args.end()) continue;
        std::copy(values[i - 2], values[i - 2] + 3, static_cast<float *>(it->second.get_data_handle()));
    }
    return b;
}

} // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 21;
    std::vector<double> ratios;
    std::printf("%-16s %9s %9s %8s\n", "layer", "baked_ms", "runtime_ms", "rt/baked");
    int64_t generated_on_change = 0;
    for (const bench::resnet_layer &l : bench::resnet50_layers()) {
        const bound_conv baked = make(l, baked_chain), runtime = make(l, runtime_chain);
        const std::vector<double> m = bench::rotation_medians({baked, runtime}, rounds);
        ratios.push_back(m[1] / m[0]);
        std::printf("%-16s %9.3f %9.3f %8.3f\n", l.name, m[0], m[1], m[1] / m[0]);
        // New values: no new code.
        const int64_t before = prim::get_generated_kernel_count();
        auto &relu = runtime.args.at(PRIM_ARG_ATTR_MULTIPLE_POST_OP(2) | prim::PRIM_ARG_ATTR_POST_OP_PARAMS);
        static_cast<float *>(relu.get_data_handle())[0] = 0.3f;
        runtime();
        generated_on_change += prim::get_generated_kernel_count() - before;
    }
    std::printf("geomean runtime/baked %.4f; kernels generated when values changed: %ld\n",
                bench::geomean(ratios), static_cast<long>(generated_on_change));
}
