// Problem descriptors as strings (doc/reference.md §3): parsing with benchdnn's rules, the
// validity checks, the canonical printed form, and FLOP counts.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/problem.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {

// In double throughout: the int64 products of a huge problem could overflow.
double conv_problem::flops() const {
    double f = 2.0 * static_cast<double>(mb) * static_cast<double>(oc) * static_cast<double>(icg());
    for (int sp = 0; sp < 3; ++sp) f *= static_cast<double>(o[sp]) * static_cast<double>(k[sp]);
    return f;
}

double ip_problem::flops() const {
    double f = 2.0 * static_cast<double>(mb) * static_cast<double>(oc) * static_cast<double>(ic);
    for (int sp = 0; sp < 3; ++sp) f *= static_cast<double>(i[sp]);
    return f;
}

int64_t eltwise_problem::nelems() const {
    if (dims.empty()) return 0;
    int64_t n = 1;
    for (int64_t d : dims) n *= d; // parse_eltwise_problem keeps this below 2^62
    return n;
}

namespace {

const char sp_letter[3] = {'d', 'h', 'w'};

[[noreturn]] void fail(const std::string &msg) { throw error(status::invalid_arguments, msg); }

std::string field_name(char kind, int sp) { return std::string(1, kind) + sp_letter[sp]; }

std::string num(int64_t v) { return std::to_string(v); }

// ---- scanning "name value" fields in a fixed order ------------------------------------------

// Values larger than this are refused while parsing, so that the derived sizes (products of two
// fields plus a few more) cannot overflow 64 bits.
constexpr int64_t max_field_value = (int64_t(1) << 30) - 1;

struct field_value {
    bool given = false;
    int64_t value = 0;
};

// Reads s as a sequence of fields taken from `names` (in that order, each at most once, '_'
// allowed between them, names in either case) and an optional trailing n"NAME".
std::vector<field_value> scan_fields(const std::string &s, const std::vector<const char *> &names,
                                     std::string &name_out) {
    if (s.empty()) fail("empty descriptor");
    std::vector<field_value> out(names.size());
    auto index_of = [&](const std::string &word) -> int {
        for (size_t j = 0; j < names.size(); ++j)
            if (word == names[j]) return static_cast<int>(j);
        return -1;
    };
    int last = -1; // index of the last field read, to check the order
    size_t pos = 0;
    const size_t n = s.size();
    while (pos < n) {
        const char c = s[pos];
        if (c == '_') {
            ++pos;
            continue;
        }
        if ((c == 'n' || c == 'N') && pos + 1 < n && s[pos + 1] == '"') {
            const size_t close = s.find('"', pos + 2);
            if (close == std::string::npos)
                fail("name at position " + num(pos) + " has no closing '\"'");
            name_out = s.substr(pos + 2, close - pos - 2);
            for (size_t q = close + 1; q < n; ++q)
                if (s[q] != '_')
                    fail("unexpected '" + s.substr(q) + "' at position " + num(q)
                         + " after the name (the name comes last)");
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
        if (idx < last)
            fail("field '" + word + "' at position " + num(start)
                 + " is out of order: it must come before '" + names[last] + "'");
        last = idx;
        out[idx].given = true;
        out[idx].value = negative ? -v : v;
    }
    return out;
}

// ---- convolution -----------------------------------------------------------------------------

// The canonical field order (doc/reference.md §3); the spatial fields of kind K for dims d, h, w
// are at K_base + 0, 1, 2.
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

// Start padding that parsing derives when the output size is given and the padding is not.
int64_t derived_pad(int64_t i, int64_t o, int64_t s, int64_t extent) {
    return ((o - 1) * s - i + extent) / 2; // C++ division truncates toward zero, as benchdnn
}

// Tensors of more elements than this are refused, so that every int64 size and offset that the
// library and the tools compute from a valid problem fits.
constexpr double max_elements = 4611686018427387904.0; // 2^62

std::string too_large(const char *what, double elements) {
    if (elements <= max_elements) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", elements);
    return std::string("problem too large: ") + what + " would have " + buf + " elements";
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

int first_sp(int nsp) { return 3 - nsp; }

bool same_group(const conv_problem &p, int a, int b) {
    return p.i[a] == p.i[b] && p.o[a] == p.o[b] && p.k[a] == p.k[b] && p.s[a] == p.s[b]
           && p.p[a] == p.p[b] && p.p_end[a] == p.p_end[b] && p.d[a] == p.d[b];
}

// The spatial dims to_string prints: the copying rules give back the others.
template <typename same_fn>
std::vector<int> printed_dims(int nsp, same_fn same) {
    if (nsp == 1) return {SP_W};
    if (nsp == 2) {
        if (same(SP_H, SP_W)) return {SP_H};
        return {SP_H, SP_W};
    }
    if (nsp == 3) {
        if (same(SP_D, SP_H) && same(SP_D, SP_W)) return {SP_D};
        return {SP_D, SP_H, SP_W};
    }
    return {};
}

std::string quoted_name(const std::string &name) {
    return name.empty() ? std::string() : "n\"" + name + "\"";
}

} // namespace

std::string check_conv_problem(const conv_problem &p) {
    if (p.g < 1) return "g=" + num(p.g) + " must be positive";
    if (p.mb < 0) return "mb=" + num(p.mb) + " is negative";
    if (p.ic < 1) return "ic=" + num(p.ic) + " must be positive";
    if (p.oc < 1) return "oc=" + num(p.oc) + " must be positive";
    if (p.oc % p.g != 0) return "oc=" + num(p.oc) + " is not divisible by g=" + num(p.g);
    if (p.ic % p.g != 0) return "ic=" + num(p.ic) + " is not divisible by g=" + num(p.g);
    if (p.nsp < 1 || p.nsp > 3) return "a convolution has 1 to 3 spatial dims, not " + num(p.nsp);
    for (int sp = 0; sp < 3; ++sp) {
        if (sp < first_sp(p.nsp)) {
            if (p.i[sp] != 1 || p.o[sp] != 1 || p.k[sp] != 1 || p.s[sp] != 1 || p.p[sp] != 0
                    || p.p_end[sp] != 0 || p.d[sp] != 0)
                return std::string("spatial dim ") + sp_letter[sp]
                       + " is not in use and must have size 1, stride 1, no padding or dilation";
            continue;
        }
        const auto name = [&](char kind) { return field_name(kind, sp); };
        if (p.i[sp] < 1) return name('i') + "=" + num(p.i[sp]) + " must be positive";
        if (p.k[sp] < 1) return name('k') + "=" + num(p.k[sp]) + " must be positive";
        if (p.s[sp] < 1) return name('s') + "=" + num(p.s[sp]) + " must be positive";
        if (p.d[sp] < 0) return name('d') + "=" + num(p.d[sp]) + " is negative";
        if (p.p[sp] < 0) return name('p') + "=" + num(p.p[sp]) + " is negative";
        if (p.o[sp] < 1) return name('o') + "=" + num(p.o[sp]) + " must be positive";
        const int64_t want_end = (p.o[sp] - 1) * p.s[sp] - p.i[sp] + p.extent(sp) - p.p[sp];
        if (p.p_end[sp] != want_end)
            return "end padding " + num(p.p_end[sp]) + " of dim " + sp_letter[sp]
                   + " does not follow from " + name('o') + "=" + num(p.o[sp]) + " (expected "
                   + num(want_end) + ")";
        if (p.p_end[sp] <= -p.s[sp])
            return name('o') + "=" + num(p.o[sp]) + " leaves the last " + num(-p.p_end[sp])
                   + " of " + name('i') + "=" + num(p.i[sp]) + " unused (end padding "
                   + num(p.p_end[sp]) + " must be greater than -" + name('s') + "="
                   + num(-p.s[sp]) + ")";
    }
    const auto d = [](int64_t v) { return static_cast<double>(v); };
    double src = d(p.mb) * d(p.ic), dst = d(p.mb) * d(p.oc), wei = d(p.oc) * d(p.icg());
    for (int sp = 0; sp < 3; ++sp) {
        src *= d(p.i[sp]);
        dst *= d(p.o[sp]);
        wei *= d(p.k[sp]);
    }
    for (const std::string &msg :
            {too_large("src", src), too_large("weights", wei), too_large("dst", dst)})
        if (!msg.empty()) return msg;
    return "";
}

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
            p.p[sp] = f[F_P + sp].given ? f[F_P + sp].value
                                        : derived_pad(p.i[sp], p.o[sp], p.s[sp], e);
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

std::string to_string(const conv_problem &p) {
    const std::vector<int> dims
            = printed_dims(p.nsp, [&](int a, int b) { return same_group(p, a, b); });
    std::string s;
    if (p.g != 1) s += "g" + num(p.g);
    s += "mb" + num(p.mb) + "ic" + num(p.ic);
    for (int sp : dims) s += field_name('i', sp) + num(p.i[sp]);
    s += "oc" + num(p.oc);
    for (int sp : dims) s += field_name('o', sp) + num(p.o[sp]);
    for (int sp : dims) s += field_name('k', sp) + num(p.k[sp]);
    for (int sp : dims)
        if (p.s[sp] != 1) s += field_name('s', sp) + num(p.s[sp]);
    // Padding is printed when non-zero (as benchdnn does) or when parsing would derive another.
    for (int sp : dims)
        if (p.p[sp] != 0 || p.p[sp] != derived_pad(p.i[sp], p.o[sp], p.s[sp], p.extent(sp)))
            s += field_name('p', sp) + num(p.p[sp]);
    for (int sp : dims)
        if (p.d[sp] != 0) s += field_name('d', sp) + num(p.d[sp]);
    return s + quoted_name(p.name);
}

// ---- inner product ---------------------------------------------------------------------------

namespace {
const std::vector<const char *> ip_fields = {"mb", "ic", "id", "ih", "iw", "oc"};
enum ip_field { IF_MB = 0, IF_IC = 1, IF_I = 2, IF_OC = 5 };
} // namespace

std::string check_ip_problem(const ip_problem &p) {
    if (p.mb < 0) return "mb=" + num(p.mb) + " is negative";
    if (p.ic < 1) return "ic=" + num(p.ic) + " must be positive";
    if (p.oc < 1) return "oc=" + num(p.oc) + " must be positive";
    if (p.nsp < 0 || p.nsp > 3) return "an inner product has 0 to 3 spatial dims, not " + num(p.nsp);
    for (int sp = 0; sp < 3; ++sp) {
        if (sp < first_sp(p.nsp)) {
            if (p.i[sp] != 1)
                return std::string("spatial dim ") + sp_letter[sp]
                       + " is not in use and must have size 1";
        } else if (p.i[sp] < 1) {
            return field_name('i', sp) + "=" + num(p.i[sp]) + " must be positive";
        }
    }
    const auto d = [](int64_t v) { return static_cast<double>(v); };
    const double spatial = d(p.i[0]) * d(p.i[1]) * d(p.i[2]);
    for (const std::string &msg : {too_large("src", d(p.mb) * d(p.ic) * spatial),
                                   too_large("weights", d(p.oc) * d(p.ic) * spatial),
                                   too_large("dst", d(p.mb) * d(p.oc))})
        if (!msg.empty()) return msg;
    return "";
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

std::string to_string(const ip_problem &p) {
    std::string s = "mb" + num(p.mb) + "ic" + num(p.ic);
    for (int sp : printed_dims(p.nsp, [&](int a, int b) { return p.i[a] == p.i[b]; }))
        s += field_name('i', sp) + num(p.i[sp]);
    s += "oc" + num(p.oc);
    return s + quoted_name(p.name);
}

// ---- eltwise ---------------------------------------------------------------------------------

eltwise_problem parse_eltwise_problem(const std::string &s) {
    if (s.empty()) fail("empty descriptor");
    eltwise_problem p;
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
        if (s[pos] != 'x' && s[pos] != 'X')
            fail("unexpected character '" + std::string(1, s[pos]) + "' at position " + num(pos)
                 + " (dims are written like 2x17x5x7)");
        ++pos;
    }
    if (p.dims.size() > 5) fail("an eltwise problem has 1 to 5 dims, not " + num(p.dims.size()));
    double elements = 1;
    for (size_t j = 0; j < p.dims.size(); ++j) {
        if (j > 0 && p.dims[j] < 1)
            fail("dim " + num(j) + " is " + num(p.dims[j])
                 + ": only the first dim (the minibatch) may be 0");
        elements *= static_cast<double>(p.dims[j]);
    }
    const std::string large = too_large("the tensor", elements);
    if (!large.empty()) fail(large);
    return p;
}

std::string to_string(const eltwise_problem &p) {
    std::string s;
    for (size_t j = 0; j < p.dims.size(); ++j) s += (j ? "x" : "") + num(p.dims[j]);
    return s;
}

} // namespace impl
} // namespace prim
