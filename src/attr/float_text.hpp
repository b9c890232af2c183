// The text every printed parameter uses (fusion strings, REPRO lines, messages): the shortest
// decimal that parses back to the same float, that is the fewest significant digits (at most 9)
// that round-trip (reference.md §2). "0.7", not "0.699999988". C++17's std::to_chars in its
// general format: locale-independent, "inf" and "-inf" for the infinities, "-0" for minus zero.
#pragma once
#include <charconv>
#include <string>

namespace prim {
namespace impl {

inline std::string float_text(float v) {
    char buf[48];
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general);
    return std::string(buf, r.ptr);
}

} // namespace impl
} // namespace prim
