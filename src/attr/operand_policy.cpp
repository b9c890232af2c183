// Policy names as benchdnn spells them, and the normal form of a mask.
#include "attr/operand_policy.hpp"

#include <cstdlib>

#include "prim/attr.hpp"

namespace prim {
namespace impl {

namespace {

struct named_policy {
    const char *name;
    int mask;
};
const named_policy named_policies[] = {
    {"common", post_ops::policy::common},
    {"per_oc", post_ops::policy::per_oc},
    {"per_dim_0", 1},
    {"per_dim_1", post_ops::policy::per_oc}, // an alias: prints as per_oc
    {"per_dim_01", 3},
    {"per_mb_spatial", post_ops::policy::per_mb_spatial},
    {"per_tensor", post_ops::policy::per_tensor},
};

} // namespace

std::string policy_name(int mask) {
    for (const named_policy &p : named_policies)
        if (p.mask == mask) return p.name;
    return "mask" + std::to_string(mask);
}

bool parse_policy(const std::string &name, int &mask) {
    for (const named_policy &p : named_policies)
        if (name == p.name) {
            mask = p.mask;
            return true;
        }
    // "maskN": N in decimal, 1 to 9 digits (masks are at most 2^(max rank) - 1 anyway).
    if (name.size() < 5 || name.size() > 13 || name.compare(0, 4, "mask") != 0) return false;
    for (size_t i = 4; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return false;
    mask = std::atoi(name.c_str() + 4);
    return true;
}

int policy_of(const memory::dims &dims) {
    const int rank = static_cast<int>(dims.size());
    int mask = 0;
    for (int d = 0; d < rank; ++d)
        if (dims[d] != 1) mask |= 1 << d;
    if (mask == mask_within(post_ops::policy::per_tensor, rank)) return post_ops::policy::per_tensor;
    if (rank > 1 && mask == mask_within(post_ops::policy::per_mb_spatial, rank))
        return post_ops::policy::per_mb_spatial;
    return mask;
}

} // namespace impl
} // namespace prim
