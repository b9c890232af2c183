// Input data, as benchdnn fills it: small integers for convolution and inner product, so the
// products and sums are exact in f32 and only post-ops need a tolerance; values across each
// algorithm's interesting range for eltwise. Every value is a function of (tensor, index) only,
// so the data do not depend on layouts, threads or the order of cases.
#pragma once
#include <cstdint>
#include <vector>

#include "prim/attr.hpp"

namespace bdl {

enum class tensor_id : uint64_t { src = 1, wei = 2, bias = 3, dst_old = 4 };

// Integers in [-4, 4] (source, bias).
void fill_src(std::vector<float> &v, tensor_id id);
// Integers in {-2, -1, 1, 2}, each non-zero with probability min(1, 16 / reduction): the
// accumulation of `reduction` products then has about 16 non-zero terms, so |acc| stays small
// (typically within +-30: tanh or exp see unsaturated values) and far below 2^24 (exact in f32).
void fill_wei(std::vector<float> &v, int64_t reduction);
// Non-zero integers in [-4, 4]: what dst holds before a primitive with a sum runs.
void fill_dst_old(std::vector<float> &v);
// Eltwise source for alg: its core range and its tails, values near 0, exact halves (round's
// ties), zeros and a few NaN (every algorithm must return NaN).
void fill_eltwise_src(std::vector<float> &v, prim::algorithm alg);

} // namespace bdl
