// Small helpers shared by the microbenchmarks: filled memories and post-ops from strings.
#pragma once
#include <string>

#include "prim/prim.hpp"

namespace bench {

// A memory of desc md whose elements cycle through small values in [-2, 2].
prim::memory filled(const prim::memory::desc &md, float step = 0.37f);

// A convolution primitive and its arguments, for a ResNet-like 2D problem.
struct conv_case {
    prim::convolution_forward::primitive_desc pd;
    prim::convolution_forward conv;
    prim::memory src, wei, bias, dst;
    prim::exec_args args() const;
};
conv_case make_conv(int mb, int ic, int oc, int hw, int k, const std::string &chain);

} // namespace bench
