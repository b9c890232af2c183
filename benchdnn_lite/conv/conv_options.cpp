// The convolution driver's --alg (driver_table.hpp): direct, auto (run as direct), wino (a
// skipped case).
#include "attr_syntax.hpp"
#include "drivers.hpp"
#include "parser.hpp"

namespace bdl {

namespace {

conv_alg conv_alg_of(const std::string &token, const std::string &name) {
    std::string n = lower(name);
    if (n.compare(0, 12, "convolution_") == 0) n = n.substr(12);
    if (n == "direct") return conv_alg::direct;
    if (n == "auto") return conv_alg::auto_select;
    if (n == "wino" || n == "winograd") return conv_alg::wino;
    bad_option(token, "convolution algorithm must be direct, wino or auto");
}

} // namespace

void parse_conv_alg(const std::string &token, const std::string &value, option_lists &l) {
    std::vector<conv_alg> algs;
    for (const std::string &v : option_items(token, value)) algs.push_back(conv_alg_of(token, v));
    l.calg = algs;
}

} // namespace bdl
