// The base of every JIT kernel: an Xbyak code generator with the System V ABI frame, the kernel's
// constant table, and a two-step life: construct (cheap, no code), then create_kernel(), which
// runs the derived class's generate(), appends the constant table, and makes the pages
// read+execute. Pages are never writable and executable at once: code is written into RW pages
// (Xbyak AutoGrow, no RWX), then ready(PROTECT_RE) flips them to RX.
//
// PRIM_JIT_DUMP=1 writes each kernel to "prim_jit_<name>.<n>.bin" in the working directory;
// disassemble with `objdump -D -b binary -mi386:x86-64 FILE`.
#pragma once
#include <string>

#include <xbyak/xbyak.h>

#include "jit/gen/const_table.hpp"

namespace prim {
namespace jit {

class jit_generator : public Xbyak::CodeGenerator {
public:
    // name: what the kernel is, for dumps and messages ("eltwise_avx512"); vlen: bytes of the
    // widest vector its constants are read with (32 for avx2, 64 for avx512).
    jit_generator(std::string name, int vlen);
    ~jit_generator() override = default;
    jit_generator(const jit_generator &) = delete;
    jit_generator &operator=(const jit_generator &) = delete;

    // Generates the code once. Throws prim::error(runtime_error) if Xbyak fails.
    void create_kernel();
    // The entry point, after create_kernel(): reinterpret_cast to the kernel's signature.
    const void *entry() const { return entry_; }
    template <typename fn_t>
    fn_t entry_as() const { return reinterpret_cast<fn_t>(const_cast<void *>(entry_)); }
    const std::string &kernel_name() const { return name_; }
    size_t code_size() const { return getSize(); }

    // System V arguments and the registers the frame saves.
    static constexpr Xbyak::Operand::Code abi_param_codes[] = {
        Xbyak::Operand::RDI, Xbyak::Operand::RSI, Xbyak::Operand::RDX,
        Xbyak::Operand::RCX, Xbyak::Operand::R8, Xbyak::Operand::R9};
    static Xbyak::Reg64 abi_param(int i) { return Xbyak::Reg64(abi_param_codes[i]); }

    // The kernel's constants (the post-ops injector adds its own here too).
    const_table &table() { return table_; }
    const const_table &table() const { return table_; }
    // True when the kernel reads its constant table from the address its caller passes (the
    // chain has runtime parameters): execute passes a copy made by table().write_with_values().
    bool reads_runtime_table() const { return runtime_table_; }

protected:
    // Emits the kernel: typically preamble(); load_table_address(r); ...; postamble();
    virtual void generate() = 0;

    // Saves every callee-saved general register (rbx, rbp, r12-r15); the kernel may then use all
    // 16 general registers except rsp. Vector registers are all caller-saved on System V.
    void preamble();
    // Restores them, clears the upper vector state (vzeroupper) and returns.
    void postamble();
    // mov(reg, address of the constant table).
    void load_table_address(const Xbyak::Reg64 &reg) { mov(reg, table_.label()); }
    // A host whose chain has runtime parameters: call in the constructor, before generate().
    void read_runtime_table(bool yes) { runtime_table_ = yes; }
    // The table's address: the caller's copy at runtime_table (a pointer in the call's
    // arguments) when the kernel reads a runtime table, else the kernel's own.
    void load_table_address(const Xbyak::Reg64 &reg, const Xbyak::Address &runtime_table) {
        if (runtime_table_) mov(reg, runtime_table);
        else load_table_address(reg);
    }

    // vbroadcastss-free way to fill a vector with one f32 constant: read it from the table.
    Xbyak::Address table_at(const Xbyak::Reg64 &reg_table, float value) {
        return table_.at(reg_table, value);
    }

private:
    void dump() const;

    std::string name_;
    const_table table_;
    bool runtime_table_ = false;
    const void *entry_ = nullptr;
};

} // namespace jit
} // namespace prim
