// The layouts the JIT convolution reads and chooses: how a data tensor is addressed (data_geom),
// the layout patterns for 'any', and the packed weights of the direct and depthwise kernels.
#pragma once
#include <cstdint>
#include <string>

#include "prim/memory.hpp"

namespace prim {
namespace jit {

// Spatial dim j (0 = outermost in use) of an nsp-dim problem as an index into the d/h/w arrays.
inline int sp_index(int nsp, int j) { return 3 - nsp + j; }

// How a data tensor (src or dst) can be addressed by the kernel; ok = false when its layout is
// not one the kernel reads directly (then the primitive repacks it to nhwc).
struct data_geom {
    bool ok = false;
    int64_t blk = 1;        // channel block (1 for plain layouts)
    int64_t s_c = 0;        // elements between channels inside a block (plain: between channels)
    int64_t s_cb = 0;       // elements between channel blocks (plain: blk * s_c)
    int64_t s_n = 0;
    int64_t s_sp[3] = {0, 0, 0};
};
data_geom analyze_data_desc(const memory::desc &md, int nsp);

// Layout patterns the primitive uses.
std::string blocked_data_pattern(int nsp, int simd_w);    // "aBcd16b"
std::string channels_last_pattern(int nsp);               // "acdb"
// The packed weights for the user's weight dims (grouped or not): "ABcd16b16a" / "aBCde16c16b".
memory::desc packed_weights_desc(const memory::dims &wei_dims, bool grouped, int nsp, int simd_w);

// Depthwise weights (dims g, 1, 1, k...): [channel block][k...][W channels], "Abcde16a".
memory::desc packed_dw_weights_desc(const memory::dims &wei_dims, int nsp, int simd_w);

} // namespace jit
} // namespace prim
