// Problem strings (doc/reference.md §3) parsed with benchdnn's rules: fields in any order,
// spatial groups copied, o and p derived, then the library's validity check.
#include "problem_parse.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "prim/error.hpp"

namespace bdl {

using namespace prim::impl;

namespace {

[[noreturn]] void fail(const std::string &msg) {
    throw prim::error(prim::status::invalid_arguments, msg);
}

std::string num(int64_t v) { return std::to_string(v); }

int first_sp(int nsp) { return 3 - nsp; }

// ---- scanning "name value" fields --------------------------------------------------------------

// Values larger than this are refused while parsing, so that the derived sizes (products of two
// fields plus a few more) cannot overflow 64 bits.
constexpr int64_t max_field_value = (int64_t(1) << 30) - 1;

// The name that starts at s[pos] ('n' or 'N'): n"NAME" with only '_' after the closing quote,
// or the rest of the string as it is (benchdnn's files write nNAME and a bare n too).
std::string read_name(const std::string &s, size_t pos) {
    const size_t n = s.size();
    if (pos + 1 < n && s[pos + 1] == '"') {
        const size_t close = s.find('"', pos + 2);
        if (close == std::string::npos) fail("name at position " + num(pos) + " has no closing '\"'");
        for (size_t q = close + 1; q < n; ++q)
            if (s[q] != '_')
                fail("unexpected '" + s.substr(q) + "' at position " + num(q)
                     + " after the name (the name comes last)");
        return s.substr(pos + 2, close - pos - 2);
    }
    return s.substr(pos + 1);
}

struct field_value {
    bool given = false;
    int64_t value = 0;
};

// Reads s as a sequence of fields taken from `names` (in any order, each at most once, '_'
// allowed anywhere between them, names in either case) and an optional name, which comes last:
// n"NAME", or n followed by the rest of the string (nNAME, or just n: an empty name).
std::vector<field_value> scan_fields(const std::string &s, const std::vector<const char *> &names,
                                     std::string &name_out) {
    if (s.empty()) fail("empty descriptor");
    std::vector<field_value> out(names.size());
    auto index_of = [&](const std::string &word) -> int {
        for (size_t j = 0; j < names.size(); ++j)
            if (word == names[j]) return static_cast<int>(j);
        return -1;
    };
    size_t pos = 0;
    const size_t n = s.size();
    while (pos < n) {
        const char c = s[pos];
        if (c == '_') {
            ++pos;
            continue;
        }
        if (c == 'n' || c == 'N') { // no field name starts with n: the name, to the end
            name_out = read_name(s, pos);
            return out;
        }
        if (!std::isalpha(static_cast<unsigned char>(c)))
            fail("unexpected character '" + std::string(1, c) + "' at position " + num(pos));
        const size_t start = pos;
        std::string word;
        while (pos < n && std::isalpha(static_cast<unsigned char>(s[pos])))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(s[pos++])));
        const int idx = index_of(word);
        if (idx < 0) {
            // "icoc16": a known field followed directly by letters has lost its value.
            for (size_t len = 2; len >= 1; --len)
                if (word.size() > len && index_of(word.substr(0, len)) >= 0)
                    fail("field '" + word.substr(0, len) + "' at position " + num(start)
                         + " has no value");
            fail("unknown field '" + s.substr(start, pos - start) + "' at position " + num(start));
        }
        const size_t num_start = pos;
        bool negative = false;
        if (pos < n && s[pos] == '-') {
            negative = true;
            ++pos;
        }
        if (pos >= n || !std::isdigit(static_cast<unsigned char>(s[pos])))
            fail("field '" + word + "' at position " + num(start) + " has no value");
        int64_t v = 0;
        while (pos < n && std::isdigit(static_cast<unsigned char>(s[pos]))) {
            v = v * 10 + (s[pos++] - '0');
            if (v > max_field_value)
                fail("value of field '" + word + "' at position " + num(num_start)
                     + " is too large");
        }
        if (out[idx].given) fail("duplicate field '" + word + "' at position " + num(start));
        out[idx].given = true;
        out[idx].value = negative ? -v : v;
    }
    return out;
}

