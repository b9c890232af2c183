// benchdnn compatibility of benchdnn_lite's command line (issue 12): comma lists and the order of
// their cross product, --reset and the global options, benchdnn's post-ops syntax translated by
// the driver, algorithm names, data types, tags, the cases prim skips and why, line
// continuation in batch files, the bounded --match. (Descriptors in any order and names:
// test_problem_string.cpp; whole runs: the benchdnn_* ctest entries.)
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <unistd.h>

#include "attr_syntax.hpp"
#include "case_list.hpp"
#include "benchdnn_parser_util.hpp"
#include "parser.hpp"
#include "prim/error.hpp"
#include "tags.hpp"

using namespace bdl;
using prim::algorithm;

namespace {

// "REPRO options | chain | skip reason" of every case, to read the order at a glance.
std::vector<std::string> describe(const parser_state &st) {
    std::vector<std::string> out;
    for (const case_spec &c : expand_cases(st)) {
        std::string d = c.s.repro_options();
        if (st.driver == driver_kind::eltwise) {
            d += "--alg=" + c.s.alg.name() + " ";
            if (c.s.alpha_given) d += "a" + std::to_string(c.s.alpha).substr(0, 5) + " ";
        }
        out.push_back(d + "|" + c.chain.repro() + "|" + c.skip);
    }
    return out;
}

} // namespace

TEST_CASE("comma lists: the cases are their cross product, in benchdnn's order", "[benchdnn][compat]") {
    const parser_state conv = state({"--conv", "--dir=FWD_B,FWD_D", "--stag=any,axb",
                                     "--attr-post-ops=,relu"});
    CHECK(describe(conv) == std::vector<std::string> {
            "||", "|relu|", "--stag=axb ||", "--stag=axb |relu|",
            "--dir=FWD_D ||", "--dir=FWD_D |relu|", "--dir=FWD_D --stag=axb ||",
            "--dir=FWD_D --stag=axb |relu|"});
    // Eltwise: alg, then alpha, then beta, then the chains, then in-place.
    const parser_state elt = state({"--eltwise", "--alg=relu,linear", "--alpha=0,0.25",
                                    "--inplace=false,true"});
    CHECK(describe(elt) == std::vector<std::string> {
            "--alg=relu a0.000 ||", "--inplace=true --alg=relu a0.000 ||",
            "--alg=relu a0.250 ||", "--inplace=true --alg=relu a0.250 ||",
            "--alg=linear a0.000 ||", "--inplace=true --alg=linear a0.000 ||",
            "--alg=linear a0.250 ||", "--inplace=true --alg=linear a0.250 ||"});
    // conv: alg after the tags; mb after the chains.
    const parser_state c2 = state({"--conv", "--wtag=any,xba", "--alg=direct,wino",
                                   "--mb=0,3", "--attr-post-ops=sum"});
    const std::vector<case_spec> cases = expand_cases(c2);
    REQUIRE(cases.size() == 8);
    CHECK(cases[1].s.mb == 3);
    CHECK(cases[2].s.calg == conv_alg::wino);
    CHECK(cases[2].skip == "Winograd convolution is not implemented");
    CHECK(cases[4].s.wtag == "xba");
    // An empty list item is refused in a list, and one empty value says what is missing.
    CHECK_THAT(error_of("--dir=FWD_B,,FWD_D"), Catch::EndsWith("an empty item in the list"));
    CHECK(error_of("--mb=") == "bad option '--mb=': a number is needed");
    CHECK(state({"--mb=0"}).lists.mb == std::vector<int64_t> {0}); // 0: no override, as in benchdnn
}

