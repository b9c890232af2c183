// Problem descriptors (doc/reference.md §3): every rule, every error, canonical printing and
// round trips, FLOP counts. Expected values are worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "common/problem.hpp"
#include "prim/error.hpp"
#include "problem_parse.hpp"

using namespace prim::impl;
using bdl::parse_conv_problem;
using bdl::parse_eltwise_problem;
using bdl::parse_ip_problem;

namespace {

// The message of the invalid_arguments error that parsing s throws ("" when it parses).
template <typename parse_fn>
std::string parse_error(parse_fn parse, const std::string &s) {
    try {
        parse(s);
    } catch (const prim::error &e) {
        CHECK(e.get_status() == prim::status::invalid_arguments);
        return e.what();
    }
    return "";
}
std::string conv_error(const std::string &s) { return parse_error(parse_conv_problem, s); }
std::string ip_error(const std::string &s) { return parse_error(parse_ip_problem, s); }
std::string eltwise_error(const std::string &s) { return parse_error(parse_eltwise_problem, s); }

void check_same(const conv_problem &a, const conv_problem &b) {
    CHECK(a.g == b.g);
    CHECK(a.mb == b.mb);
    CHECK(a.ic == b.ic);
    CHECK(a.oc == b.oc);
    CHECK(a.nsp == b.nsp);
    for (int sp = 0; sp < 3; ++sp) {
        CHECK(a.i[sp] == b.i[sp]);
        CHECK(a.o[sp] == b.o[sp]);
        CHECK(a.k[sp] == b.k[sp]);
        CHECK(a.s[sp] == b.s[sp]);
        CHECK(a.p[sp] == b.p[sp]);
        CHECK(a.p_end[sp] == b.p_end[sp]);
        CHECK(a.d[sp] == b.d[sp]);
    }
    CHECK(a.name == b.name);
}

} // namespace

TEST_CASE("conv: padding derived from the output size is asymmetric", "[problem][conv]") {
    // E = 4; p = 1 given; p_end = (10 - 1) * 2 - 19 + 4 - 1 = 2.
    const conv_problem p = parse_conv_problem("ic1ih19oc1oh10kh4sh2ph1");
    CHECK(p.nsp == 2);
    CHECK(p.p[SP_H] == 1);
    CHECK(p.p_end[SP_H] == 2);
    CHECK(p.o[SP_H] == 10);
    // No w field: the w group copies h, output size and padding included.
    CHECK(p.i[SP_W] == 19);
    CHECK(p.o[SP_W] == 10);
    CHECK(p.k[SP_W] == 4);
    CHECK(p.s[SP_W] == 2);
    CHECK(p.p[SP_W] == 1);
    CHECK(p.p_end[SP_W] == 2);
    // The unused depth holds the neutral values.
    CHECK(p.i[SP_D] == 1);
    CHECK(p.o[SP_D] == 1);
    CHECK(p.k[SP_D] == 1);
    CHECK(p.s[SP_D] == 1);
    CHECK(p.p[SP_D] == 0);
    CHECK(p.p_end[SP_D] == 0);
    CHECK(p.d[SP_D] == 0);
}

TEST_CASE("conv: ResNet's strided 1x1 has end padding -1 and is valid", "[problem][conv]") {
    // p = ((28 - 1) * 2 - 56 + 1) / 2 = -1 / 2 = 0 (toward zero); p_end = 54 - 56 + 1 - 0 = -1.
    const conv_problem p = parse_conv_problem("mb2ic64ih56oc128oh28kh1sh2");
    CHECK(p.p[SP_H] == 0);
    CHECK(p.p_end[SP_H] == -1);
    CHECK(p.p_end[SP_W] == -1);
    CHECK(to_string(p) == "mb2ic64ih56oc128oh28kh1sh2");
}

