// benchdnn's attribute and algorithm syntax, translated into prim's.
#include "attr_syntax.hpp"

#include <cctype>

#include "attr/algorithm_table.hpp"
#include "attr/operand_policy.hpp"
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

std::string upper(std::string s) {
    for (char &c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
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

// benchdnn's broadcast policies as prim's fusion strings spell them. prim's policies are masks
// over the destination's dims that hold at any rank, so the names with fixed dims translate;
// per_spatial becomes dims 2 to 5, every spatial dim at any rank prim accepts (1 to 6). per_w
// and per_mb_w name the last dim, whose bit depends on the rank: no rank-free mask says that.
struct policy_translation {
    const char *benchdnn;
    const char *prim; // nullptr: not expressible
};
const policy_translation policies[] = {
    {"common", "common"},       {"per_oc", "per_oc"},         {"per_dim_0", "per_dim_0"},
    {"per_dim_1", "per_oc"},    {"per_dim_01", "per_dim_01"}, {"per_dim_2", "mask4"},
    {"per_dim_3", "mask8"},     {"per_dim_23", "mask12"},     {"per_dim_023", "mask13"},
    {"per_dim_03", "mask9"},    {"per_spatial", "mask60"},    {"per_mb_spatial", "per_mb_spatial"},
    {"per_tensor", "per_tensor"}, {"per_w", nullptr},         {"per_mb_w", nullptr},
};

// A POLICY or MASK_INPUT field: a benchdnn policy, an integer mask (benchdnn's), or prim's own
// maskN. Returns prim's spelling, or "" with `why` set when prim cannot express it.
std::string translate_policy(const std::string &p, const std::string &entry, std::string &why) {
    for (const policy_translation &t : policies)
        if (p == t.benchdnn) {
            if (t.prim) return t.prim;
            why = "policy " + p + " names the last dim, whose bit depends on the destination's "
                  "rank (prim's policies are rank-free masks: write maskN)";
            return "";
        }
    // prim's maskN goes to prim's parser as written, which names what it refuses.
    if (p.compare(0, 4, "mask") == 0) return p;
    if (all_digits(p)) return "mask" + p;
    std::string names;
    for (const policy_translation &t : policies) names += std::string(t.benchdnn) + ", ";
    fail("unknown policy '" + p + "' in '" + entry + "' (" + names + "an integer mask or maskN)");
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

// What a chain translates into: prim's fusion-string entries and, per entry, the layout tag of
// a binary operand given in benchdnn's syntax ("" when the operand follows the destination).
struct translation {
    std::vector<std::string> entries, tags;
    std::string needs_int8; // an entry only an int8 convolution or inner product runs
    void push(const std::string &entry, const std::string &tag = "") {
        entries.push_back(entry);
        tags.push_back(tag);
    }
};

// How many dims an operand of this prim policy spans (its bits within the largest rank, 6).
int dims_spanned(const std::string &prim_policy) {
    int mask = 0;
    prim::impl::parse_policy(prim_policy, mask);
    int n = 0;
    for (int d = 0; d < 6; ++d) n += (mask >> d) & 1;
    return n;
}

// BINALG:DT[:POLICY_OR_MASK[:TAG]]; returns why it is skipped ("" when it runs).
std::string translate_binary(const std::string &entry, const std::vector<std::string> &f,
                             const std::string &alg, translation &out) {
    if (f.size() < 2) fail("binary post-op '" + entry + "' needs a data type (" + alg + ":f32)");
    if (f.size() > 4) fail("binary post-op '" + entry + "' has too many fields");
    if (!is_data_type(f[1])) fail("unknown data type '" + f[1] + "' in '" + entry + "'");
    std::string why;
    const std::string policy = f.size() > 2 ? translate_policy(f[2], entry, why) : "common";
    std::string tag = f.size() > 3 ? f[3] : "any";
    const std::optional<tag_info> info = parse_tag(tag);
    if (!info) fail("unknown tag '" + tag + "' in '" + entry + "'");
    // 'any' (benchdnn's default) lets the operand follow the destination, as prim's policies do;
    // so does any tag of an operand spanning at most one dim, whose layouts all coincide.
    if (info->any || policy.empty() || dims_spanned(policy) <= 1) tag.clear();
    const bool int_operand = f[1] == "s8" || f[1] == "u8" || f[1] == "s32";
    if (f[1] != "f32" && !int_operand && why.empty())
        why = "binary post-op with data type " + f[1] + " is not supported (f32, s32, s8, u8)";
    if (int_operand && out.needs_int8.empty())
        out.needs_int8 = "binary post-op with data type " + f[1];
    out.push(alg + ":" + (int_operand ? f[1] : "f32") + ":" + (policy.empty() ? "common" : policy), tag);
    return why;
}

// One entry: appends prim's fusion-string form to `out` (exactly one entry when the chain
// runs); returns why it is skipped ("" when it runs).
std::string translate_entry(const std::string &entry, translation &out) {
    if (entry.empty()) fail("empty post-op entry in a chain");
    std::vector<std::string> f = split(entry, ':');
    const std::string head = lower(f[0]);
    if (head == "sum") {
        if (f.size() > 4) fail("sum takes at most SCALE:ZERO_POINT:DT, not '" + entry + "'");
        std::string why, text = f.size() > 1 ? "sum:" + f[1] : "sum";
        if (f.size() > 2) {
            const std::string &zp = f[2];
            const std::string digits = !zp.empty() && (zp[0] == '-' || zp[0] == '+') ? zp.substr(1) : zp;
            if (!all_digits(digits) || digits.size() > 10 || std::stoll(digits) > 2147483647)
                fail("the zero point of '" + entry + "' is not an integer of 32 bits");
            const long long value = std::stoll(zp);
            text += ":" + std::to_string(value);
            if (value != 0 && out.needs_int8.empty()) out.needs_int8 = "sum with a zero point";
        }
        if (f.size() > 3) {
            if (!is_data_type(f[3])) fail("unknown data type '" + f[3] + "' in '" + entry + "'");
            const bool int_type = f[3] == "s8" || f[3] == "u8" || f[3] == "s32";
            if (f[3] != "f32" && !int_type && why.empty())
                why = "sum with data type " + f[3] + " is not supported (f32, s32, s8, u8)";
            if (int_type) {
                text += ":" + f[3];
                if (out.needs_int8.empty()) out.needs_int8 = "sum with data type " + f[3];
            }
        }
        out.push(text);
        return why;
    }
    if (is_binary_alg(head))
        return translate_binary(entry, f, head.compare(0, 7, "binary_") == 0 ? head.substr(7) : head,
                                out);
    if (head == "prelu") {
        if (f.size() > 2) fail("prelu takes at most a policy, not '" + entry + "'");
        std::string why;
        const std::string policy = f.size() > 1 ? translate_policy(f[1], entry, why) : "common";
        out.push("prelu:" + (policy.empty() ? "common" : policy));
        return why;
    }
    if (head == "dw" || head.compare(0, 3, "dw_") == 0) {
        // dw:k3s1p1[:DT] or the older dw_k3s1p1[:DT]. No DT: the convolution's dst type
        // (CONTRACT §6; benchdnn's own default is f32, which an int8 line writes out as :f32).
        const std::string shape = head == "dw" ? (f.size() > 1 ? f[1] : "") : head.substr(3);
        if (!is_dw_shape(shape)) fail("'" + entry + "': the depthwise post-op is written dw:k3s1p1");
        const size_t dt_at = head == "dw" ? 2 : 1;
        const std::string dt = f.size() > dt_at ? f[dt_at] : "";
        if (!dt.empty() && !is_data_type(dt))
            fail("unknown data type '" + dt + "' in '" + entry + "'");
        const bool int_type = dt == "s8" || dt == "u8" || dt == "s32";
        out.push("dw:" + shape + (dt == "f32" || int_type ? ":" + dt : ""));
        if (int_type && out.needs_int8.empty()) out.needs_int8 = "dw post-op with data type " + dt;
        if (!dt.empty() && dt != "f32" && !int_type)
            return "dw post-op with data type " + dt + " is not supported (f32, u8, s8, s32)";
        if (f.size() > dt_at + 1)
            return "output scales in the dw entry (oneDNN 2.x's dw:KkSsPp:DT:POLICY:SCALE) are not "
                   "supported: give --attr-scales=attr_post_op_dw_wei:...+attr_post_op_dw_dst:...";
        return "";
    }
    // Unknown names (and bounded_relu:A, oneDNN 2.x's alias that fixes alpha) go to the fusion
    // string as written: prim's parser takes the alias and names what it refuses.
    const std::optional<eltwise_alg> alg = find_eltwise_alg(head);
    std::string e = alg ? prim::impl::find_algorithm(alg->alg)->name
                        : head == "bounded_relu" ? head : f[0];
    for (size_t j = 1; j < f.size(); ++j) e += ":" + f[j];
    out.push(e);
    return "";
}

} // namespace

std::optional<eltwise_alg> find_eltwise_alg(const std::string &written) {
    std::string name = lower(written);
    if (name.compare(0, 8, "eltwise_") == 0) name = name.substr(8);
    if (name == "soft_relu_v2") name = "soft_relu"; // oneDNN 2.7's name of log(1 + e^(a x)) / a
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
        translation t;
        if (!chain.empty())
            for (const std::string &entry : split(chain, '+')) {
                const std::string why = translate_entry(entry, t);
                if (c.skip.empty()) c.skip = why;
            }
        std::string fusion;
        for (const std::string &e : t.entries) fusion += (fusion.empty() ? "" : "+") + e;
        try {
            c.po = prim::parse_post_ops(fusion);
        } catch (const prim::error &e) {
            fail(std::string(e.what()) + (fusion == chain ? "" : " (read as '" + fusion + "')"));
        }
        for (const std::string &tag : t.tags)
            if (!tag.empty()) c.operand_tags = t.tags; // kept only when some operand has one
        c.needs_int8 = t.needs_int8;
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
