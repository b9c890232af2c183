// benchdnn_lite's building blocks: option parsing, batch files, layout tags, the comparison and
// its tolerances, the fill. (The whole program is run by the benchdnn_* ctest entries.)
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <unistd.h>

#include "compare.hpp"
#include "fill.hpp"
#include "operands.hpp"
#include "ref/ref_chain.hpp"
#include "case_list.hpp"
#include "driver_table.hpp"
#include "parser.hpp"
#include "prim/error.hpp"
#include "problem_parse.hpp"
#include "tags.hpp"

using namespace bdl;
using prim::algorithm;

namespace {

// The message of the option_error that applying token throws ("" when it is accepted).
std::string option_error_of(const std::string &token, parser_state opts = parser_state()) {
    try {
        apply_option(token, opts);
    } catch (const option_error &e) {
        return e.what();
    }
    return "";
}

// A file under a fresh temporary folder, removed at the end of the test.
struct temp_dir {
    std::string path;
    temp_dir() {
        char tmpl[] = "/tmp/bdl_test_XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~temp_dir() { std::system(("rm -rf '" + path + "'").c_str()); }
    std::string write(const std::string &name, const std::string &text) const {
        const std::string p = path + "/" + name;
        std::ofstream(p) << text;
        return p;
    }
};

} // namespace

TEST_CASE("options set the settings that follow", "[benchdnn][options]") {
    parser_state o;
    CHECK(apply_option("--conv", o));
    CHECK(o.driver == driver_kind::conv);
    CHECK_FALSE(apply_option("ic3ih5oc4kh3", o)); // a descriptor, not an option

    CHECK(apply_option("--mode=CP", o));
    CHECK(o.globals.mode_c);
    CHECK(o.globals.mode_p);
    apply_option("--mode=p", o);
    CHECK_FALSE(o.globals.mode_c);
    CHECK(o.globals.mode_p);

    apply_option("--attr-post-ops=,sum+relu,sum:2+relu+sum:3", o);
    REQUIRE(o.lists.chains.size() == 3);
    CHECK(o.lists.chains[0].po.len() == 0);
    CHECK(prim::to_string(o.lists.chains[1].po) == "sum+relu");
    CHECK(prim::to_string(o.lists.chains[2].po) == "sum:2+relu+sum:3");

    apply_option("--dir=FWD_D", o);
    CHECK(o.lists.dir == std::vector<direction> {direction::fwd_d});
    apply_option("--stag=nhwc", o);
    apply_option("--wtag=aBcd16b", o);
    CHECK(o.lists.stag == std::vector<std::string> {"nhwc"});
    CHECK(o.lists.wtag == std::vector<std::string> {"aBcd16b"});
    apply_option("--mb=7", o);
    CHECK(o.lists.mb == std::vector<int64_t> {7});
    apply_option("--match=res[23]", o);
    CHECK(o.lists.matches("mb2ic64n\"res2a\""));
    CHECK_FALSE(o.lists.matches("mb2ic64n\"res4a\""));
    apply_option("--fused=both", o);
    CHECK(o.globals.fused == fused_mode::both);
    apply_option("--max-ms-per-prb=20", o);
    CHECK(o.globals.max_ms == 20);
    apply_option("-v3", o);
    CHECK(o.verbose == 3);

    const std::vector<case_spec> cases = expand_cases(o);
    REQUIRE(cases.size() == 3);
    CHECK(cases[1].s.repro_options() == "--mode=P --dir=FWD_D --stag=nhwc --wtag=aBcd16b "
                                        "--fused=both --max-ms-per-prb=20 ");
    CHECK(cases[1].s.mb == 7);

    // --reset: every driver option back to its default; the global ones (mode, fused,
    // max-ms-per-prb, cmp, skip-impl), the driver and the verbosity stay, as in benchdnn.
    apply_option("--reset", o);
    CHECK_FALSE(o.globals.mode_c);
    CHECK(o.globals.mode_p);
    CHECK(o.globals.fused == fused_mode::both);
    CHECK(o.globals.max_ms == 20);
    CHECK(o.lists.chains.size() == 1);
    CHECK(o.lists.stag == std::vector<std::string> {"any"});
    CHECK(o.lists.mb == std::vector<int64_t> {0});
    CHECK(o.lists.matches("anything"));
    CHECK(o.lists.alpha.empty());
    CHECK(o.driver == driver_kind::conv);
    CHECK(o.verbose == 3);
    apply_option("--verbose=0", o);
    CHECK(o.verbose == 0);
}

TEST_CASE("every driver has one row: its option, its loops, its case", "[benchdnn][drivers]") {
    // A descriptor each driver takes with its default options.
    const std::map<std::string, std::string> descs = {
            {"conv", "ic3ih5oc4kh3"}, {"ip", "mb2ic5oc7"}, {"eltwise", "3x17"},
            {"binary", "2x3x4:2x3x4"}, {"bnorm", "mb2ic19ih5"}, {"lnorm", "3x5x19"},
            {"softmax", "3x5x19"}, {"concat", "2x3x4x5:2x7x4x5"}, {"pool", "mb2ic19ih10oh6kh3sh2ph1"}};
    CHECK(all_drivers().size() == descs.size());
    for (const driver_info &row : all_drivers()) {
        INFO("--" << row.name);
        CHECK(&driver_of(row.kind) == &row);
        CHECK(find_driver_option(std::string("--") + row.name) == &row);
        CHECK(std::string(driver_name(row.kind)) == row.name);
        parser_state st;
        REQUIRE(apply_option(std::string("--") + row.name, st));
        CHECK(st.driver == row.kind);
        std::vector<case_spec> cases;
        REQUIRE_NOTHROW(cases = expand_cases(st)); // every loop the row names exists
        REQUIRE(cases.size() == 1);
        CHECK(cases[0].skip.empty());
        REQUIRE(descs.count(row.name) == 1);
        const std::string desc = descs.at(row.name);
        CHECK_NOTHROW(row.case_desc(desc, cases[0].s));
        CHECK(row.make_case(desc, cases[0].s) != nullptr);
        CHECK((row.parse_alg != nullptr || option_error_of("--alg=x", st).find("has no --alg") != std::string::npos));
    }
    CHECK(find_driver_option("--frobnicate") == nullptr);
    CHECK(driver_options_text(takes_axis, ", ", " and ") == "--softmax and --concat");
    CHECK(driver_options_text(0, "|", "|") == "--conv|--ip|--eltwise|--binary|--bnorm|--lnorm|--softmax|--concat|--pool");
}

TEST_CASE("bad options are refused with a message naming them", "[benchdnn][options]") {
    CHECK(option_error_of("--foo") == "bad option '--foo': unknown option");
    CHECK(option_error_of("--mode=X") == "bad option '--mode=X': mode must be C, P, CP or L");
    CHECK(option_error_of("--mode") == "bad option '--mode': expected --mode=VALUE");
    CHECK(option_error_of("--reset=1") == "bad option '--reset=1': --reset takes no value");
    CHECK_THAT(option_error_of("--attr-post-ops=relu+nan"),
               Catch::StartsWith("bad option '--attr-post-ops=relu+nan': bad fusion string"));
    CHECK_THAT(option_error_of("--attr-post-ops=relu+nan"), Catch::Contains("position 5"));
    CHECK_THAT(option_error_of("--dir=BWD_X"), Catch::StartsWith("bad option '--dir=BWD_X'"));
    CHECK(option_error_of("--alg=foo") == "bad option '--alg=foo': unknown eltwise algorithm 'foo'");
    CHECK_THAT(option_error_of("--alg=relu,,tanh"), Catch::Contains("algorithm name is needed"));
    CHECK_THAT(option_error_of("--alg=sum"), Catch::Contains("unknown eltwise algorithm 'sum'"));
    CHECK(option_error_of("--alg=bounded_relu").empty()); // oneDNN 2.x's clip(0, alpha)
    CHECK(option_error_of("--alpha=nan") == "bad option '--alpha=nan': 'nan' is not a number");
    CHECK(option_error_of("--beta=1x") == "bad option '--beta=1x': '1x' is not a number");
    CHECK(option_error_of("--stag=nchwx") == "bad option '--stag=nchwx': unknown layout tag 'nchwx'");
    CHECK(option_error_of("--mb=-1") == "bad option '--mb=-1': '-1' is not a number");
    CHECK(option_error_of("--mb=") == "bad option '--mb=': a number is needed");
    CHECK_THAT(option_error_of("--match=(x"), Catch::Contains("bad regular expression"));
    CHECK(option_error_of("--fused=yes") == "bad option '--fused=yes': must be on, off or both");
    CHECK_THAT(option_error_of("--max-ms-per-prb=0"), Catch::Contains("must be in [1,"));
    CHECK_THAT(option_error_of("-vx"), Catch::Contains("not a number"));
    parser_state conv;
    apply_option("--conv", conv);
    CHECK(option_error_of("--ip", conv)
          == "bad option '--ip': the driver is already --conv (one driver per run)");
    CHECK(option_error_of("--conv", conv).empty()); // the same driver again is harmless
}

TEST_CASE("batch files: comments, several tokens per line, nesting", "[benchdnn][options]") {
    temp_dir dir;
    dir.write("inner", "# only a comment\nic5ih5oc5kh3   # trailing comment\n");
    const std::string outer = dir.write(
            "outer", "--mode=C  --dir=FWD_D\n\n  ic3ih5oc4kh3 ic4ih5oc4kh3\n--batch=inner\n");
    const std::vector<std::string> tokens = expand_batches({"--conv", "--batch=" + outer, "x"});
    CHECK(tokens == std::vector<std::string> {"--conv", "--mode=C", "--dir=FWD_D", "ic3ih5oc4kh3",
                                              "ic4ih5oc4kh3", "ic5ih5oc5kh3", "x"});
    // A nested --batch is relative to its file's folder, not to the current one.
    CHECK_THROWS_AS(expand_batches({"--batch=inner"}), option_error);
    CHECK_THAT(([&] {
                   try {
                       expand_batches({"--batch=" + dir.path + "/missing"});
                   } catch (const option_error &e) {
                       return std::string(e.what());
                   }
                   return std::string();
               }()),
               Catch::Contains("cannot open"));
    // A file that includes itself is stopped.
    const std::string loop = dir.write("loop", "--batch=loop\n");
    CHECK_THROWS_AS(expand_batches({"--batch=" + loop}), option_error);
    CHECK_THROWS_AS(expand_batches({"--batch="}), option_error);
}

TEST_CASE("layout tags", "[benchdnn][tags]") {
    CHECK(parse_tag("any")->any);
    CHECK(parse_tag("nchw")->rank == 4);
    CHECK(parse_tag("goidhw")->rank == 6);
    CHECK(parse_tag("nc")->rank == 2);
    CHECK(parse_tag("aBcd16b")->rank == 4);
    CHECK(parse_tag("ABcd16b16a")->rank == 4);
    CHECK_FALSE(parse_tag("nchwx"));
    CHECK_FALSE(parse_tag("aBcd16"));
    CHECK_FALSE(parse_tag("aBcd16e")); // blocks a dim that does not exist
    CHECK_FALSE(parse_tag(""));

    const prim::memory::desc md = make_desc({2, 3, 4, 5}, "nhwc", "--stag");
    CHECK(md == prim::memory::desc({2, 3, 4, 5}, prim::memory::data_type::f32,
                                   prim::memory::format_tag::nhwc));
    CHECK(make_desc({2, 3, 4, 5}, "any", "--stag").is_any());
    try {
        make_desc({2, 3, 5}, "nhwc", "--stag");
        FAIL("a rank mismatch must be refused");
    } catch (const prim::error &e) {
        CHECK(e.get_status() == prim::status::invalid_arguments);
        CHECK(std::string(e.what()) == "--stag=nhwc describes 4 dims but the tensor has 3");
    }
}

TEST_CASE("operands: the reference's plain copies, element by element", "[benchdnn][operands]") {
    const prim::memory::dims dst {2, 3, 4, 5};
    const prim::post_ops po = prim::parse_post_ops(
            "relu+add:f32:per_oc+prelu:per_tensor+sum+mul:f32:per_mb_spatial+ge:f32+div:f32:mask9");
    const chain_operands ops(po, dst);
    const std::vector<const float *> p = ops.pointers();
    REQUIRE(p.size() == 7);
    CHECK(p[0] == nullptr);
    CHECK(p[3] == nullptr);
    // values_at reads each operand where ref_chain does: the chain with them gives the same.
    const prim::impl::ref_chain chain(po, dst, p);
    std::vector<float> values(7);
    for (int64_t i = 0; i < 120; ++i) {
        ops.values_at(i, values.data());
        const int64_t n = i / 60, c = i / 20 % 3, h = i / 5 % 4, w = i % 5;
        const std::vector<float> per_oc = operand_data(po.entries()[1], 1, {1, 3, 1, 1});
        const std::vector<float> mb_sp = operand_data(po.entries()[4], 4, {2, 1, 4, 5});
        const std::vector<float> mask9 = operand_data(po.entries()[6], 6, {2, 1, 1, 5});
        CHECK(values[1] == per_oc[c]);
        CHECK(values[2] == p[2][i]);
        CHECK(values[4] == mb_sp[(n * 4 + h) * 5 + w]);
        CHECK(values[5] == p[5][0]);
        CHECK(values[6] == mask9[n * 5 + w]);
        const float x = static_cast<float>(i % 13) - 6.f;
        CHECK(within_chain_error(po, values.data(), x, 0.0, 1.f, chain.apply(x, 1.f, i), 0.0));
    }
}

TEST_CASE("comparison: bound, NaN, infinities, worst", "[benchdnn][compare]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const float ref[] = {0.f, 100.f, 0.5f, nan, inf, -inf, 1.f, -0.f};
    {
        const float got[] = {0.f, 100.f, 0.5f, nan, inf, -inf, 1.f, 0.f};
        const compare_result r = compare(got, ref, 8, 0.0);
        CHECK(r.errors == 0);
        CHECK(r.total == 8);
        CHECK(r.worst == 0.0);
    }
    {
        // |got - ref| <= tol * max(1, |ref|): 1e-4 off at 100 is 1e-6 relative, at 0.5 it is
        // 1e-4 absolute (below 1 the bound is absolute).
        const float got[] = {1e-6f, 100.0001f, 0.5001f, 0.f, -inf, inf, nan, 0.f};
        const compare_result r = compare(got, ref, 8, 2e-6);
        // Errors: 0.5001 (1e-4 > 2e-6), NaN vs number, inf sign flips (2), number vs NaN.
        CHECK(r.errors == 5);
        CHECK(std::isinf(r.worst));
        REQUIRE(r.examples.size() == 5);
        CHECK(std::isinf(r.examples[0].err));
        CHECK(r.examples.back().index == 2);
        CHECK(r.examples.back().err == Approx(1e-4).epsilon(1e-3));
    }
    {
        const float got[] = {3e-7f};
        const float one_ref[] = {0.f};
        CHECK(compare(got, one_ref, 1, 0.0).errors == 1);  // exact chains allow nothing
        CHECK(compare(got, one_ref, 1, 1e-6).errors == 0);
        CHECK(compare(got, one_ref, 1, 0.0).worst == Approx(3e-7));
    }
    CHECK(format_error(3.2e-5) == "3.2e-05");
    CHECK(format_error(INFINITY) == "inf");
    CHECK(format_error(0) == "0");
}

TEST_CASE("tolerance per chain", "[benchdnn][compare]") {
    CHECK(chain_tolerance(prim::parse_post_ops("")) == 0.0);
    CHECK(chain_tolerance(prim::parse_post_ops("sum+relu")) == 0.0);
    CHECK(chain_tolerance(prim::parse_post_ops("relu:0.1+abs+clip:0:6+round+sum")) == 0.0);
    CHECK(chain_tolerance(prim::parse_post_ops("tanh")) == 1e-6);
    CHECK(chain_tolerance(prim::parse_post_ops("sum:0.5+tanh+gelu_erf"))
          == Approx(5e-7 + 2e-6));
    CHECK(chain_tolerance(prim::parse_post_ops("linear:2:1")) == 5e-7);
    CHECK(algorithm_tolerance(algorithm::eltwise_exp) == 1e-6);
    CHECK(algorithm_tolerance(algorithm::eltwise_sqrt) == 0.0);
    // Binary entries are one correctly rounded operation or exact, prelu one product.
    CHECK(chain_tolerance(prim::parse_post_ops(
                  "add:f32:per_oc+sub:f32+mul:f32:per_tensor+div:f32+max:f32+min:f32+ge:f32+gt:f32"
                  "+le:f32+lt:f32+eq:f32+ne:f32+prelu:per_oc+sum"))
          == 0.0);
    CHECK(chain_tolerance(prim::parse_post_ops("tanh+mul:f32:per_oc+prelu")) == 1e-6);
}

TEST_CASE("second chance: binary and prelu entries", "[benchdnn][compare]") {
    const float no_old = 0.f;
    // Exact chains: a comparison's tie is decided exactly, nothing else passes.
    const prim::post_ops ge = prim::parse_post_ops("ge:f32:per_tensor");
    const float two[] = {2.f};
    CHECK(within_chain_error(ge, two, 2.f, 0.0, no_old, 1.f, 0.0));
    CHECK_FALSE(within_chain_error(ge, two, 2.f, 0.0, no_old, 0.f, 0.0));
    // After an inexact step, a value within its error of the operand may compare either way;
    // one far from it may not.
    const prim::post_ops tanh_ge = prim::parse_post_ops("tanh+ge:f32:per_tensor");
    const float t = std::tanh(0.5f);
    const float at_t[] = {0.f, t};
    CHECK(within_chain_error(tanh_ge, at_t, 0.5f, 0.0, no_old, 1.f, 1e-6));
    CHECK(within_chain_error(tanh_ge, at_t, 0.5f, 0.0, no_old, 0.f, 1e-6));
    const float below_t[] = {0.f, t - 0.01f};
    CHECK(within_chain_error(tanh_ge, below_t, 0.5f, 0.0, no_old, 1.f, 1e-6));
    CHECK_FALSE(within_chain_error(tanh_ge, below_t, 0.5f, 0.0, no_old, 0.f, 1e-6));
    // eq, not monotonic, and a continuation after the branch: (x == b) * 3 is 0 or 3, not 1.
    const prim::post_ops eq_mul = prim::parse_post_ops("exp+eq:f32+mul:f32");
    const float e_ops[] = {0.f, std::exp(1.f), 3.f};
    CHECK(within_chain_error(eq_mul, e_ops, 1.f, 0.0, no_old, 3.f, 1e-6));
    CHECK(within_chain_error(eq_mul, e_ops, 1.f, 0.0, no_old, 0.f, 1e-6));
    CHECK_FALSE(within_chain_error(eq_mul, e_ops, 1.f, 0.0, no_old, 1.f, 1e-6));
    // A product with a negative operand turns the error bounds over: both stay reachable.
    const prim::post_ops exp_mul = prim::parse_post_ops("exp+mul:f32");
    const float minus2[] = {0.f, -2.f};
    const float ref = -2.f * std::exp(3.f);
    for (const float got : {ref * (1 + 1.5e-6f), ref * (1 - 1.5e-6f)}) {
        CHECK(within_chain_error(exp_mul, minus2, 3.f, 0.0, no_old, got, 1e-6));
    }
    CHECK_FALSE(within_chain_error(exp_mul, minus2, 3.f, 0.0, no_old, ref * (1 + 1e-4f), 1e-6));
    // prelu: the slope applies below 0 only.
    const prim::post_ops tanh_prelu = prim::parse_post_ops("tanh+prelu");
    const float minus_half[] = {0.f, -0.5f};
    CHECK(within_chain_error(tanh_prelu, minus_half, -1.f, 0.0, no_old, -0.5f * std::tanh(-1.f),
                             1e-6));
    CHECK_FALSE(within_chain_error(tanh_prelu, minus_half, -1.f, 0.0, no_old, std::tanh(-1.f),
                                   1e-6));
}

TEST_CASE("fill: small integers, deterministic, meaningful", "[benchdnn][fill]") {
    std::vector<float> src(10000), src2(10000), wei(10000), old(10000);
    fill_src(src, tensor_id::src);
    fill_src(src2, tensor_id::src);
    CHECK(src == src2); // a function of the index only
    fill_wei(wei, 160);  // density 16 / 160 = 0.1
    fill_dst_old(old);
    int negatives = 0, nonzero_w = 0;
    for (int i = 0; i < 10000; ++i) {
        CHECK(src[i] == std::round(src[i]));
        CHECK(std::fabs(src[i]) <= 4);
        CHECK(wei[i] == std::round(wei[i]));
        CHECK(std::fabs(wei[i]) <= 2);
        CHECK(old[i] != 0.f);
        CHECK(std::fabs(old[i]) <= 4);
        negatives += src[i] < 0;
        nonzero_w += wei[i] != 0;
    }
    CHECK(negatives > 3000);
    CHECK(nonzero_w > 800);
    CHECK(nonzero_w < 1200);

    std::vector<float> e(10000);
    fill_eltwise_src(e, algorithm::eltwise_round);
    int nans = 0, ties = 0, small = 0;
    for (float x : e) {
        nans += std::isnan(x);
        ties += !std::isnan(x) && x - std::floor(x) == 0.5f;
        small += std::fabs(x) < 1;
    }
    CHECK(nans > 50);
    CHECK(ties > 500);
    CHECK(small > 1000);
    // Post-op operands: small, exact steps; divisors never 0; ties among a convolution's
    // integer results; each entry its own data.
    for (const char *chain : {"add:f32:per_tensor", "div:f32:per_tensor", "mul:f32:per_tensor",
                              "prelu:per_tensor"}) {
        INFO(chain);
        const prim::post_ops::entry entry = prim::parse_post_ops(chain).entries()[0];
        std::vector<float> v(10000), w(10000);
        fill_operand(v, entry, 0);
        fill_operand(w, entry, 1);
        CHECK(v != w);
        int integers = 0, negatives = 0;
        for (float x : v) {
            // Multiples of 0.5 (slopes: of 0.25).
            const float unit = entry.kind == prim::post_ops::kind::prelu ? 4.f : 2.f;
            CHECK(x * unit == std::round(x * unit));
            if (entry.alg == algorithm::binary_div) CHECK(x != 0.f);
            CHECK(std::fabs(x) <= 6);
            integers += x == std::round(x);
            negatives += x < 0;
        }
        CHECK(integers > 3000);
        CHECK(negatives > 2000);
    }
    fill_eltwise_src(e, algorithm::eltwise_log);
    int positive = 0;
    for (float x : e) positive += x > 0;
    CHECK(positive > 7000);
}

TEST_CASE("binary, bnorm and lnorm options", "[benchdnn][options]") {
    parser_state b;
    REQUIRE(apply_option("--binary", b));
    CHECK(b.driver == driver_kind::binary);
    apply_option("--alg=add,DIV,binary_ge", b);
    CHECK(b.lists.balg == std::vector<algorithm> {algorithm::binary_add, algorithm::binary_div,
                                               algorithm::binary_ge});
    apply_option("--stag=nhwc:nchw", b);
    CHECK(b.lists.stag == std::vector<std::string> {"nhwc:nchw"});
    CHECK(option_error_of("--alg=relu", b) == "bad option '--alg=relu': unknown binary algorithm 'relu'");
    CHECK(option_error_of("--stag=nhwc:foo", b) == "bad option '--stag=nhwc:foo': unknown layout tag 'foo'");
    CHECK_THAT(option_error_of("--stag=a:b:c", b), Catch::Contains("TAG0:TAG1"));
    CHECK_THAT(option_error_of("--flags=G", b), Catch::Contains("--flags is an option of --bnorm"));
    // The cross product over the algorithms; REPRO of the settings.
    REQUIRE(expand_cases(b).size() == 3);
    CHECK(expand_cases(b)[1].s.balg == algorithm::binary_div);

    parser_state n;
    apply_option("--bnorm", n);
    apply_option("--flags=,g,GCH,S", n);
    CHECK(n.lists.flags == std::vector<std::string> {"", "G", "GCH", "S"});
    CHECK(option_error_of("--flags=GX", n)
          == "bad option '--flags=GX': unknown flag 'X' (benchdnn's letters: G, C, H, S, R, A, M)");
    CHECK_THAT(option_error_of("--alg=add", n), Catch::Contains("--bnorm has no --alg"));
    const std::vector<case_spec> cases = expand_cases(n);
    REQUIRE(cases.size() == 4);
    CHECK(cases[0].skip.empty());
    CHECK(cases[2].skip.empty());
    CHECK(cases[2].s.repro_options() == "--flags=GCH ");
    CHECK_THAT(cases[3].skip, Catch::Contains("use_scaleshift"));
    char other = 0;
    CHECK(norm_flags_of("GCH", &other) == (prim::impl::norm_flags::all));
    CHECK(other == 0);
    CHECK(norm_flags_of("CR", &other) == prim::impl::norm_flags::scale);
    CHECK(other == 'R');

    parser_state l;
    apply_option("--lnorm", l);
    CHECK(l.driver == driver_kind::lnorm);
    CHECK(option_error_of("--flags=CH", l).empty());
}

TEST_CASE("binary, bnorm and lnorm descriptors", "[benchdnn][parse]") {
    std::string name;
    prim::impl::binary_problem b = parse_binary_problem_named("2x64x56x56:1x64x1x1", &name);
    CHECK(b.src0 == std::vector<int64_t> {2, 64, 56, 56});
    CHECK(b.src1 == std::vector<int64_t> {1, 64, 1, 1});
    CHECK(name.empty());
    CHECK(prim::impl::to_string(b) == "2x64x56x56:1x64x1x1");
    b = parse_binary_problem_named("3x5:3x1_n\"row:bcast\"", &name);
    CHECK(b.src1 == std::vector<int64_t> {3, 1});
    CHECK(name == "row:bcast");
    auto binary_error = [](const std::string &s) {
        try {
            parse_binary_problem_named(s, nullptr);
        } catch (const prim::error &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK_THAT(binary_error("2x3"), Catch::Contains("SRC0:SRC1"));
    // benchdnn's rule: the shorter gets trailing dims of 1.
    CHECK(parse_binary_problem_named("32x17x2x3:32x17", nullptr).src1 == std::vector<int64_t> {32, 17, 1, 1});
    CHECK_THAT(binary_error("2x3:2x3x4"), Catch::Contains("src1 dim 2 (4) must be src0's (1) or 1"));
    CHECK_THAT(binary_error("2x3:2x2"), Catch::Contains("src1 dim 1 (2) must be src0's (3) or 1"));
    CHECK_THAT(binary_error("2xa:2x1"), Catch::Contains("src0"));

    prim::impl::bnorm_problem p = parse_bnorm_problem("mb2ic64ih56");
    CHECK(p.mb == 2);
    CHECK(p.ic == 64);
    CHECK(p.nsp == 2);
    CHECK(p.i[1] == 56);
    CHECK(p.i[2] == 56);
    CHECK(p.eps == 1.f / 16);
    p = parse_bnorm_problem("ic19id3ih5iw7eps1e-05n\"x\"");
    CHECK(p.mb == 2);
    CHECK(p.nsp == 3);
    CHECK(p.i[0] == 3);
    CHECK(p.i[1] == 5);
    CHECK(p.i[2] == 7);
    CHECK(p.eps == 1e-5f);
    CHECK(p.name == "x");
    CHECK(prim::impl::descriptor_string(p) == "mb2ic19id3ih5iw7eps1e-05n\"x\"");
    p = parse_bnorm_problem("mb3ic5iw9");
    CHECK(p.nsp == 1);
    CHECK(p.i[2] == 9);
    CHECK(parse_bnorm_problem("ic5").nsp == 0);
    CHECK(parse_bnorm_problem("ic5id4").i[2] == 4); // 3D: h and w copy d
    CHECK_THROWS_WITH(parse_bnorm_problem("mb2ih5"), Catch::Contains("field 'ic' is required"));
    CHECK_THROWS_WITH(parse_bnorm_problem("ic3id2ih5"), Catch::Contains("3D problem"));
    CHECK_THROWS_WITH(parse_bnorm_problem("ic3ih5epsx"), Catch::Contains("'eps'"));
    CHECK_THROWS_WITH(parse_bnorm_problem("ic3oc5"), Catch::Contains("unknown field"));

    prim::impl::lnorm_problem l = parse_lnorm_problem_named("8x128x768", &name);
    CHECK(l.dims == std::vector<int64_t> {8, 128, 768});
    CHECK(l.norm_len() == 768);
    CHECK(name.empty());
    CHECK(prim::impl::descriptor_string(l) == "8x128x768");
    l = parse_lnorm_problem_named("2x19_n\"t\"", &name);
    CHECK(name == "t");
    CHECK_THROWS(parse_lnorm_problem_named("19", nullptr)); // 2 to 5 dims
}
