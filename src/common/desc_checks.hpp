// Checks that the creation of every primitive makes on its memory descriptors. Each failure
// throws invalid_arguments with the primitive's name first ("convolution: bias must have ...").
#pragma once
#include <string>

#include "prim/error.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

struct desc_checks {
    const char *who; // "convolution", "inner_product", "eltwise"

    [[noreturn]] void fail(const std::string &msg) const {
        throw error(status::invalid_arguments, std::string(who) + ": " + msg);
    }
    // A desc that is there (not default-constructed) and holds f32.
    void f32(const memory::desc &md, const char *name) const {
        if (md.is_zero()) fail(std::string(name) + " desc is empty");
        if (md.get_data_type() != memory::data_type::f32)
            fail(std::string(name) + " data type must be f32");
    }
    // An optional bias: absent (zero desc), or f32 with dims {oc}.
    void bias(const memory::desc &md, memory::dim oc) const {
        if (md.is_zero()) return;
        f32(md, "bias");
        if (md.get_dims() != memory::dims {oc})
            fail("bias must have dims {oc} = {" + std::to_string(oc) + "}");
    }
};

} // namespace impl
} // namespace prim
