// The scalar definition of every eltwise algorithm (doc/reference.md §1), in double: each
// algorithm's formula is its row's f in algorithm_table.cpp.
//
// Conventions, applied uniformly so that the oracle is predictable:
// - NaN in gives NaN out for every algorithm, checked once here (so comparisons such as
//   x > 0 or min/max never swallow a NaN, and pow(NaN, 0) is NaN, not C's 1).
// - At x = +-inf the result is the limit of f(x), not an accidental 0 * inf = NaN: relu(-inf) = 0,
//   softsign(inf) = 1, gelu(-inf) = 0, and so on. The table's helper times() does this: a product
//   with an exact zero factor is zero.
// - Forms that stay accurate near zero and in the tails: expm1 (elu, selu, celu), log1p
//   (soft_relu and friends), erfc (gelu_erf), a logistic that never overflows.
#include <cmath>
#include <string>

#include "attr/algorithm_table.hpp"
#include "attr/eltwise_math.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {

double eltwise_fwd(algorithm alg, double x, double alpha, double beta) {
    const algorithm_info *info = find_algorithm(alg);
    if (!info)
        throw error(status::invalid_arguments,
                    "eltwise_fwd: algorithm " + std::to_string(static_cast<int>(alg))
                            + " is not an eltwise algorithm");
    // Every algorithm propagates NaN; ruling it out here keeps each formula simple.
    if (std::isnan(x)) return x;
    return info->f(x, alpha, beta);
}

} // namespace impl
} // namespace prim
