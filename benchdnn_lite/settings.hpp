// The options that apply to the descriptors that follow them (doc/reference.md §4), and how a
// case's REPRO line writes back the ones that are not at their default.
#pragma once
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "prim/attr.hpp"

namespace bdl {

enum class driver_kind { none, conv, ip, eltwise };
const char *driver_name(driver_kind d); // "conv", "ip", "eltwise"

enum class direction { fwd_b, fwd_d, fwd_i };
const char *direction_name(direction d); // "FWD_B", ...

enum class fused_mode { on, off, both };
const char *fused_name(fused_mode f); // "on", ...

constexpr int default_max_ms = 500;

struct settings {
    bool mode_c = true, mode_p = false;              // --mode=C (default), P, CP
    std::vector<prim::post_ops> chains {prim::post_ops()}; // --attr-post-ops, one case each
    direction dir = direction::fwd_b;                // --dir
    std::vector<prim::algorithm> algs {prim::algorithm::eltwise_relu}; // --alg (eltwise)
    bool alpha_given = false, beta_given = false;    // --alpha, --beta; else each alg's default
    float alpha = 0.f, beta = 0.f;
    std::string stag = "any", wtag = "any", dtag = "any";
    int64_t mb = 0;                                  // --mb; 0 keeps the descriptor's own
    std::string match;                               // --match; "" runs everything
    std::shared_ptr<const std::regex> match_re;
    fused_mode fused = fused_mode::on;               // --fused
    int max_ms = default_max_ms;                     // --max-ms-per-prb
    bool cmp_onednn = false;                         // --cmp=onednn: side by side with oneDNN

    bool matches(const std::string &desc) const {
        return !match_re || std::regex_search(desc, *match_re);
    }
    // The options of a REPRO line that differ from their defaults, each followed by a space,
    // without the chain and the eltwise algorithm (the case adds those).
    std::string repro_options() const;
};

} // namespace bdl
