// The softmax driver's --alg (driver_table.hpp); settings::repro_options writes it.
#include "attr_syntax.hpp"
#include "drivers.hpp"
#include "parser.hpp"

namespace bdl {

void parse_softmax_alg(const std::string &token, const std::string &value, option_lists &l) {
    std::vector<prim::algorithm> algs;
    for (const std::string &v : option_items(token, value)) {
        const std::string n = upper(v);
        if (n == "SOFTMAX" || n == "SOFTMAX_ACCURATE") algs.push_back(prim::algorithm::softmax_accurate);
        else if (n == "LOGSOFTMAX" || n == "SOFTMAX_LOG") algs.push_back(prim::algorithm::softmax_log);
        else bad_option(token, "softmax algorithm must be SOFTMAX or LOGSOFTMAX");
    }
    l.salg = algs;
}

} // namespace bdl
