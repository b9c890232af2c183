// What options set (doc/reference.md §4): the lists each option holds (option_lists), the global
// options that --reset keeps (global_options), and the values of one case (settings), which the
// cases and the REPRO line read. The cases of a descriptor are the cross product of the lists
// (case_list.hpp).
#pragma once
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "common_knobs.hpp"
#include "prim/attr.hpp"

namespace bdl {

// The drivers; each has its row in driver_table.cpp.
enum class driver_kind { none, conv, ip, eltwise, binary, bnorm, lnorm, softmax, concat, pool };
const char *driver_name(driver_kind d); // its row's name, "conv", ...; "none"

// benchdnn's directions; prim runs the forward ones, the backward ones are skipped cases.
enum class direction { fwd_b, fwd_d, fwd_i, bwd_d, bwd_w, bwd_wb, bwd_dw };
const char *direction_name(direction d); // "FWD_B", ...
inline bool is_backward(direction d) { return d >= direction::bwd_d; }

enum class fused_mode { on, off, both };
const char *fused_name(fused_mode f); // "on", ...

// --alg of the convolution driver: auto runs as direct; wino is a skipped case.
enum class conv_alg { direct, auto_select, wino };
const char *conv_alg_name(conv_alg a); // "direct", "auto", "wino"

// --alg of the eltwise driver: an algorithm, and whether it was named as its _dst variant
// (relu_dst, ...: the same forward function; kept so that REPRO writes what the user wrote).
// oneDNN 2.x's bounded_relu with alpha A is clip with alpha 0 and beta A: its cases run as that
// clip (and REPRO writes them so).
struct eltwise_alg {
    prim::algorithm alg = prim::algorithm::eltwise_relu;
    bool dst = false;
    bool bounded_relu = false; // alg is clip; the case's alpha becomes beta (case_list.cpp)
    std::string name() const; // "relu", "relu_dst"
    bool operator==(const eltwise_alg &o) const {
        return alg == o.alg && dst == o.dst && bounded_relu == o.bounded_relu;
    }
};

// One chain of --attr-post-ops, translated from benchdnn's syntax. When skip is not empty the
// chain holds an entry prim cannot run (dw, a sum with a zero point, another data type, a
// rank-dependent policy): its cases are SKIPPED with that reason and REPRO writes `text`, the
// chain as given.
struct chain_spec {
    prim::post_ops po;
    std::string text; // as written (for skipped chains)
    std::string skip; // "" when the chain runs
    // An entry only an int8 convolution or inner product runs (a sum with a zero point or a
    // data type, an integer binary operand): other cases are skipped with this reason.
    std::string needs_int8;
    // Per entry of po, the layout TAG benchdnn's ALG:DT:POLICY:TAG gave a binary operand ("" for
    // every other entry); empty when no operand has one, so every operand follows the
    // destination's layout as po describes it.
    std::vector<std::string> operand_tags;
    // What REPRO writes after --attr-post-ops= ("" for an empty chain).
    std::string repro() const;
    // The chain for a destination of dst_dims: po, with each tagged operand given by its desc
    // (append_binary(alg, desc)). Throws prim::error(invalid_arguments) when a tag does not fit.
    prim::post_ops for_dst(const prim::memory::dims &dst_dims) const;
};

constexpr int default_max_ms = 500;

// The values of one case.
struct settings {
    bool mode_c = true, mode_p = false;    // --mode=C (default), P, CP
    direction dir = direction::fwd_b;      // --dir
    std::string dt = "f32";                // --dt / --cfg, as written
    std::string stag = "any", wtag = "any", dtag = "any";
    std::string strides;                   // --strides=SRC:WEI:DST ("" = none), as written
    conv_alg calg = conv_alg::direct;      // --alg (conv)
    eltwise_alg alg;                       // --alg (eltwise)
    prim::algorithm balg = prim::algorithm::binary_add; // --alg (binary)
    prim::algorithm palg = prim::algorithm::pooling_max; // --alg (pool)
    std::string flags;                     // --flags (bnorm, lnorm): benchdnn's letters, as written
    prim::algorithm salg = prim::algorithm::softmax_accurate; // --alg (softmax)
    int axis = 1;                          // --axis (softmax, concat), benchdnn's default
    bool alpha_given = false, beta_given = false; // --alpha, --beta; else each alg's default
    float alpha = 0.f, beta = 0.f;
    int64_t mb = 0;                        // --mb; 0 keeps the descriptor's own
    bool inplace = false;                  // --inplace (eltwise)
    std::string bia_dt = "f32";            // --bia-dt (conv, ip), as written
    std::string scales, zero_points;       // --attr-scales, --attr-zero-points ("" = none)
    std::string oscale;                    // --attr-oscale (oneDNN 2.x), "" = none
    std::string fpmath;                    // --attr-fpmath ("" = strict)
    fused_mode fused = fused_mode::on;     // --fused
    int max_ms = default_max_ms;           // --max-ms-per-prb
    bool cmp_onednn = false;               // --cmp=onednn: side by side with oneDNN
    std::vector<std::string> skip_impl;    // --skip-impl patterns
    std::string plan;                      // --plan (conv): a fusion plan's operators, "CBNA"
    common_knobs knobs;                    // benchdnn's other common options
    extra_values extra;                    // benchdnn's other driver options (common_knobs.hpp)

