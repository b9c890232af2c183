// benchdnn's other options (common_knobs.hpp): parsed and checked here, so that the parser
// keeps the options prim has always had and every oneDNN input file reads to its end.
#include "common_knobs.hpp"

#include <cctype>

#include "attr_syntax.hpp"
#include "parser.hpp"

namespace bdl {

namespace {

[[noreturn]] void bad(const std::string &token, const std::string &why) {
    throw option_error("bad option '" + token + "': " + why);
}

bool parse_bool(const std::string &token, const std::string &v) {
    const std::string l = lower(v);
    if (l == "true" || l == "1") return true;
    if (l == "false" || l == "0") return false;
    bad(token, "'" + v + "' is not true or false");
}

int64_t parse_count(const std::string &token, const std::string &v, int64_t lo) {
    bool digits = !v.empty() && v.size() <= 12;
    for (const char c : v) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits) bad(token, "'" + v + "' is not a number");
    const int64_t n = std::stoll(v);
    if (n < lo) bad(token, "the value must be at least " + std::to_string(lo));
    return n;
}

bool one_of(const std::string &v, std::initializer_list<const char *> names) {
    for (const char *n : names)
        if (v == n) return true;
    return false;
}

// The common options that change nothing in prim, with the values benchdnn accepts. Each is
// checked (a typo still stops the run) and then has no effect: the reason is in
// doc/benchdnn_lite.md ("Other benchdnn options").
void check_accepted(const std::string &token, const std::string &key, const std::string &value) {
    const std::string v = lower(value);
    if (key == "--allow-enum-tags-only" || key == "--canonical" || key == "--mem-check"
        || key == "--fast-ref" || key == "--fast-ref-gpu") {
        parse_bool(token, value);
    } else if (key == "--cpu-isa-hints") {
        if (!one_of(v, {"none", "no_hints", "prefer_ymm"}))
            bad(token, "must be none, no_hints or prefer_ymm");
    } else if (key == "--memory-kind") {
        if (!one_of(v, {"usm", "buffer", "usm_device", "usm_shared"}))
            bad(token, "must be usm, buffer, usm_device or usm_shared");
    } else if (key == "--stream-kind") {
        if (!one_of(v, {"def", "in_order", "out_of_order"}))
            bad(token, "must be def, in_order or out_of_order");
    } else if (key == "--mode-modifier") {
        for (const char c : v)
            if (c != 'p' && c != 'm') bad(token, "modifiers are P and M");
    } else if (key == "--num-streams") {
        parse_count(token, value, 1);
    } else if (key == "--ctx-init" || key == "--ctx-exe") {
        const std::vector<std::string> parts = split(value, ':'); // MAX[:CORE_TYPE[:THREADS]]
        if (parts.size() > 3 || (parts[0] != "auto" && parts[0] != "default"))
            parse_count(token, parts[0], 1);
    }
    // --summary and --perf-template take free text.
}

const std::vector<std::pair<std::string, std::string>> &extra_defaults() {
    static const std::vector<std::pair<std::string, std::string>> d = {
            {"--sdt", "f32"}, {"--ddt", "f32"}, {"--ss_dt", "f32"},
            {"--stat_tag", "any"}, {"--attr-acc-mode", "strict"}, {"--attr-rounding-mode", ""},
            {"--attr-deterministic", "false"}, {"--attr", ""}};
    return d;
}

const std::string *default_of(const std::string &key) {
    for (const auto &kv : extra_defaults())
        if (kv.first == key) return &kv.second;
    return nullptr;
}

void check_extra(const std::string &token, const std::string &key, const std::string &v) {
    if (key == "--sdt" || key == "--ddt" || key == "--ss_dt") {
        for (const std::string &part : split(v, ':'))
            if (!is_data_type(part)) bad(token, "unknown data type '" + part + "'");
    } else if (key == "--stat_tag") {
        for (const char c : v)
            if (!std::isalnum(static_cast<unsigned char>(c))) bad(token, "unknown layout tag '" + v + "'");
    } else if (key == "--attr-acc-mode") {
        if (!one_of(lower(v), {"strict", "relaxed", "any", "f32", "s32", "f16"}))
            bad(token, "must be strict, relaxed, any, f32, s32 or f16");
    } else if (key == "--attr-rounding-mode") {
        for (const std::string &entry : split(v, '+')) { // ARG:MODE
            if (v.empty()) break;
            const std::vector<std::string> f = split(entry, ':');
            if (f.size() != 2 || !one_of(lower(f[1]), {"environment", "stochastic"}))
                bad(token, "entries are ARG:environment or ARG:stochastic, joined by '+'");
        }
    } else if (key == "--attr-deterministic") {
        parse_bool(token, v);
    }
}

// The data type parts of value that are not f32 (prim computes f32), as "bf16", or "".
std::string first_not_f32(const std::string &value) {
    for (const std::string &part : split(value, ':'))
        if (lower(part) != "f32") return part;
    return "";
}

} // namespace

std::string common_knobs::repro() const {
    std::string r;
    if (!impl.empty()) {
        r += "--impl=";
        for (size_t j = 0; j < impl.size(); ++j) r += (j ? "," : "") + impl[j];
        r += " ";
    }
    if (check_ref_impl) r += "--check-ref-impl=true ";
    if (same_pd_check) r += "--attr-same-pd-check=true ";
    if (engine != "cpu") r += "--engine=" + engine + " ";
    if (graph_execution) r += "--execution-mode=graph ";
    if (cold_cache != "none") r += "--cold-cache=" + cold_cache + " ";
    if (fix_times > 0) r += "--fix-times-per-prb=" + std::to_string(fix_times) + " ";
    return r;
}

