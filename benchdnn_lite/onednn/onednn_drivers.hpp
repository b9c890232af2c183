// Each driver's oneDNN mapping for --cmp=onednn (DRIVER/DRIVER_onednn.cpp), which its row of
// driver_table.cpp names: builds the oneDNN primitive of the case, with the chain po, into st
// (onednn_state.hpp). Throws onednn_skip when oneDNN 2.6 cannot run the case, dnnl::error when it
// refuses it. Defined only where oneDNN is found (PRIM_WITH_ONEDNN).
#pragma once
#include "problem_case.hpp"
#include "settings.hpp"

namespace bdl {

struct onednn_state;

void onednn_conv(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);
void onednn_ip(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);
void onednn_eltwise(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);
void onednn_binary(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);
void onednn_bnorm(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);
void onednn_lnorm(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);
void onednn_softmax(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);
void onednn_concat(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);
void onednn_pool(onednn_state &st, const problem_case &pc, const settings &s, const prim::post_ops &po);

} // namespace bdl