TEST_CASE("--reset: driver options back to defaults, global options kept", "[benchdnn][compat]") {
    parser_state st = state({"--eltwise", "--mode=L", "--max-ms-per-prb=7", "-v2", "--fused=off",
                             "--skip-impl=ref", "--alg=tanh", "--alpha=1", "--dir=FWD_I",
                             "--dt=bf16", "--stag=axb", "--mb=5", "--inplace=true",
                             "--attr-scales=src:common:2", "--attr-zero-points=dst:common:1",
                             "--attr-fpmath=bf16", "--attr-post-ops=relu", "--match=x"});
    REQUIRE(apply_option("--reset", st));
    CHECK(st.globals.mode_list); // --mode=L on the command line holds through a file of --reset lines
    CHECK(st.globals.max_ms == 7);
    CHECK(st.verbose == 2);
    CHECK(st.globals.fused == fused_mode::off);
    CHECK(st.globals.skip_impl == std::vector<std::string> {"ref"});
    CHECK(st.driver == driver_kind::eltwise);
    const option_lists d;
    CHECK(st.lists.alg == d.alg);
    CHECK(st.lists.alpha.empty());
    CHECK(st.lists.dir == d.dir);
    CHECK(st.lists.dt == d.dt);
    CHECK(st.lists.stag == d.stag);
    CHECK(st.lists.mb == d.mb);
    CHECK(st.lists.inplace == d.inplace);
    CHECK(st.lists.scales == d.scales);
    CHECK(st.lists.zero_points == d.zero_points);
    CHECK(st.lists.fpmath == d.fpmath);
    CHECK(st.lists.chains.size() == 1);
    CHECK(st.lists.match.empty());
    CHECK(st.lists.matches("anything"));
    // The mode can still be changed explicitly.
    apply_option("--mode=c", st);
    CHECK_FALSE(st.globals.mode_list);
    CHECK(st.globals.mode_c);
}

TEST_CASE("algorithm names: any case, eltwise_ prefix, _dst variants", "[benchdnn][compat]") {
    CHECK(find_eltwise_alg("RELU")->alg == algorithm::eltwise_relu);
    CHECK(find_eltwise_alg("eltwise_relu")->alg == algorithm::eltwise_relu);
    CHECK(find_eltwise_alg("Eltwise_Gelu_Erf")->alg == algorithm::eltwise_gelu_erf);
    CHECK(find_eltwise_alg("sigmoid")->alg == algorithm::eltwise_logistic);
    // oneDNN's _dst variants: same forward function, remembered for REPRO.
    for (const char *n : {"relu_dst", "elu_dst", "tanh_dst", "sqrt_dst", "logistic_dst",
                          "exp_dst", "clip_v2_dst"}) {
        const auto a = find_eltwise_alg(n);
        REQUIRE(a);
        CHECK(a->dst);
        CHECK(a->name() == n);
    }
    CHECK(find_eltwise_alg("exp_dst")->alg == algorithm::eltwise_exp);
    CHECK(find_eltwise_alg("eltwise_relu_use_dst_for_bwd")->name() == "relu_dst");
    CHECK(find_eltwise_alg("RELU_DST")->alg == algorithm::eltwise_relu);
    CHECK_FALSE(find_eltwise_alg("gelu_erf_dst")); // oneDNN has no such variant
    CHECK_FALSE(find_eltwise_alg("clip_dst"));
    CHECK_FALSE(find_eltwise_alg("bounded_relu"));
    CHECK_FALSE(find_eltwise_alg("add")); // a binary algorithm: a post-op entry, see below
}

TEST_CASE("--alg per driver", "[benchdnn][compat]") {
    parser_state conv = state({"--conv", "--alg=DIRECT,auto,Wino"});
    CHECK(conv.lists.calg == std::vector<conv_alg> {conv_alg::direct, conv_alg::auto_select,
                                                conv_alg::wino});
    CHECK_THAT(error_of("--alg=fft", conv), Catch::Contains("must be direct, wino or auto"));
    parser_state elt = state({"--eltwise", "--alg=RELU,exp_dst,eltwise_tanh"});
    REQUIRE(elt.lists.alg.size() == 3);
    CHECK(elt.lists.alg[1].name() == "exp_dst");
    CHECK(elt.lists.alg[2].alg == algorithm::eltwise_tanh);
    CHECK_THAT(error_of("--alg=ADD", elt), Catch::Contains("unknown eltwise algorithm 'ADD'"));
    parser_state ip = state({"--ip"});
    CHECK_THAT(error_of("--alg=direct", ip), Catch::Contains("--ip has no --alg"));
}

