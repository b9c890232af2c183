// Helpers for the tests of primitives on int8 data (doc/int8.md): memories of integers in a
// type's range, an element read back as a number, and what an integer dst holds for a value.
#pragma once
#include "api_test_util.hpp"

namespace {

// A plain memory of type t holding integers in [lo, hi], and those values as f32.
[[maybe_unused]] memory ints(const dims &d, dt t, int lo, int hi, std::vector<float> &values,
                             uint32_t seed) {
    std::string p;
    for (size_t i = 0; i < d.size(); ++i) p += static_cast<char>('a' + i);
    memory m(memory::desc(d, t, p));
    std::mt19937 gen(seed);
    const size_t n = static_cast<size_t>(m.get_desc().nelems_padded());
    values.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const int v = std::uniform_int_distribution<int>(lo, hi)(gen);
        values[i] = static_cast<float>(v);
        if (t == dt::u8) static_cast<uint8_t *>(m.get_data_handle())[i] = static_cast<uint8_t>(v);
        else if (t == dt::s8) static_cast<int8_t *>(m.get_data_handle())[i] = static_cast<int8_t>(v);
        else if (t == dt::s32) static_cast<int32_t *>(m.get_data_handle())[i] = v;
        else static_cast<float *>(m.get_data_handle())[i] = static_cast<float>(v);
    }
    return m;
}

// The whole range of an integer type as ints() takes it (s32 and f32: [-300, 300], beyond s8's
// and u8's bounds, so that a narrower dst saturates).
[[maybe_unused]] std::pair<int, int> full_range(dt t) {
    if (t == dt::u8) return {0, 255};
    if (t == dt::s8) return {-128, 127};
    return {-300, 300};
}

[[maybe_unused]] double at(const memory &m, size_t i) {
    const void *h = m.get_data_handle();
    switch (m.get_desc().get_data_type()) {
    case dt::u8: return static_cast<const uint8_t *>(h)[i];
    case dt::s8: return static_cast<const int8_t *>(h)[i];
    case dt::s32: return static_cast<const int32_t *>(h)[i];
    default: return static_cast<const float *>(h)[i];
    }
}

// x stored as t: f32 rounded to float; an integer type rounded half to even and saturated.
[[maybe_unused]] double quantized(double x, dt t) {
    if (t == dt::f32) return static_cast<float>(x);
    if (std::isnan(x)) return 0;
    const double lo = t == dt::u8 ? 0 : t == dt::s8 ? -128 : -2147483648.0;
    const double hi = t == dt::u8 ? 255 : t == dt::s8 ? 127 : 2147483520.0;
    return std::nearbyint(std::min(std::max(x, lo), hi));
}

// A {1} f32 memory holding v: a scale given at execute.
[[maybe_unused]] memory scale_value(float v) {
    memory m(memory::desc({1}, dt::f32, tag::x));
    *static_cast<float *>(m.get_data_handle()) = v;
    return m;
}

} // namespace
