// benchdnn's syntax for what the driver accepts beyond prim's own strings: algorithm names in
// any case and with benchdnn's spellings (RELU, eltwise_relu, relu_dst), benchdnn's binary and
// prelu entries (policies by benchdnn's names or integer masks, an operand's TAG), the post-op
// entries of --attr-post-ops that prim cannot run (dw, a sum with a zero point, a data type
// other than f32, a policy whose dims depend on the rank), and data type names. The library's
// fusion-string parser stays strict: the driver translates into it here.
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
// prim's own spellings are among them (maskN policies included). A binary entry runs when DT is
// f32 and its policy has rank-free dims: common, per_oc (per_dim_1), per_dim_0, per_dim_01,
// per_dim_2, per_dim_3, per_dim_23, per_dim_023, per_dim_03, per_spatial (dims 2 to 5),
// per_mb_spatial, per_tensor, an integer mask N (maskN); per_w and per_mb_w are skipped. Its TAG
// is kept (chain_spec::operand_tags) when the operand spans several dims; 'any', or any tag of
// an operand spanning one dim, lets it follow the destination. Throws syntax_error for what
// benchdnn would refuse too, naming it (an unknown policy, data type or tag).
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
std::string upper(std::string s);

} // namespace bdl
