// Pooling on int8 data (u8/s8 src, dst of any of u8/s8/s32/f32) in channels-last layouts, as
// loops over the channels that the compiler vectorizes: a quantized CNN's max and average
// pooling between int8 convolutions. The same values as the reference: the max, or the s32 sum
// divided in double by the taps (or the kernel's volume), rounded half to even and saturated.
// Chains and other layouts go to the reference.
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

std::unique_ptr<primitive_impl> create_pool_int8_loop(const pool_request &req, cpu_isa isa,
                                                      std::string &why_not);

} // namespace impl
} // namespace prim
