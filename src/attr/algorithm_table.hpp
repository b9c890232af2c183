// Facts about each eltwise algorithm: its fusion-string name, its default parameters, which
// parameters it reads, and which parameter values it forbids. One table, used by the attribute, the parser and the printer.
#pragma once
#include <string>

#include "prim/attr.hpp"

namespace prim {
namespace impl {

struct algorithm_info {
    algorithm alg;
    const char *name;        // main name, as printed
    float default_alpha;     // value used when a fusion string omits alpha
    float default_beta;      // value used when a fusion string omits beta
    bool uses_alpha;         // f reads alpha (else it is ignored)
    bool uses_beta;          // f reads beta
};

// The table entry for an eltwise algorithm, or nullptr if alg is not one.
const algorithm_info *find_algorithm(algorithm alg);
// By main name only ("relu"); aliases are the parser's business. nullptr if unknown.
const algorithm_info *find_algorithm(const std::string &name);
// "" when the parameters are allowed for alg, else a message naming the problem
// ("soft_relu: alpha must be non-zero", "relu: alpha is NaN").
std::string check_eltwise_params(algorithm alg, float alpha, float beta, float scale);

} // namespace impl
} // namespace prim
