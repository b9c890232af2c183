// Layout tags of --stag/--wtag/--dtag: the names of doc/reference.md §4, "any", oneDNN-style
// patterns ("aBcd16b") that prim::memory::desc understands, oneDNN's named tags ("nChw16c",
// "OIhw16i16o", "gOIhw16i16o"), and benchdnn's meta-tags whose 'x' stands for the spatial dims
// ("abx", "axb", "xba", "aBx16b", "ABx16a16b", "xcab"), which fit any rank.
#pragma once
#include <optional>
#include <string>

#include "prim/memory.hpp"

namespace bdl {

struct tag_info {
    bool any = false;       // "any": the primitive chooses
    int rank = 0;           // dims the tag describes
    bool named = false;     // a plain tag by name (nchw, oihw, ...): tag below
    prim::memory::format_tag tag = prim::memory::format_tag::undef;
    std::string pattern;    // otherwise a pattern such as "aBcd16b" (or "aBx16b": rank 0)
    bool adaptive() const { return !any && !named && rank == 0; }
    // The pattern for a tensor of `rank` dims ("" when the tag cannot describe that rank).
    std::string pattern_for(int rank) const;
};

// nullopt for a string that is neither a known name nor a well-formed pattern.
std::optional<tag_info> parse_tag(const std::string &name);

// The descriptor for dims with a tag (format_tag::any for "any"). Throws
// prim::error(invalid_arguments) naming the option when the tag's rank does not fit dims.
prim::memory::desc make_desc(const prim::memory::dims &dims, const std::string &tag,
                             const char *option);

// --strides=SRC:WEI:DST (eltwise: SRC:DST), benchdnn's memory strides per tensor, each part
// empty or dims joined by 'x' ("200x1x40x8"). The strides of part `which` ({} when not given);
// nullopt when the string is malformed (more than max_parts parts, or a part that is not
// positive integers joined by 'x').
std::optional<prim::memory::dims> parse_strides(const std::string &strides, int which, int max_parts);

// The user's descriptor of a tensor: by its strides when --strides gives them (they take
// precedence over the tag, as in benchdnn), else by its tag (make_desc).
prim::memory::desc user_desc(const prim::memory::dims &dims, const std::string &tag,
                             const std::string &strides, int which, int max_parts,
                             const char *option);

// The plain row-major layout of dims (a, ab, abc, ...): how benchdnn_lite and the reference
// kernels hold every tensor.
prim::memory::desc plain_desc(const prim::memory::dims &dims);

} // namespace bdl
