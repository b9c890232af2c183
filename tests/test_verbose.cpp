// PRIM_VERBOSE=1 exec lines: a user's reorder prints one line of its own, and the reorders an
// implementation runs inside its execute() (repacking an argument) print none, so every call
// of a primitive prints exactly one line.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

#include "prim/prim.hpp"

using namespace prim;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

// The library reads PRIM_VERBOSE once, at its first verbose check: set it before main().
const bool verbose_set = setenv("PRIM_VERBOSE", "1", 1) == 0;

// The "prim_verbose,exec," lines that f prints to stdout (fd 1 is sent to a file meanwhile).
template <typename fn>
std::vector<std::string> exec_lines(fn f) {
    std::fflush(stdout);
    std::FILE *file = std::tmpfile();
    REQUIRE(file);
    const int saved = dup(1);
    dup2(fileno(file), 1);
    f();
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    std::rewind(file);
    std::vector<std::string> lines;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, file)) {
        std::string line(buf);
        if (!line.empty() && line.back() == '\n') line.pop_back();
        if (line.rfind("prim_verbose,exec,", 0) == 0) lines.push_back(line);
    }
    std::fclose(file);
    return lines;
}

} // namespace

TEST_CASE("a user's reorder prints one exec line", "[verbose][reorder]") {
    REQUIRE(verbose_set);
    const memory::desc plain({2, 16, 5, 5}, dt::f32, tag::nchw);
    const memory::desc blocked({2, 16, 5, 5}, dt::f32, std::string("aBcd16b"));
    memory src(plain), dst(blocked);
    const reorder r(src, dst);

    const std::regex line("prim_verbose,exec,reorder,ref,abcd:2x16x5x5->aBcd16b,,[0-9]+\\.[0-9]{4}");
    std::vector<std::string> lines = exec_lines([&] { r.execute(src, dst); });
    REQUIRE(lines.size() == 1);
    CHECK(std::regex_match(lines[0], line));

    lines = exec_lines([&] { r.execute({{PRIM_ARG_FROM, src}, {PRIM_ARG_TO, dst}}); });
    REQUIRE(lines.size() == 1);
    CHECK(std::regex_match(lines[0], line));
}

TEST_CASE("a JIT convolution that repacks its weights prints only its own line",
          "[verbose][conv]") {
    REQUIRE(verbose_set);
    if (get_effective_cpu_isa() == cpu_isa::none) return; // no JIT on this machine
    // Weights given as oihw, not 'any': execute() reorders them into the kernel's packed layout.
    const memory::desc src_md({2, 16, 7, 7}, dt::f32, tag::any);
    const memory::desc wei_md({16, 16, 3, 3}, dt::f32, tag::oihw);
    const memory::desc dst_md({2, 16, 7, 7}, dt::f32, tag::any);
    const convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
                                      src_md, wei_md, dst_md, {1, 1}, {0, 0}, {1, 1}, {1, 1});
    const convolution_forward::primitive_desc pd(d);
    REQUIRE(pd.impl_name().rfind("jit:", 0) == 0);
    REQUIRE(pd.impl_name().find("+repack") != std::string::npos);
    memory src(pd.src_desc()), wei(pd.weights_desc()), dst(pd.dst_desc());
    const convolution_forward conv(pd);

    const std::vector<std::string> lines = exec_lines([&] {
        conv.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_DST, dst}});
    });
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].rfind("prim_verbose,exec,convolution," + pd.impl_name() + ",", 0) == 0);
}

TEST_CASE("the reference convolution copies a blocked src to plain without a line of its own",
          "[verbose][conv][ref]") {
    REQUIRE(verbose_set);
    const memory::desc src_md({2, 16, 7, 7}, dt::f32, std::string("aBcd8b"));
    const memory::desc wei_md({16, 16, 3, 3}, dt::f32, tag::oihw);
    const memory::desc dst_md({2, 16, 7, 7}, dt::f32, std::string("aBcd8b"));
    const convolution_forward::desc d(prop_kind::forward_inference, algorithm::convolution_direct,
                                      src_md, wei_md, dst_md, {1, 1}, {0, 0}, {1, 1}, {1, 1});
    primitive_attr attr;
    attr.set_max_cpu_isa(cpu_isa::none);
    const convolution_forward::primitive_desc pd(d, attr);
    REQUIRE(pd.impl_name() == "ref");
    memory src(src_md), wei(wei_md), dst(dst_md);
    const convolution_forward conv(pd);

    const std::vector<std::string> lines = exec_lines([&] {
        conv.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_DST, dst}});
    });
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].rfind("prim_verbose,exec,convolution,ref,", 0) == 0);
}

TEST_CASE("a JIT inner product that reorders blocked weights prints only its own line",
          "[verbose][ip]") {
    REQUIRE(verbose_set);
    if (get_effective_cpu_isa() == cpu_isa::none) return; // no JIT on this machine
    const memory::desc src_md({4, 32}, dt::f32, tag::nc);
    const memory::desc wei_md({24, 32}, dt::f32, std::string("Ab8a")); // neither oi nor io
    const memory::desc dst_md({4, 24}, dt::f32, tag::nc);
    const inner_product_forward::desc d(prop_kind::forward_inference, src_md, wei_md, dst_md);
    const inner_product_forward::primitive_desc pd(d);
    REQUIRE(pd.impl_name().rfind("jit:", 0) == 0);
    memory src(src_md), wei(wei_md), dst(dst_md);
    const inner_product_forward ip(pd);

    const std::vector<std::string> lines = exec_lines([&] {
        ip.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_DST, dst}});
    });
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].rfind("prim_verbose,exec,inner_product," + pd.impl_name() + ",", 0) == 0);
}
