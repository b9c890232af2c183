// The int8 side of a convolution or inner-product case (doc/int8.md): the data types of --dt /
// --cfg and --bia-dt, and the quantization of --attr-oscale, --attr-scales and
// --attr-zero-points, in benchdnn's syntax, read into what prim's attribute takes.
#pragma once
#include <string>
#include <vector>

#include "prim/attr.hpp"
#include "settings.hpp"

namespace bdl {

using dt = prim::memory::data_type;

struct weighted_types {
    dt src = dt::f32, wei = dt::f32, dst = dt::f32, bias = dt::f32;
    bool int8() const { return src == dt::u8 || src == dt::s8; }
    std::string str() const; // "u8:s8:u8"
};

// One ARG:POLICY[:VALUE] (or the oscale's POLICY[:VALUE]): -1 when not given; per_channel: one
// value per channel (oc, or ic for a src zero point), derived from value (quant_values()).
struct quant_param {
    bool given = false, per_channel = false;
    float value = 1.f;
};

struct quant_spec {
    weighted_types types;
    quant_param oscale;                        // oneDNN 2.x output scales
    quant_param src_scale, wei_scale, dst_scale; // oneDNN v3
    quant_param src_zp, dst_zp;
    // The dw post-op's depthwise convolution (attr_post_op_dw_wei / attr_post_op_dw_dst, oneDNN
    // v3): its weights' scales (common or per channel) and its dst scale; its src scale is
    // dst_scale (the 1x1's output is its input).
    quant_param dw_wei_scale, dw_dst_scale;
    bool any() const;
};

// f32, s32, s8 or u8 by name into t; false for another name.
bool type_of(const std::string &name, dt &t);
// A 2.x --cfg ("u8s8u8") as its type names; {cfg} when it does not split into them.
std::vector<std::string> split_cfg(const std::string &cfg);
// f[at] a POLICY (common, or per channel when channel_ok), f[at + 1] an optional VALUE: "" when
// read into p, else the reason; what names the parameter.
std::string read_quant_param(const std::string &what, const std::vector<std::string> &f, size_t at,
                             bool channel_ok, quant_param &p);

// Reads the case's settings; "" when prim runs them, else the reason the case is skipped.
std::string parse_quant_spec(const settings &s, quant_spec &q);

// The values of a parameter for `channels` channels: value when common, else value times
// 1, 1/2, 2, 1/4 in turn (scales) or value + 0, 1, 2 in turn (zero points), as benchdnn varies
// per-channel values.
std::vector<float> quant_values(const quant_param &p, int64_t channels, bool zero_point);

// prim's attribute for q on a problem with `grouped` weights: scales masks, zero-point masks,
// output scales (given at execute: PRIM_RUNTIME_F32_VAL).
void add_quantization(const quant_spec &q, bool grouped, prim::primitive_attr &attr);

} // namespace bdl
