// Problem shapes (doc/reference.md §3) as the library uses them: the validity checks that
// creation applies, the canonical printed form of verbose lines, and FLOP counts. Parsing the
// strings is benchdnn_lite's (benchdnn_lite/problem_parse.cpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "common/problem.hpp"

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

int64_t conv_problem::implied_pad(int sp) const {
    return ((o[sp] - 1) * s[sp] - i[sp] + extent(sp)) / 2; // truncates toward zero, as benchdnn
}

int64_t eltwise_problem::nelems() const {
    if (dims.empty()) return 0;
    int64_t n = 1;
    for (int64_t d : dims) n *= d; // check_eltwise_problem keeps this below 2^62
    return n;
}

namespace {
const char sp_letter[3] = {'d', 'h', 'w'};
} // namespace

std::string field_name(char kind, int sp) { return std::string(1, kind) + sp_letter[sp]; }

namespace {

std::string num(int64_t v) { return std::to_string(v); }

// Tensors of more elements than this are refused, so that every int64 size and offset that the
// library and the tools compute from a valid problem fits.
constexpr double max_elements = 4611686018427387904.0; // 2^62

std::string too_large(const char *what, double elements) {
    if (elements <= max_elements) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", elements);
    return std::string("problem too large: ") + what + " would have " + buf + " elements";
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
    // mb0 counted as 1: an empty tensor still has strides, products of the other dims.
    const double mb = d(std::max<int64_t>(p.mb, 1));
    double src = mb * d(p.ic), dst = mb * d(p.oc), wei = d(p.oc) * d(p.icg());
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
        if (p.p[sp] != 0 || p.p[sp] != p.implied_pad(sp))
            s += field_name('p', sp) + num(p.p[sp]);
    for (int sp : dims)
        if (p.d[sp] != 0) s += field_name('d', sp) + num(p.d[sp]);
    return s + quoted_name(p.name);
}

// ---- inner product ---------------------------------------------------------------------------

namespace {
// The input's spatial sizes of an inner product or a batch normalization: the dims not in use
// are 1, the others positive. "" or the problem.
std::string check_input_spatial(int nsp, const int64_t i[3]) {
    for (int sp = 0; sp < 3; ++sp) {
        if (sp < first_sp(nsp)) {
            if (i[sp] != 1)
                return std::string("spatial dim ") + sp_letter[sp]
                       + " is not in use and must have size 1";
        } else if (i[sp] < 1) {
            return field_name('i', sp) + "=" + num(i[sp]) + " must be positive";
        }
    }
    return "";
}
} // namespace

std::string check_ip_problem(const ip_problem &p) {
    if (p.mb < 0) return "mb=" + num(p.mb) + " is negative";
    if (p.ic < 1) return "ic=" + num(p.ic) + " must be positive";
    if (p.oc < 1) return "oc=" + num(p.oc) + " must be positive";
    if (p.nsp < 0 || p.nsp > 3) return "an inner product has 0 to 3 spatial dims, not " + num(p.nsp);
    const std::string bad_spatial = check_input_spatial(p.nsp, p.i);
    if (!bad_spatial.empty()) return bad_spatial;
    const auto d = [](int64_t v) { return static_cast<double>(v); };
    const double spatial = d(p.i[0]) * d(p.i[1]) * d(p.i[2]);
    for (const std::string &msg : {too_large("src", d(p.mb) * d(p.ic) * spatial),
                                   too_large("weights", d(p.oc) * d(p.ic) * spatial),
                                   too_large("dst", d(p.mb) * d(p.oc))})
        if (!msg.empty()) return msg;
    return "";
}

std::string to_string(const ip_problem &p) {
    std::string s = "mb" + num(p.mb) + "ic" + num(p.ic);
    for (int sp : printed_dims(p.nsp, [&](int a, int b) { return p.i[a] == p.i[b]; }))
        s += field_name('i', sp) + num(p.i[sp]);
    s += "oc" + num(p.oc);
    return s + quoted_name(p.name);
}

// ---- eltwise ---------------------------------------------------------------------------------

std::string check_eltwise_problem(const eltwise_problem &p) {
    if (p.dims.empty() || p.dims.size() > 5)
        return "an eltwise problem has 1 to 5 dims, not " + num(p.dims.size());
    if (p.dims[0] < 0) return "dim 0 is " + num(p.dims[0]) + ": a dim may not be negative";
    double elements = 1;
    for (size_t j = 0; j < p.dims.size(); ++j) {
        if (j > 0 && p.dims[j] < 1)
            return "dim " + num(j) + " is " + num(p.dims[j])
                   + ": only the first dim (the minibatch) may be 0";
        elements *= static_cast<double>(std::max<int64_t>(p.dims[j], 1)); // as for convolution
    }
    return too_large("the tensor", elements);
}

std::string to_string(const eltwise_problem &p) {
    std::string s;
    for (size_t j = 0; j < p.dims.size(); ++j) s += (j ? "x" : "") + num(p.dims[j]);
    return s;
}

std::string to_string(const binary_problem &p) {
    return to_string(eltwise_problem {p.src0}) + ":" + to_string(eltwise_problem {p.src1});
}

// ---- batch and layer normalization -----------------------------------------------------------

int64_t lnorm_problem::rows() const {
    int64_t n = 1;
    for (size_t j = 0; j + 1 < dims.size(); ++j) n *= dims[j];
    return n;
}

namespace {

// "" or what is wrong with epsilon and the flags, common to both normalizations.
std::string check_eps_and_flags(float eps, unsigned flags) {
    if (!(eps > 0.f) || std::isinf(eps)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", static_cast<double>(eps));
        return std::string("epsilon=") + buf + " must be positive and finite";
    }
    if (flags & ~norm_flags::all) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%x", flags & ~norm_flags::all);
        return std::string("flags ") + buf + " are not supported (use_global_stats 0x1, use_scale "
               "0x8, use_shift 0x10; oneDNN's use_scaleshift 0x2 and fuse_norm_relu 0x4 are not "
               "implemented: use use_scale | use_shift, and a relu post-op)";
    }
    return "";
}

std::string with_flags(unsigned flags, const std::string &desc) {
    const std::string f = normalization_flags_string(flags);
    return f.empty() ? desc : "--flags=" + f + " " + desc;
}

} // namespace

