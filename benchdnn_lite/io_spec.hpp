// The int8 side of the drivers without weights (doc/int8.md): eltwise, pool (--dt=SRC[:DST] or
// --cfg), binary, softmax and concat (--sdt, --ddt), with the scales each takes in benchdnn's
// --attr-scales / --attr-oscale syntax; what each case does with them (typed descs, benchdnn's
// int8 filling, the scale arguments, the reference's last step).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "fill.hpp"
#include "prim/prim.hpp"
#include "quant_spec.hpp"
#include "settings.hpp"

namespace bdl {

// The range benchdnn fills an integer type with (s32: a span beyond s8's and u8's bounds).
std::pair<int, int> int_range(dt t);
// v as a dst of type t stores it: an integer type rounds half to even and saturates (NaN: 0).
float stored_as(dt t, float v);

struct io_spec {
    std::vector<dt> src {dt::f32}; // binary: src0, src1; the others: one
    dt dst = dt::f32;
    quant_param src_scale, src1_scale, dst_scale, oscale;

    bool int8() const; // a type other than f32
    std::string str() const; // "u8:s8:u8" (sources then dst)
    bool any_scale() const { return src_scale.given || src1_scale.given || dst_scale.given || oscale.given; }
};

// Reads the case's types and scales for driver d (eltwise, pool, binary, softmax, concat): ""
// when prim runs them, else the reason the case is skipped.
std::string parse_io_spec(driver_kind d, const settings &s, io_spec &q);

// What one case does with its io_spec.
class io_quant {
public:
    explicit io_quant(const io_spec &q) : quant_(q) {}
    const io_spec &spec() const { return quant_; }
    dt dst_type() const { return quant_.dst; }
    std::string data_types() const { return quant_.int8() ? quant_.str() : ""; }
    // md with source `which`'s type (or dst's).
    prim::memory::desc src_typed(const prim::memory::desc &md, size_t which = 0) const;
    prim::memory::desc dst_typed(const prim::memory::desc &md) const;
    // An integer source gets benchdnn's int8 filling, its type's whole range (f32 data keep the
    // driver's own); an integer dst_old its type's range.
    void fill_src(std::vector<float> &v, tensor_id id, size_t which = 0) const;
    void fill_dst_old(std::vector<float> &v) const;
    // The attribute's scales, and their values as execute arguments.
    prim::primitive_attr with_scales(const prim::primitive_attr &attr) const;
    void bind_scales(prim::exec_args &args) const;
    // After the chain: 1 / dst_scale, then the dst's rounding and saturation.
    void finish(std::vector<float> &ref) const;

private:
    io_spec quant_;
};

} // namespace bdl
