// Batch and layer normalization against a two-thread copy of the same bytes, the bound of a pass
// that reads src once and writes dst once. Each round times the copy and then the primitive, so
// that both see the same machine (these machines are shared): the figures are the medians over
// the rounds of each time and of the per-round ratio copy_ms / primitive_ms (the share of the
// copy's GB/s reached, src read + dst written counted for both). Usage:
//   OMP_NUM_THREADS=2 ./bench/prim_norm_timing [ROUNDS [FILTER]]
// FILTER: run only the cases whose name contains it.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "copy_timing.hpp"
#include "prim/prim.hpp"

using namespace prim;

namespace {

using tag = memory::format_tag;
const normalization_flags G = normalization_flags::use_global_stats;
const normalization_flags CH = normalization_flags::use_scale | normalization_flags::use_shift;

using bench::copy;
using bench::median;
using bench::ms_of;

void fill(const memory &m, float first, float step, float lo, float hi) {
    float *p = static_cast<float *>(m.get_data_handle());
    float v = first;
    for (size_t i = 0; i < m.get_desc().get_size() / sizeof(float); ++i) {
        p[i] = v;
        v += step;
        if (v > hi) v = lo + (v - hi);
    }
}

// Times pd's primitive against a copy of its src's bytes, over rounds.
template <typename prim_t>
void measure(const char *name, const typename prim_t::primitive_desc &pd, int rounds) {
    const prim_t p(pd);
    const memory src(pd.src_desc()), dst(pd.dst_desc()), copy_dst(pd.src_desc());
    fill(src, -2.f, 0.37f, -2.f, 2.f);
    exec_args args {{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}};
    for (const int arg : {PRIM_ARG_MEAN, PRIM_ARG_VARIANCE, PRIM_ARG_SCALE, PRIM_ARG_SHIFT}) {
        const memory::desc md = pd.query_md(arg);
        if (md.is_zero()) continue;
        args[arg] = memory(md);
        fill(args[arg], arg == PRIM_ARG_VARIANCE ? 0.5f : -1.f, 0.37f,
             arg == PRIM_ARG_VARIANCE ? 0.5f : -1.f, 2.f);
    }
    const size_t bytes = pd.src_desc().get_size();
    const char *s = static_cast<const char *>(src.get_data_handle());
    char *d = static_cast<char *>(copy_dst.get_data_handle());
    for (int w = 0; w < 3; ++w) { // warm up: pages, kernels, threads
        copy(s, d, bytes);
        p.execute(args);
    }
    std::vector<double> copy_ms, prim_ms, ratio;
    for (int r = 0; r < rounds; ++r) {
        copy_ms.push_back(ms_of([&] { copy(s, d, bytes); }));
        prim_ms.push_back(ms_of([&] { p.execute(args); }));
        ratio.push_back(copy_ms.back() / prim_ms.back());
    }
    const double gb = 2.0 * static_cast<double>(bytes) / 1e9;
    std::printf("%-34s %-10s copy %7.3f ms %6.1f GB/s | primitive %7.3f ms %6.1f GB/s | %5.1f%% of "
                "copy (min: %.3f / %.3f ms)\n",
                name, pd.impl_name().c_str(), median(copy_ms), gb / median(copy_ms) * 1e3,
                median(prim_ms), gb / median(prim_ms) * 1e3, 100.0 * median(ratio),
                *std::min_element(copy_ms.begin(), copy_ms.end()),
                *std::min_element(prim_ms.begin(), prim_ms.end()));
}

void bnorm_relu(const char *name, const char *layout, bool global, int rounds) {
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    const memory::desc md({32, 256, 56, 56}, memory::data_type::f32, std::string(layout));
    measure<batch_normalization_forward>(name, batch_normalization_forward::primitive_desc(
            {prop_kind::forward_inference, md, 1e-5f, (global ? G : normalization_flags::none) | CH},
            attr), rounds);
}

void lnorm(const char *name, memory::dim rows, bool global, int rounds) {
    const memory::desc md({rows, 1024}, memory::data_type::f32, tag::ab);
    measure<layer_normalization_forward>(name, layer_normalization_forward::primitive_desc(
            {prop_kind::forward_inference, md, 1e-5f, (global ? G : normalization_flags::none) | CH}),
            rounds);
}

} // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 21;
    const std::string filter = argc > 2 ? argv[2] : "";
    const auto wanted = [&](const char *name) { return std::string(name).find(filter) != std::string::npos; };
    std::printf("threads %d, rounds %d, medians\n", omp_get_max_threads(), rounds);
    struct bnorm_case {
        const char *name, *layout;
        bool global;
    };
    for (const bnorm_case &c : {bnorm_case {"bnorm+relu mb32ic256ih56 nchw G", "abcd", true},
                                bnorm_case {"bnorm+relu mb32ic256ih56 nhwc G", "acdb", true},
                                bnorm_case {"bnorm+relu mb32ic256ih56 nChw16c G", "aBcd16b", true},
                                bnorm_case {"bnorm+relu mb32ic256ih56 nchw", "abcd", false},
                                bnorm_case {"bnorm+relu mb32ic256ih56 nhwc", "acdb", false}})
        if (wanted(c.name)) bnorm_relu(c.name, c.layout, c.global, rounds);
    struct lnorm_case {
        const char *name;
        memory::dim rows;
        bool global;
    };
    // 4096x1024 is 16 MiB: src and dst fit this machine's 32 MiB L3; 16384x1024 does not.
    for (const lnorm_case &c : {lnorm_case {"lnorm 4096x1024", 4096, false},
                                lnorm_case {"lnorm 4096x1024 G", 4096, true},
                                lnorm_case {"lnorm 16384x1024", 16384, false},
                                lnorm_case {"lnorm 16384x1024 G", 16384, true}})
        if (wanted(c.name)) lnorm(c.name, c.rows, c.global, rounds);
    return 0;
}