TEST_CASE("conv: defaults and derived sizes", "[problem][conv]") {
    const conv_problem p = parse_conv_problem("ic3ih5oc4kh3");
    CHECK(p.g == 1);
    CHECK(p.mb == 2);
    CHECK(p.o[SP_H] == 3); // (5 + 0 - 3) / 1 + 1
    CHECK(p.p[SP_H] == 0);
    CHECK(p.p_end[SP_H] == 0);
    CHECK(p.s[SP_H] == 1);
    CHECK(p.d[SP_H] == 0);

    // o from padding and stride: floor((7 + 2 - 3) / 2) + 1 = 4, p_end = 3 * 2 - 7 + 3 - 1 = 1.
    const conv_problem q = parse_conv_problem("ic1ih7oc1kh3sh2ph1");
    CHECK(q.o[SP_H] == 4);
    CHECK(q.p_end[SP_H] == 1);
    // o floors: (8 + 0 - 3) / 2 = 2.5 -> 2, + 1 = 3; p_end = 4 - 8 + 3 = -1.
    const conv_problem r = parse_conv_problem("ic1ih8oc1kh3sh2");
    CHECK(r.o[SP_H] == 3);
    CHECK(r.p_end[SP_H] == -1);

    // Dilation dh1: one gap between taps, E = (3 - 1) * 2 + 1 = 5, o = 10 - 5 + 1 = 6.
    const conv_problem d = parse_conv_problem("ic1ih10oc1kh3dh1");
    CHECK(d.o[SP_H] == 6);
    CHECK(d.extent(SP_H) == 5);

    // o given, p not: p = (55 - 56 + 3) / 2 = 1, p_end = 55 - 56 + 3 - 1 = 1.
    const conv_problem s = parse_conv_problem("mb2ic64ih56oc64oh56kh3");
    CHECK(s.p[SP_H] == 1);
    CHECK(s.p_end[SP_H] == 1);
}

TEST_CASE("conv: mb0 is a valid empty problem", "[problem][conv]") {
    const conv_problem p = parse_conv_problem("mb0ic3ih5oc4kh3");
    CHECK(p.mb == 0);
    CHECK(p.flops() == 0.0);
    CHECK(check_conv_problem(p).empty());
}

TEST_CASE("conv: 1D and 3D", "[problem][conv]") {
    const conv_problem a = parse_conv_problem("ic3iw10oc4kw3");
    CHECK(a.nsp == 1);
    CHECK(a.i[SP_W] == 10);
    CHECK(a.o[SP_W] == 8);
    CHECK(a.i[SP_H] == 1);
    CHECK(a.o[SP_H] == 1);
    CHECK(a.k[SP_H] == 1);
    CHECK(to_string(a) == "mb2ic3iw10oc4ow8kw3");

    // d fields only: h and w copy d.
    const conv_problem b = parse_conv_problem("ic2id6oc2kd3sd2pd1");
    CHECK(b.nsp == 3);
    for (int sp = 0; sp < 3; ++sp) {
        CHECK(b.i[sp] == 6);
        CHECK(b.k[sp] == 3);
        CHECK(b.s[sp] == 2);
        CHECK(b.p[sp] == 1);
        CHECK(b.o[sp] == 3); // (6 + 2 - 3) / 2 + 1
        CHECK(b.p_end[sp] == 0); // 4 - 6 + 3 - 1
    }
    CHECK(to_string(b) == "mb2ic2id6oc2od3kd3sd2pd1");

    // d, h and w all given.
    const conv_problem c = parse_conv_problem("ic2id3ih4iw5oc2kd1kh2kw3");
    CHECK(c.nsp == 3);
    CHECK(c.o[SP_D] == 3);
    CHECK(c.o[SP_H] == 3);
    CHECK(c.o[SP_W] == 3);
    CHECK(to_string(c) == "mb2ic2id3ih4iw5oc2od3oh3ow3kd1kh2kw3");

    // d and only one of h, w: an error naming the rule.
    CHECK_THAT(conv_error("ic2id3ih4oc2kd1kh2"), Catch::Contains("3D problem"));
    CHECK_THAT(conv_error("ic2id3ih4oc2kd1kh2"), Catch::Contains("only h"));
    CHECK_THAT(conv_error("ic2id3iw4oc2kd1kw2"), Catch::Contains("only w"));
    // A stride alone counts as giving the group.
    CHECK_THAT(conv_error("ic2id3oc2kd1sh2"), Catch::Contains("3D problem"));
}

