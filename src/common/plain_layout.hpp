// Plain row-major layouts ("a", "ab", "abc", ...): the layout of the reference kernels and of
// the JIT inner product's rows, and the per-call copy into it of an argument in another layout.
#pragma once
#include <string>
#include <vector>

#include "common/internal_reorder.hpp"
#include "prim/memory.hpp"

namespace prim {
namespace impl {

// The plain row-major layout of a shape: "a", "ab", "abc", ... (outermost dim first).
inline memory::desc plain_desc(const memory::dims &dims,
                               memory::data_type dt = memory::data_type::f32) {
    std::string pattern;
    for (size_t i = 0; i < dims.size(); ++i) pattern += static_cast<char>('a' + i);
    return memory::desc(dims, dt, pattern);
}

// The channels-last layout of a shape (mb, c, spatial...): "acb", "acdb", "acdeb".
inline memory::desc channels_last_desc(const memory::dims &dims,
                                       memory::data_type dt = memory::data_type::f32) {
    std::string pattern = "a";
    for (size_t i = 2; i < dims.size(); ++i) pattern += static_cast<char>('a' + i);
    return memory::desc(dims, dt, pattern + "b");
}

// Equal to plain_desc(md.get_dims()) (dense, row-major, no blocks), checked without building
// that desc: execute() asks this for every argument on every call.
inline bool is_plain(const memory::desc &md) {
    if (md.is_zero() || md.is_any() || md.padded_dims() != md.get_dims()) return false;
    memory::dim dense = 1;
    for (int i = md.ndims() - 1; i >= 0; --i) {
        if (md.strides()[i] != dense) return false;
        dense *= md.get_dims()[i];
    }
    return true;
}

// True when md's layout has no inner blocks (no digit in its pattern): each dim one stride,
// in any order, gaps allowed.
inline bool is_unblocked(const memory::desc &md) {
    return md.layout().find_first_of("0123456789") == std::string::npos;
}

// The layout an implementation runs on for an argument: 'any' becomes plain, a zero desc (no
// such argument) stays zero, anything else is kept as the user gave it.
inline memory::desc plain_if_any(const memory::desc &md) {
    return md.is_any() ? plain_desc(md.get_dims(), md.get_data_type()) : md;
}

// md's layout with another data type: an 'any' stays 'any', a layout by strides keeps them.
inline memory::desc retyped(const memory::desc &md, memory::data_type dt) {
    if (md.is_zero() || md.get_data_type() == dt) return md;
    if (md.is_any()) return memory::desc(md.get_dims(), dt, memory::format_tag::any);
    if (!md.is_dense()) return memory::desc(md.get_dims(), dt, md.strides());
    return memory::desc(md.get_dims(), dt, md.layout());
}

// One argument's data in the plain f32 layout the kernels read: the user's own buffer when it
// is already plain f32, otherwise a copy reordered into plain and converted to f32 (copy_in =
// false skips reading the user's data, for a dst whose old value nobody reads). An integer dst
// gets the kernel's values back rounded and saturated (common/convert_types.hpp).
class plain_buffer {
public:
    plain_buffer(const memory::desc &md, const void *user, bool copy_in)
        : md_(&md), user_(const_cast<void *>(user)) {
        if (md.is_zero() || !user || (is_plain(md) && md.get_data_type() == memory::data_type::f32)) {
            ptr_ = static_cast<float *>(user_);
            return;
        }
        const memory::desc plain = plain_desc(md.get_dims());
        copy_.resize(static_cast<size_t>(plain.nelems_padded()));
        ptr_ = copy_.data();
        if (copy_in) internal_reorder(md, plain).execute(memory(md, user_), memory(plain, ptr_));
    }
    float *get() const { return ptr_; }
    // After the kernel wrote a dst through get(): moves a copy back into the user's layout.
    void copy_out() const {
        if (ptr_ == static_cast<float *>(user_)) return;
        const memory::desc plain = plain_desc(md_->get_dims());
        internal_reorder(plain, *md_).execute(memory(plain, ptr_), memory(*md_, user_));
    }

private:
    const memory::desc *md_; // the implementation's, which outlives the call
    void *user_;
    float *ptr_ = nullptr;
    std::vector<float> copy_;
};

} // namespace impl
} // namespace prim
