// The kernel base: frame, constant table, RW-then-RX pages, and the PRIM_JIT_DUMP hook.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "jit/gen/jit_generator.hpp"
#include "prim/error.hpp"

namespace prim {
namespace jit {
namespace {

// Callee-saved general registers of the System V ABI, pushed in this order.
const Xbyak::Reg64 saved_regs[] = {Xbyak::util::rbx, Xbyak::util::rbp, Xbyak::util::r12,
        Xbyak::util::r13, Xbyak::util::r14, Xbyak::util::r15};

bool dump_enabled() {
    static const bool enabled = [] {
        const char *v = std::getenv("PRIM_JIT_DUMP");
        return v != nullptr && std::strcmp(v, "1") == 0;
    }();
    return enabled;
}

} // namespace

constexpr Xbyak::Operand::Code jit_generator::abi_param_codes[];

jit_generator::jit_generator(std::string name, int vlen)
    // AutoGrow: the buffer (mmap'ed by each CodeGenerator's own allocator) grows with the code
    // and stays RW until ready(PROTECT_RE); Xbyak never maps it RWX in this mode.
    : Xbyak::CodeGenerator(4096, Xbyak::AutoGrow), name_(std::move(name)), table_(vlen) {}

void jit_generator::preamble() {
    for (const Xbyak::Reg64 &r : saved_regs) push(r);
}

void jit_generator::postamble() {
    for (int i = static_cast<int>(sizeof(saved_regs) / sizeof(saved_regs[0])) - 1; i >= 0; --i)
        pop(saved_regs[i]);
    vzeroupper();
    ret();
}

void jit_generator::create_kernel() {
    try {
        generate();
        table_.emit(*this);
        ready(PROTECT_RE);
    } catch (const Xbyak::Error &e) {
        throw error(status::runtime_error,
                    "jit kernel " + name_ + ": code generation failed: " + e.what());
    }
    entry_ = getCode();
    if (dump_enabled()) dump();
}

void jit_generator::dump() const {
    static std::atomic<int> counter{0};
    const std::string file = "prim_jit_" + name_ + "." + std::to_string(counter++) + ".bin";
    if (FILE *f = std::fopen(file.c_str(), "wb")) {
        std::fwrite(getCode(), 1, getSize(), f);
        std::fclose(f);
    }
}

} // namespace jit
} // namespace prim
