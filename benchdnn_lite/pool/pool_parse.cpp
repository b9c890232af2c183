// The pool descriptor parsed with doc/reference.md §3's rules (pool_parse.hpp).
#include "pool/pool_parse.hpp"

#include <cctype>

#include "problem_parse.hpp"
#include "prim/error.hpp"

namespace bdl {

using prim::impl::pool_problem;

namespace {

[[noreturn]] void fail(const std::string &msg) {
    throw prim::error(prim::status::invalid_arguments, msg);
}

} // namespace

// The pool descriptor has the convolution's fields without g and oc: it is read by the
// convolution's parser (doc/reference.md §3's rules) with oc set to 1, a field no pool
// descriptor may give. The name (n...) comes last and no field contains an n.
prim::impl::pool_problem parse_pool_problem(const std::string &text, const settings &s) {
    const size_t name_at = text.find_first_of("nN");
    const std::string fields = text.substr(0, name_at);
    for (size_t pos = 0; pos < fields.size();) {
        if (!std::isalpha(static_cast<unsigned char>(fields[pos]))) {
            ++pos;
            continue;
        }
        std::string word;
        const size_t start = pos;
        while (pos < fields.size() && std::isalpha(static_cast<unsigned char>(fields[pos])))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(fields[pos++])));
        if (word == "oc" || word == "g")
            fail("field '" + word + "' at position " + std::to_string(start)
                 + " is not a pooling field (mb, ic, then i, o, k, s, p, d per spatial dim)");
    }
    const prim::impl::conv_problem c = parse_conv_problem(
            fields + "oc1" + (name_at == std::string::npos ? "" : text.substr(name_at)));
    pool_problem p;
    p.alg = s.palg;
    p.mb = s.mb > 0 ? s.mb : c.mb;
    p.ic = c.ic;
    p.nsp = c.nsp;
    for (int sp = 0; sp < 3; ++sp) {
        p.i[sp] = c.i[sp];
        p.o[sp] = c.o[sp];
        p.k[sp] = c.k[sp];
        p.s[sp] = c.s[sp];
        p.p[sp] = c.p[sp];
        p.p_end[sp] = c.p_end[sp];
        p.d[sp] = c.d[sp];
    }
    p.name = c.name;
    const std::string bad = prim::impl::check_pool_problem(p);
    if (!bad.empty()) fail(bad);
    return p;
}

} // namespace bdl
