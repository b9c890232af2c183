// What a driver's oneDNN mapping (DRIVER/DRIVER_onednn.cpp, named by its row of
// driver_table.cpp) builds for --cmp=onednn: the primitive, its bound arguments and the data
// they hold, which onednn_case runs. Only where oneDNN is found (PRIM_WITH_ONEDNN).
#pragma once
#ifdef PRIM_WITH_ONEDNN

#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "onednn/onednn_case.hpp"
#include "onednn/onednn_map.hpp"
#include "problem_case.hpp"
#include "settings.hpp"

namespace bdl {

// The oneDNN names the mappings use: `using namespace onednn_names;`.
namespace onednn_names {
using dnnl::memory;
using tag = dnnl::memory::format_tag;
constexpr auto f32 = dnnl::memory::data_type::f32;
} // namespace onednn_names

// oneDNN 2.6's algorithm of an onednn_op's name (onednn_map.hpp): eltwise, binary.
dnnl::algorithm onednn_eltwise_alg(const std::string &name);
dnnl::algorithm onednn_binary_alg(const std::string &name);
// The plain layout of a rank (a, ab, abc, ...).
dnnl::memory::format_tag plain_tag(size_t rank);
dnnl::memory::dims onednn_dims(const prim::memory::dims &d);
dnnl::memory::data_type onednn_type(prim::memory::data_type t);
// --dir: forward inference or training.
dnnl::prop_kind prop_of(const settings &s);
// A zeroed plain buffer of dims (at least one element).
std::vector<float> plain_buffer(const dnnl::memory::dims &dims);

// An int8 dw post-op as oneDNN 2.6 takes it (conv_onednn.cpp fills it before post_ops_attr):
// append_dw's types and output scales (mask 2 when per channel), and the oneDNN v3 dst scales
// of each half as linear:1/scale entries after its chain (at the dw entry, at the end).
struct onednn_dw_int8 {
    bool int8 = false;
    prim::memory::data_type wei = prim::memory::data_type::s8, dst = prim::memory::data_type::f32;
    int mask = 0;
    std::vector<float> scales;
    float mid_inv_scale = 1.f, dst_inv_scale = 1.f;
};

struct onednn_state {
    std::vector<onednn_op> ops; // the chain as oneDNN post-ops (post_ops_attr)
    prim::post_ops chain;       // prim's, whose entries the binary and prelu ops name
    dnnl::engine eng {dnnl::engine::kind::cpu, 0};
    dnnl::stream strm {eng};
    dnnl::primitive prim;
    std::unordered_map<int, dnnl::memory> args;
    std::string impl;
    dnnl::memory::dims dst_dims;
    prim::memory::dims dw_mid; // the 1x1's output, before a dw post-op
    onednn_dw_int8 dw_int8;    // an int8 dw post-op's form
    std::vector<std::vector<float>> keep; // plain data of the user memories
    int nan_source = -1; // eltwise: the index of its source in keep (see onednn_case::result())

    // A memory in the layout `target` holding `data` (plain, dims).
    dnnl::memory bind(std::vector<float> data, const dnnl::memory::dims &dims,
                      const dnnl::memory::desc &target);
    // The operand of each binary and prelu op: prim's data for that entry, in the layout
    // oneDNN reports (binary) or reads (prelu).
    void bind_operands(const dnnl::primitive_desc_base &pd, const prim::memory::dims &dst);
    // An attribute with the chain po as oneDNN post-ops (ops and chain keep it for
    // bind_operands; a convolution sets dw_mid first). Throws onednn_skip when oneDNN 2.6
    // cannot express or run the chain; `fails_prelu` names a primitive of oneDNN 2.6 that fails
    // to execute prelu post-ops ("inner product"), nullptr when none.
    dnnl::primitive_attr post_ops_attr(const prim::post_ops &po, const problem_case &pc,
                                       const char *fails_prelu = nullptr);
};

} // namespace bdl

#endif
