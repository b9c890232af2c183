// ISA detection, the PRIM_MAX_CPU_ISA parser, the read-once-and-rethrow behaviour of
// get_effective_cpu_isa, and PRIM_JIT_DUMP. The test cases run in file order: the first one
// sets the environment before anything in this process reads it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <xbyak/xbyak_util.h>

#include "jit/gen/cpu_isa_detect.hpp"
#include "jit/eltwise/eltwise_kernel.hpp"
#include "prim/error.hpp"

using namespace prim;

TEST_CASE("an unknown PRIM_MAX_CPU_ISA is an error at every use", "[jit][isa]") {
    // Read once per process: set before the first call in this program.
    setenv("PRIM_MAX_CPU_ISA", "foo", 1);
    for (int i = 0; i < 2; ++i) {
        try {
            get_effective_cpu_isa();
            FAIL("no error");
        } catch (const error &e) {
            CHECK(e.get_status() == status::invalid_arguments);
            CHECK(std::string(e.what()) == "PRIM_MAX_CPU_ISA=foo is not one of avx512_vnni, avx512, avx2, none");
        }
    }
    // Changing the variable later changes nothing: it was read once.
    setenv("PRIM_MAX_CPU_ISA", "avx2", 1);
    CHECK_THROWS_AS(get_effective_cpu_isa(), error);
    unsetenv("PRIM_MAX_CPU_ISA");
}

TEST_CASE("PRIM_MAX_CPU_ISA values", "[jit][isa]") {
    using jit::parse_max_cpu_isa;
    CHECK(parse_max_cpu_isa(nullptr) == cpu_isa::all);
    CHECK(parse_max_cpu_isa("") == cpu_isa::all);
    CHECK(parse_max_cpu_isa("avx512") == cpu_isa::avx512);
    CHECK(parse_max_cpu_isa("AVX512") == cpu_isa::avx512);
    CHECK(parse_max_cpu_isa("avx512_vnni") == cpu_isa::avx512_vnni);
    CHECK(parse_max_cpu_isa("AVX512_VNNI") == cpu_isa::avx512_vnni);
    CHECK_THROWS_AS(parse_max_cpu_isa("vnni"), error);
    CHECK(parse_max_cpu_isa("Avx2") == cpu_isa::avx2);
    CHECK(parse_max_cpu_isa("NONE") == cpu_isa::none);
    CHECK_THROWS_WITH(parse_max_cpu_isa("avx"), "PRIM_MAX_CPU_ISA=avx is not one of avx512_vnni, avx512, avx2, none");
    CHECK_THROWS_WITH(parse_max_cpu_isa("avx512 "), "PRIM_MAX_CPU_ISA=avx512  is not one of avx512_vnni, avx512, avx2, none");
    CHECK_THROWS_AS(parse_max_cpu_isa("all"), error);
}

TEST_CASE("ISA names and detection", "[jit][isa]") {
    CHECK(std::string(cpu_isa_name(cpu_isa::none)) == "none");
    CHECK(std::string(cpu_isa_name(cpu_isa::avx2)) == "avx2");
    CHECK(std::string(cpu_isa_name(cpu_isa::avx512)) == "avx512");
    CHECK(std::string(cpu_isa_name(cpu_isa::avx512_vnni)) == "avx512_vnni");
    // Ordered: the f32 kernels take avx512_vnni as avx512 (they test >= avx512).
    CHECK(cpu_isa::avx512 < cpu_isa::avx512_vnni);
    CHECK(cpu_isa::avx512_vnni < cpu_isa::all);
    CHECK(std::string(cpu_isa_name(cpu_isa::all)) == "all");
    // Independent check with Xbyak's raw feature bits.
    using Cpu = Xbyak::util::Cpu;
    const Cpu cpu;
    const bool avx512 = cpu.has(Cpu::tAVX512F) && cpu.has(Cpu::tAVX512BW) && cpu.has(Cpu::tAVX512VL)
            && cpu.has(Cpu::tAVX512DQ);
    const bool avx2 = cpu.has(Cpu::tAVX2) && cpu.has(Cpu::tFMA);
    const bool vnni = avx512 && cpu.has(Cpu::tAVX512_VNNI);
    const cpu_isa expected = vnni ? cpu_isa::avx512_vnni : avx512 ? cpu_isa::avx512
            : avx2 ? cpu_isa::avx2 : cpu_isa::none;
    CHECK(jit::detect_cpu_isa() == expected);
}

TEST_CASE("PRIM_JIT_DUMP=1 writes each kernel for objdump", "[jit][dump]") {
    setenv("PRIM_JIT_DUMP", "1", 1); // read at the first kernel this program creates
    post_ops chain;
    chain.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    jit::eltwise_kernel<cpu_isa::avx2> kernel(jit::eltwise_kernel_conf(), chain);
    kernel.create_kernel();
    unsetenv("PRIM_JIT_DUMP");
    // the first dump of this process is number 0
    const char *file = "prim_jit_eltwise_avx2.0.bin";
    std::ifstream in(file, std::ios::binary);
    REQUIRE(in.good());
    const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(bytes.size() == kernel.code_size());
    REQUIRE(!bytes.empty());
    CHECK(bytes[0] == 0x53); // push rbx: the frame's first instruction
    std::remove(file);
}
