// Fusion strings (doc/reference.md §2): parsing "sum:0.5+relu,gelu_erf" into post_ops chains and
// printing a chain back so that parsing the printed text gives bit-identical parameters.
//
//   CHAINS := CHAIN (',' CHAIN)*
//   CHAIN  := ''  |  PO ('+' PO)*
//   PO     := 'sum' [':' NUMBER [':' INTEGER [':' DT]]]  |  ALG [':' NUMBER [':' NUMBER [':' NUMBER]]]
//           | BINALG ':' DT [':' POLICY]  |  'prelu' [':' POLICY]        DT := f32 | s32 | s8 | u8
//           | 'dw' ':' 'k' INT 's' INT 'p' INT [':' DT]    the depthwise post-op (DT: its dst type)
//   NUMBER := [-+]? (digits ['.' digits*] | '.' digits) ([eE] [-+]? digits)?  |  [-+]? 'inf'  |  '*'
//             ('*': a runtime parameter, PRIM_RUNTIME_F32_VAL, given at execute)
//
// '+' also appears inside numbers ("relu:+1", "1e+38"); split_post_ops tells the two apart.
// Numbers are checked against NUMBER character by character first (strtof alone would also take
// hex, "nan", "infinity" and leading spaces), then converted by strtof in the "C" locale so the
// float is correctly rounded whatever locale the host program set.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <locale.h>
#include <string>
#include <vector>

#include "attr/algorithm_table.hpp"
#include "attr/binary_table.hpp"
#include "attr/float_text.hpp"
#include "attr/operand_policy.hpp"
#include "prim/error.hpp"