    // The options of a REPRO line that differ from their defaults, each followed by a space,
    // without the chain and the eltwise or binary algorithm (the case adds those); --flags here.
    std::string repro_options() const;
};

// The options that --reset leaves alone (benchdnn's common options).
struct global_options {
    bool mode_c = true, mode_p = false, mode_list = false; // --mode=C|P|CP|L
    fused_mode fused = fused_mode::on;
    int max_ms = default_max_ms;
    bool cmp_onednn = false;
    std::vector<std::string> skip_impl; // --skip-impl=A,B: patterns, any substring match
    common_knobs knobs;                 // --start, --impl, --check-ref-impl, --engine, ...
};

// The driver options: each holds the list of values its comma list gave.
struct option_lists {
    std::vector<direction> dir {direction::fwd_b};
    std::vector<std::string> dt {"f32"};
    std::vector<std::string> stag {"any"}, wtag {"any"}, dtag {"any"};
    std::vector<std::string> strides {""};
    std::vector<conv_alg> calg {conv_alg::direct};
    std::vector<eltwise_alg> alg {eltwise_alg()};
    std::vector<prim::algorithm> balg {prim::algorithm::binary_add};
    std::vector<prim::algorithm> palg {prim::algorithm::pooling_max};
    std::vector<std::string> flags {""};
    std::vector<prim::algorithm> salg {prim::algorithm::softmax_accurate};
    std::vector<int> axis {1};
    std::vector<float> alpha, beta;        // empty: each algorithm's default
    std::vector<chain_spec> chains {chain_spec()};
    std::vector<std::string> scales {""}, zero_points {""}, fpmath {""}, oscale {""};
    std::vector<std::string> bia_dt {"f32"};
    std::vector<int64_t> mb {0};
    std::vector<bool> inplace {false};
    std::vector<std::string> plan {""};    // --plan (conv); "" runs the primitive
    extra_lists extra;                     // --sdt, --ddt, --bia-dt, ... (common_knobs.hpp)
    std::string match;                     // --match; "" runs everything
    std::shared_ptr<const std::regex> match_re;

    bool matches(const std::string &desc) const {
        return !match_re || std::regex_search(desc, *match_re);
    }
};

} // namespace bdl

namespace bdl {
// The normalization_flags bits of a --flags value (G use_global_stats, C use_scale, H use_shift);
// *unsupported gets the first benchdnn letter prim does not run (S, R, A, M), 0 when none.
unsigned norm_flags_of(const std::string &flags, char *unsupported = nullptr);
// True for a letter of benchdnn's --flags (G C H S R A M).
bool is_norm_flag_letter(char c);
} // namespace bdl