TEST_CASE("conv: a spatial group counts as given if any of its fields is", "[problem][conv]") {
    // Only sw is given for w: w does not copy h, so iw and kw are missing.
    CHECK(conv_error("ic1ih5oc1kh3sw2") == "field 'iw' is required");
    // A w stride alone on a 1D problem: iw and kw still required.
    CHECK(conv_error("ic1oc1sw2") == "field 'iw' is required");
}

TEST_CASE("conv: required fields", "[problem][conv][errors]") {
    CHECK(conv_error("ih5oc1kh3") == "field 'ic' is required");
    CHECK(conv_error("ic1ih5kh3") == "field 'oc' is required");
    CHECK(conv_error("ic1oc1kh3") == "field 'ih' is required");
    CHECK(conv_error("ic1ih5oc1") == "field 'kh' is required");
    CHECK(conv_error("ic1oc1") == "field 'ih' is required");
    CHECK(conv_error("ic1iw5oc1") == "field 'kw' is required");
    CHECK(conv_error("ic1id5oc1") == "field 'kd' is required");
    CHECK(conv_error("") == "empty descriptor");
}

TEST_CASE("conv: validity rules name the problem", "[problem][conv][errors]") {
    CHECK(conv_error("g3ic16ih5oc16kh3") == "oc=16 is not divisible by g=3");
    CHECK(conv_error("g3ic16ih5oc15kh3") == "ic=16 is not divisible by g=3");
    CHECK(conv_error("g0ic16ih5oc16kh3") == "g=0 must be positive");
    // Fields in any order: the rules are checked on the fields, wherever they are written.
    CHECK(conv_error("g3ic16oc16ih5kh3") == "oc=16 is not divisible by g=3");
    CHECK(conv_error("ic0ih5oc1kh3") == "ic=0 must be positive");
    CHECK(conv_error("ic1ih5oc0kh3") == "oc=0 must be positive");
    CHECK(conv_error("mb-1ic1ih5oc1kh3") == "mb=-1 is negative");
    CHECK(conv_error("ic1ih0oc1kh3") == "ih=0 must be positive");
    CHECK(conv_error("ic1ih5oc1kh0") == "kh=0 must be positive");
    CHECK(conv_error("ic1ih5oc1kh3sh0") == "sh=0 must be positive");
    CHECK(conv_error("ic1ih5oc1kh3dh-1") == "dh=-1 is negative");
    CHECK(conv_error("ic1ih5oc1kh3ph-1") == "ph=-1 is negative");
    // o < 1: (2 - 5) / 1 + 1 = -2.
    CHECK(conv_error("ic1ih2oc1kh5")
          == "oh=-2 must be positive: ih=2 with padding 0 is smaller than the kernel extent 5");
    // floor, not truncation: floor((2 - 4) / 2) + 1 = 0.
    CHECK_THAT(conv_error("ic1ih2oc1kh4sh2"), Catch::StartsWith("oh=0 must be positive"));
    // The extent counts the dilation: (3 - 1) * (2 + 1) + 1 = 7 > 5 + 2 * 0.
    CHECK_THAT(conv_error("ic1ih5oc1kh3dh2"), Catch::EndsWith("kernel extent 7"));
    // Derived start padding negative: p = (2 - 10 + 3) / 2 = -2 (toward zero).
    CHECK(conv_error("ic1ih10oc1oh3kh3") == "ph=-2 is negative");
    // End padding not above -s: p_end = (2 - 1) * 2 - 10 + 1 - 0 = -7 <= -2.
    CHECK(conv_error("ic1ih10oc1oh2kh1sh2ph0")
          == "oh=2 leaves the last 7 of ih=10 unused (end padding -7 must be greater than -sh=-2)");
    // An output size given explicitly as 0.
    CHECK(conv_error("ic1ih10oc1oh0kh1ph0") == "oh=0 must be positive");
    // -s + 1 is the lowest valid end padding: (3 - 1) * 2 - 6 + 1 - 0 = -1 > -2.
    CHECK(parse_conv_problem("ic1ih6oc1oh3kh1sh2ph0").p_end[SP_H] == -1);
    // Sizes whose products would not fit 64 bits are refused, not wrapped around.
    CHECK_THAT(conv_error("mb1073741823ic1073741823ih1073741823oc1kh1"),
               Catch::StartsWith("problem too large: src would have"));
    CHECK(conv_error("ic1ih1073741824oc1kh1") == "value of field 'ih' at position 5 is too large");
    // A w problem is named with its own letter.
    CHECK(conv_error("ic1ih5iw0oc1kh3kw3") == "iw=0 must be positive");
    // A given w group needs its own kernel size: it no longer copies h.
    CHECK(conv_error("ic1ih5iw7oc1kh3") == "field 'kw' is required");
}

