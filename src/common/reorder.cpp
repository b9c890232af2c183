// The public reorder: the shared checks and copy (internal_reorder.hpp) plus, like every other
// primitive, one PRIM_VERBOSE exec line per execution.
#include "prim/reorder.hpp"

#include "common/internal_reorder.hpp"
#include "common/verbose.hpp"
#include "prim/error.hpp"

namespace prim {

reorder::reorder(const memory::desc &src, const memory::desc &dst) : src_(src), dst_(dst) {
    impl::check_reorder_descs(src, dst);
}

void reorder::execute(const exec_args &args) const {
    auto src = args.find(PRIM_ARG_FROM), dst = args.find(PRIM_ARG_TO);
    if (src == args.end() || dst == args.end())
        throw error(status::invalid_arguments,
                    "reorder: PRIM_ARG_FROM and PRIM_ARG_TO are both required");
    execute(src->second, dst->second);
}

void reorder::execute(const memory &src, const memory &dst) const {
    const bool verbose = impl::verbose_level() >= 1;
    const double start = verbose ? impl::now_ms() : 0.0;
    impl::reorder_data(src_, dst_, src, dst);
    // DESC: "abcd:2x16x5x5->aBcd16b", the source as other lines print a desc, then dst's layout.
    // One generic implementation, named "ref" as the reference kernels are; no post-ops.
    if (verbose)
        impl::verbose_print_exec("reorder", "ref", impl::md_str(src_) + "->" + dst_.layout(), "",
                                 start);
}

} // namespace prim
