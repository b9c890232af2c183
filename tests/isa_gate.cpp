// prim_isa_gate ISA COMMAND [ARGS...]: runs COMMAND with PRIM_MAX_CPU_ISA=ISA where the effective
// ISA (the CPU's, capped by the PRIM_MAX_CPU_ISA it was given) has ISA; elsewhere says so and
// exits with prim_test::skip_return_code, which ctest reports as skipped (SKIP_RETURN_CODE). The
// ctest entries of benchdnn_lite and the end-to-end models that name an ISA run through it, so
// that an AVX-512 entry is never run, and passed, on AVX2 code.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "isa_under_test.hpp"

int main(int argc, char *argv[]) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s avx512|avx2 COMMAND [ARGS...]\n", argv[0]);
        return 2;
    }
    prim::cpu_isa wanted;
    try {
        wanted = prim::jit::parse_max_cpu_isa(argv[1]);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    const prim::cpu_isa effective = prim_test::effective_isa();
    if (effective < wanted) {
        std::printf("SKIPPED: this entry checks %s code; the effective ISA here is %s\n",
                    prim::cpu_isa_name(wanted), prim::cpu_isa_name(effective));
        return prim_test::skip_return_code;
    }
    setenv("PRIM_MAX_CPU_ISA", argv[1], 1);
    execvp(argv[2], argv + 2);
    std::perror(argv[2]);
    return 127;
}