TEST_CASE("conv: syntax errors say what and where", "[problem][conv][errors]") {
    CHECK(conv_error("ic1ih5xx3oc1kh3") == "unknown field 'xx' at position 6");
    CHECK(conv_error("ic1ic2ih5oc1kh3") == "duplicate field 'ic' at position 3");
    CHECK(conv_error("oc1ic1ih5oc2kh3") == "duplicate field 'oc' at position 9");
    CHECK(conv_error("icoc1ih5kh3") == "field 'ic' at position 0 has no value");
    CHECK(conv_error("ic1ih5oc1kh") == "field 'kh' at position 9 has no value");
    CHECK(conv_error("ic1ih5oc1kh3+") == "unexpected character '+' at position 12");
    CHECK(conv_error("3ic1") == "unexpected character '3' at position 0");
    CHECK(conv_error("ic1ih99999999999oc1kh3") == "value of field 'ih' at position 5 is too large");
    CHECK(conv_error("ic1ih5oc1kh3n\"abc") == "name at position 12 has no closing '\"'");
    CHECK_THAT(conv_error("ic1ih5n\"abc\"oc1kh3"), Catch::Contains("after the name"));
    CHECK_THAT(conv_error("ic1ih5n\"abc\"_x"), Catch::Contains("after the name"));
    // A name without quotes runs to the end of the string, so nothing can follow it.
    CHECK(conv_error("ic1ih5oc1kh3nabc") == "");
    CHECK(conv_error("ic1ih5nabc_oc1kh3") == "field 'oc' is required");
}

TEST_CASE("conv: fields in any order, as benchdnn's files write them", "[problem][conv]") {
    const conv_problem canonical = parse_conv_problem("g1mb16ic1024ih19oc512oh19kh1ph0");
    // oneDNN's shapes files: mb before g, each spatial dimension's fields together.
    check_same(parse_conv_problem("mb16_g1ic1024oc512_ih19oh19kh1sh1dh0ph0_iw19ow19kw1sw1dw0pw0"),
               canonical);
    check_same(parse_conv_problem("oc512ic1024mb16ih19oh19kh1"), canonical);
    check_same(parse_conv_problem("kh1_oh19_ih19_oc512_ic1024_mb16"), canonical);
    // g2_ic16oc16_ih56kh3ph1: the w group still copies h, wherever h is written.
    const conv_problem g = parse_conv_problem("g2_ic16oc16_ih56kh3ph1");
    check_same(g, parse_conv_problem("g2ic16ih56oc16kh3ph1"));
    CHECK(g.i[SP_W] == 56);
    CHECK(g.p[SP_W] == 1);
    // 3D with the d fields last; 1D with w fields before the channels.
    check_same(parse_conv_problem("ic2oc2kd3sd2pd1id6"), parse_conv_problem("ic2id6oc2kd3sd2pd1"));
    check_same(parse_conv_problem("kw3iw10ic3oc4"), parse_conv_problem("ic3iw10oc4kw3"));
    // '_' anywhere between fields, several in a row, before the name and at the ends.
    check_same(parse_conv_problem("_ic4__ih5_oc6_kh3__"), parse_conv_problem("ic4ih5oc6kh3"));
    // The canonical form prints the canonical order.
    CHECK(to_string(parse_conv_problem("oc8_ic4ih5kh3ph1_mb1")) == "mb1ic4ih5oc8oh5kh3ph1");
}

