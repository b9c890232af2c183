// The pooling problem: validity, real taps, canonical text (pool_problem.hpp).
#include "common/pool_problem.hpp"

#include <algorithm>

namespace prim {
namespace impl {

namespace {
const char sp_letter[3] = {'d', 'h', 'w'};
std::string num(int64_t v) { return std::to_string(v); }
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; } // a >= 0, b > 0
} // namespace

conv_problem pool_problem::as_conv() const {
    conv_problem c;
    c.mb = mb;
    c.ic = c.oc = ic;
    c.nsp = nsp;
    for (int sp = 0; sp < 3; ++sp) {
        c.i[sp] = i[sp];
        c.o[sp] = o[sp];
        c.k[sp] = k[sp];
        c.s[sp] = s[sp];
        c.p[sp] = p[sp];
        c.p_end[sp] = p_end[sp];
        c.d[sp] = d[sp];
    }
    c.name = name;
    return c;
}

tap_range real_taps(const pool_problem &prb, int sp, int64_t out) {
    const int64_t start = out * prb.s[sp] - prb.p[sp], step = prb.d[sp] + 1;
    const int64_t first = start < 0 ? ceil_div(-start, step) : 0;
    // The last tap inside the input: start + k * step <= i - 1.
    const int64_t last = start > prb.i[sp] - 1 ? -1 : (prb.i[sp] - 1 - start) / step;
    const int64_t end = std::min(prb.k[sp], last + 1);
    return {first, std::max<int64_t>(0, end - first)};
}

const char *pool_alg_name(algorithm alg) {
    switch (alg) {
    case algorithm::pooling_max: return "max";
    case algorithm::pooling_avg_include_padding: return "avg_p";
    case algorithm::pooling_avg_exclude_padding: return "avg_np";
    default: return nullptr;
    }
}

std::string check_pool_problem(const pool_problem &prb) {
    if (!pool_alg_name(prb.alg))
        return "algorithm " + num(static_cast<int>(prb.alg))
               + " is not a pooling algorithm (pooling_max, pooling_avg_include_padding, "
                 "pooling_avg_exclude_padding)";
    if (prb.nsp < 1 || prb.nsp > 3) return "pooling has 1 to 3 spatial dims, not " + num(prb.nsp);
    // The shape rules are the convolution's (ic -> ic channels, one group).
    std::string bad = check_conv_problem(prb.as_conv());
    if (!bad.empty()) return bad;
    // A window of padding alone has no maximum (and no average of real taps): the first and the
    // last windows are the ones that can be, but dilation can leave any window between the
    // input's rows, so each is checked.
    for (int sp = 3 - prb.nsp; sp < 3; ++sp) {
        for (int64_t out = 0; out < prb.o[sp]; ++out) {
            if (real_taps(prb, sp, out).count > 0) continue;
            const std::string f = std::string(1, 'o') + sp_letter[sp];
            return f + "=" + num(out) + " is a window of padding only (i" + sp_letter[sp] + "="
                   + num(prb.i[sp]) + ", k" + sp_letter[sp] + "=" + num(prb.k[sp]) + ", s"
                   + sp_letter[sp] + "=" + num(prb.s[sp]) + ", padding " + num(prb.p[sp]) + "/"
                   + num(prb.p_end[sp]) + ", d" + sp_letter[sp] + "=" + num(prb.d[sp])
                   + "): every window needs a real input tap";
        }
    }
    return "";
}

std::string descriptor_string(const pool_problem &prb) {
    const auto same = [&](int a, int b) {
        return prb.i[a] == prb.i[b] && prb.o[a] == prb.o[b] && prb.k[a] == prb.k[b]
               && prb.s[a] == prb.s[b] && prb.p[a] == prb.p[b] && prb.p_end[a] == prb.p_end[b]
               && prb.d[a] == prb.d[b];
    };
    std::vector<int> dims;
    if (prb.nsp == 1) dims = {SP_W};
    else if (prb.nsp == 2) dims = same(SP_H, SP_W) ? std::vector<int> {SP_H} : std::vector<int> {SP_H, SP_W};
    else dims = same(SP_D, SP_H) && same(SP_D, SP_W) ? std::vector<int> {SP_D}
                                                    : std::vector<int> {SP_D, SP_H, SP_W};
    std::string s = "mb" + num(prb.mb) + "ic" + num(prb.ic);
    for (int sp : dims) {
        s += "_" + field_name('i', sp) + num(prb.i[sp]) + field_name('o', sp) + num(prb.o[sp])
             + field_name('k', sp) + num(prb.k[sp]);
        if (prb.s[sp] != 1) s += field_name('s', sp) + num(prb.s[sp]);
        // As conv: printed when non-zero or when parsing would derive another.
        if (prb.p[sp] != 0 || prb.p[sp] != prb.implied_pad(sp)) s += field_name('p', sp) + num(prb.p[sp]);
        if (prb.d[sp] != 0) s += field_name('d', sp) + num(prb.d[sp]);
    }
    return s + (prb.name.empty() ? std::string() : "n\"" + prb.name + "\"");
}

std::string to_string(const pool_problem &prb) {
    const char *alg = pool_alg_name(prb.alg);
    return std::string("--alg=") + (alg ? alg : "?") + " " + descriptor_string(prb);
}

} // namespace impl
} // namespace prim
