// benchdnn's options beyond prim's own (issue 30): the common ones of oneDNN's knobs_common.md
// and the driver options oneDNN's input files use for conv, ip, eltwise, pool, binary, bnorm,
// lnorm, softmax and concat. Each is honoured or makes a skipped case with its reason; none stops
// the run. (Whole runs on a batch of them: the benchdnn_common_options ctest entries.)
#include <catch2/catch.hpp>

#include <string>

#include "case_list.hpp"
#include "benchdnn_parser_util.hpp"
#include "parser.hpp"

using namespace bdl;

namespace {

// "REPRO options|skip reason" of every case.
std::vector<std::string> describe(const parser_state &st) {
    std::vector<std::string> out;
    for (const case_spec &c : expand_cases(st)) out.push_back(c.s.repro_options() + "|" + c.skip);
    return out;
}

} // namespace

TEST_CASE("--stag= (empty) is the default again, 'undef' is 'any'", "[benchdnn][common]") {
    // harness_conv_fused_depthwise and test_conv_attrs write --stag= after --stag=axb.
    CHECK(state({"--conv", "--stag=axb", "--stag="}).lists.stag == std::vector<std::string> {"any"});
    CHECK(state({"--conv", "--wtag=xba", "--wtag="}).lists.wtag == std::vector<std::string> {"any"});
    CHECK(state({"--binary", "--dtag=undef,abx"}).lists.dtag == std::vector<std::string> {"any", "abx"});
    CHECK(state({"--eltwise", "--alpha=0.5", "--alpha="}).lists.alpha.empty());
}

TEST_CASE("common options are kept across --reset and honoured", "[benchdnn][common]") {
    const parser_state st = state({"--conv", "--allow-enum-tags-only=0", "--check-ref-impl=true",
            "--attr-same-pd-check=1", "--start=2", "--repeats-per-prb=3", "--fix-times-per-prb=7",
            "--impl=jit,gemm", "--engine=cpu", "--cpu-isa-hints=prefer_ymm", "--mode-modifier=P",
            "--canonical=true", "--mem-check=false", "--memory-kind=usm", "--summary=no-impl",
            "--fast-ref=false", "--perf-template=csv", "--num-streams=1", "--ctx-exe=2",
            "--attr-scratchpad=user", "--reset"});
    const common_knobs &k = st.globals.knobs;
    CHECK(k.check_ref_impl);
    CHECK(k.same_pd_check);
    CHECK(k.start == 2);
    CHECK(k.repeats == 3);
    CHECK(k.fix_times == 7);
    CHECK(k.impl == std::vector<std::string> {"jit", "gemm"});
    CHECK(k.engine == "cpu");
    // A REPRO line keeps what changes the outcome of its case (not --start or the repeats).
    CHECK(describe(st) == std::vector<std::string> {
            "--impl=jit,gemm --check-ref-impl=true --attr-same-pd-check=true --fix-times-per-prb=7 |"});
    // Typos still stop the run.
    CHECK(error_of("--allow-enum-tags-only=maybe") == "bad option '--allow-enum-tags-only=maybe': 'maybe' is not true or false");
    CHECK(error_of("--engine=fpga") == "bad option '--engine=fpga': the engine is cpu or gpu, with an optional :INDEX");
    CHECK(error_of("--cold-cache=warm") == "bad option '--cold-cache=warm': must be none, wei, all or custom");
    CHECK(error_of("--start=-1") == "bad option '--start=-1': '-1' is not a number");
    CHECK(error_of("--repeats-per-prb=0") == "bad option '--repeats-per-prb=0': the value must be at least 1");
    CHECK(error_of("--check-ref-impl") == "bad option '--check-ref-impl': expected --check-ref-impl=VALUE");
}