TEST_CASE("post-ops in benchdnn's full syntax", "[benchdnn][compat]") {
    auto one = [](const std::string &v) {
        const std::vector<chain_spec> c = parse_chains(v);
        REQUIRE(c.size() == 1);
        return c[0];
    };
    // sum:SCALE:ZERO_POINT:DT: a zero point or an integer type runs on int8 cases only.
    CHECK(prim::to_string(one("sum:0.5:0:f32").po) == "sum:0.5");
    CHECK(one("sum:0.5:0:f32").skip.empty());
    CHECK(one("sum:0.5:0:f32").needs_int8.empty());
    CHECK(prim::to_string(one("sum:1:3").po) == "sum:1:3");
    CHECK(one("sum:1:3").needs_int8 == "sum with a zero point");
    CHECK(prim::to_string(one("sum:1:0:s8").po) == "sum:1:0:s8");
    CHECK(one("sum:1:0:s8").needs_int8 == "sum with data type s8");
    CHECK(one("sum:1:0:bf16").skip == "sum with data type bf16 is not supported (f32, s32, s8, u8)");
    CHECK_THROWS_AS(parse_chains("sum:1:x"), syntax_error);
    CHECK_THROWS_AS(parse_chains("sum:1:0:f99"), syntax_error);
    CHECK_THROWS_AS(parse_chains("sum:1:0:f32:9"), syntax_error);
    // Eltwise entries: any case, eltwise_ prefix, _dst variants, aliases, numbers checked by prim.
    CHECK(prim::to_string(one("RELU:0.5+eltwise_tanh+exp_dst").po) == "relu:0.5+tanh+exp");
    CHECK(prim::to_string(one("bounded_relu:2").po) == "clip:0:2");
    CHECK_THAT(([&] {
                   try {
                       parse_chains("relu+nan");
                   } catch (const syntax_error &e) {
                       return std::string(e.what());
                   }
                   return std::string();
               }()),
               Catch::Contains("position 5"));
    // Binary ALG:DT[:POLICY_OR_MASK[:TAG]] and prelu[:POLICY], translated into prim's strings:
    // names in any case and with binary_, policies by name, benchdnn's integer masks.
    const std::pair<const char *, const char *> runs[] = {
            {"add:f32", "add:f32"},
            {"ADD:f32:per_oc", "add:f32:per_oc"},
            {"binary_sub:f32:per_dim_1", "sub:f32:per_oc"},
            {"mul:f32:per_tensor", "mul:f32:per_tensor"},
            {"div:f32:per_mb_spatial", "div:f32:per_mb_spatial"},
            {"max:f32:common", "max:f32"},
            {"min:f32:2", "min:f32:per_oc"},       // an integer mask
            {"ge:f32:15", "ge:f32:mask15"},
            {"gt:f32:per_dim_0", "gt:f32:per_dim_0"},
            {"le:f32:per_dim_01", "le:f32:per_dim_01"},
            {"lt:f32:per_dim_23", "lt:f32:mask12"}, // fixed dims: a rank-free mask
            {"eq:f32:per_spatial", "eq:f32:mask60"}, // dims 2 to 5: every spatial dim
            {"ne:f32:mask5", "ne:f32:mask5"},       // prim's own spelling
            {"prelu", "prelu"},
            {"PRELU:per_oc", "prelu:per_oc"},
            {"prelu:per_tensor", "prelu:per_tensor"},
            {"prelu:3", "prelu:per_dim_01"},
            // A TAG: 'any' (benchdnn's default) or on an operand spanning one dim changes nothing.
            {"add:f32:per_tensor:any", "add:f32:per_tensor"},
            {"add:f32:per_oc:axb", "add:f32:per_oc"},
            {"sum+mul:f32:per_oc+add:f32:per_oc+relu", "sum+mul:f32:per_oc+add:f32:per_oc+relu"},
    };
    for (const auto &r : runs) {
        INFO(r.first);
        const chain_spec c = one(r.first);
        CHECK(c.skip.empty());
        CHECK(c.operand_tags.empty());
        CHECK(c.repro() == r.second);
        CHECK(prim::to_string(c.po) == r.second);
        CHECK(prim::to_string(prim::parse_post_ops(r.second)) == r.second); // REPRO reads back
    }
    // A TAG on an operand spanning several dims gives it that layout: the chain keeps it per
    // entry, REPRO writes it, and for_dst gives the operand its desc.
    const chain_spec tagged = one("relu+MUL:f32:per_tensor:axb+prelu:per_oc");
    CHECK(tagged.skip.empty());
    CHECK(tagged.operand_tags == std::vector<std::string> {"", "axb", ""});
    CHECK(tagged.repro() == "relu+mul:f32:per_tensor:axb+prelu:per_oc");
    CHECK(one(tagged.repro()).repro() == tagged.repro());
    const prim::post_ops po = tagged.for_dst({2, 19, 3, 5});
    REQUIRE(po.len() == 3);
    CHECK(po.entries()[1].src1.get_dims() == prim::memory::dims {2, 19, 3, 5});
    CHECK(po.entries()[1].src1.layout() == "acdb");
    CHECK(po.entries()[2].kind == prim::post_ops::kind::prelu);
    CHECK(one("add:f32:per_mb_spatial:abx").for_dst({2, 19, 3}).entries()[0].src1.get_dims()
          == prim::memory::dims {2, 1, 3});
    try { // a tag of another rank than the destination's: an invalid case, named
        one("add:f32:per_tensor:nchw").for_dst({2, 19, 5});
        FAIL("no error");
    } catch (const prim::error &e) {
        CHECK(e.get_status() == prim::status::invalid_arguments);
        CHECK_THAT(e.what(), Catch::Contains("post-op 0 (add)")
                                     && Catch::Contains("describes 4 dims but the tensor has 3"));
    }
    // What prim cannot express is skipped with the reason.
    CHECK(one("sub:s8:common").skip.empty());
    CHECK(one("sub:s8:common").needs_int8 == "binary post-op with data type s8");
    CHECK(prim::to_string(one("sub:s8:common").po) == "sub:s8");
    CHECK(one("mul:bf16:per_tensor:axb").skip.size() > 0);
    CHECK_THAT(one("add:f32:per_w").skip, Catch::Contains("policy per_w names the last dim"));
    CHECK_THAT(one("prelu:per_mb_w").skip, Catch::Contains("per_mb_w"));
    CHECK(one("add:f32:per_w").repro() == "add:f32:per_w");
    // Refused as benchdnn refuses them: the message names the offending part.
    CHECK_THROWS_AS(parse_chains("add"), syntax_error);              // DT is mandatory
    CHECK_THROWS_AS(parse_chains("add:f33"), syntax_error);
    CHECK_THROWS_AS(parse_chains("add:f32:per_oc:nchwx"), syntax_error);
    CHECK_THROWS_AS(parse_chains("add:f32:per_oc:any:x"), syntax_error);
    CHECK_THROWS_AS(parse_chains("prelu:per_oc:x"), syntax_error);
    for (const char *bad : {"add:f32:per_nothing!", "prelu:per_channel", "ge:f32:per_dim_9",
                            "mul:f32:mask", "add:f32:-1"}) {
        INFO(bad);
        const std::string policy = split(bad, ':').back();
        try {
            parse_chains(std::string("relu+") + bad);
            FAIL("no error");
        } catch (const syntax_error &e) {
            CHECK_THAT(e.what(), Catch::Contains("unknown policy '" + policy + "'"));
        }
    }
    // dw:KkSsPp[:DT] and the older dw_kKsSpP: prim's dw:kKsSpP[:DT]; f32 runs, int8 types need
    // an int8 convolution, others are skipped, as are 2.x output scales in the entry.
    CHECK(one("relu+dw:k3s1p1+relu").skip.empty());
    CHECK(one("relu+dw:k3s1p1+relu").repro() == "relu+dw:k3s1p1+relu");
    CHECK(one("dw:k3s2p1:f32").repro() == "dw:k3s2p1:f32");
    CHECK(one("dw_k3s1p1").repro() == "dw:k3s1p1");
    CHECK(one("dw_k3s2p1:f32+tanh").po == prim::parse_post_ops("dw:k3s2p1:f32+tanh"));
    CHECK(one("dw_k3s1p1:u8").needs_int8 == "dw post-op with data type u8");
    CHECK(one("dw:k3s1p1:bf16").skip
          == "dw post-op with data type bf16 is not supported (f32, u8, s8, s32)");
    CHECK_THAT(one("dw_k3s1p1:u8:per_oc:2.5").skip,
               Catch::StartsWith("output scales in the dw entry (oneDNN 2.x's dw:KkSsPp:DT:POLICY:SCALE)"));
    CHECK_THROWS_AS(parse_chains("dw:k3s1"), syntax_error);
    CHECK_THROWS_AS(parse_chains("dw:k3s1p1:f31"), syntax_error);
    // A skipped chain keeps its text for REPRO and the first reason of its entries.
    const chain_spec mixed = one("sum:1:2+dw:k3s1p1:bf16+ADD:f32:per_w");
    CHECK(mixed.skip == "dw post-op with data type bf16 is not supported (f32, u8, s8, s32)");
    CHECK(mixed.repro() == "sum:1:2+dw:k3s1p1:bf16+ADD:f32:per_w");
    // Lists: an empty chain, runnable ones and a skipped one.
    const std::vector<chain_spec> list = parse_chains(",sum+relu,add:f32:per_oc,prelu:per_w");
    REQUIRE(list.size() == 4);
    CHECK(list[0].po.len() == 0);
    CHECK(list[1].repro() == "sum+relu");
    CHECK(list[2].skip.empty());
    CHECK_FALSE(list[3].skip.empty());
    CHECK_THROWS_AS(parse_chains("relu++sum"), syntax_error);
    CHECK_THROWS_AS(parse_chains("frobnicate"), syntax_error);
}

