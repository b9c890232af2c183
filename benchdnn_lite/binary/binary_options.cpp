// The binary driver's --alg, what REPRO writes of it, and SELECT, which it skips
// (driver_table.hpp).
#include "attr/binary_table.hpp"
#include "attr_syntax.hpp"
#include "drivers.hpp"
#include "parser.hpp"

namespace bdl {

void parse_binary_alg(const std::string &token, const std::string &value, option_lists &l) {
    std::vector<prim::algorithm> algs;
    for (const std::string &v : option_items(token, value)) {
        std::string n = lower(v);
        if (n.compare(0, 7, "binary_") == 0) n = n.substr(7);
        if (n == "select") { // benchdnn's ternary SELECT: a skipped case (binary_skip_reason)
            algs.push_back(prim::algorithm::undef);
            continue;
        }
        const prim::impl::binary_info *info = prim::impl::find_binary(n);
        if (!info) bad_option(token, "unknown binary algorithm '" + v + "'");
        algs.push_back(info->alg);
    }
    l.balg = algs;
}

std::string binary_repro_alg(const settings &s) {
    return std::string("--alg=")
           + (s.balg == prim::algorithm::undef ? "SELECT" : prim::impl::find_binary(s.balg)->name) + " ";
}

std::string binary_skip_reason(const settings &s) {
    return s.balg == prim::algorithm::undef ? "binary SELECT (three sources) is not supported" : "";
}

} // namespace bdl
