// Policy names as benchdnn spells them, and the normal form of a mask.
#include "attr/operand_policy.hpp"

#include <limits>

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
    // "maskN": N an int in decimal, as policy_name prints it. It may be negative: masks are
    // rank-free bit sets (per_tensor is ~0), so "every dim but 2" is ~4, printed "mask-5".
    if (name.compare(0, 4, "mask") != 0) return false;
    size_t i = 4;
    const bool negative = i < name.size() && name[i] == '-';
    if (negative) ++i;
    if (i == name.size()) return false;
    long long value = 0;
    for (; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') return false;
        value = value * 10 + (name[i] - '0');
        if (value > static_cast<long long>(std::numeric_limits<int>::max()) + 1) return false;
    }
    if (negative) value = -value;
    if (value > std::numeric_limits<int>::max()) return false;
    mask = static_cast<int>(value);
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
