// Option parsing and batch-file expansion for benchdnn_lite.
#include "parser.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <algorithm>
#include <optional>

#include "attr_syntax.hpp"
#include "driver_table.hpp"
#include "prim/error.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

// True when the driver d takes the option (driver_option); before the driver option, every
// driver's options are taken.
bool driver_takes(driver_kind d, driver_option option) {
    return d == driver_kind::none || (driver_of(d).takes & option) != 0;
}

// --plan=LETTERS: "" when the letters make a plan (plan/plan_case.cpp), else why not.
std::string plan_letters_error(const std::string &letters) {
    if (letters.empty() || letters[0] != 'C')
        return "a plan of the conv driver starts with C (the convolution)";
    for (size_t i = 1; i < letters.size(); ++i)
        if (std::string("BNASD").find(letters[i]) == std::string::npos)
            return std::string("plan letter '") + letters[i] + "' is not one of C B N A S D";
    return "";
}

int64_t parse_int(const std::string &token, const std::string &value, int64_t lo, int64_t hi) {
    if (value.empty()) bad_option(token, "a number is needed");
    for (char c : value)
        if (!std::isdigit(static_cast<unsigned char>(c))) bad_option(token, "'" + value + "' is not a number");
    if (value.size() > 12) bad_option(token, "'" + value + "' is too large");
    const int64_t v = std::stoll(value);
    if (v < lo || v > hi)
        bad_option(token, "value must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
}

// NUMBER of the fusion-string grammar: a finite decimal or +-inf; NaN refused.
float parse_float(const std::string &token, const std::string &value) {
    if (value.empty()) bad_option(token, "a number is needed");
    const std::string body = (value[0] == '-' || value[0] == '+') ? value.substr(1) : value;
    if (body == "inf") return value[0] == '-' ? -INFINITY : INFINITY;
    for (char c : body)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E'
              || c == '-' || c == '+'))
            bad_option(token, "'" + value + "' is not a number");
    char *end = nullptr;
    errno = 0;
    const float v = std::strtof(value.c_str(), &end);
    if (end != value.c_str() + value.size() || std::isnan(v))
        bad_option(token, "'" + value + "' is not a number");
    return v;
}

bool parse_bool(const std::string &token, const std::string &v) {
    const std::string l = lower(v);
    if (l == "true" || l == "1") return true;
    if (l == "false" || l == "0") return false;
    bad_option(token, "'" + v + "' is not true or false");
}

// --attr-scales / --attr-zero-points: ARG:POLICY[:VALUE][+...] per item ("" = none).
void check_arg_policy(const std::string &token, const std::string &value) {
    if (value.empty()) return;
    for (const std::string &e : split(value, '+')) {
        const std::vector<std::string> f = split(e, ':');
        static const char *const args[] = {"src", "src0", "src1", "wei", "dst", "bia", "bias",
                                           "attr_post_op_dw_src", "attr_post_op_dw_wei",
                                           "attr_post_op_dw_dst"}; // the dw post-op's (int8)
        bool known = false;
        for (const char *a : args) known = known || f[0] == a || f[0].compare(0, 4, "msrc") == 0;
        if (!known) bad_option(token, "unknown argument '" + f[0] + "'");
        if (f.size() < 2 || f[1].empty()) bad_option(token, "'" + e + "' needs a policy (ARG:POLICY[:VALUE])");
        if (f.size() > 4) bad_option(token, "'" + e + "' has too many fields");
    }
}

// A --match pattern std::regex can take without deep recursion (issue 11).
void check_match(const std::string &token, const std::string &value) {
    if (value.size() > max_match_length)
        bad_option(token, "the pattern is longer than " + std::to_string(max_match_length) + " characters");
    int depth = 0, deepest = 0;
    bool escaped = false;
    for (char c : value) {
        if (escaped) {
            escaped = false;
            continue;
        }
        if (c == '\\') escaped = true;
        else if (c == '(') deepest = std::max(deepest, ++depth);
        else if (c == ')') --depth;
    }
    if (deepest > max_match_depth)
        bad_option(token, "parentheses nested deeper than " + std::to_string(max_match_depth));
}

// True when text ends with '\\' (trailing whitespace allowed); removes it and the whitespace.
bool ends_with_backslash(std::string &text) {
    size_t end = text.find_last_not_of(" \t\r");
    if (end == std::string::npos || text[end] != '\\') return false;
    text.resize(end);
    return true;
}

// The continued line `before` (its backslash removed) joined with the next line.
std::string glue(const std::string &before, const std::string &next) {
    const size_t last = before.find_last_not_of(" \t\r");
    const size_t first = next.find_first_not_of(" \t\r");
    if (last == std::string::npos) return next;
    if (first == std::string::npos) return before;
    const char b = before[last], a = next[first];
    const bool in_list = b == ',' || b == '+' || b == ':' || b == '=' || a == ',' || a == '+';
    return before.substr(0, last + 1) + (in_list ? "" : " ") + next.substr(first);
}

