// Problem shapes in benchdnn's terms (doc/reference.md §3): what the library needs of them
// (validation, the printed form of verbose lines, FLOP counts). benchdnn_lite parses the strings
// (benchdnn_lite/problem_parse.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace prim {
namespace impl {

// Spatial index of the arrays below: 0 = depth, 1 = height, 2 = width. A dimension not in use
// holds i = o = k = s = 1 and p = p_end = d = 0, so every kernel can loop over three dims.
enum spatial { SP_D = 0, SP_H = 1, SP_W = 2 };

struct conv_problem {
    int64_t g = 1, mb = 2, ic = 0, oc = 0;   // ic and oc count all groups
    int nsp = 2;                             // spatial dims in use: 1 (w), 2 (h, w), 3 (d, h, w)
    int64_t i[3] = {1, 1, 1};                // input size
    int64_t o[3] = {1, 1, 1};                // output size
    int64_t k[3] = {1, 1, 1};                // kernel size
    int64_t s[3] = {1, 1, 1};                // stride
    int64_t p[3] = {0, 0, 0};                // start padding
    int64_t p_end[3] = {0, 0, 0};            // end padding: (o-1)*s - i + E - p, may be negative
    int64_t d[3] = {0, 0, 0};                // dilation, benchdnn's convention: 0 = dense
    std::string name;                        // n"NAME", printed back when not empty

    int64_t icg() const { return ic / g; }
    int64_t ocg() const { return oc / g; }
    // Taps' extent: (k - 1) * (d + 1) + 1.
    int64_t extent(int sp) const { return (k[sp] - 1) * (d[sp] + 1) + 1; }
    // The start padding a string that gives o and not p implies: ((o-1)*s - i + E) / 2.
    int64_t implied_pad(int sp) const;
    // 2 * MB * OC * OD*OH*OW * IC/G * KD*KH*KW, every tap counted.
    double flops() const;
};

struct ip_problem {
    int64_t mb = 2, ic = 0, oc = 0;
    int nsp = 0;                 // 0: src is (mb, ic); else 1..3 spatial dims as for convolution
    int64_t i[3] = {1, 1, 1};    // spatial size of src (and of the weights)
    std::string name;

    int64_t spatial() const { return i[0] * i[1] * i[2]; }
    double flops() const; // 2 * MB * OC * IC * ID*IH*IW
};

struct eltwise_problem {
    std::vector<int64_t> dims; // 1 to 5 dims
    int64_t nelems() const;
};

struct binary_problem {
    std::vector<int64_t> src0, src1; // the same rank, 1 to 5; each src1 dim src0's or 1
};

// The bits of prim::normalization_flags (include/prim/normalization.hpp), oneDNN's values.
namespace norm_flags {
constexpr unsigned global_stats = 0x1, scale = 0x8, shift = 0x10;
constexpr unsigned all = global_stats | scale | shift;
} // namespace norm_flags

// Batch normalization over src N x C [x D] [x H] [x W]: benchdnn's bnorm descriptor.
struct bnorm_problem {
    int64_t mb = 2, ic = 0;
    int nsp = 2;              // spatial dims in use: 0 (src N x C) to 3; unused ones are 1
    int64_t i[3] = {1, 1, 1}; // spatial size (d, h, w)
    float eps = 1.f / 16;     // benchdnn's default, printed only when different
    unsigned flags = 0;       // normalization_flags bits
    std::string name;

    int64_t spatial() const { return i[0] * i[1] * i[2]; }
    int64_t nelems() const { return mb * ic * spatial(); }
    bool global_stats() const { return flags & norm_flags::global_stats; }
    bool use_scale() const { return flags & norm_flags::scale; }
    bool use_shift() const { return flags & norm_flags::shift; }
};

// Layer normalization over the last of 2 to 5 dims: benchdnn's lnorm descriptor (dims joined by
// x; benchdnn's lnorm has no eps field, so eps is not printed).
struct lnorm_problem {
    std::vector<int64_t> dims;
    float eps = 1.f / 16;
    unsigned flags = 0;

    int64_t norm_len() const { return dims.back(); } // C, the normalised dim
    int64_t rows() const;                            // the product of the other dims
    int64_t nelems() const { return rows() * norm_len(); }
    bool global_stats() const { return flags & norm_flags::global_stats; }
    bool use_scale() const { return flags & norm_flags::scale; }
    bool use_shift() const { return flags & norm_flags::shift; }
};

// A spatial field's name in problem strings and messages: field_name('k', SP_H) is "kh".
std::string field_name(char kind, int sp);

// Canonical short forms, e.g. "mb2ic64ih56oc64oh56kh3ph1" (fields at their default omitted,
// the w group omitted when it equals h, and so on). Parsing the result gives back the same problem.
std::string to_string(const conv_problem &prb);
std::string to_string(const ip_problem &prb);
std::string to_string(const eltwise_problem &prb); // "2x17x5x7"
std::string to_string(const binary_problem &prb);  // "2x64x56x56:1x64x1x1", benchdnn's form
// The normalizations as verbose lines and messages print them: benchdnn's --flags option
// (G use_global_stats, C use_scale, H use_shift), when any flag is set, then the descriptor:
// "--flags=GCH mb2ic64ih56eps1e-05", "8x128x768". The descriptors alone:
// "mb2ic64ih56eps1e-05", "8x128x768"; the flags alone: "GCH".
std::string to_string(const bnorm_problem &prb);
std::string to_string(const lnorm_problem &prb);
std::string descriptor_string(const bnorm_problem &prb);
std::string descriptor_string(const lnorm_problem &prb);
std::string normalization_flags_string(unsigned flags);

// doc/reference.md §3's validity rules for a complete problem: "" when valid, else the message
// ("oc=16 is not divisible by g=3").
std::string check_conv_problem(const conv_problem &prb);
std::string check_ip_problem(const ip_problem &prb);
std::string check_eltwise_problem(const eltwise_problem &prb);
std::string check_bnorm_problem(const bnorm_problem &prb);
std::string check_lnorm_problem(const lnorm_problem &prb);

} // namespace impl
} // namespace prim
