// The reference pooling: its kernel on plain layouts (the oracle of the tests and of
// benchdnn_lite's --pool) and the "ref" primitive around it.
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"
#include "ref/ref_chain.hpp"

namespace prim {
namespace impl {

// Pooling on plain layouts, every spatial dim present (size 1 when unused):
//   src [mb][ic][id][ih][iw], dst [mb][ic][od][oh][ow] (dst_old on entry, read by sum).
// Max: the largest real tap, NaN when any real tap is NaN. Average: the real taps summed in
// double, divided by KD*KH*KW (include padding) or their count (exclude), rounded to f32. Then
// the chain.
void ref_pool_fwd(const pool_problem &prb, const float *src, const ref_chain &po, float *dst);

// Takes every valid request, in any layout ('any' is plain).
std::unique_ptr<primitive_impl> create_ref_pool(const pool_request &req, cpu_isa isa,
                                                std::string &why_not);

} // namespace impl
} // namespace prim
