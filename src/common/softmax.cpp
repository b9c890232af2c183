// Softmax creation: check the descriptor, turn it into a problem, choose an implementation.
#include "common/choose_impl.hpp"
#include "common/desc_checks.hpp"
#include "common/quant_attr.hpp"
#include "common/softmax_request.hpp"
#include "common/verbose.hpp"
#include "prim/softmax.hpp"

namespace prim {

softmax_forward::desc::desc(prop_kind pk, algorithm alg, const memory::desc &src,
                            const memory::desc &dst, int axis)
    : prop(pk), alg(alg), src(src), dst(dst), axis(axis) {}

namespace impl {

int64_t softmax_problem::nelems() const {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
}
int64_t softmax_problem::outer() const {
    int64_t n = 1;
    for (int i = 0; i < axis; ++i) n *= dims[static_cast<size_t>(i)];
    return n;
}
int64_t softmax_problem::inner() const {
    int64_t n = 1;
    for (size_t i = static_cast<size_t>(axis) + 1; i < dims.size(); ++i) n *= dims[i];
    return n;
}

const char *softmax_alg_name(algorithm alg) {
    return alg == algorithm::softmax_log ? "LOGSOFTMAX" : "SOFTMAX";
}

std::string to_string(const softmax_problem &prb) {
    const std::string alg = prb.alg == algorithm::softmax_log
            ? std::string("--alg=") + softmax_alg_name(prb.alg) + " " : "";
    return alg + "--axis=" + std::to_string(prb.axis) + " " + dims_str(prb.dims);
}

} // namespace impl

namespace {
const impl::desc_checks check {"softmax"};

// As oneDNN: f32, u8 or s8 for src and dst (int8 softmax, doc/int8.md).
void check_type(const memory::desc &md, const char *name) {
    check.f32_or_int(md, name);
    const memory::data_type t = md.get_data_type();
    if (t == memory::data_type::s32)
        check.fail(std::string(name) + " data type s32 is not supported (f32, u8 or s8)");
}
} // namespace

softmax_forward::primitive_desc::primitive_desc(const desc &d, const primitive_attr &attr) {
    check.prop(d.prop);
    if (d.alg != algorithm::softmax_accurate && d.alg != algorithm::softmax_log)
        check.fail("algorithm " + std::to_string(static_cast<int>(d.alg))
                   + " is not softmax_accurate or softmax_log");
    check_type(d.src, "src");
    const memory::dims &s = d.src.get_dims();
    const int rank = d.src.ndims();
    if (rank < 1 || rank > 5)
        check.fail("src must have 1 to 5 dims, it has " + std::to_string(rank));
    if (d.axis < 0 || d.axis >= rank)
        check.fail("axis " + std::to_string(d.axis) + " is out of range for src "
                   + impl::dims_str(s) + ": it must be in [0, " + std::to_string(rank - 1) + "]");
    memory::dim elements = 1;
    for (memory::dim x : s)
        if (x < 0 || __builtin_mul_overflow(elements, x ? x : 1, &elements)
                || elements > (memory::dim(1) << 60))
            check.fail("problem too large or negative: src dims must be non-negative with at "
                       "most 2^60 elements");
    const memory::desc dst = d.dst.is_zero() ? d.src : d.dst;
    check_type(dst, "dst");
    if (dst.get_dims() != s)
        check.fail("dst dims " + impl::dims_str(dst.get_dims()) + " differ from src dims "
                   + impl::dims_str(s));
    const std::string bad_scales = impl::check_softmax_quantization(
            attr.get_quantization(), d.src.get_data_type(), dst.get_data_type());
    if (!bad_scales.empty()) check.fail(bad_scales);

    impl::softmax_request req;
    req.prb.dims = s;
    req.prb.axis = d.axis;
    req.prb.alg = d.alg;
    req.src = d.src;
    req.dst = dst;
    req.attr = attr;
    impl_ = impl::choose_impl(impl::primitive_kind::softmax, impl::softmax_impl_list(), req,
                              impl::to_string(req.prb), req.prb.nelems() == 0);
}

} // namespace prim
