// Converting elements between data types (doc/int8.md): f32, s32, s8, u8. An integer is read
// exactly as f32 where it fits (every s8 and u8, s32 up to 2^24); f32 goes to an integer by
// rounding half to even and saturating to the type's range, as oneDNN does. NaN goes to 0.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "prim/memory.hpp"

namespace prim {
namespace impl {

// The element at offset off (in elements) of a buffer of type dt, as f32.
inline float load_as_f32(memory::data_type dt, const void *base, memory::dim off) {
    switch (dt) {
    case memory::data_type::s32: return static_cast<float>(static_cast<const int32_t *>(base)[off]);
    case memory::data_type::s8: return static_cast<float>(static_cast<const int8_t *>(base)[off]);
    case memory::data_type::u8: return static_cast<float>(static_cast<const uint8_t *>(base)[off]);
    default: return static_cast<const float *>(base)[off];
    }
}

// v rounded half to even and clamped to [lo, hi] (NaN gives 0).
inline float saturate_round(float v, float lo, float hi) {
    if (std::isnan(v)) return 0.f;
    return std::nearbyint(std::fmin(std::fmax(v, lo), hi));
}

// Writes v as type dt at offset off: rounded and saturated for an integer type. s32's upper
// bound is the largest f32 below 2^31, so the conversion cannot overflow.
inline void store_from_f32(memory::data_type dt, void *base, memory::dim off, float v) {
    switch (dt) {
    case memory::data_type::s32:
        static_cast<int32_t *>(base)[off] = static_cast<int32_t>(saturate_round(v, -2147483648.f, 2147483520.f));
        return;
    case memory::data_type::s8:
        static_cast<int8_t *>(base)[off] = static_cast<int8_t>(saturate_round(v, -128.f, 127.f));
        return;
    case memory::data_type::u8:
        static_cast<uint8_t *>(base)[off] = static_cast<uint8_t>(saturate_round(v, 0.f, 255.f));
        return;
    default: static_cast<float *>(base)[off] = v;
    }
}

// Copies one element between buffers of one type, bit for bit (s32 stays exact).
inline void copy_element(size_t size, const void *src, memory::dim src_off, void *dst, memory::dim dst_off) {
    std::memcpy(static_cast<char *>(dst) + dst_off * static_cast<memory::dim>(size),
                static_cast<const char *>(src) + src_off * static_cast<memory::dim>(size), size);
}

// How a reorder changes values on the way (prim::reorder's attribute): 
//   dst = saturate(round((src - src_zp) * factor + dst_zp))
// factor = scales[k], k the element's index over the dims in scales_mask (row-major over them),
// one value when the mask is 0. No scales: factor 1.
struct value_map {
    const float *scales = nullptr;
    int scales_mask = 0;
    int32_t src_zp = 0, dst_zp = 0;
    bool identity() const { return !scales && src_zp == 0 && dst_zp == 0; }
};

} // namespace impl
} // namespace prim
