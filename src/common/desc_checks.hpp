// Checks that the creation of every primitive makes on its memory descriptors. Each failure
// throws invalid_arguments with the primitive's name first ("convolution: bias must have ...").
#pragma once
#include <string>

#include "prim/error.hpp"
#include "prim/memory.hpp"
#include "prim/primitive.hpp"

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
    // A desc that is there and holds f32, s32, s8 or u8 (the primitives that also run on int8
    // data: doc/int8.md).
    void f32_or_int(const memory::desc &md, const char *name) const {
        if (md.is_zero()) fail(std::string(name) + " desc is empty");
        if (data_type_size(md.get_data_type()) == 0)
            fail(std::string(name) + " data type must be f32, s32, s8 or u8");
    }
    // One of the propagation kinds (an enum cast from a bad integer is not).
    void prop(prop_kind pk) const {
        if (pk != prop_kind::forward_training && pk != prop_kind::forward_inference)
            fail("prop_kind " + std::to_string(static_cast<int>(pk))
                 + " is not forward_training or forward_inference");
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