TEST_CASE("what prim cannot do is a skipped case with its reason", "[benchdnn][common]") {
    CHECK(describe(state({"--conv", "--engine=gpu"}))
          == std::vector<std::string> {"--engine=gpu |engine gpu: prim runs on the CPU only"});
    CHECK(describe(state({"--conv", "--engine=cpu:1"}))
          == std::vector<std::string> {"--engine=cpu:1 |engine cpu:1: prim has one CPU engine (cpu:0)"});
    // Cold cache is a timing mode: C-mode cases run, P-mode ones are skipped.
    CHECK(describe(state({"--conv", "--cold-cache=all"})) == std::vector<std::string> {"--cold-cache=all |"});
    CHECK(describe(state({"--conv", "--mode=P", "--cold-cache=wei"})) == std::vector<std::string> {
            "--mode=P --cold-cache=wei |cold-cache measurement (--cold-cache=wei) is not implemented"});
    // Data types per tensor: f32, s32, s8 and u8 run (doc/int8.md), each other value is a case of
    // its own, skipped; the normalizations run f32 only.
    // (These lists vary innermost, in the order of their names: --ddt, then --sdt.)
    CHECK(describe(state({"--binary", "--sdt=f32:f32,bf16:f32", "--ddt=f32,s8"})) == std::vector<std::string> {
            "--sdt=f32:f32 |",
            "--sdt=bf16:f32 |data type bf16 is not supported (f32, s32, s8, u8)",
            "--ddt=s8 --sdt=f32:f32 |",
            "--ddt=s8 --sdt=bf16:f32 |data type bf16 is not supported (f32, s32, s8, u8)"});
    CHECK(describe(state({"--concat", "--sdt=u8", "--ddt=s8"})) == std::vector<std::string> {
            "--ddt=s8 --sdt=u8 |concat does not convert data types (--sdt=u8 --ddt=s8)"});
    CHECK(describe(state({"--softmax", "--sdt=f32", "--ddt=s32"})) == std::vector<std::string> {
            "--ddt=s32 |oneDNN refuses: s32 softmax (f32, u8, s8)"});
    CHECK(describe(state({"--softmax", "--attr-scales=src:common:2"})) == std::vector<std::string> {
            "--attr-scales=src:common:2 |oneDNN refuses: scales need an int8 softmax"});
    CHECK(describe(state({"--binary", "--attr-scales=dst:common:2"})) == std::vector<std::string> {
            "--attr-scales=dst:common:2 |scales of dst are not supported by --binary"});
    CHECK(describe(state({"--lnorm", "--ddt=s8"})) == std::vector<std::string> {
            "--ddt=s8 |--ddt=s8: data type s8 is not supported (prim computes f32)"});
    // --bia-dt is the int8 option (doc/int8.md): undef runs without bias, bf16 is skipped.
    CHECK(describe(state({"--conv", "--bia-dt=undef"})) == std::vector<std::string> {"--bia-dt=undef |"});
    CHECK(describe(state({"--conv", "--bia-dt=bf16"}))
          == std::vector<std::string> {"--bia-dt=bf16 |bias data type bf16 is not supported (f32, s32)"});
    CHECK(describe(state({"--lnorm", "--stat_tag=abx,ba", "--ss_dt=f32"})) == std::vector<std::string> {
            "--stat_tag=abx |", "--stat_tag=ba |--stat_tag=ba: prim's statistics are plain (abx)"});
    CHECK(describe(state({"--conv", "--attr-acc-mode=relaxed", "--attr-deterministic=true"}))
          == std::vector<std::string> {"--attr-acc-mode=relaxed --attr-deterministic=true |"});
    CHECK(describe(state({"--conv", "--attr-rounding-mode=dst:stochastic"})) == std::vector<std::string> {
            "--attr-rounding-mode=dst:stochastic |stochastic rounding (--attr-rounding-mode=dst:stochastic) is not supported"});
    CHECK(describe(state({"--conv", "--attr=", "--execution-mode=direct"})) == std::vector<std::string> {"|"});
    CHECK(describe(state({"--conv", "--attr=oscale=per_oc:2.25"})) == std::vector<std::string> {
            "--attr=oscale=per_oc:2.25 |--attr=oscale=per_oc:2.25: the old attribute string is not "
            "supported (write --attr-post-ops, --attr-scales...)"});
    CHECK(describe(state({"--bnorm", "--dir=FWD_D,BWD_DW"})) == std::vector<std::string> {
            "--dir=FWD_D |", "--dir=BWD_DW |backward directions are not implemented"});
    CHECK(describe(state({"--binary", "--alg=ADD,SELECT"}))
          == std::vector<std::string> {"|", "|binary SELECT (three sources) is not supported"});
    // --reset brings the driver options back to their defaults.
    CHECK(describe(state({"--binary", "--sdt=bf16", "--reset"})) == std::vector<std::string> {"|"});
}

TEST_CASE("benchdnn's older and other spellings run", "[benchdnn][common]") {
    // oneDNN 2.x's bounded_relu:A is clip(0, A).
    const std::vector<case_spec> cases = expand_cases(state({"--eltwise", "--alg=bounded_relu", "--alpha=6,0.5"}));
    REQUIRE(cases.size() == 2);
    CHECK(cases[0].s.alg.alg == prim::algorithm::eltwise_clip);
    CHECK(cases[0].s.alpha == 0.f);
    CHECK(cases[0].s.beta == 6.f);
    CHECK(cases[1].s.beta == 0.5f);
    CHECK(cases[0].skip.empty());
    // oneDNN 2.7's soft_relu_v2 is prim's soft_relu (with alpha).
    CHECK(expand_cases(state({"--eltwise", "--alg=soft_relu_v2"}))[0].s.alg.alg == prim::algorithm::eltwise_soft_relu);
    // lnorm's --tag=SRC:DST and oneDNN's ntc / tnc names.
    CHECK(state({"--lnorm", "--tag=abc:abc,tnc"}).lists.stag == std::vector<std::string> {"abc:abc", "tnc"});
    CHECK(state({"--bnorm", "--tag=axb"}).lists.stag == std::vector<std::string> {"axb"});
    // REPRO writes it as --stag=SRC:DST, which reads back.
    CHECK(state({"--lnorm", "--stag=abc:acb"}).lists.stag == std::vector<std::string> {"abc:acb"});
    CHECK_THAT(error_of("--tag=abc:abc:abc", state({"--lnorm"})), Catch::Contains("SRC[:DST]"));
}