TEST_CASE("conv and ip: names quoted, unquoted or empty", "[problem][conv][ip]") {
    CHECK(parse_conv_problem("ic4ih5oc6kh3n\"res2a\"").name == "res2a");
    CHECK(parse_conv_problem("ic4ih5oc6kh3_n\"res2a:0\"_").name == "res2a:0");
    // benchdnn's files also write the name without quotes, and an empty name as a bare n.
    const conv_problem bare = parse_conv_problem("mb1ic16ih5oc16oh5kh3ph1_n");
    CHECK(bare.name.empty());
    CHECK(to_string(bare) == "mb1ic16ih5oc16oh5kh3ph1");
    const conv_problem unquoted
            = parse_conv_problem("ic16ih5oc16kh3noc%simd_width_!=0_with_im2col");
    CHECK(unquoted.name == "oc%simd_width_!=0_with_im2col");
    CHECK(unquoted.oc == 16);
    CHECK(to_string(unquoted) == "mb2ic16ih5oc16oh3kh3n\"oc%simd_width_!=0_with_im2col\"");
    CHECK(parse_conv_problem("ic4ih5oc6kh3N\"x\"").name == "x");
    CHECK(parse_ip_problem("mb112ic2048_ih1iw1_oc1000_n\"resnet:ip1\"").name == "resnet:ip1");
    CHECK(parse_ip_problem("oc1000ic2048mb112nresnet_ip1").name == "resnet_ip1");
}

TEST_CASE("conv: field names in either case, '_' between fields, names", "[problem][conv]") {
    const conv_problem a = parse_conv_problem("G2MB3IC4IH5OC6OH5KH3PH1");
    const conv_problem b = parse_conv_problem("g2_mb3_ic4_ih5_oc6_oh5_kh3_ph1");
    const conv_problem c = parse_conv_problem("g2mb3ic4ih5oc6oh5kh3ph1");
    check_same(a, c);
    check_same(b, c);
    CHECK(c.g == 2);
    CHECK(c.mb == 3);

    const conv_problem n = parse_conv_problem("mb1ic3ih224oc64oh112kh7sh2ph3n\"resnet_50:conv1\"");
    CHECK(n.name == "resnet_50:conv1");
    CHECK(to_string(n) == "mb1ic3ih224oc64oh112kh7sh2ph3n\"resnet_50:conv1\"");
    CHECK(parse_conv_problem("ic3ih5oc4kh3_n\"x\"").name == "x");
}

