// benchdnn's syntax for what the driver accepts beyond prim's own strings: algorithm names in
// any case and with benchdnn's spellings (RELU, eltwise_relu, relu_dst), the post-op entries of
// --attr-post-ops that prim cannot run (binary, prelu, dw, a sum with a zero point or a data
// type), and data type names. The library's fusion-string parser stays strict: the driver
// translates into it here.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "settings.hpp"

namespace bdl {

// A value that does not follow benchdnn's syntax; the message names the offending part.
struct syntax_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An eltwise algorithm by any of benchdnn's spellings: case-insensitive, an optional "eltwise_"
// prefix, the fusion-string aliases (sigmoid, gelu, ...), and the _dst variants oneDNN defines
// (relu, elu, tanh, sqrt, logistic, exp, clip_v2; also written _use_dst_for_bwd), whose forward
// result is the function without _dst. nullopt when unknown.
std::optional<eltwise_alg> find_eltwise_alg(const std::string &name);

// --attr-post-ops=CHAINS in benchdnn's syntax: chains joined by ',', entries by '+':
//   sum[:SCALE[:ZERO_POINT[:DT]]]  ALG[:ALPHA[:BETA[:SCALE]]]  BINALG:DT[:POLICY_OR_MASK[:TAG]]
//   prelu[:POLICY]  dw:KkSsPp[:DT[...]] (or dw_kKsSpP)
// Throws syntax_error for what benchdnn would refuse too.
std::vector<chain_spec> parse_chains(const std::string &value);

// A data type name of benchdnn (f32, bf16, f16, s8, u8, s32, f64, f8_e5m2, ...).
bool is_data_type(const std::string &name);
// A value of --dt (DT[:DT...]) or --cfg (a concatenation such as u8s8u8, f32, bf16bf16f32, an
// optional _wino suffix). Throws syntax_error otherwise.
void check_dt_value(const std::string &value);
// Why prim cannot run a --dt/--cfg value ("" when every data type is f32).
std::string dt_skip_reason(const std::string &value);

// Splits s at every sep (an empty s gives one empty part).
std::vector<std::string> split(const std::string &s, char sep);
std::string lower(std::string s);

} // namespace bdl
