// Per-call repacking of inner-product weights the user gave in a plain layout into the packed
// layout the JIT kernel reads, [oc/block][K][block] with zero padding lanes. Used only when the
// user did not let the primitive choose ('any'): with 'any' the user reorders once instead.
#pragma once
#include <cstdint>

#include "prim/memory.hpp"

namespace prim {
namespace jit {

// True when pack_ip_weights handles `user`: plain row-major (oi, oiw, oihw, oidhw) or, without
// spatial dims, io. Other layouts go through prim::reorder.
bool can_pack_ip_weights(const memory::desc &user);

// packed: (oc rounded up to block) * k floats. Threaded over oc blocks.
void pack_ip_weights(const memory::desc &user, const float *w, int64_t oc, int64_t k, int64_t block,
                     float *packed);

} // namespace jit
} // namespace prim