TEST_CASE("conv: canonical printing", "[problem][conv]") {
    CHECK(to_string(parse_conv_problem("ic64ih56oc64oh56kh3ph1")) == "mb2ic64ih56oc64oh56kh3ph1");
    CHECK(to_string(parse_conv_problem("ic64ih56oc64kh3ph1")) == "mb2ic64ih56oc64oh56kh3ph1");
    CHECK(to_string(parse_conv_problem("mb2ic64ih56iw56oc64oh56ow56kh3kw3ph1pw1"))
          == "mb2ic64ih56oc64oh56kh3ph1");
    CHECK(to_string(parse_conv_problem("g2ic4ih5oc4kh3")) == "g2mb2ic4ih5oc4oh3kh3");
    CHECK(to_string(parse_conv_problem("g1ic4ih5oc4kh3")) == "mb2ic4ih5oc4oh3kh3");
    CHECK(to_string(parse_conv_problem("ic1ih5iw7oc1kh3kw3")) == "mb2ic1ih5iw7oc1oh3ow5kh3kw3");
    CHECK(to_string(parse_conv_problem("ic1ih5iw5oc1kh3kw3sw2"))
          == "mb2ic1ih5iw5oc1oh3ow2kh3kw3sw2");
    CHECK(to_string(parse_conv_problem("ic1ih10oc1kh3dh1")) == "mb2ic1ih10oc1oh6kh3dh1");
    // p = 0 where parsing oh5 would derive 1: the padding must be printed.
    const conv_problem z = parse_conv_problem("ic1ih5oc1oh5kh3ph0");
    CHECK(z.p_end[SP_H] == 2);
    CHECK(to_string(z) == "mb2ic1ih5oc1oh5kh3ph0");
    // Asymmetric padding of the example in doc/reference.md §3.
    CHECK(to_string(parse_conv_problem("ic1ih19oc1oh10kh4sh2ph1")) == "mb2ic1ih19oc1oh10kh4sh2ph1");
    // Large stride in one dim, 3D with distinct groups.
    CHECK(to_string(parse_conv_problem("ic8id4ih6iw8oc8kd2kh3kw3sw2pw1dh1"))
          == "mb2ic8id4ih6iw8oc8od3oh2ow4kd2kh3kw3sw2pw1dh1");
}

TEST_CASE("conv: print then parse gives the identical problem", "[problem][conv]") {
    std::mt19937 rng(7);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int valid = 0;
    for (int t = 0; t < 3000; ++t) {
        // A random descriptor: each optional field present or not, small values.
        const int nsp = pick(1, 3);
        std::string s;
        const int g = pick(1, 3);
        if (pick(0, 1)) s += "g" + std::to_string(g);
        if (pick(0, 1)) s += "mb" + std::to_string(pick(0, 3));
        s += "ic" + std::to_string(g * pick(1, 3));
        const char *letters = "dhw";
        const int first = 3 - nsp;
        // In 2D sometimes omit w, in 3D sometimes omit h and w: the copying rules then apply.
        const bool only_first = nsp > 1 && pick(0, 1);
        std::string o, k, st, p, d, i;
        for (int sp = first; sp < 3; ++sp) {
            if (only_first && sp > first) break;
            const std::string l(1, letters[sp]);
            i += "i" + l + std::to_string(pick(1, 12));
            if (pick(0, 2) == 0) o += "o" + l + std::to_string(pick(1, 12));
            k += "k" + l + std::to_string(pick(1, 4));
            if (pick(0, 1)) st += "s" + l + std::to_string(pick(1, 3));
            if (pick(0, 1)) p += "p" + l + std::to_string(pick(0, 2));
            if (pick(0, 2) == 0) d += "d" + l + std::to_string(pick(0, 2));
        }
        s += i + "oc" + std::to_string(g * pick(1, 3)) + o + k + st + p + d;
        if (pick(0, 4) == 0) s += "n\"layer" + std::to_string(t) + "\"";
        conv_problem a;
        try {
            a = parse_conv_problem(s);
        } catch (const prim::error &) {
            continue; // invalid combinations are tested above
        }
        ++valid;
        INFO(s);
        const std::string printed = to_string(a);
        INFO(printed);
        const conv_problem b = parse_conv_problem(printed);
        check_same(a, b);
        CHECK(to_string(b) == printed);
        CHECK(check_conv_problem(a).empty());
    }
    CHECK(valid > 1000);
}