TEST_CASE("data types, directions, attributes prim cannot honour are skipped cases", "[benchdnn][compat]") {
    CHECK_NOTHROW(check_dt_value("f32"));
    CHECK_NOTHROW(check_dt_value("bf16:bf16:f32"));
    CHECK_NOTHROW(check_dt_value("u8s8u8"));
    CHECK_NOTHROW(check_dt_value("f32_wino"));
    CHECK_THROWS_AS(check_dt_value("f31"), syntax_error);
    CHECK_THROWS_AS(check_dt_value("f32:x"), syntax_error);
    CHECK(dt_skip_reason("f32").empty());
    CHECK(dt_skip_reason("f32:f32:f32").empty());
    CHECK(dt_skip_reason("f32f32f32").empty());
    CHECK(dt_skip_reason("bf16") == "data type bf16 is not supported (prim computes f32)");
    CHECK(dt_skip_reason("f32_wino") == "Winograd convolution is not implemented");

    parser_state st = state({"--conv", "--dir=FWD_B,BWD_D,bwd_w,BWD_WB", "--dt=f32,bf16",
                             "--cfg=f32,u8s8u8"});
    CHECK(st.lists.dt == std::vector<std::string> {"f32", "u8s8u8"}); // --cfg is --dt's old name
    std::vector<case_spec> c = expand_cases(st);
    REQUIRE(c.size() == 8);
    CHECK(c[0].skip.empty());
    CHECK(c[1].skip.empty()); // int8 runs (doc/int8.md)
    CHECK(c[2].skip == "backward directions are not implemented");
    CHECK(c[6].s.dir == direction::bwd_wb);

    st = state({"--ip", "--attr-scales=,src:common:2+wei:per_oc", "--attr-zero-points=,src:common:1",
                "--attr-fpmath=,strict,bf16,any:true"});
    c = expand_cases(st);
    REQUIRE(c.size() == 16);
    CHECK(c[0].skip.empty());
    CHECK(c[1].skip.empty()); // strict is the default
    CHECK(c[2].skip == "fpmath mode bf16 is not supported (prim computes strict f32)");
    CHECK(c[4].skip == "scales and zero points are supported in int8 inference only");
    CHECK(c[8].skip == "scales and zero points are supported in int8 inference only");
    st = state({"--ip", "--dt=u8:s8:u8", "--attr-scales=src:common:2+wei:per_oc,src:per_oc", "--attr-oscale=,per_oc:0.5"});
    c = expand_cases(st);
    REQUIRE(c.size() == 4);
    CHECK(c[0].skip.empty());
    CHECK(c[1].skip == "src scales policy per_oc is not supported");
    CHECK(c[2].skip.empty()); // both kinds of scales: the library refuses them (INVALID_ARGUMENTS)
    st = state({"--conv", "--dt=u8:s8:f32", "--attr-post-ops=sum:1:3"});
    CHECK(expand_cases(st)[0].skip == "oneDNN refuses: a sum zero point needs an integer dst");
    st = state({"--conv", "--dt=bf16:bf16:f32,u8s8s32", "--bia-dt=s32"});
    c = expand_cases(st);
    CHECK(c[0].skip == "data type bf16 is not supported (f32, s32, s8, u8)");
    CHECK(c[1].skip.empty());
    CHECK(c[1].s.repro_options() == "--dt=u8s8s32 --bia-dt=s32 ");
    CHECK_THAT(error_of("--attr-scales=foo:common:2"), Catch::Contains("unknown argument 'foo'"));
    CHECK_THAT(error_of("--attr-scales=src"), Catch::Contains("needs a policy"));
    CHECK_THAT(error_of("--attr-fpmath=fast"), Catch::Contains("fpmath mode must be"));
    CHECK_NOTHROW(state({"--attr-scratchpad=user,library"}));

    // In-place: an eltwise option; elsewhere the case is skipped.
    st = state({"--conv", "--inplace=true"});
    CHECK(expand_cases(st)[0].skip == "in-place runs apply to eltwise only");
    st = state({"--eltwise", "--inplace=true", "--stag=nchw", "--dtag=nhwc"});
    CHECK(expand_cases(st)[0].skip == "in-place needs the same source and destination layouts");
    CHECK_THAT(error_of("--inplace=maybe"), Catch::Contains("not true or false"));

    // --skip-impl is a list of patterns, kept across --reset.
    st = state({"--skip-impl=ref,gemm"});
    CHECK(st.globals.skip_impl == std::vector<std::string> {"ref", "gemm"});
    CHECK(expand_cases(state({"--conv", "--skip-impl=ref"}))[0].s.repro_options()
          == "--skip-impl=ref ");
}

