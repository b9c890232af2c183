// A convolution node's geometry from ONNX's attributes (group, strides, dilations, pads,
// auto_pad): shared by Conv (ops_conv.cpp) and the quantized convolutions (ops_quant.cpp).
#pragma once
#include "graph/graph_ir.hpp"

namespace prim {
namespace graph {
namespace detail {

struct conv_geometry {
    int64_t group = 1;
    memory::dims strides, dilates, pad_l, pad_r, out; // dilates: prim's (0 = no gap)
};

// The geometry of node n on input dims x and weight dims w; fails naming the node when they do
// not agree with its attributes.
conv_geometry conv_geometry_of(const node &n, const memory::dims &x, const memory::dims &w);
// The attribute checks made when the model is compiled.
void check_conv(const model &m, const node &n);

} // namespace detail
} // namespace graph
} // namespace prim
