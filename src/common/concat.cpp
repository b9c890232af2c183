// Concat creation: check the inputs (each message names the input's index), deduce dst, choose an
// implementation.
#include <string>

#include "common/choose_impl.hpp"
#include "common/concat_request.hpp"
#include "common/desc_checks.hpp"
#include "common/verbose.hpp"
#include "prim/concat.hpp"

namespace prim {

namespace impl {
std::string concat_problem_string(int axis, const std::vector<memory::desc> &srcs) {
    std::string s = "--axis=" + std::to_string(axis) + " ";
    for (size_t i = 0; i < srcs.size(); ++i) s += (i ? ":" : "") + dims_str(srcs[i].get_dims());
    return s;
}
} // namespace impl

namespace {

const impl::desc_checks check {"concat"};

// The concatenated dims, after checking every input against src 0.
memory::dims concat_dims(int axis, const std::vector<memory::desc> &srcs) {
    if (srcs.empty()) check.fail("no inputs: give at least one src desc");
    for (size_t i = 0; i < srcs.size(); ++i) {
        const std::string name = "src " + std::to_string(i);
        check.f32_or_int(srcs[i], name.c_str());
        // One type for every input and dst (doc/int8.md): concat copies, it does not convert.
        if (srcs[i].get_data_type() != srcs[0].get_data_type())
            check.fail(name + " data type " + data_type_name(srcs[i].get_data_type())
                       + " differs from src 0's " + data_type_name(srcs[0].get_data_type())
                       + ": every input must have one type");
        if (srcs[i].is_any())
            check.fail(name + " desc is 'any': concat inputs must have a layout");
    }
    const memory::dims &d0 = srcs[0].get_dims();
    const int rank = static_cast<int>(d0.size());
    if (rank < 1 || rank > 5) check.fail("src 0 must have 1 to 5 dims, it has " + std::to_string(rank));
    if (axis < 0 || axis >= rank)
        check.fail("axis " + std::to_string(axis) + " is out of range for rank "
                   + std::to_string(rank) + ": it must be in [0, " + std::to_string(rank - 1) + "]");
    memory::dims out = d0;
    out[static_cast<size_t>(axis)] = 0;
    for (size_t i = 0; i < srcs.size(); ++i) {
        const memory::dims &d = srcs[i].get_dims();
        const std::string name = "src " + std::to_string(i);
        if (static_cast<int>(d.size()) != rank)
            check.fail(name + " " + impl::dims_str(d) + " has rank " + std::to_string(d.size())
                       + ", src 0 " + impl::dims_str(d0) + " has rank " + std::to_string(rank));
        for (int k = 0; k < rank; ++k) {
            if (d[k] < 0) check.fail(name + " has a negative dim " + impl::dims_str(d));
            if (k != axis && d[k] != d0[k])
                check.fail(name + " " + impl::dims_str(d) + " differs from src 0 "
                           + impl::dims_str(d0) + " in dim " + std::to_string(k) + " ("
                           + std::to_string(d[k]) + " vs " + std::to_string(d0[k])
                           + "): only the axis (" + std::to_string(axis) + ") may differ");
        }
        memory::dim &sum = out[static_cast<size_t>(axis)];
        if (__builtin_add_overflow(sum, d[axis], &sum) || sum > (memory::dim(1) << 40))
            check.fail("the concatenated axis is too large");
    }
    memory::dim elements = 1;
    for (memory::dim x : out)
        if (__builtin_mul_overflow(elements, x ? x : 1, &elements) || elements > (memory::dim(1) << 60))
            check.fail("problem too large: dst would have more than 2^60 elements");
    return out;
}

} // namespace

concat::primitive_desc::primitive_desc(int axis, const std::vector<memory::desc> &srcs,
                                       const primitive_attr &attr)
    : primitive_desc(memory::desc(), axis, srcs, attr) {}

concat::primitive_desc::primitive_desc(const memory::desc &dst, int axis,
                                       const std::vector<memory::desc> &srcs,
                                       const primitive_attr &attr) {
    const memory::dims dims = concat_dims(axis, srcs);
    if (attr.get_post_ops().len() != 0)
        check.fail("post-ops are not supported on concat (the chain has "
                   + std::to_string(attr.get_post_ops().len()) + " entries)");
    impl::concat_request req;
    req.axis = axis;
    req.srcs = srcs;
    req.attr = attr;
    if (dst.is_zero() || dst.is_any()) {
        // As oneDNN: the first input's layout, dense, over the concatenated dims.
        req.dst = memory::desc(dims, srcs[0].get_data_type(), srcs[0].layout());
    } else {
        check.f32_or_int(dst, "dst");
        if (dst.get_data_type() != srcs[0].get_data_type())
            check.fail(std::string("dst data type ") + data_type_name(dst.get_data_type())
                       + " differs from the inputs' " + data_type_name(srcs[0].get_data_type())
                       + ": concat does not convert types");
        if (dst.get_dims() != dims)
            check.fail("dst dims " + impl::dims_str(dst.get_dims())
                       + " differ from the concatenated dims " + impl::dims_str(dims));
        req.dst = dst;
    }
    bool empty = false;
    for (memory::dim x : dims) empty = empty || x == 0;
    impl_ = impl::choose_impl(impl::primitive_kind::concat, impl::concat_impl_list(), req,
                              impl::concat_problem_string(axis, srcs), empty);
}

} // namespace prim
