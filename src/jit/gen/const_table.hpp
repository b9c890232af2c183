// The constant table of one kernel: every constant a kernel needs, stored once after its code as
// 32-bit patterns (so nothing is rounded on the way), each broadcast to a full vector so any
// instruction can take it as a plain memory operand: vmulps(v, v, table.at(reg_table, c)).
//
// AVX-512 tables start with an area of single 32-bit constants for embedded broadcasts
// (vmulps(v, v, table.broadcast_at_bits(reg_table, bits)), read as {1to16}): such an operand
// reads 4 bytes instead of 64, and its 8-bit displacement counts in 4-byte steps, so the
// scalars must sit within 508 bytes of the table's start to keep instructions short.
//
// Constants are deduplicated by bit pattern: two relus with alphas 0.1 and 0.2 get two entries,
// two users of the same value share one. Offsets are fixed as constants are requested, so code can
// be emitted before the table's contents are complete; emit() writes the table at the end.
//
// A runtime post-op parameter is a constant too: its slot's NaN (attr/runtime_params.hpp). The
// table notes where each lands, and a kernel that has any reads its table from a copy that
// write_with_values() fills at execute, so one kernel serves every value.
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include <xbyak/xbyak.h>

#include "attr/runtime_params.hpp"

namespace prim {
namespace jit {

class const_table {
public:
    // vlen: bytes of the widest vector the kernel reads constants with (32 or 64).
    explicit const_table(int vlen) : vlen_(vlen), scalar_capacity_(vlen == 64 ? 128 : 0) {
        words_.assign(scalar_capacity_, 0); // the scalar area (its size keeps vectors aligned)
    }

    // Byte offset, from the table's start, of a vector whose every 32-bit lane is `bits`.
    int offset_of_bits(uint32_t bits) {
        auto it = broadcast_.find(bits);
        if (it != broadcast_.end()) return it->second;
        const int off = static_cast<int>(words_.size()) * 4;
        if (impl::runtime_slot_of_bits(bits) >= 0) runtime_.push_back({off / 4, vlen_ / 4});
        for (int i = 0; i < vlen_ / 4; ++i) words_.push_back(bits);
        broadcast_.emplace(bits, off);
        return off;
    }
    // Byte offset of a single 32-bit `bits` in the scalar area; once that is full, of a vector
    // entry's first lane (the same value, reached with a longer displacement).
    int scalar_offset_of_bits(uint32_t bits) {
        auto it = scalars_.find(bits);
        if (it != scalars_.end()) return it->second;
        if (static_cast<int>(scalars_.size()) == scalar_capacity_) return offset_of_bits(bits);
        const int word = static_cast<int>(scalars_.size());
        words_[word] = bits;
        if (impl::runtime_slot_of_bits(bits) >= 0) runtime_.push_back({word, 1});
        scalars_.emplace(bits, word * 4);
        return word * 4;
    }
    int offset_of(float value) { return offset_of_bits(bits_of(value)); }
    int offset_of_int(int32_t value) { return offset_of_bits(static_cast<uint32_t>(value)); }

    // Byte offset of an arbitrary row of 32-bit words (e.g. the AVX2 tail-mask pattern: 7 x -1
    // then 7 x 0, read at an offset). The row starts vector-aligned.
    int offset_of_row(const std::vector<uint32_t> &row) {
        auto it = rows_.find(row);
        if (it != rows_.end()) return it->second;
        const int off = static_cast<int>(words_.size()) * 4;
        words_.insert(words_.end(), row.begin(), row.end());
        while (words_.size() % (vlen_ / 4) != 0) words_.push_back(0); // keep vectors aligned
        rows_.emplace(row, off);
        return off;
    }

    // A vector memory operand for the constant `value`; `base` holds the table's address.
    Xbyak::Address at(const Xbyak::Reg64 &base, float value) {
        return Xbyak::util::ptr[base + offset_of(value)];
    }
    Xbyak::Address at_bits(const Xbyak::Reg64 &base, uint32_t bits) {
        return Xbyak::util::ptr[base + offset_of_bits(bits)];
    }
    // AVX-512 only: the constant as an embedded broadcast operand ({1to16}), and as the 4-byte
    // operand vbroadcastss loads into a register.
    Xbyak::Address broadcast_at_bits(const Xbyak::Reg64 &base, uint32_t bits) {
        return Xbyak::util::ptr_b[base + scalar_offset_of_bits(bits)];
    }
    Xbyak::Address scalar_at_bits(const Xbyak::Reg64 &base, uint32_t bits) {
        return Xbyak::util::ptr[base + scalar_offset_of_bits(bits)];
    }

    // The label the table starts at: mov(reg_table, table.label()) loads its address.
    Xbyak::Label &label() { return label_; }
    bool empty() const { return words_.empty(); }

    // Writes the table (aligned to vlen) at the current end of the code.
    void emit(Xbyak::CodeGenerator &gen) {
        gen.align(vlen_);
        gen.L(label_);
        for (uint32_t w : words_) gen.dd(w);
    }

    // Runtime parameters: whether the table holds any, its size, and a copy of it with each
    // slot's vector filled with its value (values[slot], negated where the code reads -value).
    bool has_runtime_slots() const { return !runtime_.empty(); }
    size_t bytes() const { return words_.size() * 4; }
    void write_with_values(void *dst, const std::vector<float> &values) const {
        std::memcpy(dst, words_.data(), bytes());
        auto *out = static_cast<uint32_t *>(dst);
        for (const runtime_words &r : runtime_) {
            bool negated = false;
            const int slot = impl::runtime_slot_of_bits(words_[r.first], &negated);
            const float v = negated ? -values.at(slot) : values.at(slot);
            for (int i = 0; i < r.count; ++i) out[r.first + i] = bits_of(v);
        }
    }

    static uint32_t bits_of(float value) {
        uint32_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        return bits;
    }

private:
    struct runtime_words {
        int first, count; // a runtime parameter's words: a vector, or one scalar
    };
    int vlen_;
    int scalar_capacity_;
    std::vector<uint32_t> words_;
    std::map<uint32_t, int> broadcast_;
    std::map<uint32_t, int> scalars_;
    std::map<std::vector<uint32_t>, int> rows_;
    std::vector<runtime_words> runtime_;
    Xbyak::Label label_;
};

} // namespace jit
} // namespace prim