TEST_CASE("eltwise: alpha and beta values benchdnn skips", "[benchdnn][compat]") {
    const parser_state st = state({"--eltwise", "--alg=tanh,relu,relu_dst,clip,soft_relu,linear",
                                   "--alpha=0,-0.25", "--beta=0,0.25"});
    std::vector<std::string> skips;
    for (const case_spec &c : expand_cases(st)) skips.push_back(c.skip);
    REQUIRE(skips.size() == 24);
    // tanh: alpha 0 beta 0 runs; any non-zero parameter is one it does not use.
    CHECK(skips[0].empty());
    CHECK(skips[1] == "tanh does not use beta (beta=0.25)");
    CHECK(skips[2] == "tanh does not use alpha (alpha=-0.25)");
    // relu: alpha used, beta not.
    CHECK(skips[4].empty());
    CHECK(skips[5] == "relu does not use beta (beta=0.25)");
    CHECK(skips[6].empty());
    // relu_dst needs alpha >= 0.
    CHECK(skips[10] == "relu_dst needs alpha >= 0");
    // clip: alpha <= beta (clip:0:0 and clip:-0.25:0 run).
    CHECK(skips[12].empty());
    CHECK(skips[14].empty());
    CHECK(expand_cases(state({"--eltwise", "--alg=clip", "--alpha=1", "--beta=0"}))[0].skip
          == "clip needs alpha <= beta");
    // soft_relu refuses alpha 0 (the library's own check, as a skip here).
    CHECK_THAT(skips[16], Catch::Contains("alpha"));
    CHECK(skips[20].empty());
}

