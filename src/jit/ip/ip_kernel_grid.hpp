// The kernels of the f32 inner-product GEMM (jit_inner_product.cpp; the int8 GEMM has its own,
// per tile variant: int8_gemm.cpp's tile_kernels): up to four, for full tile rows or the row tail, and full panels or the last
// one; a panel variant that is not needed is left empty and its full-panel kernel serves.
#pragma once
#include <memory>
#include <vector>

#include "jit/gen/jit_generator.hpp"

namespace prim {
namespace jit {

struct ip_kernel_grid {
    std::shared_ptr<const jit_generator> k[2][2]; // [row tail][last panel], from kernel_cache

    const jit_generator &at(bool row_tail, bool last_panel) const {
        const auto &g = k[row_tail ? 1 : 0][last_panel ? 1 : 0];
        return *(g ? g : k[row_tail ? 1 : 0][0]);
    }
    // Every slot, empty ones included (runtime_tables skips them).
    std::vector<const jit_generator *> all() const {
        std::vector<const jit_generator *> v;
        for (const auto &row : k)
            for (const auto &g : row) v.push_back(g.get());
        return v;
    }
};

} // namespace jit
} // namespace prim