// ---- convolution -----------------------------------------------------------------------------

// Field order of doc/reference.md §3; the spatial fields of kind K for dims d, h, w are at
// K_base + 0, 1, 2.
const std::vector<const char *> conv_fields = {"g", "mb", "ic", "id", "ih", "iw", "oc", "od",
    "oh", "ow", "kd", "kh", "kw", "sd", "sh", "sw", "pd", "ph", "pw", "dd", "dh", "dw"};
enum conv_field { F_G = 0, F_MB = 1, F_IC = 2, F_I = 3, F_OC = 6, F_O = 7, F_K = 10, F_S = 13,
                  F_P = 16, F_D = 19 };
const int spatial_kinds[] = {F_I, F_O, F_K, F_S, F_P, F_D};

bool group_given(const std::vector<field_value> &f, int sp) {
    for (int kind : spatial_kinds)
        if (f[kind + sp].given) return true;
    return false;
}

void copy_group(std::vector<field_value> &f, int from, int to) {
    for (int kind : spatial_kinds) f[kind + to] = f[kind + from];
}

int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

// Which spatial dims a string uses, after the copying rules; fills the copies in f.
int resolve_dims(std::vector<field_value> &f) {
    const bool has_d = group_given(f, SP_D), has_h = group_given(f, SP_H),
               has_w = group_given(f, SP_W);
    if (has_d) {
        if (has_h != has_w)
            fail(std::string("3D problem: give both the h and w fields or neither (only ")
                 + (has_h ? "h" : "w") + " fields are given)");
        if (!has_h) {
            copy_group(f, SP_D, SP_H);
            copy_group(f, SP_D, SP_W);
        }
        return 3;
    }
    if (!has_h && has_w) return 1;
    if (!has_w) copy_group(f, SP_H, SP_W);
    return 2;
}

// ---- inner product ---------------------------------------------------------------------------

const std::vector<const char *> ip_fields = {"mb", "ic", "id", "ih", "iw", "oc"};
enum ip_field { IF_MB = 0, IF_IC = 1, IF_I = 2, IF_OC = 5 };

} // namespace

conv_problem parse_conv_problem(const std::string &s) {
    conv_problem p;
    std::vector<field_value> f = scan_fields(s, conv_fields, p.name);
    if (!f[F_IC].given) fail("field 'ic' is required");
    if (!f[F_OC].given) fail("field 'oc' is required");
    p.nsp = resolve_dims(f);
    if (f[F_G].given) p.g = f[F_G].value;
    if (f[F_MB].given) p.mb = f[F_MB].value;
    p.ic = f[F_IC].value;
    p.oc = f[F_OC].value;
    for (int sp = first_sp(p.nsp); sp < 3; ++sp) {
        for (int kind : {F_I, F_K})
            if (!f[kind + sp].given) fail("field '" + std::string(conv_fields[kind + sp])
                                          + "' is required");
        p.i[sp] = f[F_I + sp].value;
        p.k[sp] = f[F_K + sp].value;
        if (f[F_S + sp].given) p.s[sp] = f[F_S + sp].value;
        if (f[F_D + sp].given) p.d[sp] = f[F_D + sp].value;
        // Sizes that make the derivation meaningless are reported before deriving.
        if (p.i[sp] < 1) fail(field_name('i', sp) + "=" + num(p.i[sp]) + " must be positive");
        if (p.k[sp] < 1) fail(field_name('k', sp) + "=" + num(p.k[sp]) + " must be positive");
        if (p.s[sp] < 1) fail(field_name('s', sp) + "=" + num(p.s[sp]) + " must be positive");
        if (p.d[sp] < 0) fail(field_name('d', sp) + "=" + num(p.d[sp]) + " is negative");
        const int64_t e = p.extent(sp);
        if (f[F_O + sp].given) {
            p.o[sp] = f[F_O + sp].value;
            p.p[sp] = f[F_P + sp].given ? f[F_P + sp].value : p.implied_pad(sp);
        } else {
            p.p[sp] = f[F_P + sp].given ? f[F_P + sp].value : 0;
            p.o[sp] = floor_div(p.i[sp] + 2 * p.p[sp] - e, p.s[sp]) + 1;
            if (p.o[sp] < 1 && p.p[sp] >= 0)
                fail(field_name('o', sp) + "=" + num(p.o[sp]) + " must be positive: "
                     + field_name('i', sp) + "=" + num(p.i[sp]) + " with padding "
                     + num(p.p[sp]) + " is smaller than the kernel extent " + num(e));
        }
        p.p_end[sp] = (p.o[sp] - 1) * p.s[sp] - p.i[sp] + e - p.p[sp];
    }
    const std::string problem = check_conv_problem(p);
    if (!problem.empty()) fail(problem);
    return p;
}