TEST_CASE("tags: letters, meta-tags with x, oneDNN's names, any", "[benchdnn][compat][tags]") {
    using fmt = prim::memory::format_tag;
    const auto f32 = prim::memory::data_type::f32;
    auto pattern = [](const std::string &tag, int rank) {
        const auto t = parse_tag(tag);
        REQUIRE(t);
        return t->adaptive() ? t->pattern_for(rank) : t->pattern;
    };
    CHECK(pattern("abx", 4) == "abcd");
    CHECK(pattern("abx", 3) == "abc");
    CHECK(pattern("abx", 2) == "ab");
    CHECK(pattern("abx", 1) == "a");
    CHECK(pattern("axb", 5) == "acdeb");
    CHECK(pattern("axb", 2) == "ab");
    CHECK(pattern("xba", 4) == "cdba");
    CHECK(pattern("xba", 6) == "cdefba");
    CHECK(pattern("aBx16b", 4) == "aBcd16b");
    CHECK(pattern("aBx8b", 5) == "aBcde8b");
    CHECK(pattern("ABx16a16b", 4) == "ABcd16a16b");
    CHECK(pattern("xcab", 5) == "decab");
    CHECK(parse_tag("aBx16b")->pattern_for(1).empty()); // a blocked tag does not shrink
    // oneDNN's named tags for data and weights.
    CHECK(pattern("nChw16c", 4) == "aBcd16b");
    CHECK(pattern("nChw8c", 4) == "aBcd8b");
    CHECK(pattern("nCdhw16c", 5) == "aBcde16b");
    CHECK(pattern("nCw16c", 3) == "aBc16b");
    CHECK(pattern("OIhw16i16o", 4) == "ABcd16b16a");
    CHECK(pattern("gOIhw16i16o", 5) == "aBCde16c16b");
    CHECK(pattern("Goihw16g", 5) == "Abcde16a");
    CHECK(pattern("hwigo", 5) == "decab");
    CHECK(parse_tag("goihw")->named);
    CHECK(parse_tag("acdb")->rank == 4);
    CHECK(parse_tag("any")->any);
    CHECK_FALSE(parse_tag("nChw16q"));
    CHECK_FALSE(parse_tag("abxx"));
    CHECK_FALSE(parse_tag("nchwn"));

    // make_desc fits a meta-tag to the tensor's rank.
    CHECK(make_desc({2, 3, 4, 5}, "axb", "--stag")
          == prim::memory::desc({2, 3, 4, 5}, f32, fmt::nhwc));
    CHECK(make_desc({2, 3, 4, 5, 6}, "axb", "--stag")
          == prim::memory::desc({2, 3, 4, 5, 6}, f32, fmt::ndhwc));
    CHECK(make_desc({4, 3, 3, 3}, "xba", "--wtag")
          == prim::memory::desc({4, 3, 3, 3}, f32, fmt::hwio));
    CHECK(make_desc({2, 32, 4, 5}, "nChw16c", "--stag")
          == prim::memory::desc({2, 32, 4, 5}, f32, std::string("aBcd16b")));
    try {
        make_desc({2, 3, 4}, "nChw16c", "--stag");
        FAIL("rank mismatch");
    } catch (const prim::error &e) {
        CHECK(std::string(e.what()) == "--stag=nChw16c describes 4 dims but the tensor has 3");
    }
    try {
        make_desc({7}, "aBx16b", "--stag");
        FAIL("rank mismatch");
    } catch (const prim::error &e) {
        CHECK(std::string(e.what()) == "--stag=aBx16b cannot describe a tensor of 1 dims");
    }
    // Options take lists of them.
    const parser_state st = state({"--conv", "--stag=any,abx,axb,nChw16c", "--wtag=OIhw16i16o,xba"});
    CHECK(st.lists.stag.size() == 4);
    CHECK(expand_cases(st).size() == 8);
    CHECK_THAT(error_of("--wtag=abx,bogus"), Catch::Contains("unknown layout tag 'bogus'"));
    // --tag is eltwise's: it sets the source layout (dst follows it).
    CHECK(state({"--eltwise", "--tag=axb,nchw"}).lists.stag == std::vector<std::string> {"axb", "nchw"});
    CHECK_THAT(error_of("--tag=axb", state({"--conv"})), Catch::Contains("an option of --eltwise, --pool, --bnorm and --lnorm"));
}

