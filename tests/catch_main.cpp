// Catch2's main for every test program, with the ISA gate of tests/isa_under_test.hpp: an entry
// that checks an ISA the effective one lacks exits with skip_return_code (ctest: skipped).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include "isa_under_test.hpp"

int main(int argc, char *argv[]) {
    Catch::Session session;
    if (const int rc = session.applyCommandLine(argc, argv)) return rc;
    const prim::cpu_isa entry = prim_test::entry_isa();
    const prim::cpu_isa effective = prim_test::effective_isa();
    if (entry != prim::cpu_isa::all && effective < entry) {
        std::printf("SKIPPED: this entry checks %s code; the effective ISA here is %s\n",
                    prim::cpu_isa_name(entry), prim::cpu_isa_name(effective));
        return prim_test::skip_return_code;
    }
    if (entry == prim::cpu_isa::all && effective < prim::cpu_isa::avx512
        && session.configData().testsOrTags.empty()) {
        std::printf("note: the [avx512] cases are left out: the effective ISA here is %s\n",
                    prim::cpu_isa_name(effective));
        session.configData().testsOrTags.push_back("~[.]~[avx512]");
    }
    const int rc = session.run();
    // Catch2 returns the number of failed assertions: 77 of them must not read as skipped.
    return rc == prim_test::skip_return_code ? rc + 1 : rc;
}
