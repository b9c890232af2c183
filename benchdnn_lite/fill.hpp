// Input data, as benchdnn fills it: small integers for convolution and inner product, so the
// products and sums are exact in f32 and only post-ops need a tolerance; values across each
// algorithm's interesting range for eltwise. Every value is a function of (tensor, index) only,
// so the data do not depend on layouts, threads or the order of cases.
#pragma once
#include <cstdint>
#include <vector>

#include "prim/attr.hpp"

namespace bdl {

enum class tensor_id : uint64_t {
    src = 1, wei = 2, bias = 3, dst_old = 4, operand = 5,
    dw_wei = 6, dw_bias = 7, // the dw post-op's (conv/conv_dw_case.cpp)
};

// Integers in [-4, 4] (source, bias).
void fill_src(std::vector<float> &v, tensor_id id);
// Integers in {-2, -1, 1, 2}, each non-zero with probability min(1, 16 / reduction): the
// accumulation of `reduction` products then has about 16 non-zero terms, so |acc| stays small
// (typically within +-30: tanh or exp see unsaturated values) and far below 2^24 (exact in f32).
void fill_wei(std::vector<float> &v, int64_t reduction);
// Integers in [lo, hi], uniform (int8 data: the whole range of its type, so that results reach
// the destination's saturation bounds, as benchdnn fills int8).
void fill_int(std::vector<float> &v, tensor_id id, int lo, int hi);
// Non-zero integers in [-4, 4]: what dst holds before a primitive with a sum runs.
void fill_dst_old(std::vector<float> &v);
// The operand of post-op `index` (entry e: binary or prelu), in the plain layout of its dims.
// Values keep each step exact where the reference's single rounding allows it: multiples of 0.5
// in [-6, 6] for add, sub, max, min and the comparisons (integers among them, so a
// convolution's integer results meet equal operands: eq, ge, ... see ties), multiples of 0.5 in
// [-2, 2] for mul, powers of two up to 4 of either sign for div (never 0), and prelu slopes in
// {-1, -0.5, -0.25, 0, 0.25, 0.5, 1, 2}.
void fill_operand(std::vector<float> &v, const prim::post_ops::entry &e, int index);
// Eltwise source for alg: its core range and its tails, values near 0, exact halves (round's
// ties), zeros and a few NaN (every algorithm must return NaN).
void fill_eltwise_src(std::vector<float> &v, prim::algorithm alg);

} // namespace bdl
