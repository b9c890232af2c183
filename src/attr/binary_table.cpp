// The one table of binary algorithms, and their scalar definitions.
#include "attr/binary_table.hpp"

#include "prim/error.hpp"

namespace prim {
namespace impl {

namespace {

const binary_info binary_table[] = {
    {algorithm::binary_add, "add"}, {algorithm::binary_sub, "sub"},
    {algorithm::binary_mul, "mul"}, {algorithm::binary_div, "div"},
    {algorithm::binary_max, "max"}, {algorithm::binary_min, "min"},
    {algorithm::binary_ge, "ge"},   {algorithm::binary_gt, "gt"},
    {algorithm::binary_le, "le"},   {algorithm::binary_lt, "lt"},
    {algorithm::binary_eq, "eq"},   {algorithm::binary_ne, "ne"},
};

float truth(bool b) { return b ? 1.f : 0.f; }

} // namespace

const binary_info *find_binary(algorithm alg) {
    for (const binary_info &info : binary_table)
        if (info.alg == alg) return &info;
    return nullptr;
}

const binary_info *find_binary(const std::string &name) {
    for (const binary_info &info : binary_table)
        if (name == info.name) return &info;
    return nullptr;
}

float binary_fwd(algorithm alg, float a, float b) {
    switch (alg) {
    case algorithm::binary_add: return a + b;
    case algorithm::binary_sub: return a - b;
    case algorithm::binary_mul: return a * b;
    case algorithm::binary_div: return a / b;
    case algorithm::binary_max: return a > b ? a : b;
    case algorithm::binary_min: return a < b ? a : b;
    case algorithm::binary_ge: return truth(a >= b);
    case algorithm::binary_gt: return truth(a > b);
    case algorithm::binary_le: return truth(a <= b);
    case algorithm::binary_lt: return truth(a < b);
    case algorithm::binary_eq: return truth(a == b);
    case algorithm::binary_ne: return truth(!(a == b));
    default: break;
    }
    throw error(status::invalid_arguments, "binary_fwd: not a binary algorithm");
}

} // namespace impl
} // namespace prim