ip_problem parse_ip_problem(const std::string &s) {
    ip_problem p;
    std::vector<field_value> f = scan_fields(s, ip_fields, p.name);
    if (!f[IF_IC].given) fail("field 'ic' is required");
    if (!f[IF_OC].given) fail("field 'oc' is required");
    if (f[IF_MB].given) p.mb = f[IF_MB].value;
    p.ic = f[IF_IC].value;
    p.oc = f[IF_OC].value;
    // The same copying rules as convolution, with a group made of the input size alone.
    const bool has_d = f[IF_I + SP_D].given, has_h = f[IF_I + SP_H].given,
               has_w = f[IF_I + SP_W].given;
    if (has_d) {
        if (has_h != has_w)
            fail(std::string("3D problem: give both ih and iw or neither (only ")
                 + (has_h ? "ih" : "iw") + " is given)");
        p.nsp = 3;
        if (!has_h) f[IF_I + SP_H] = f[IF_I + SP_W] = f[IF_I + SP_D];
    } else if (has_h) {
        p.nsp = 2;
        if (!has_w) f[IF_I + SP_W] = f[IF_I + SP_H];
    } else {
        p.nsp = has_w ? 1 : 0;
    }
    for (int sp = first_sp(p.nsp); sp < 3 && p.nsp > 0; ++sp) p.i[sp] = f[IF_I + sp].value;
    const std::string problem = check_ip_problem(p);
    if (!problem.empty()) fail(problem);
    return p;
}

eltwise_problem parse_eltwise_problem(const std::string &s) {
    return parse_eltwise_problem_named(s, nullptr);
}

eltwise_problem parse_eltwise_problem_named(const std::string &s, std::string *name) {
    if (s.empty()) fail("empty descriptor");
    eltwise_problem p;
    if (name) name->clear();
    size_t pos = 0;
    while (true) {
        const size_t start = pos;
        int64_t v = 0;
        while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
            v = v * 10 + (s[pos++] - '0');
            if (v > max_field_value) fail("dim at position " + num(start) + " is too large");
        }
        if (pos == start) {
            if (pos < s.size())
                fail("unexpected character '" + std::string(1, s[pos]) + "' at position "
                     + num(pos) + " (dims are written like 2x17x5x7)");
            fail("missing dim at position " + num(pos));
        }
        p.dims.push_back(v);
        if (pos == s.size()) break;
        // After the dims, an optional name: _n"NAME", n"NAME", nNAME or n.
        size_t q = pos;
        while (q < s.size() && s[q] == '_') ++q;
        if (q < s.size() && (s[q] == 'n' || s[q] == 'N')) {
            const std::string nm = read_name(s, q);
            if (name) *name = nm;
            break;
        }
        if (s[pos] != 'x' && s[pos] != 'X')
            fail("unexpected character '" + std::string(1, s[pos]) + "' at position " + num(pos)
                 + " (dims are written like 2x17x5x7)");
        ++pos;
    }
    const std::string problem = check_eltwise_problem(p);
    if (!problem.empty()) fail(problem);
    return p;
}

