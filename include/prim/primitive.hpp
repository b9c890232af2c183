// prim: what every primitive shares: propagation kind, the chosen implementation, execution.
#pragma once
#include <memory>
#include <string>

#include "prim/api.hpp"
#include "prim/attr.hpp"
#include "prim/memory.hpp"

namespace prim {

enum class prop_kind { forward_training, forward_inference };

namespace impl {
struct chosen_impl; // src/common/primitive_impl.hpp
}

// The result of creation: the implementation chosen for a descriptor and an attribute, and the
// layouts it settled on for any argument given as format_tag::any.
class PRIM_API primitive_desc_base {
public:
    // "jit:avx512", "jit:avx2" or "ref".
    std::string impl_name() const;
    memory::desc src_desc() const;
    memory::desc weights_desc() const; // zero desc for eltwise
    memory::desc bias_desc() const;    // zero desc when there is no bias
    memory::desc dst_desc() const;
    // The desc of any execute argument (PRIM_ARG_SRC, ..., PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) |
    // PRIM_ARG_SRC_1); a zero desc when the primitive has no such argument.
    memory::desc query_md(int exec_arg) const;
    const primitive_attr &get_primitive_attr() const;

protected:
    std::shared_ptr<const impl::chosen_impl> impl_;
    friend class primitive;
};

class PRIM_API primitive {
public:
    // Runs on the given arguments. Thread-safe: one primitive may run from many threads at once.
    void execute(const exec_args &args) const;

protected:
    explicit primitive(const primitive_desc_base &pd) : impl_(pd.impl_) {}
    std::shared_ptr<const impl::chosen_impl> impl_;
};

} // namespace prim