std::string normalization_flags_string(unsigned flags) {
    std::string s;
    if (flags & norm_flags::global_stats) s += "G";
    if (flags & norm_flags::scale) s += "C";
    if (flags & norm_flags::shift) s += "H";
    return s;
}

std::string check_bnorm_problem(const bnorm_problem &p) {
    if (p.mb < 0) return "mb=" + num(p.mb) + " is negative";
    if (p.ic < 1) return "ic=" + num(p.ic) + " must be positive";
    if (p.nsp < 0 || p.nsp > 3)
        return "a batch normalization has 0 to 3 spatial dims, not " + num(p.nsp);
    const std::string bad_spatial = check_input_spatial(p.nsp, p.i);
    if (!bad_spatial.empty()) return bad_spatial;
    const std::string bad = check_eps_and_flags(p.eps, p.flags);
    if (!bad.empty()) return bad;
    const auto d = [](int64_t v) { return static_cast<double>(v); };
    return too_large("src", d(std::max<int64_t>(p.mb, 1)) * d(p.ic) * d(p.i[0]) * d(p.i[1]) * d(p.i[2]));
}

std::string descriptor_string(const bnorm_problem &p) {
    std::string s = "mb" + num(p.mb) + "ic" + num(p.ic);
    for (int sp : printed_dims(p.nsp, [&](int a, int b) { return p.i[a] == p.i[b]; }))
        s += field_name('i', sp) + num(p.i[sp]);
    if (p.eps != 1.f / 16) { // as benchdnn prints it: a float on a default ostream (%g)
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", static_cast<double>(p.eps));
        s += std::string("eps") + buf;
    }
    return s + quoted_name(p.name);
}

std::string to_string(const bnorm_problem &p) { return with_flags(p.flags, descriptor_string(p)); }

std::string check_lnorm_problem(const lnorm_problem &p) {
    if (p.dims.size() < 2 || p.dims.size() > 5)
        return "a layer normalization has 2 to 5 dims, not " + num(p.dims.size());
    eltwise_problem as_tensor {p.dims};
    const std::string bad_dims = check_eltwise_problem(as_tensor);
    if (!bad_dims.empty()) return bad_dims;
    return check_eps_and_flags(p.eps, p.flags);
}

std::string descriptor_string(const lnorm_problem &p) { return to_string(eltwise_problem {p.dims}); }

std::string to_string(const lnorm_problem &p) { return with_flags(p.flags, descriptor_string(p)); }

} // namespace impl
} // namespace prim
