// Names of option values and the REPRO text of the settings.
#include "settings.hpp"

#include "attr/algorithm_table.hpp"
#include "common/problem.hpp"
#include "attr/operand_policy.hpp"
#include "common/post_op_operands.hpp"
#include "common/plain_layout.hpp"
#include "driver_table.hpp"
#include "post_op_entries.hpp"
#include "tags.hpp"

namespace bdl {

const char *driver_name(driver_kind d) {
    return d == driver_kind::none ? "none" : driver_of(d).name;
}

const char *direction_name(direction d) {
    switch (d) {
    case direction::fwd_b: return "FWD_B";
    case direction::fwd_d: return "FWD_D";
    case direction::fwd_i: return "FWD_I";
    case direction::bwd_d: return "BWD_D";
    case direction::bwd_w: return "BWD_W";
    case direction::bwd_dw: return "BWD_DW";
    default: return "BWD_WB";
    }
}

const char *fused_name(fused_mode f) {
    switch (f) {
    case fused_mode::on: return "on";
    case fused_mode::off: return "off";
    default: return "both";
    }
}

const char *conv_alg_name(conv_alg a) {
    switch (a) {
    case conv_alg::direct: return "direct";
    case conv_alg::auto_select: return "auto";
    default: return "wino";
    }
}

std::string eltwise_alg::name() const {
    const prim::impl::algorithm_info *info = prim::impl::find_algorithm(alg);
    return std::string(info ? info->name : "?") + (dst ? "_dst" : "");
}

std::string settings::repro_options() const {
    std::string r;
    if (mode_p) r += mode_c ? "--mode=CP " : "--mode=P ";
    if (dir != direction::fwd_b) r += std::string("--dir=") + direction_name(dir) + " ";
    if (dt != "f32") r += "--dt=" + dt + " ";
    if (stag != "any") r += "--stag=" + stag + " ";
    if (wtag != "any") r += "--wtag=" + wtag + " ";
    if (dtag != "any") r += "--dtag=" + dtag + " ";
    if (strides.find_first_not_of(':') != std::string::npos) r += "--strides=" + strides + " ";
    if (calg != conv_alg::direct) r += std::string("--alg=") + conv_alg_name(calg) + " ";
    if (!flags.empty()) r += "--flags=" + flags + " ";
    if (salg == prim::algorithm::softmax_log) r += "--alg=LOGSOFTMAX ";
    if (axis != 1) r += "--axis=" + std::to_string(axis) + " ";
    if (inplace) r += "--inplace=true ";
    if (!plan.empty()) r += "--plan=" + plan + " ";
    if (bia_dt != "f32") r += "--bia-dt=" + bia_dt + " ";
    if (!oscale.empty()) r += "--attr-oscale=" + oscale + " ";
    if (!scales.empty()) r += "--attr-scales=" + scales + " ";
    if (!zero_points.empty()) r += "--attr-zero-points=" + zero_points + " ";
    if (!fpmath.empty()) r += "--attr-fpmath=" + fpmath + " ";
    if (fused != fused_mode::on) r += std::string("--fused=") + fused_name(fused) + " ";
    if (cmp_onednn) r += "--cmp=onednn ";
    if (!skip_impl.empty()) {
        r += "--skip-impl=";
        for (size_t j = 0; j < skip_impl.size(); ++j) r += (j ? "," : "") + skip_impl[j];
        r += " ";
    }
    if (mode_p && max_ms != default_max_ms) r += "--max-ms-per-prb=" + std::to_string(max_ms) + " ";
    return r + knobs.repro() + extras_repro(extra);
}

bool is_norm_flag_letter(char c) {
    return c == 'G' || c == 'C' || c == 'H' || c == 'S' || c == 'R' || c == 'A' || c == 'M';
}

unsigned norm_flags_of(const std::string &flags, char *unsupported) {
    unsigned f = 0;
    if (unsupported) *unsupported = 0;
    for (char c : flags) {
        if (c == 'G') f |= prim::impl::norm_flags::global_stats;
        else if (c == 'C') f |= prim::impl::norm_flags::scale;
        else if (c == 'H') f |= prim::impl::norm_flags::shift;
        else if (unsupported && !*unsupported) *unsupported = c;
    }
    return f;
}

std::string chain_spec::repro() const {
    if (!skip.empty()) return text;
    if (operand_tags.empty()) return prim::to_string(po);
    // Entry by entry; a tagged operand as ALG:f32:POLICY:TAG, which parse_chains reads back.
    std::string r;
    for (int i = 0; i < po.len(); ++i) {
        const prim::post_ops::entry &e = po.entries()[i];
        std::string one;
        if (operand_tags[i].empty()) {
            prim::post_ops single;
            append_entry(single, e);
            one = prim::to_string(single);
        } else {
            one = std::string(prim::algorithm_name(e.alg)) + ":f32:"
                  + prim::impl::policy_name(e.mask) + ":" + operand_tags[i];
        }
        r += (i ? "+" : "") + one;
    }
    return r;
}

prim::post_ops chain_spec::for_dst(const prim::memory::dims &dst_dims) const {
    if (operand_tags.empty()) return po;
    prim::post_ops out;
    for (int i = 0; i < po.len(); ++i) {
        const prim::post_ops::entry &e = po.entries()[i];
        if (operand_tags[i].empty()) {
            append_entry(out, e);
            continue;
        }
        const std::string who = "the TAG of post-op " + std::to_string(i) + " ("
                                + prim::algorithm_name(e.alg) + ")";
        const prim::memory::desc f32 = make_desc(prim::impl::operand_dims(e, dst_dims), operand_tags[i],
                                                 who.c_str());
        out.append_binary(e.alg, e.dt == prim::memory::data_type::undef ? f32 : prim::impl::retyped(f32, e.dt));
    }
    return out;
}

} // namespace bdl