binary_problem parse_binary_problem_named(const std::string &s, std::string *name) {
    const size_t colon = s.find(':');
    if (colon == std::string::npos) fail("binary descriptor is SRC0:SRC1 (like 2x64x56x56:1x64x1x1)");
    binary_problem p;
    try {
        p.src0 = parse_eltwise_problem_named(s.substr(0, colon), nullptr).dims;
    } catch (const prim::error &e) {
        fail(std::string("src0: ") + e.what());
    }
    try {
        p.src1 = parse_eltwise_problem_named(s.substr(colon + 1), name).dims;
    } catch (const prim::error &e) {
        fail(std::string("src1: ") + e.what());
    }
    // As benchdnn: the shorter one gets trailing dims of 1 (32x17x2x3:32x17 is 32x17x1x1).
    const size_t rank = std::max(p.src0.size(), p.src1.size());
    p.src0.resize(rank, 1);
    p.src1.resize(rank, 1);
    for (size_t j = 0; j < p.src0.size(); ++j)
        if (p.src1[j] != p.src0[j] && p.src1[j] != 1)
            fail("src1 dim " + num(j) + " (" + num(p.src1[j]) + ") must be src0's ("
                 + num(p.src0[j]) + ") or 1");
    return p;
}

bnorm_problem parse_bnorm_problem(const std::string &s) {
    bnorm_problem p;
    // eps is the one float field: taken out before the integer fields are scanned. No field
    // name holds an 'n', so the name starts at the first n.
    std::string rest = s;
    const size_t name_at = s.find_first_of("nN");
    std::string head = s.substr(0, name_at);
    for (char &c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const size_t eps_at = head.find("eps");
    if (eps_at != std::string::npos) {
        const char *begin = s.c_str() + eps_at + 3;
        char *end = nullptr;
        const float v = std::strtof(begin, &end);
        if (end == begin) fail("field 'eps' at position " + num(eps_at) + " has no value");
        if (!(v >= 0.f) || std::isinf(v)) fail("eps must be a non-negative number");
        p.eps = v;
        rest = s.substr(0, eps_at) + s.substr(end - s.c_str());
    }
    static const std::vector<const char *> fields = {"mb", "ic", "id", "ih", "iw"};
    std::vector<field_value> f = scan_fields(rest, fields, p.name);
    if (!f[1].given) fail("field 'ic' is required");
    if (f[0].given) p.mb = f[0].value;
    p.ic = f[1].value;
    const bool has_d = f[2].given, has_h = f[3].given, has_w = f[4].given;
    if (has_d) {
        if (has_h != has_w)
            fail(std::string("3D problem: give both ih and iw or neither (only ")
                 + (has_h ? "ih" : "iw") + " is given)");
        p.nsp = 3;
        if (!has_h) f[3] = f[4] = f[2];
    } else if (has_h) {
        p.nsp = 2;
        if (!has_w) f[4] = f[3];
    } else {
        p.nsp = has_w ? 1 : 0;
    }
    for (int sp = first_sp(p.nsp); sp < 3 && p.nsp > 0; ++sp) p.i[sp] = f[2 + sp].value;
    const std::string problem = check_bnorm_problem(p);
    if (!problem.empty()) fail(problem);
    return p;
}

lnorm_problem parse_lnorm_problem_named(const std::string &s, std::string *name) {
    lnorm_problem p;
    p.dims = parse_eltwise_problem_named(s, name).dims;
    const std::string problem = check_lnorm_problem(p);
    if (!problem.empty()) fail(problem);
    return p;
}

} // namespace bdl
