// Quantize (f32 -> u8 with a scale and a zero point) and dequantize (u8 -> f32) through
// prim::reorder against a two-thread copy of the same bytes (read + written), on a tensor larger
// than the caches (doc/int8.md, doc/performance.md). Each round times the copy, then the reorder,
// alternating; the figures are medians over the rounds of the times and of the ratio
// copy_ms / reorder_ms (the share of the copy's GB/s reached). Usage:
//   OMP_NUM_THREADS=2 ./bench/prim_quantize_timing [ROUNDS [MEGA_ELEMENTS]]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "copy_timing.hpp"
#include "prim/prim.hpp"

using namespace prim;

namespace {

using tag = memory::format_tag;
using dt = memory::data_type;

using bench::copy;
using bench::median;
using bench::ms_of;

memory values(dt t, float v) {
    memory m(memory::desc({1}, t, tag::x));
    if (t == dt::s32) *static_cast<int32_t *>(m.get_data_handle()) = static_cast<int32_t>(v);
    else *static_cast<float *>(m.get_data_handle()) = v;
    return m;
}

} // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
    const memory::dim n = (argc > 2 ? std::atoll(argv[2]) : 64) << 20;
    const memory::desc f32_md({n / 1024, 1024}, dt::f32, tag::ab), u8_md({n / 1024, 1024}, dt::u8, tag::ab);
    memory f(f32_md), q(u8_md), back(f32_md);
    float *fp = static_cast<float *>(f.get_data_handle());
    for (memory::dim i = 0; i < n; ++i) fp[i] = static_cast<float>(i % 1000) * 0.37f - 150.f;
    // Scratch for the copy: the same bytes the reorder reads and writes, half each way.
    const size_t bytes = static_cast<size_t>(n) * 5 / 2;
    std::vector<char> a(bytes, 1), b(bytes, 2);

    primitive_attr qa, da;
    qa.set_output_scales(0, {0.5f});
    qa.set_zero_points_mask(PRIM_ARG_DST, 0);
    da.set_scales_mask(PRIM_ARG_SRC, 0);
    da.set_zero_points_mask(PRIM_ARG_SRC, 0);
    const reorder quantize(f32_md, u8_md, qa), dequantize(u8_md, f32_md, da);
    const exec_args qargs {{PRIM_ARG_FROM, f}, {PRIM_ARG_TO, q},
                           {PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, values(dt::s32, 128)}};
    const exec_args dargs {{PRIM_ARG_FROM, q}, {PRIM_ARG_TO, back},
                           {PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC, values(dt::f32, 2.f)},
                           {PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, values(dt::s32, 128)}};
    quantize.execute(qargs); // first touch of every page, outside the timing
    dequantize.execute(dargs);
    copy(a.data(), b.data(), bytes);
    std::vector<double> copy_ms, q_ms, d_ms, q_ratio, d_ratio;
    for (int r = 0; r < rounds; ++r) {
        const double c = ms_of([&] { copy(a.data(), b.data(), bytes); });
        const double tq = ms_of([&] { quantize.execute(qargs); });
        const double td = ms_of([&] { dequantize.execute(dargs); });
        copy_ms.push_back(c);
        q_ms.push_back(tq);
        d_ms.push_back(td);
        q_ratio.push_back(c / tq);
        d_ratio.push_back(c / td);
    }
    const double gb = static_cast<double>(bytes) * 2 / 1e9;
    std::printf("elements %lld, %d threads, %d rounds, medians\n", static_cast<long long>(n),
                omp_get_max_threads(), rounds);
    std::printf("copy        %8.3f ms %6.1f GB/s\n", median(copy_ms), gb / median(copy_ms) * 1e3);
    std::printf("quantize    %8.3f ms %6.1f GB/s  %.3f of the copy\n", median(q_ms), gb / median(q_ms) * 1e3, median(q_ratio));
    std::printf("dequantize  %8.3f ms %6.1f GB/s  %.3f of the copy\n", median(d_ms), gb / median(d_ms) * 1e3, median(d_ratio));
    return 0;
}
