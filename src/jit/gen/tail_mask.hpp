// Masked loads and stores for the last, partial vector of a row: the one place where AVX2 and
// AVX-512 differ in how a tail is handled.
//   AVX-512: an opmask with the low n bits set; loads zero the other lanes ({z}), stores skip them.
//   AVX2:    vmaskmovps with a mask vector read from the constant table: a row of eight -1 then
//            eight 0, read at word offset 8 - n, gives n leading -1 lanes. Masked-off lanes are
//            neither read nor written, so a tail never touches memory past the buffer's end.
// The mask is computed once per kernel (prepare), and used only on the last block.
#pragma once
#include <vector>

#include "jit/gen/isa_traits.hpp"
#include "jit/gen/jit_generator.hpp"

namespace prim {
namespace jit {

template <cpu_isa isa>
class tail_mask {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    static constexpr int simd_w = isa_traits<isa>::simd_w;

    // n: valid lanes, 1..simd_w. reg_idx: the opmask index (1..7) on AVX-512, the vector register
    // index that holds the mask on AVX2. Both are reserved by the host kernel for the mask.
    tail_mask(jit_generator &gen, int n, int reg_idx) : gen_(gen), n_(n), idx_(reg_idx) {}

    int lanes() const { return n_; }

    // Emits the mask setup. tmp is clobbered on AVX-512; reg_table holds the table's address.
    void prepare(const Xbyak::Reg64 &reg_table, const Xbyak::Reg64 &tmp) {
        if constexpr (isa == cpu_isa::avx512) {
            (void)reg_table;
            gen_.mov(tmp.cvt32(), (1u << n_) - 1u);
            gen_.kmovw(Xbyak::Opmask(idx_), tmp.cvt32());
        } else {
            (void)tmp;
            std::vector<uint32_t> row(2 * simd_w, 0u);
            for (int i = 0; i < simd_w; ++i) row[i] = 0xffffffffu;
            const int off = gen_.table().offset_of_row(row) + (simd_w - n_) * 4;
            gen_.vmovups(Vmm(idx_), gen_.ptr[reg_table + off]);
        }
    }

    // The same with n known only at run time: reg_n holds it (1..simd_w-1); tmp is clobbered.
    // Reads a row of the constant table at an offset: (1 << n) - 1 on AVX-512, -1s then 0s on AVX2.
    void prepare_runtime(const Xbyak::Reg64 &reg_table, const Xbyak::Reg64 &reg_n,
                         const Xbyak::Reg64 &tmp) {
        std::vector<uint32_t> row(2 * simd_w, 0u);
        if constexpr (isa == cpu_isa::avx512) {
            (void)tmp;
            for (int i = 0; i < simd_w; ++i) row[i] = (1u << i) - 1u;
            const int off = gen_.table().offset_of_row(row);
            gen_.kmovw(Xbyak::Opmask(idx_), gen_.ptr[reg_table + reg_n * 4 + off]);
        } else {
            for (int i = 0; i < simd_w; ++i) row[i] = 0xffffffffu;
            const int off = gen_.table().offset_of_row(row);
            gen_.mov(tmp, simd_w);
            gen_.sub(tmp, reg_n);
            gen_.vmovups(Vmm(idx_), gen_.ptr[reg_table + tmp * 4 + off]);
        }
    }

    // dst = the first n lanes at src, other lanes zero.
    void load(const Vmm &dst, const Xbyak::Address &src) {
        if constexpr (isa == cpu_isa::avx512)
            gen_.vmovups(dst | Xbyak::Opmask(idx_) | gen_.T_z, src);
        else
            gen_.vmaskmovps(dst, Vmm(idx_), src);
    }

    // Writes the first n lanes of src to dst.
    void store(const Xbyak::Address &dst, const Vmm &src) {
        if constexpr (isa == cpu_isa::avx512)
            gen_.vmovups(dst | Xbyak::Opmask(idx_), src);
        else
            gen_.vmaskmovps(dst, Vmm(idx_), src);
    }

private:
    jit_generator &gen_;
    int n_;
    int idx_;
};

} // namespace jit
} // namespace prim