TEST_CASE("conv: check_conv_problem on hand-made problems", "[problem][conv][errors]") {
    conv_problem p = parse_conv_problem("ic4ih5oc4kh3");
    CHECK(check_conv_problem(p).empty());
    p.p_end[SP_H] = 1; // o = 3 with p = 0 needs p_end = 2 * 1 - 5 + 3 - 0 = 0
    CHECK_THAT(check_conv_problem(p), Catch::StartsWith("end padding 1 of dim h does not follow"));
    p = parse_conv_problem("ic4ih5oc4kh3");
    p.i[SP_D] = 2; // not in use in 2D
    CHECK_THAT(check_conv_problem(p), Catch::StartsWith("spatial dim d is not in use"));
    p = parse_conv_problem("ic4ih5oc4kh3");
    p.nsp = 4;
    CHECK_THAT(check_conv_problem(p), Catch::StartsWith("a convolution has 1 to 3 spatial dims"));
}

TEST_CASE("conv: FLOP counts", "[problem][conv]") {
    // 2 * 2 * 64 * 56 * 56 * 64 * 9 = 462422016.
    CHECK(parse_conv_problem("ic64ih56oc64oh56kh3ph1").flops() == 462422016.0);
    // Grouped: 2 * mb2 * oc4 * 3 * 3 * (ic/g = 2) * 3 * 3 = 2592.
    CHECK(parse_conv_problem("g2ic4ih5oc4kh3").flops() == 2592.0);
    // Padding taps count: o = 5 with ph1: 2 * 2 * 1 * 25 * 1 * 9 = 900.
    CHECK(parse_conv_problem("ic1ih5oc1kh3ph1").flops() == 900.0);
    // 1D: 2 * 2 * 4 * 8 * 3 * 3 = 1152; 3D: 2 * 2 * 2 * 27 * 2 * 27 = 11664.
    CHECK(parse_conv_problem("ic3iw10oc4kw3").flops() == 1152.0);
    CHECK(parse_conv_problem("ic2id6oc2kd3sd2pd1").flops() == 11664.0);
}

TEST_CASE("ip: parsing, copying rules, printing", "[problem][ip]") {
    const ip_problem a = parse_ip_problem("mb128ic768oc3072");
    CHECK(a.nsp == 0);
    CHECK(a.spatial() == 1);
    CHECK(a.flops() == 2.0 * 128 * 3072 * 768);
    CHECK(to_string(a) == "mb128ic768oc3072");

    const ip_problem b = parse_ip_problem("ic3ih5oc4");
    CHECK(b.mb == 2);
    CHECK(b.nsp == 2);
    CHECK(b.i[SP_H] == 5);
    CHECK(b.i[SP_W] == 5);
    CHECK(b.i[SP_D] == 1);
    CHECK(b.flops() == 2.0 * 2 * 4 * 3 * 25);
    CHECK(to_string(b) == "mb2ic3ih5oc4");

    const ip_problem c = parse_ip_problem("IC3_IW7_OC2");
    CHECK(c.nsp == 1);
    CHECK(c.i[SP_W] == 7);
    CHECK(c.i[SP_H] == 1);
    CHECK(to_string(c) == "mb2ic3iw7oc2");

    const ip_problem d = parse_ip_problem("mb1ic2id3oc4n\"fc\"");
    CHECK(d.nsp == 3);
    CHECK(d.spatial() == 27);
    CHECK(d.name == "fc");
    CHECK(to_string(d) == "mb1ic2id3oc4n\"fc\"");

    const ip_problem e = parse_ip_problem("ic2id3ih4iw5oc4");
    CHECK(to_string(e) == "mb2ic2id3ih4iw5oc4");
    CHECK(to_string(parse_ip_problem("ic2ih4iw5oc4")) == "mb2ic2ih4iw5oc4");
    CHECK(to_string(parse_ip_problem("ic2ih4iw4oc4")) == "mb2ic2ih4oc4");
    CHECK(parse_ip_problem("mb0ic2oc4").mb == 0);
}

