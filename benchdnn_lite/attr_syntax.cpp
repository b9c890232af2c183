// benchdnn's attribute and algorithm syntax, translated into prim's.
#include "attr_syntax.hpp"

#include <cctype>

#include "attr/algorithm_table.hpp"
#include "prim/error.hpp"
#include "tags.hpp"

namespace bdl {

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t begin = 0;
    while (true) {
        const size_t end = s.find(sep, begin);
        out.push_back(s.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
        if (end == std::string::npos) return out;
        begin = end + 1;
    }
}

std::string lower(std::string s) {
    for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

namespace {

[[noreturn]] void fail(const std::string &msg) { throw syntax_error(msg); }

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// oneDNN's algorithms with a _dst variant (forward: the same function).
bool has_dst_variant(prim::algorithm a) {
    using prim::algorithm;
    return a == algorithm::eltwise_relu || a == algorithm::eltwise_elu
           || a == algorithm::eltwise_tanh || a == algorithm::eltwise_sqrt
           || a == algorithm::eltwise_logistic || a == algorithm::eltwise_exp
           || a == algorithm::eltwise_clip_v2;
}

// An algorithm by its fusion-string name or alias, exactly as written.
std::optional<prim::algorithm> by_fusion_name(const std::string &name) {
    if (name.empty() || name == "bounded_relu") return std::nullopt; // it also fixes alpha
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return std::nullopt;
    if (const auto *info = prim::impl::find_algorithm(name)) return info->alg;
    try { // aliases, through the fusion-string parser that knows them
        const prim::post_ops po = prim::parse_post_ops(name);
        if (po.len() == 1 && po.get_kind(0) == prim::post_ops::kind::eltwise)
            return po.entries()[0].alg;
    } catch (const prim::error &) {
    }
    return std::nullopt;
}

const char *const binary_algs[] = {"add", "sub", "mul", "div", "max", "min",
                                   "ge", "gt", "le", "lt", "eq", "ne"};

bool is_binary_alg(const std::string &name) {
    for (const char *b : binary_algs)
        if (name == b || name == std::string("binary_") + b) return true;
    return false;
}

bool all_digits(const std::string &s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// A broadcast policy (common, per_oc, per_dim_01, per_tensor, ...) or an integer mask.
bool is_policy_or_mask(const std::string &s) {
    if (all_digits(s) || s == "common") return true;
    if (s.compare(0, 4, "per_") != 0 || s.size() == 4) return false;
    for (size_t j = 4; j < s.size(); ++j)
        if (!(std::islower(static_cast<unsigned char>(s[j])) || std::isdigit(static_cast<unsigned char>(s[j]))
              || s[j] == '_'))
            return false;
    return true;
}

// "k3s1p1": a kernel, a stride and a padding, each a number.
bool is_dw_shape(const std::string &s) {
    size_t pos = 0;
    for (char letter : {'k', 's', 'p'}) {
        if (pos >= s.size() || s[pos] != letter) return false;
        const size_t start = ++pos;
        while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
        if (pos == start) return false;
    }
    return pos == s.size();
}

const char *const binary_reason = "binary post-ops are not implemented yet";

// One entry: appends prim's fusion-string form to `prim_entries` when prim runs it; otherwise
// returns why it is skipped.
std::string translate_entry(const std::string &entry, std::vector<std::string> &prim_entries) {
    if (entry.empty()) fail("empty post-op entry in a chain");
    std::vector<std::string> f = split(entry, ':');
    const std::string head = lower(f[0]);
    if (head == "sum") {
        if (f.size() > 4) fail("sum takes at most SCALE:ZERO_POINT:DT, not '" + entry + "'");
        std::string why;
        if (f.size() > 2) {
            const std::string &zp = f[2];
            const std::string digits = !zp.empty() && (zp[0] == '-' || zp[0] == '+') ? zp.substr(1) : zp;
            if (!all_digits(digits)) fail("the zero point of '" + entry + "' is not an integer");
            if (std::stoll(digits.substr(0, 12)) != 0) why = "sum with a zero point is not supported";
        }
        if (f.size() > 3) {
            if (!is_data_type(f[3])) fail("unknown data type '" + f[3] + "' in '" + entry + "'");
            if (f[3] != "f32" && why.empty())
                why = "sum with data type " + f[3] + " is not supported (prim computes f32)";
        }
        prim_entries.push_back(f.size() > 1 ? "sum:" + f[1] : "sum");
        return why;
    }
    if (is_binary_alg(head)) {
        if (f.size() < 2) fail("binary post-op '" + entry + "' needs a data type (" + head + ":f32)");
        if (f.size() > 4) fail("binary post-op '" + entry + "' has too many fields");
        if (!is_data_type(f[1])) fail("unknown data type '" + f[1] + "' in '" + entry + "'");
        if (f.size() > 2 && !is_policy_or_mask(f[2]))
            fail("unknown policy or mask '" + f[2] + "' in '" + entry + "'");
        if (f.size() > 3 && !parse_tag(f[3])) fail("unknown tag '" + f[3] + "' in '" + entry + "'");
        return binary_reason;
    }
    if (head == "prelu") {
        if (f.size() > 2) fail("prelu takes at most a policy, not '" + entry + "'");
        if (f.size() > 1 && !is_policy_or_mask(f[1]))
            fail("unknown policy '" + f[1] + "' in '" + entry + "'");
        return binary_reason;
    }
    if (head == "dw" || head.compare(0, 3, "dw_") == 0) {
        // dw:k3s1p1[:DT[:WEI_SCALE[:DST_SCALE]]] or the older dw_k3s1p1[:DT...]
        const std::string shape = head == "dw" ? (f.size() > 1 ? f[1] : "") : head.substr(3);
        if (!is_dw_shape(shape)) fail("'" + entry + "': the depthwise post-op is written dw:k3s1p1");
        const size_t dt_at = head == "dw" ? 2 : 1;
        if (f.size() > dt_at && !is_data_type(f[dt_at]))
            fail("unknown data type '" + f[dt_at] + "' in '" + entry + "'");
        return "the fused depthwise convolution post-op (dw) is not supported";
    }
    // Unknown names (and bounded_relu:A, oneDNN 2.x's alias that fixes alpha) go to the fusion
    // string as written: prim's parser takes the alias and names what it refuses.
    const std::optional<eltwise_alg> alg = find_eltwise_alg(head);
    std::string e = alg ? prim::impl::find_algorithm(alg->alg)->name
                        : head == "bounded_relu" ? head : f[0];
    for (size_t j = 1; j < f.size(); ++j) e += ":" + f[j];
    prim_entries.push_back(e);
    return "";
}

} // namespace

std::optional<eltwise_alg> find_eltwise_alg(const std::string &written) {
    std::string name = lower(written);
    if (name.compare(0, 8, "eltwise_") == 0) name = name.substr(8);
    eltwise_alg a;
    for (const char *suffix : {"_use_dst_for_bwd", "_dst"})
        if (ends_with(name, suffix)) {
            const std::optional<prim::algorithm> base
                    = by_fusion_name(name.substr(0, name.size() - std::string(suffix).size()));
            if (base && has_dst_variant(*base)) {
                a.alg = *base;
                a.dst = true;
                return a;
            }
        }
    const std::optional<prim::algorithm> alg = by_fusion_name(name);
    if (!alg) return std::nullopt;
    a.alg = *alg;
    return a;
}

std::vector<chain_spec> parse_chains(const std::string &value) {
    std::vector<chain_spec> out;
    for (const std::string &chain : split(value, ',')) {
        chain_spec c;
        c.text = chain;
        std::vector<std::string> prim_entries;
        if (!chain.empty())
            for (const std::string &entry : split(chain, '+')) {
                const std::string why = translate_entry(entry, prim_entries);
                if (c.skip.empty()) c.skip = why;
            }
        std::string fusion;
        for (const std::string &e : prim_entries) fusion += (fusion.empty() ? "" : "+") + e;
        try {
            c.po = prim::parse_post_ops(fusion);
        } catch (const prim::error &e) {
            fail(std::string(e.what()) + (fusion == chain ? "" : " (read as '" + fusion + "')"));
        }
        out.push_back(c);
    }
    return out;
}

bool is_data_type(const std::string &name) {
    static const char *const names[] = {"f32", "bf16", "f16", "s8", "u8", "s32", "f64", "tf32",
        "f8_e5m2", "f8_e4m3", "s4", "u4", "e8m0", "f4_e2m1", "f4_e3m0"};
    for (const char *n : names)
        if (name == n) return true;
    return false;
}

namespace {

// A concatenation of data type names ("u8s8u8", "bf16bf16f32").
bool is_dt_concat(const std::string &s, size_t pos = 0) {
    if (pos == s.size()) return pos > 0;
    for (size_t len = 2; len <= 7 && pos + len <= s.size(); ++len)
        if (is_data_type(s.substr(pos, len)) && is_dt_concat(s, pos + len)) return true;
    return false;
}

} // namespace

void check_dt_value(const std::string &value) {
    if (value.empty()) fail("a data type is needed");
    if (value.find(':') != std::string::npos) {
        for (const std::string &part : split(value, ':'))
            if (!is_data_type(part)) fail("unknown data type '" + part + "'");
        return;
    }
    const std::string base = ends_with(value, "_wino") ? value.substr(0, value.size() - 5) : value;
    if (!is_dt_concat(base)) fail("unknown data type or configuration '" + value + "'");
}

std::string dt_skip_reason(const std::string &value) {
    if (ends_with(value, "_wino")) return "Winograd convolution is not implemented";
    for (const std::string &part : split(value, ':'))
        for (size_t pos = 0; pos < part.size(); pos += 3) // only f32 runs: "f32", "f32f32f32"
            if (part.compare(pos, 3, "f32") != 0)
                return "data type " + value + " is not supported (prim computes f32)";
    return "";
}

} // namespace bdl