namespace prim {

namespace {

// Other names the parser accepts for an algorithm; printing always uses the main name.
// bounded_relu is not here: it also fixes alpha (see parse_bounded_relu).
struct alias {
    const char *name;
    algorithm alg;
};
const alias aliases[] = {
    {"leaky_relu", algorithm::eltwise_relu},
    {"gelu", algorithm::eltwise_gelu_tanh},
    {"sigmoid", algorithm::eltwise_logistic},
    {"srelu", algorithm::eltwise_soft_relu},
};

// A piece of the whole string: [begin, end).
struct span {
    size_t begin, end;
};

// The user's text in a message, with NUL written as \x00 (a NUL would end what() early).
std::string printable(const std::string &text) {
    std::string out;
    for (char c : text) out += c == '\0' ? std::string("\\x00") : std::string(1, c);
    return out;
}

// Every error message has the same shape: what is wrong, and where in the whole string.
[[noreturn]] void fail(const std::string &whole, const std::string &what, size_t pos) {
    throw error(status::invalid_arguments, "bad fusion string '" + printable(whole) + "': "
                                                   + printable(what) + " at position "
                                                   + std::to_string(pos));
}

std::string text_of(const std::string &whole, span s) {
    return whole.substr(s.begin, s.end - s.begin);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Splits [s.begin, s.end) of whole at each sep; n separators give n + 1 pieces, empty ones kept.
std::vector<span> split(const std::string &whole, span s, char sep) {
    std::vector<span> pieces;
    size_t begin = s.begin;
    for (size_t i = s.begin; i < s.end; ++i) {
        if (whole[i] == sep) {
            pieces.push_back({begin, i});
            begin = i + 1;
        }
    }
    pieces.push_back({begin, s.end});
    return pieces;
}


// True when t matches NUMBER exactly.
bool is_number(const std::string &t) {
    size_t i = 0;
    const size_t n = t.size();
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    if (t.compare(i, std::string::npos, "inf") == 0) return true;
    size_t int_digits = 0, frac_digits = 0;
    while (i < n && is_digit(t[i])) ++i, ++int_digits;
    if (i < n && t[i] == '.') {
        ++i;
        while (i < n && is_digit(t[i])) ++i, ++frac_digits;
    }
    if (int_digits == 0 && frac_digits == 0) return false;
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
        size_t exp_digits = 0;
        while (i < n && is_digit(t[i])) ++i, ++exp_digits;
        if (exp_digits == 0) return false;
    }
    return i == n;
}

// The "C" locale, created once, so that '.' is the decimal point whatever setlocale() said.
locale_t c_locale() {
    static const locale_t loc = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
    return loc;
}

// A validated NUMBER to the nearest float (out of range: +-inf or the rounded tiny value).
float to_float(const std::string &t) {
    const locale_t loc = c_locale();
    return loc ? strtof_l(t.c_str(), nullptr, loc) : std::strtof(t.c_str(), nullptr);
}

// NUMBER, or '*': a parameter given at execute (PRIM_RUNTIME_F32_VAL).
float parse_number(const std::string &whole, span s) {
    const std::string t = text_of(whole, s);
    if (t.empty()) fail(whole, "missing number", s.begin);
    if (t == "*") return runtime_f32_val();
    if (!is_number(t)) fail(whole, "bad number '" + t + "'", s.begin);
    return to_float(t);
}

// fields[0] is the name; refuses fields beyond max_fields, naming the first extra one.
void check_field_count(const std::string &whole, const std::vector<span> &fields,
        size_t max_fields, const char *limit) {
    if (fields.size() <= max_fields) return;
    const span extra = fields[max_fields];
    fail(whole, "extra parameter '" + text_of(whole, extra) + "' (" + limit + ")", extra.begin);
}

void append_checked_eltwise(const std::string &whole, span po, algorithm alg, float alpha,
        float beta, float scale, post_ops &out) {
    const auto checked = [](float v) { return is_runtime_f32(v) ? 1.f : v; }; // checked at execute
    const std::string problem
            = impl::check_eltwise_params(alg, checked(alpha), checked(beta), checked(scale));
    if (!problem.empty()) fail(whole, problem + " in '" + text_of(whole, po) + "'", po.begin);
    out.append_eltwise(alg, alpha, beta, scale);
}

// bounded_relu:A[:B[:S]] = clip:0:A with scale S; B is read and ignored (oneDNN's old beta).
// A omitted takes clip's default upper bound, +inf.
void parse_bounded_relu(
        const std::string &whole, span po, const std::vector<span> &fields, post_ops &out) {
    check_field_count(whole, fields, 4, "bounded_relu takes at most alpha, beta and scale");
    float upper = std::numeric_limits<float>::infinity(), scale = 1.f;
    if (fields.size() > 1) upper = parse_number(whole, fields[1]);
    if (fields.size() > 2) parse_number(whole, fields[2]);
    if (fields.size() > 3) scale = parse_number(whole, fields[3]);
    append_checked_eltwise(whole, po, algorithm::eltwise_clip, 0.f, upper, scale, out);
}

// An algorithm by main name or alias, or nullptr.
const impl::algorithm_info *find_by_any_name(const std::string &name) {
    if (const impl::algorithm_info *info = impl::find_algorithm(name)) return info;
    for (const alias &a : aliases)
        if (name == a.name) return impl::find_algorithm(a.alg);
    return nullptr;
}

int parse_policy_field(const std::string &whole, const std::vector<span> &fields, size_t i) {
    int mask = post_ops::policy::common;
    if (fields.size() <= i) return mask;
    const std::string name = text_of(whole, fields[i]);
    if (!impl::parse_policy(name, mask))
        fail(whole, "unknown policy '" + name + "' (common, per_oc, per_dim_0, per_dim_01, "
                    "per_mb_spatial, per_tensor or maskN)", fields[i].begin);
    return mask;
}

// A data type field: f32, s32, s8 or u8.
memory::data_type parse_data_type(const std::string &whole, span field) {
    const std::string name = text_of(whole, field);
    for (memory::data_type dt : {memory::data_type::f32, memory::data_type::s32,
                                 memory::data_type::s8, memory::data_type::u8})
        if (name == data_type_name(dt)) return dt;
    fail(whole, "unsupported data type '" + name + "' (f32, s32, s8 or u8)", field.begin);
}

// BINALG:DT[:POLICY], benchdnn's spelling; the data type is required, as in benchdnn.
void parse_binary(const std::string &whole, const impl::binary_info &info,
        const std::vector<span> &fields, post_ops &out) {
    check_field_count(whole, fields, 3, "a binary post-op takes a data type and a policy");
    if (fields.size() < 2)
        fail(whole, "binary post-op '" + std::string(info.name) + "' needs a data type ("
                    + info.name + ":f32)", fields[0].end);
    const memory::data_type dt = parse_data_type(whole, fields[1]);
    out.append_binary(info.alg, parse_policy_field(whole, fields, 2), dt);
}

// sum[:SCALE[:ZERO_POINT[:DT]]], benchdnn's spelling.
void parse_sum(const std::string &whole, const std::vector<span> &fields, post_ops &out) {
    check_field_count(whole, fields, 4, "sum takes at most a scale, a zero point and a data type");
    const float scale = fields.size() > 1 ? parse_number(whole, fields[1]) : 1.f;
    int32_t zero_point = 0;
    if (fields.size() > 2) {
        const float zp = parse_number(whole, fields[2]);
        if (zp != std::nearbyint(zp) || std::fabs(zp) > 2147483647.f)
            fail(whole, "sum's zero point must be an integer of 32 bits", fields[2].begin);
        zero_point = static_cast<int32_t>(zp);
    }
    const memory::data_type dt = fields.size() > 3 ? parse_data_type(whole, fields[3])
                                                   : memory::data_type::undef;
    out.append_sum(scale, zero_point, dt);
}

// dw:kKsSpP[:DST_DT] (the contract's §6): kernel, stride and start padding; the weights follow
// the convolution's type, the bias is f32, the dst type is the convolution's unless given.
void parse_dw(const std::string &whole, const std::vector<span> &fields, post_ops &out) {
    check_field_count(whole, fields, 3, "dw takes a shape kKsSpP and a data type");
    if (fields.size() < 2)
        fail(whole, "the dw post-op needs its shape (dw:k3s1p1)", fields[0].end);
    const std::string shape = text_of(whole, fields[1]);
    memory::dim values[3] = {0, 0, 0};
    size_t pos = 0;
    const char letters[3] = {'k', 's', 'p'};
    for (int i = 0; i < 3; ++i) {
        if (pos >= shape.size() || shape[pos] != letters[i])
            fail(whole, "bad dw shape '" + shape + "' (kKsSpP, e.g. k3s1p1)", fields[1].begin);
        const size_t start = ++pos;
        while (pos < shape.size() && is_digit(shape[pos])) ++pos;
        if (pos == start || pos - start > 9)
            fail(whole, "bad dw shape '" + shape + "' (kKsSpP, each a number of at most 9 digits)",
                 fields[1].begin);
        values[i] = std::stoll(shape.substr(start, pos - start));
    }
    if (pos != shape.size())
        fail(whole, "bad dw shape '" + shape + "' (kKsSpP, e.g. k3s1p1)", fields[1].begin);
    const memory::data_type dst_dt = fields.size() > 2 ? parse_data_type(whole, fields[2])
                                                       : memory::data_type::undef;
    try {
        out.append_dw(memory::data_type::undef, memory::data_type::f32, dst_dt, values[0],
                      values[1], values[2], 0, {});
    } catch (const error &e) {
        fail(whole, std::string(e.what()) + " in '" + shape + "'", fields[1].begin);
    }
}

void parse_one_post_op(const std::string &whole, span po, post_ops &out) {
    if (po.begin == po.end) fail(whole, "empty post-op", po.begin);
    const std::vector<span> fields = split(whole, po, ':');
    const std::string name = text_of(whole, fields[0]);

    if (name == "sum") {
        parse_sum(whole, fields, out);
        return;
    }
    if (name == "bounded_relu") {
        parse_bounded_relu(whole, po, fields, out);
        return;
    }
    if (name == "dw") {
        parse_dw(whole, fields, out);
        return;
    }
    if (name == "prelu") {
        check_field_count(whole, fields, 2, "prelu takes at most a policy");
        out.append_prelu(parse_policy_field(whole, fields, 1));
        return;
    }
    if (const impl::binary_info *binary = impl::find_binary(name)) {
        parse_binary(whole, *binary, fields, out);
        return;
    }
    const impl::algorithm_info *info = find_by_any_name(name);
    if (!info) fail(whole, "unknown algorithm '" + name + "'", fields[0].begin);
    check_field_count(whole, fields, 4, "an eltwise takes at most alpha, beta and scale");
    float alpha = info->default_alpha, beta = info->default_beta, scale = 1.f;
    if (fields.size() > 1) alpha = parse_number(whole, fields[1]);
    if (fields.size() > 2) beta = parse_number(whole, fields[2]);
    if (fields.size() > 3) scale = parse_number(whole, fields[3]);
    append_checked_eltwise(whole, po, info->alg, alpha, beta, scale, out);
}

// Splits a chain into post-ops at '+', except where '+' is a sign that NUMBER allows: right after
// ':' ("relu:+1") or right after the exponent mark of a number ("1e+38", as numbers print).
std::vector<span> split_post_ops(const std::string &whole, span s) {
    std::vector<span> pieces;
    size_t begin = s.begin;
    bool in_parameters = false; // a ':' was seen in the current post-op
    for (size_t i = s.begin; i < s.end; ++i) {
        const char c = whole[i];
        if (c == ':') in_parameters = true;
        if (c != '+') continue;
        const char prev = i > begin ? whole[i - 1] : '\0';
        const bool after_mantissa = i >= begin + 2
                && (is_digit(whole[i - 2]) || whole[i - 2] == '.');
        const bool is_sign = in_parameters
                && (prev == ':' || ((prev == 'e' || prev == 'E') && after_mantissa));
        if (is_sign) continue;
        pieces.push_back({begin, i});
        begin = i + 1;
        in_parameters = false;
    }
    pieces.push_back({begin, s.end});
    return pieces;
}

// One chain, [s.begin, s.end) of whole; positions in messages are positions in whole.
post_ops parse_chain(const std::string &whole, span s) {
    post_ops chain;
    if (s.begin == s.end) return chain; // '' is the empty chain
    for (const span po : split_post_ops(whole, s))
        parse_one_post_op(whole, po, chain);
    return chain;
}

bool same_bits(float a, float b) {
    uint32_t ua, ub;
    std::memcpy(&ua, &a, sizeof ua);
    std::memcpy(&ub, &b, sizeof ub);
    return ua == ub;
}

// The shortest text that reads back to v (attr/float_text.hpp); a runtime parameter prints as
// '*'.
std::string format_number(float v) {
    if (is_runtime_f32(v)) return "*";
    return impl::float_text(v);
}

} // namespace

std::string to_string(const post_ops &po) {
    std::string s;
    for (const post_ops::entry &e : po.entries()) {
        if (!s.empty()) s += '+';
        if (e.kind == post_ops::kind::sum) {
            // Up to the last field that differs from its default: scale, zero point, type.
            const bool with_dt = e.dt != memory::data_type::undef;
            const bool with_zp = with_dt || e.zero_point != 0;
            s += "sum";
            if (with_zp || !same_bits(e.scale, 1.f)) s += ":" + format_number(e.scale);
            if (with_zp) s += ":" + std::to_string(e.zero_point);
            if (with_dt) s += std::string(":") + data_type_name(e.dt);
            continue;
        }
        if (e.kind == post_ops::kind::dw) {
            // The weights' and bias' types and the scales have no text: the string is that of
            // the chain the parser makes (weights following the convolution, f32 bias).
            s += "dw:k" + std::to_string(e.dw.kernel) + "s" + std::to_string(e.dw.stride) + "p"
                 + std::to_string(e.dw.padding);
            if (e.dw.dst_dt != memory::data_type::undef)
                s += std::string(":") + data_type_name(e.dw.dst_dt);
            continue;
        }
        // Binary and prelu: the policy is left out when it is the default, common.
        const std::string policy = e.mask == post_ops::policy::common
                ? std::string()
                : ":" + impl::policy_name(e.mask);
        if (e.kind == post_ops::kind::prelu) {
            s += "prelu" + policy;
            continue;
        }
        if (e.kind == post_ops::kind::binary) {
            const memory::data_type dt = e.dt == memory::data_type::undef ? memory::data_type::f32 : e.dt;
            s += std::string(algorithm_name(e.alg)) + ":" + data_type_name(dt) + policy;
            continue;
        }
        const impl::algorithm_info *info = impl::find_algorithm(e.alg);
        if (!info) // append_eltwise refuses such entries, so this is a bug inside prim
            throw error(status::runtime_error, "to_string: post-op with an unknown algorithm");
        s += info->name;
        // Print up to the last parameter that differs from its default.
        const float values[3] = {e.alpha, e.beta, e.scale};
        const float defaults[3] = {info->default_alpha, info->default_beta, 1.f};
        int count = 3;
        while (count > 0 && same_bits(values[count - 1], defaults[count - 1])) --count;
        for (int i = 0; i < count; ++i)
            s += ":" + format_number(values[i]);
    }
    return s;
}

post_ops parse_post_ops(const std::string &chain) {
    const size_t comma = chain.find(',');
    if (comma != std::string::npos)
        fail(chain, "unexpected ',' (one chain expected, not a list)", comma);
    return parse_chain(chain, {0, chain.size()});
}

std::vector<post_ops> parse_post_ops_list(const std::string &chains) {
    std::vector<post_ops> list;
    for (const span s : split(chains, {0, chains.size()}, ','))
        list.push_back(parse_chain(chains, s));
    return list;
}

} // namespace prim
