// Deterministic pseudo-random fill.
#include "fill.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bdl {

namespace {

// splitmix64 of (stream, index): a good hash, cheap, and independent of the fill order.
uint64_t hash(uint64_t stream, uint64_t index) {
    uint64_t z = stream * 0x9e3779b97f4a7c15ull + index + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Uniform in [0, 1).
double unit(uint64_t h) { return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0); }

} // namespace

void fill_src(std::vector<float> &v, tensor_id id) {
    const uint64_t stream = static_cast<uint64_t>(id);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i)
        v[i] = static_cast<float>(static_cast<int>(hash(stream, i) % 9) - 4);
}

void fill_wei(std::vector<float> &v, int64_t reduction) {
    const double density = std::min(1.0, 16.0 / static_cast<double>(std::max<int64_t>(1, reduction)));
    const uint64_t stream = static_cast<uint64_t>(tensor_id::wei);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
        const uint64_t h = hash(stream, i);
        const int value = static_cast<int>(h % 4); // -2, -1, 1, 2
        v[i] = unit(hash(stream + 100, i)) < density ? static_cast<float>(value < 2 ? value - 2 : value - 1)
                                                     : 0.f;
    }
}

void fill_int(std::vector<float> &v, tensor_id id, int lo, int hi) {
    const uint64_t stream = static_cast<uint64_t>(id) + 200;
    const uint64_t span = static_cast<uint64_t>(hi - lo + 1);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i)
        v[i] = static_cast<float>(lo + static_cast<int>(hash(stream, i) % span));
}

void fill_dst_old(std::vector<float> &v) {
    const uint64_t stream = static_cast<uint64_t>(tensor_id::dst_old);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
        const int value = static_cast<int>(hash(stream, i) % 8); // -4..-1, 1..4
        v[i] = static_cast<float>(value < 4 ? value - 4 : value - 3);
    }
}

void fill_operand(std::vector<float> &v, const prim::post_ops::entry &e, int index) {
    using prim::algorithm;
    static const float slopes[] = {-1.f, -0.5f, -0.25f, 0.f, 0.25f, 0.5f, 1.f, 2.f};
    static const float divisors[] = {-4.f, -2.f, -1.f, -0.5f, 0.5f, 1.f, 2.f, 4.f};
    const bool prelu = e.kind == prim::post_ops::kind::prelu;
    const uint64_t stream = static_cast<uint64_t>(tensor_id::operand) * 1000 + index;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
        const uint64_t h = hash(stream, i);
        if (prelu) v[i] = slopes[h % 8];
        else if (e.alg == algorithm::binary_div) v[i] = divisors[h % 8];
        else if (e.alg == algorithm::binary_mul) v[i] = static_cast<float>(static_cast<int>(h % 9) - 4) / 2;
        else v[i] = static_cast<float>(static_cast<int>(h % 25) - 12) / 2;
    }
}

void fill_eltwise_src(std::vector<float> &v, prim::algorithm alg) {
    using prim::algorithm;
    // Each algorithm has a core range, where its value changes most, and a wide range that
    // reaches its tails: saturation, and the overflow of an internal exp that a careful kernel
    // must survive (soft_relu(100) is 100, not inf).
    double core = 10, wide = 1000, lo_shift = 0;
    switch (alg) {
    case algorithm::eltwise_exp: core = 20, wide = 88; break; // e^88.7 overflows f32
    case algorithm::eltwise_log:
    case algorithm::eltwise_sqrt: core = 5, wide = 5000, lo_shift = 1; break; // mostly positive
    case algorithm::eltwise_pow: core = 4, wide = 20; break;
    case algorithm::eltwise_tanh:
    case algorithm::eltwise_elu:
    case algorithm::eltwise_soft_relu:
    case algorithm::eltwise_logistic:
    case algorithm::eltwise_gelu_tanh:
    case algorithm::eltwise_gelu_erf:
    case algorithm::eltwise_swish:
    case algorithm::eltwise_mish:
    case algorithm::eltwise_celu:
    case algorithm::eltwise_selu:
    case algorithm::eltwise_scaled_tanh:
    case algorithm::eltwise_softplus:
    case algorithm::eltwise_parametric_softplus:
    case algorithm::eltwise_logsigmoid: wide = 100; break;
    default: break;
    }
    // [-core, core], or [-1, 2 * core - 1] when lo_shift moves it to mostly positive values.
    const double lo = lo_shift ? -1.0 : -core, hi = lo_shift ? 2 * core - 1 : core;
    const double wide_lo = lo_shift ? -1.0 : -wide;
    const uint64_t stream = static_cast<uint64_t>(tensor_id::src) + 10;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
        const uint64_t h = hash(stream, i);
        const double u = unit(hash(stream + 1, i));
        const int bucket = static_cast<int>(h % 100);
        double x;
        if (bucket < 2) x = std::numeric_limits<double>::quiet_NaN();
        else if (bucket < 4) x = 0.0;
        else if (bucket < 24) x = 2.0 * u - 1.0;                        // near zero
        else if (bucket < 34) x = std::floor(lo + (hi - lo) * u) + 0.5; // ties for round
        else if (bucket < 67) x = lo + (hi - lo) * u;                   // core range
        else x = wide_lo + (wide - wide_lo) * u;                        // tails
        v[i] = static_cast<float>(x);
    }
}

} // namespace bdl
