// The pooling driver's --alg and what REPRO writes of it (driver_table.hpp).
#include "attr_syntax.hpp"
#include "common/pool_problem.hpp"
#include "drivers.hpp"
#include "parser.hpp"

namespace bdl {

void parse_pool_alg(const std::string &token, const std::string &value, option_lists &l) {
    std::vector<prim::algorithm> algs;
    for (const std::string &v : option_items(token, value)) {
        const std::string n = lower(v);
        if (n == "max" || n == "pooling_max") algs.push_back(prim::algorithm::pooling_max);
        else if (n == "avg_np" || n == "pooling_avg_exclude_padding")
            algs.push_back(prim::algorithm::pooling_avg_exclude_padding);
        else if (n == "avg_p" || n == "pooling_avg_include_padding")
            algs.push_back(prim::algorithm::pooling_avg_include_padding);
        else bad_option(token, "unknown pooling algorithm '" + v + "' (max, avg_np, avg_p)");
    }
    l.palg = algs;
}

std::string pool_repro_alg(const settings &s) {
    return std::string("--alg=") + prim::impl::pool_alg_name(s.palg) + " ";
}

} // namespace bdl