std::string folder_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

} // namespace

[[noreturn]] void bad_option(const std::string &token, const std::string &why) {
    // A pathological token (a 40,000-character --match) is shown by its start only.
    const std::string shown = token.size() > 200 ? token.substr(0, 200) + "..." : token;
    throw option_error("bad option '" + shown + "': " + why);
}

std::vector<std::string> option_items(const std::string &token, const std::string &value,
                                      bool allow_empty) {
    std::vector<std::string> out = split(value, ',');
    if (!allow_empty && out.size() > 1)
        for (const std::string &v : out)
            if (v.empty()) bad_option(token, "an empty item in the list");
    return out;
}

bool apply_option(const std::string &token, parser_state &st) {
    if (token.empty() || token[0] != '-') return false;
    option_lists &l = st.lists;
    global_options &g = st.globals;
    const size_t eq = token.find('=');
    const std::string key = token.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? token.substr(eq + 1) : std::string();
    auto need_value = [&] {
        if (!has_value) bad_option(token, "expected " + key + "=VALUE");
    };
    auto no_value = [&] {
        if (has_value) bad_option(token, key + " takes no value");
    };

    if (const driver_info *row = find_driver_option(key)) {
        no_value();
        if (st.driver != driver_kind::none && st.driver != row->kind)
            bad_option(token, std::string("the driver is already --") + driver_name(st.driver)
                              + " (one driver per run)");
        st.driver = row->kind;
    } else if (key == "--mode") {
        need_value();
        const std::string m = upper(value);
        if (m == "L") {
            g.mode_list = true;
            return true;
        }
        if (m != "C" && m != "P" && m != "CP" && m != "PC") bad_option(token, "mode must be C, P, CP or L");
        g.mode_list = false;
        g.mode_c = m.find('C') != std::string::npos;
        g.mode_p = m.find('P') != std::string::npos;
    } else if (key == "--attr-post-ops") {
        need_value();
        try {
            l.chains = parse_chains(value);
        } catch (const syntax_error &e) {
            bad_option(token, e.what());
        }
    } else if (key == "--dir") {
        need_value();
        std::vector<direction> dirs;
        for (const std::string &v : option_items(token, value)) {
            const std::string d = upper(v);
            if (d == "FWD_B") dirs.push_back(direction::fwd_b);
            else if (d == "FWD_D") dirs.push_back(direction::fwd_d);
            else if (d == "FWD_I") dirs.push_back(direction::fwd_i);
            else if (d == "BWD_D") dirs.push_back(direction::bwd_d);
            else if (d == "BWD_W") dirs.push_back(direction::bwd_w);
            else if (d == "BWD_WB") dirs.push_back(direction::bwd_wb);
            else if (d == "BWD_DW") dirs.push_back(direction::bwd_dw); // bnorm, lnorm
            else bad_option(token, "direction must be FWD_B, FWD_D, FWD_I, BWD_D, BWD_W, BWD_WB or BWD_DW");
        }
        l.dir = dirs;
    } else if (key == "--dt" || key == "--cfg") {
        need_value();
        std::vector<std::string> dts = option_items(token, value);
        for (std::string &v : dts) {
            v = lower(v);
            try {
                check_dt_value(v);
            } catch (const syntax_error &e) {
                bad_option(token, e.what());
            }
        }
        l.dt = dts;
    } else if (key == "--bia-dt" || key == "--bia_dt") {
        need_value();
        std::vector<std::string> dts = option_items(token, value);
        for (std::string &v : dts) {
            v = lower(v);
            if (v != "undef" && !is_data_type(v)) bad_option(token, "unknown data type '" + v + "'");
        }
        l.bia_dt = dts;
    } else if (key == "--alg") {
        need_value();
        // Before the driver option, --alg is read as eltwise's.
        const driver_info &row = driver_of(st.driver == driver_kind::none ? driver_kind::eltwise : st.driver);
        if (!row.parse_alg) bad_option(token, std::string("--") + row.name + " has no --alg");
        row.parse_alg(token, value, l);
    } else if (key == "--flags") {
        need_value();
        if (!driver_takes(st.driver, takes_flags))
            bad_option(token, "--flags is an option of " + driver_options_text(takes_flags, ", ", " and "));
        std::vector<std::string> v = option_items(token, value, true);
        for (std::string &x : v) {
            x = upper(x);
            for (char c : x)
                if (!is_norm_flag_letter(c))
                    bad_option(token, "unknown flag '" + std::string(1, c)
                                       + "' (benchdnn's letters: G, C, H, S, R, A, M)");
        }
        l.flags = v;
    } else if (key == "--axis") {
        need_value();
        if (!driver_takes(st.driver, takes_axis))
            bad_option(token, "--axis is an option of " + driver_options_text(takes_axis, ", ", " and "));
        std::vector<int> v;
        for (const std::string &x : option_items(token, value)) v.push_back(static_cast<int>(parse_int(token, x, 0, 4)));
        l.axis = v;
    } else if (key == "--alpha" || key == "--beta") {
        need_value();
        if (value.empty()) { // benchdnn: back to the default (each algorithm's own)
            (key == "--alpha" ? l.alpha : l.beta).clear();
            return true;
        }
        std::vector<float> v;
        for (const std::string &x : option_items(token, value)) v.push_back(parse_float(token, x));
        (key == "--alpha" ? l.alpha : l.beta) = v;
    } else if (key == "--stag" || key == "--wtag" || key == "--dtag" || key == "--tag") {
        need_value();
        // --tag is the data layout of eltwise, pool and benchdnn's bnorm and lnorm.
        // (The message keeps its order of the drivers, which the tests and users know.)
        if (key == "--tag" && !driver_takes(st.driver, takes_tag))
            bad_option(token, "--tag is an option of --eltwise, --pool, --bnorm and --lnorm; use --stag, --wtag, --dtag");
        // benchdnn's spellings: an empty value is the default again, 'undef' is 'any'.
        std::vector<std::string> tags = option_items(token, value.empty() ? "any" : value);
        for (std::string &t : tags)
            if (lower(t) == "undef") t = "any";
        for (const std::string &t : tags) {
            // --binary's --stag is TAG0:TAG1 (one tag: both sources); --concat's TAG0:TAG1:...;
            // --bnorm's and --lnorm's --tag (and --stag, which REPRO writes) is SRC[:DST]
            const bool norm_tag = is_norm(st.driver) && (key == "--tag" || key == "--stag");
            const bool multi = (st.driver != driver_kind::none && driver_of(st.driver).stag_per_source
                                && key == "--stag") || norm_tag;
            const std::vector<std::string> parts = multi ? split(t, ':') : std::vector<std::string> {t};
            if (parts.size() > 2 && st.driver == driver_kind::binary) bad_option(token, "--stag of --binary is TAG0:TAG1");
            if (parts.size() > 2 && norm_tag) bad_option(token, "--tag of --bnorm and --lnorm is SRC[:DST]");
            for (const std::string &p : parts)
                if (!parse_tag(p)) bad_option(token, "unknown layout tag '" + p + "'");
        }
        (key == "--wtag" ? l.wtag : key == "--dtag" ? l.dtag : l.stag) = tags;
    } else if (key == "--strides") {
        need_value();
        const int parts = st.driver == driver_kind::none ? 3 : driver_of(st.driver).strides_parts;
        std::vector<std::string> v = option_items(token, value);
        for (const std::string &x : v)
            if (!parse_strides(x, 0, parts))
                bad_option(token, "strides are " + std::string(parts == 2 ? "SRC:DST" : "SRC:WEI:DST")
                                   + ", each empty or positive integers joined by 'x'");
        l.strides = v;
    } else if (key == "--mb") {
        need_value();
        std::vector<int64_t> mbs;
        for (const std::string &v : option_items(token, value))
            mbs.push_back(parse_int(token, v, 0, (int64_t(1) << 31) - 1));
        l.mb = mbs;
    } else if (key == "--plan") {
        need_value();
        if (st.driver == driver_kind::none || !driver_takes(st.driver, takes_plan))
            bad_option(token, "--plan is an option of " + driver_options_text(takes_plan, ", ", " and "));
        std::vector<std::string> v = option_items(token, value, true);
        for (const std::string &x : v) {
            const std::string why = plan_letters_error(x);
            if (!why.empty()) bad_option(token, why);
        }
        l.plan = v;
    } else if (key == "--inplace") {
        need_value();
        std::vector<bool> v;
        for (const std::string &x : option_items(token, value)) v.push_back(parse_bool(token, x));
        l.inplace = v;
    } else if (key == "--attr-scales" || key == "--attr-zero-points" || key == "--attr-oscale") {
        need_value();
        std::vector<std::string> v = option_items(token, value, true);
        for (const std::string &x : v)
            if (key != "--attr-oscale") check_arg_policy(token, x);
        (key == "--attr-zero-points" ? l.zero_points : key == "--attr-oscale" ? l.oscale : l.scales) = v;
    } else if (key == "--attr-fpmath") {
        need_value();
        std::vector<std::string> v = option_items(token, value, true);
        for (std::string &x : v) {
            const std::vector<std::string> f = split(x, ':'); // MODE[:APPLY_TO_INT]
            const std::string m = lower(f[0]);
            if (!(m.empty() || m == "strict" || m == "bf16" || m == "f16" || m == "tf32"
                  || m == "any") || f.size() > 2)
                bad_option(token, "fpmath mode must be strict, bf16, f16, tf32 or any");
            if (f.size() == 2) parse_bool(token, f[1]);
            if (m == "strict" && f.size() == 1) x = ""; // the default
        }
        l.fpmath = v;
    } else if (key == "--attr-scratchpad") {
        need_value(); // prim has no user scratchpad to honour or refuse: both modes run the same
        for (const std::string &v : option_items(token, value))
            if (v != "library" && v != "user") bad_option(token, "must be library or user");
    } else if (key == "--skip-impl") {
        need_value();
        g.skip_impl.clear();
        for (const std::string &v : split(value, ','))
            if (!v.empty()) g.skip_impl.push_back(v);
    } else if (key == "--match") {
        need_value();
        check_match(token, value);
        l.match = value;
        l.match_re.reset();
        if (!value.empty()) {
            try {
                l.match_re = std::make_shared<const std::regex>(value);
            } catch (const std::regex_error &e) {
                bad_option(token, std::string("bad regular expression: ") + e.what());
            }
        }
    } else if (key == "--fused") {
        need_value();
        if (value == "on") g.fused = fused_mode::on;
        else if (value == "off") g.fused = fused_mode::off;
        else if (value == "both") g.fused = fused_mode::both;
        else bad_option(token, "must be on, off or both");
    } else if (key == "--cmp") {
        need_value();
        if (value == "onednn") {
#ifdef PRIM_WITH_ONEDNN
            g.cmp_onednn = true;
#else
            bad_option(token, "built without oneDNN (libdnnl-dev was not found at configure time)");
#endif
        } else if (value == "none") {
            g.cmp_onednn = false;
        } else {
            bad_option(token, "must be onednn or none");
        }
    } else if (key == "--max-ms-per-prb") {
        need_value();
        g.max_ms = static_cast<int>(parse_int(token, value, 1, 3600 * 1000));
    } else if (key == "--reset") {
        no_value();
        l = option_lists(); // the globals (g), the driver and the verbosity stay
    } else if (key == "--verbose") {
        need_value();
        st.verbose = static_cast<int>(parse_int(token, value, 0, 10));
    } else if (key.size() >= 2 && key.compare(0, 2, "-v") == 0 && key.compare(0, 3, "--v") != 0) {
        const std::string level = token.substr(2);
        st.verbose = level.empty() ? 1 : static_cast<int>(parse_int(token, level, 0, 10));
    } else if (key == "--batch") {
        bad_option(token, "--batch is expanded before the run"); // not reached: expand_batches took it
    } else if (!apply_other_option(token, g.knobs, l.extra)) { // common_knobs.hpp
        bad_option(token, "unknown option");
    }
    return true;
}

