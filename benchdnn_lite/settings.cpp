// Names of option values and the REPRO text of the settings.
#include "settings.hpp"

namespace bdl {

const char *driver_name(driver_kind d) {
    switch (d) {
    case driver_kind::conv: return "conv";
    case driver_kind::ip: return "ip";
    case driver_kind::eltwise: return "eltwise";
    default: return "none";
    }
}

const char *direction_name(direction d) {
    switch (d) {
    case direction::fwd_b: return "FWD_B";
    case direction::fwd_d: return "FWD_D";
    default: return "FWD_I";
    }
}

const char *fused_name(fused_mode f) {
    switch (f) {
    case fused_mode::on: return "on";
    case fused_mode::off: return "off";
    default: return "both";
    }
}

std::string settings::repro_options() const {
    std::string r;
    if (mode_p) r += mode_c ? "--mode=CP " : "--mode=P ";
    if (dir != direction::fwd_b) r += std::string("--dir=") + direction_name(dir) + " ";
    if (stag != "any") r += "--stag=" + stag + " ";
    if (wtag != "any") r += "--wtag=" + wtag + " ";
    if (dtag != "any") r += "--dtag=" + dtag + " ";
    if (fused != fused_mode::on) r += std::string("--fused=") + fused_name(fused) + " ";
    if (cmp_onednn) r += "--cmp=onednn ";
    if (mode_p && max_ms != default_max_ms) r += "--max-ms-per-prb=" + std::to_string(max_ms) + " ";
    return r;
}

} // namespace bdl
