// The one scalar definition of every eltwise algorithm, in double: the oracle's formulas.
#pragma once
#include "prim/attr.hpp"

namespace prim {
namespace impl {

// f_alg(x; alpha, beta) as doc/reference.md §1 defines it, computed in double with the
// numerically careful forms (expm1, log1p, erfc) so it is right near zero and in the tails.
// NaN in gives NaN out for every algorithm.
double eltwise_fwd(algorithm alg, double x, double alpha, double beta);

} // namespace impl
} // namespace prim