bool apply_other_option(const std::string &token, common_knobs &knobs, extra_lists &extras) {
    const size_t eq = token.find('=');
    const std::string key = token.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? token.substr(eq + 1) : std::string();
    const bool accepted = one_of(key, {"--allow-enum-tags-only", "--canonical", "--cpu-isa-hints",
            "--mem-check", "--memory-kind", "--stream-kind", "--mode-modifier", "--num-streams",
            "--ctx-init", "--ctx-exe", "--summary", "--perf-template", "--fast-ref",
            "--fast-ref-gpu"});
    const bool known = accepted || default_of(key)
            || one_of(key, {"--start", "--repeats-per-prb", "--fix-times-per-prb", "--impl",
                            "--check-ref-impl", "--attr-same-pd-check", "--engine", "--cold-cache",
                            "--execution-mode"});
    if (!known) return false;
    if (!has_value) bad(token, "expected " + key + "=VALUE");
    if (accepted) {
        check_accepted(token, key, value);
    } else if (const std::string *dflt = default_of(key)) {
        std::vector<std::string> values = split(value, ',');
        for (std::string &v : values) {
            if (v.empty() && values.size() == 1) v = *dflt; // "--sdt=": back to the default
            check_extra(token, key, v);
        }
        extras[key] = values;
    } else if (key == "--start") {
        knobs.start = parse_count(token, value, 0);
    } else if (key == "--repeats-per-prb") {
        knobs.repeats = static_cast<int>(parse_count(token, value, 1));
    } else if (key == "--fix-times-per-prb") {
        knobs.fix_times = static_cast<int>(parse_count(token, value, 0));
    } else if (key == "--impl") {
        knobs.impl.clear();
        for (const std::string &v : split(value, ','))
            if (!v.empty()) knobs.impl.push_back(v);
    } else if (key == "--check-ref-impl") {
        knobs.check_ref_impl = parse_bool(token, value);
    } else if (key == "--attr-same-pd-check") {
        knobs.same_pd_check = parse_bool(token, value);
    } else if (key == "--engine") {
        const std::vector<std::string> parts = split(lower(value), ':');
        if (parts.size() > 2 || (parts[0] != "cpu" && parts[0] != "gpu"))
            bad(token, "the engine is cpu or gpu, with an optional :INDEX");
        if (parts.size() == 2) parse_count(token, parts[1], 0);
        knobs.engine = lower(value) == "cpu:0" ? "cpu" : lower(value);
    } else if (key == "--cold-cache") {
        const std::string v = lower(value);
        if (!one_of(v, {"none", "wei", "all", "custom"})) bad(token, "must be none, wei, all or custom");
        knobs.cold_cache = v;
    } else if (key == "--execution-mode") {
        const std::string v = lower(value);
        if (!one_of(v, {"direct", "graph"})) bad(token, "must be direct or graph");
        knobs.graph_execution = v == "graph";
    }
    return true;
}

std::string knobs_skip_reason(const common_knobs &knobs, bool mode_p) {
    if (knobs.engine.compare(0, 3, "gpu") == 0)
        return "engine " + knobs.engine + ": prim runs on the CPU only";
    if (knobs.engine != "cpu") return "engine " + knobs.engine + ": prim has one CPU engine (cpu:0)";
    if (knobs.graph_execution) return "--execution-mode=graph needs SYCL Graph: prim executes directly";
    if (mode_p && knobs.cold_cache != "none")
        return "cold-cache measurement (--cold-cache=" + knobs.cold_cache + ") is not implemented";
    return "";
}

std::string extras_skip_reason(const extra_values &extras, bool types_read) {
    for (const auto &kv : extras) {
        const std::string &key = kv.first, &v = kv.second;
        if (types_read && (key == "--sdt" || key == "--ddt")) continue;
        if (key == "--sdt" || key == "--ddt" || key == "--ss_dt") {
            const std::string other = first_not_f32(v);
            if (!other.empty())
                return key + "=" + v + ": data type " + other + " is not supported (prim computes f32)";
        } else if (key == "--stat_tag") {
            const std::string t = lower(v);
            bool plain = t == "any" || t == "abx";
            if (!plain) {
                plain = true;
                for (size_t i = 0; i < t.size(); ++i) plain = plain && t[i] == static_cast<char>('a' + i);
            }
            if (!plain) return "--stat_tag=" + v + ": prim's statistics are plain (abx)";
        } else if (key == "--attr" && !v.empty()) {
            return "--attr=" + v + ": the old attribute string is not supported (write "
                   "--attr-post-ops, --attr-scales...)";
        } else if (key == "--attr-rounding-mode" && lower(v).find("stochastic") != std::string::npos) {
            return "stochastic rounding (--attr-rounding-mode=" + v + ") is not supported";
        }
    }
    return "";
}

std::string extras_repro(const extra_values &extras) {
    std::string r;
    for (const auto &kv : extras) {
        const std::string *dflt = default_of(kv.first);
        if (dflt && kv.second != *dflt) r += kv.first + "=" + kv.second + " ";
    }
    return r;
}

} // namespace bdl
