// Helpers shared by the eltwise accuracy tests: every eltwise algorithm, the distance in ulps
// between a result and its reference, and a run of the JIT eltwise kernel.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "attr/algorithm_table.hpp"
#include "jit/eltwise/eltwise_kernel.hpp"
#include "prim/attr.hpp"

namespace eltwise_test {

// Every eltwise algorithm, in the table's order (src/attr/algorithm_table.cpp).
inline std::vector<prim::algorithm> all_algorithms() { return prim::impl::eltwise_algorithms(); }

// Below this magnitude errors count in ulps of floor_abs (absolute), not of the value.
constexpr float floor_abs = 0x1p-20f;

// f's bit pattern as an integer that orders like the floats (-0 and +0 equal).
inline int64_t ordered(float f) {
    int32_t i;
    std::memcpy(&i, &f, sizeof(i));
    return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : static_cast<int64_t>(i);
}

// Ulps between got and ref (0 when both are NaN, infinite when only one is).
inline double ulp_error(float got, float ref) {
    if (std::isnan(ref) || std::isnan(got)) return (std::isnan(ref) && std::isnan(got)) ? 0 : INFINITY;
    if (got == ref) return 0;
    const double dist = static_cast<double>(std::llabs(ordered(got) - ordered(ref)));
    if (std::fabs(ref) >= floor_abs) return dist;
    const double floor_ulp = std::nextafter(floor_abs, INFINITY) - floor_abs;
    return std::min(dist, std::fabs(static_cast<double>(got) - ref) / floor_ulp);
}

// The JIT eltwise kernel for chain, generated on isa (bypassing the cache), run over in.
template <prim::cpu_isa isa>
std::vector<float> run_eltwise_kernel(const prim::post_ops &chain, const std::vector<float> &in) {
    prim::jit::eltwise_kernel<isa> kernel(prim::jit::eltwise_kernel_conf(), chain);
    kernel.create_kernel();
    std::vector<float> out(in.size());
    const prim::jit::eltwise_call_args args {in.data(), out.data(), static_cast<int64_t>(in.size())};
    kernel.template entry_as<prim::jit::eltwise_kernel_fn>()(&args);
    return out;
}

} // namespace eltwise_test