TEST_CASE("ip: errors", "[problem][ip][errors]") {
    CHECK(ip_error("mb2ic3") == "field 'oc' is required");
    CHECK(ip_error("mb2oc3") == "field 'ic' is required");
    CHECK(ip_error("ic0oc3") == "ic=0 must be positive");
    CHECK(ip_error("ic3ih0oc3") == "ih=0 must be positive");
    CHECK(ip_error("ic3oc3kh3") == "unknown field 'kh' at position 6");
    CHECK(ip_error("oc3ic3") == "");
    CHECK(to_string(parse_ip_problem("oc3_ih4_ic2_mb5")) == "mb5ic2ih4oc3");
    CHECK(ip_error("oc3ic3oc4") == "duplicate field 'oc' at position 6");
    CHECK_THAT(ip_error("ic3id2ih2oc3"), Catch::Contains("3D problem"));
    CHECK_THAT(ip_error("ic1073741823id1073741823oc3"),
               Catch::StartsWith("problem too large: src would have"));
}

TEST_CASE("eltwise: dims", "[problem][eltwise]") {
    const eltwise_problem a = parse_eltwise_problem("2x17x5x7");
    CHECK(a.dims == std::vector<int64_t>{2, 17, 5, 7});
    CHECK(a.nelems() == 2 * 17 * 5 * 7);
    CHECK(to_string(a) == "2x17x5x7");
    CHECK(parse_eltwise_problem("1000").nelems() == 1000);
    CHECK(parse_eltwise_problem("0x3").nelems() == 0);
    CHECK(parse_eltwise_problem("1x2x3x4x5").dims.size() == 5);

    CHECK(eltwise_error("") == "empty descriptor");
    CHECK(eltwise_error("2x") == "missing dim at position 2");
    CHECK_THAT(eltwise_error("2xx3"), Catch::StartsWith("unexpected character 'x' at position 2"));
    CHECK_THAT(eltwise_error("2y3"), Catch::StartsWith("unexpected character 'y' at position 1"));
    CHECK_THAT(eltwise_error("1x2x3x4x5x6"), Catch::StartsWith("an eltwise problem has 1 to 5 dims"));
    CHECK_THAT(eltwise_error("2x0"), Catch::StartsWith("dim 1 is 0"));
    CHECK_THAT(eltwise_error("99999999999"), Catch::Contains("too large"));
    CHECK_THAT(eltwise_error("1073741823x1073741823x1073741823"),
               Catch::StartsWith("problem too large: the tensor would have"));
}

TEST_CASE("eltwise: a name after the dims", "[problem][eltwise]") {
    std::string name;
    const eltwise_problem a = bdl::parse_eltwise_problem_named("16x16x2x1_n\"eltwise_ci_2d:0\"", &name);
    CHECK(a.dims == std::vector<int64_t>{16, 16, 2, 1});
    CHECK(name == "eltwise_ci_2d:0");
    bdl::parse_eltwise_problem_named("2x3n\"x\"", &name);
    CHECK(name == "x");
    bdl::parse_eltwise_problem_named("2x3_nplain_name", &name);
    CHECK(name == "plain_name");
    bdl::parse_eltwise_problem_named("2x3_n", &name);
    CHECK(name.empty());
    CHECK(parse_eltwise_problem("16x16x2x1_n\"eltwise_ci_2d:0\"").dims.size() == 4);
    CHECK_THAT(eltwise_error("2x3_n\"abc"), Catch::Contains("no closing"));
    CHECK_THAT(eltwise_error("2x3_n\"abc\"x4"), Catch::Contains("after the name"));
    CHECK_THAT(eltwise_error("2x3_4"), Catch::StartsWith("unexpected character '_' at position 3"));
}