TEST_CASE("--mode=L and the unknown options that still stop the run", "[benchdnn][compat]") {
    parser_state st = state({"--mode=L"});
    CHECK(st.globals.mode_list);
    CHECK(state({"--mode=l"}).globals.mode_list);
    CHECK(error_of("--frobnicate") == "bad option '--frobnicate': unknown option");
    CHECK(error_of("--frobnicate=1") == "bad option '--frobnicate=1': unknown option");
}

TEST_CASE("--match is bounded so std::regex cannot overflow the stack", "[benchdnn][compat]") {
    const std::string deep = std::string(20000, '(') + std::string(20000, ')');
    const std::string e = error_of("--match=" + deep);
    CHECK_THAT(e, Catch::Contains("longer than 1000 characters"));
    CHECK(e.size() < 400); // the token is shown by its start only
    const std::string nested = std::string(33, '(') + "a" + std::string(33, ')');
    CHECK_THAT(error_of("--match=" + nested), Catch::Contains("nested deeper than 32"));
    const std::string ok = std::string(32, '(') + "a" + std::string(32, ')');
    CHECK(error_of("--match=" + ok).empty());
    CHECK(error_of("--match=\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(\\(x")
                  .empty()); // escaped parentheses do not nest
}

TEST_CASE("batch files: a backslash continues a line", "[benchdnn][compat]") {
    char tmpl[] = "/tmp/bdl_compat_XXXXXX";
    const std::string dir = mkdtemp(tmpl);
    const std::string path = dir + "/cont";
    std::ofstream(path) << "# oneDNN's style: a list broken after its commas\n"
                           "--attr-post-ops=abs,clip:-2:3, \\\n"
                           "                gelu_tanh,relu:-2, \\\n"
                           "   tanh\n"
                           "--dir=FWD_B \\\n"
                           "   --stag=axb # a comment\n"
                           "--attr-post-ops=sum\\\n"
                           "+relu\n"
                           "ic3ih5 \\\n"
                           "oc4kh3\n"
                           "mb2ic3ih5oc4kh3 \\\n";
    const std::vector<std::string> t = expand_batches({"--batch=" + path});
    std::system(("rm -rf '" + dir + "'").c_str());
    CHECK(t == std::vector<std::string> {"--attr-post-ops=abs,clip:-2:3,gelu_tanh,relu:-2,tanh",
                                         "--dir=FWD_B", "--stag=axb", "--attr-post-ops=sum+relu",
                                         "ic3ih5", "oc4kh3", "mb2ic3ih5oc4kh3"});
}
