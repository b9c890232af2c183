// How prim's post-ops chains and eltwise algorithms are written for oneDNN 2.6, for the
// side-by-side mode (--cmp=onednn). This part needs no oneDNN headers (so it builds and is
// tested everywhere); onednn_case.cpp (post_ops_attr) turns the result into dnnl::post_ops.
//
// Most algorithms have the same definition in oneDNN 2.6. The others are written as what a
// oneDNN user would append to get the same function, or refused with the reason:
//   soft_relu:A, softplus:A     linear:A:0 + soft_relu with scale 1/A (2.6's has no alpha)
//   parametric_softplus:A:B     linear:B:0 + soft_relu with scale A
//   hardswish:1/6:0.5           hardswish (2.6's is fixed: x * relu6(x + 3) / 6); others refused
//   hardsigmoid:A:B             linear:A:B + clip:0:1
//   selu:A:B                    elu:A with scale B
//   celu:A (A > 0)              linear:1/A:0 + elu:1 with scale A
//   scaled_tanh:A:B             linear:B:0 + tanh with scale A
//   identity                    linear:1:0
//   softsign, shrink, thresholded_relu, celu with A < 0: refused (no oneDNN 2.6 equivalent)
// A chain with more than one sum is refused too: oneDNN 2.6 supports one. The dw post-op is
// append_dw with the same kernel, stride and padding (f32). Binary and prelu
// entries have the same definitions (append_binary, append_prelu), with the same operand data
// (onednn_case.cpp binds it; it also skips the inner product's and the binary's prelu, which
// 2.6 fails to run).
#pragma once
#include <string>
#include <vector>

#include "prim/attr.hpp"

namespace bdl {

// One oneDNN post-op (or the eltwise primitive's own algorithm), by its oneDNN 2.6 name.
struct onednn_op {
    enum class kind { eltwise, sum, binary, prelu, dw };
    onednn_op::kind what = kind::eltwise;
    // eltwise: oneDNN 2.6's name without "eltwise_" ("relu", "soft_relu", ...); binary: without
    // "binary_" ("add", "ge", ...), the same as prim's.
    std::string alg;
    float alpha = 0.f, beta = 0.f, scale = 1.f;
    // binary, prelu, dw: the index of prim's entry, whose operand (policy, desc, data) or
    // depthwise parameters it takes.
    int entry = -1;
};

// The oneDNN 2.6 ops computing the same as the eltwise entry (alg, alpha, beta, scale). Empty
// with `why` set when oneDNN 2.6 cannot express it.
std::vector<onednn_op> map_eltwise(prim::algorithm alg, float alpha, float beta, float scale,
                                   std::string &why);

// The whole chain; empty with `why` set when an entry cannot be expressed. (An empty chain maps
// to an empty vector with `why` empty.)
std::vector<onednn_op> map_chain(const prim::post_ops &po, std::string &why);

// "relu:0.1+sum:2" style text of mapped ops, for messages and verbose lines.
std::string to_string(const std::vector<onednn_op> &ops);

} // namespace bdl
