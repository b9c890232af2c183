// Softmax inside the library: the problem (dims, axis, algorithm), what creation hands to each
// implementation, and the implementation list.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/plain_layout.hpp"
#include "common/primitive_impl.hpp"

namespace prim {
namespace impl {

struct softmax_problem {
    std::vector<int64_t> dims;                     // 1 to 5 dims
    int axis = 1;                                  // in [0, rank)
    algorithm alg = algorithm::softmax_accurate;   // or softmax_log

    int64_t axis_len() const { return dims[static_cast<size_t>(axis)]; }
    int64_t nelems() const;
    int64_t rows() const { return axis_len() ? nelems() / axis_len() : 0; } // one per axis run
    // Product of the dims before the axis, and after it.
    int64_t outer() const;
    int64_t inner() const;
};

// As verbose lines and messages print it, benchdnn's options then the descriptor:
// "--axis=1 16x1000", "--alg=LOGSOFTMAX --axis=3 2x12x128x128".
std::string to_string(const softmax_problem &prb);
// benchdnn's name of the algorithm: "SOFTMAX", "LOGSOFTMAX".
const char *softmax_alg_name(algorithm alg);

struct softmax_request {
    softmax_problem prb;
    memory::desc src, dst; // dst never zero (src's when the user gave none); either may be 'any'
    primitive_attr attr;
};

// src and dst as both implementations run them: 'any' takes the other's layout (keeping its own
// type), plain when both are 'any'.
inline arg_layouts softmax_layouts(const softmax_request &req) {
    arg_layouts l;
    l.src = req.src;
    l.dst = req.dst;
    if (l.src.is_any() && l.dst.is_any()) {
        l.src = plain_desc(req.prb.dims, req.src.get_data_type());
        l.dst = plain_desc(req.prb.dims, req.dst.get_data_type());
    }
    if (l.src.is_any()) l.src = retyped(l.dst, req.src.get_data_type());
    if (l.dst.is_any()) l.dst = retyped(l.src, req.dst.get_data_type());
    return l;
}

// Fastest first, reference last (src/common/impl_list.cpp).
const std::vector<impl_entry<softmax_request>> &softmax_impl_list();

std::unique_ptr<primitive_impl> create_ref_softmax(const softmax_request &req, cpu_isa isa,
                                                   std::string &why_not);
std::unique_ptr<primitive_impl> create_jit_softmax(const softmax_request &req, cpu_isa isa,
                                                   std::string &why_not);
// An axis that is not innermost, on a plain layout (src/jit/softmax/jit_softmax_strided.cpp).
std::unique_ptr<primitive_impl> create_jit_softmax_strided(const softmax_request &req, cpu_isa isa,
                                                           std::string &why_not);

} // namespace impl
} // namespace prim
