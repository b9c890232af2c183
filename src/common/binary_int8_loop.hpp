// Binary on int8 data and with scales, as vectorizable loops (binary_int8_loop.cpp).
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

std::unique_ptr<primitive_impl> create_binary_int8_loop(const binary_request &req, cpu_isa isa,
                                                        std::string &why_not);

} // namespace impl
} // namespace prim
