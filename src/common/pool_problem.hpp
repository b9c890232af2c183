// The pooling problem in benchdnn's terms (its pool driver's descriptor, doc/reference.md §3's
// field rules): validation, the canonical text of verbose lines, and where each window's real
// taps are.
#pragma once
#include <cstdint>
#include <string>

#include "common/problem.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace impl {

// Spatial arrays as conv_problem's (index SP_D, SP_H, SP_W; a dim not in use holds i = o = k =
// s = 1, p = p_end = d = 0). p_end is the end padding the output uses, (o-1)*s - i + E - p.
struct pool_problem {
    algorithm alg = algorithm::pooling_max;
    int64_t mb = 2, ic = 0;
    int nsp = 2;
    int64_t i[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1};
    int64_t p[3] = {0, 0, 0}, p_end[3] = {0, 0, 0}, d[3] = {0, 0, 0};
    std::string name;

    int64_t extent(int sp) const { return (k[sp] - 1) * (d[sp] + 1) + 1; }
    int64_t implied_pad(int sp) const { return ((o[sp] - 1) * s[sp] - i[sp] + extent(sp)) / 2; }
    int64_t kernel_volume() const { return k[0] * k[1] * k[2]; }
    int64_t dst_nelems() const { return mb * ic * o[0] * o[1] * o[2]; }
    bool is_max() const { return alg == algorithm::pooling_max; }
    // The spatial problem as a one-group convolution of ic -> ic channels.
    conv_problem as_conv() const;
};

// The real taps of output position `out` along dim sp: k in [first, first + count), count >= 1
// for a valid problem.
struct tap_range {
    int64_t first, count;
};
tap_range real_taps(const pool_problem &prb, int sp, int64_t out);

// "max", "avg_p" (include padding), "avg_np" (exclude padding): benchdnn's --alg names; nullptr
// for another algorithm.
const char *pool_alg_name(algorithm alg);

// "" when valid, else the problem ("ow=4 covers only padding: ...").
std::string check_pool_problem(const pool_problem &prb);
// benchdnn's pool descriptor: mb2ic64_ih56oh28kh3sh2ph1 (one group per printed spatial dim, the
// fields at their default omitted, groups equal to h's or d's left out as conv's).
std::string descriptor_string(const pool_problem &prb);
// With the algorithm, as verbose lines and messages print it: "--alg=max mb2ic64_ih56oh28kh3sh2ph1".
std::string to_string(const pool_problem &prb);

} // namespace impl
} // namespace prim
