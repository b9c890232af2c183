// The 20 distinct ResNet-50 convolution layers (doc/performance.md's batch), a prim convolution
// desc for one of them, and timing several runners in rotation: what the side-by-side timing
// programs share.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

#include <prim/prim.hpp>

namespace bench {

struct resnet_layer {
    long ic, ih, oc, oh, k, s, p;
    const char *name;
};

inline const std::vector<resnet_layer> &resnet50_layers() {
    static const std::vector<resnet_layer> layers = {
            {3, 224, 64, 112, 7, 2, 3, "conv1"},
            {64, 56, 256, 56, 1, 1, 0, "res2a_branch1"},
            {64, 56, 64, 56, 1, 1, 0, "res2a_branch2a"},
            {64, 56, 64, 56, 3, 1, 1, "res2a_branch2b"},
            {256, 56, 64, 56, 1, 1, 0, "res2b_branch2a"},
            {256, 56, 512, 28, 1, 2, 0, "res3a_branch1"},
            {256, 56, 128, 28, 1, 2, 0, "res3a_branch2a"},
            {128, 28, 128, 28, 3, 1, 1, "res3a_branch2b"},
            {128, 28, 512, 28, 1, 1, 0, "res3a_branch2c"},
            {512, 28, 128, 28, 1, 1, 0, "res3b_branch2a"},
            {512, 28, 1024, 14, 1, 2, 0, "res4a_branch1"},
            {512, 28, 256, 14, 1, 2, 0, "res4a_branch2a"},
            {256, 14, 256, 14, 3, 1, 1, "res4a_branch2b"},
            {256, 14, 1024, 14, 1, 1, 0, "res4a_branch2c"},
            {1024, 14, 256, 14, 1, 1, 0, "res4b_branch2a"},
            {1024, 14, 2048, 7, 1, 2, 0, "res5a_branch1"},
            {1024, 14, 512, 7, 1, 2, 0, "res5a_branch2a"},
            {512, 7, 512, 7, 3, 1, 1, "res5a_branch2b"},
            {512, 7, 2048, 7, 1, 1, 0, "res5a_branch2c"},
            {2048, 7, 512, 7, 1, 1, 0, "res5b_branch2a"}};
    return layers;
}

// The layer's forward-inference convolution at minibatch mb, every layout 'any', with bias.
inline prim::convolution_forward::desc conv_desc(const resnet_layer &l, long mb) {
    using tag = prim::memory::format_tag;
    using dt = prim::memory::data_type;
    const long pe = (l.oh - 1) * l.s - l.ih + l.k - l.p;
    return prim::convolution_forward::desc(prim::prop_kind::forward_inference,
            prim::algorithm::convolution_direct,
            prim::memory::desc({mb, l.ic, l.ih, l.ih}, dt::f32, tag::any),
            prim::memory::desc({l.oc, l.ic, l.k, l.k}, dt::f32, tag::any),
            prim::memory::desc({l.oc}, dt::f32, tag::x),
            prim::memory::desc({mb, l.oc, l.oh, l.oh}, dt::f32, tag::any), {l.s, l.s}, {0, 0},
            {l.p, l.p}, {pe, pe});
}

inline void fill(const prim::memory &m) {
    auto *p = static_cast<float *>(m.get_data_handle());
    const size_t n = m.get_desc().get_size() / sizeof(float);
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<float>((i * 7) % 13) * 0.1f - 0.6f;
}

// Runs each function `rounds` times in rotation (after 3 warm-up calls each) and returns each
// one's median time in ms: all of them see the same machine state, however noisy.
inline std::vector<double> rotation_medians(const std::vector<std::function<void()>> &fs, int rounds) {
    using clock = std::chrono::steady_clock;
    std::vector<std::vector<double>> t(fs.size());
    for (const auto &f : fs)
        for (int w = 0; w < 3; ++w) f();
    for (int r = 0; r < rounds; ++r)
        for (size_t i = 0; i < fs.size(); ++i) {
            const auto t0 = clock::now();
            fs[i]();
            t[i].push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
        }
    std::vector<double> med;
    for (auto &v : t) {
        std::sort(v.begin(), v.end());
        med.push_back(v[v.size() / 2]);
    }
    return med;
}

inline double geomean(const std::vector<double> &v) {
    double s = 0;
    for (double x : v) s += std::log(x);
    return v.empty() ? 0 : std::exp(s / static_cast<double>(v.size()));
}

} // namespace bench
