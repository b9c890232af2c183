// Concat inside the library: what creation hands to each implementation, and the implementation
// list.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

struct concat_request {
    int axis = 0;
    std::vector<memory::desc> srcs; // each with a layout (never 'any')
    memory::desc dst;               // settled: the concatenated dims, never 'any'
    primitive_attr attr;            // no post-ops (creation checks)
};

// As verbose lines and messages print it: "--axis=1 3x4x5x5:3x6x5x5".
std::string concat_problem_string(int axis, const std::vector<memory::desc> &srcs);

inline arg_layouts concat_layouts(const concat_request &req) {
    arg_layouts l;
    l.dst = req.dst;
    l.multiple_src = req.srcs;
    return l;
}

// Fastest first, reference last (src/common/impl_list.cpp).
const std::vector<impl_entry<concat_request>> &concat_impl_list();

std::unique_ptr<primitive_impl> create_concat_copy(const concat_request &req, cpu_isa isa,
                                                   std::string &why_not);
std::unique_ptr<primitive_impl> create_ref_concat(const concat_request &req, cpu_isa isa,
                                                  std::string &why_not);

} // namespace impl
} // namespace prim