std::vector<std::string> expand_batches(const std::vector<std::string> &args,
                                        const std::string &base_dir, int depth) {
    std::vector<std::string> out;
    for (const std::string &arg : args) {
        if (arg.compare(0, 8, "--batch=") != 0) {
            if (arg == "--batch") throw option_error("bad option '--batch': expected --batch=FILE");
            out.push_back(arg);
            continue;
        }
        const std::string name = arg.substr(8);
        if (name.empty()) throw option_error("bad option '" + arg + "': a file name is needed");
        if (depth >= 16)
            throw option_error("bad option '" + arg + "': batch files nested too deep (a loop?)");
        const std::string path = (name[0] == '/' ? std::string() : base_dir) + name;
        std::ifstream file(path);
        if (!file) throw option_error("bad option '" + arg + "': cannot open '" + path + "'");
        std::vector<std::string> tokens;
        std::string line, joined;
        bool continued = false;
        while (std::getline(file, line)) {
            const size_t hash = line.find('#');
            if (hash != std::string::npos) line.resize(hash);
            std::string text = continued ? glue(joined, line) : line;
            continued = ends_with_backslash(text);
            if (continued) {
                joined = text;
                continue;
            }
            std::istringstream words(text);
            std::string word;
            while (words >> word) tokens.push_back(word);
        }
        if (continued) {
            std::istringstream words(joined);
            std::string word;
            while (words >> word) tokens.push_back(word);
        }
        const std::vector<std::string> inner = expand_batches(tokens, folder_of(path), depth + 1);
        out.insert(out.end(), inner.begin(), inner.end());
    }
    return out;
}

} // namespace bdl
