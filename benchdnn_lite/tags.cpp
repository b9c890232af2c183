// Layout tags by name.
#include "tags.hpp"

#include <cctype>

#include "prim/error.hpp"

namespace bdl {

namespace {

using tag = prim::memory::format_tag;

struct named_tag {
    const char *name;
    tag t;
    int rank;
};

// The names doc/reference.md §4 promises first, then the other plain tags prim knows.
const named_tag named_tags[] = {
    {"nchw", tag::nchw, 4}, {"nhwc", tag::nhwc, 4}, {"ncw", tag::ncw, 3}, {"nwc", tag::nwc, 3},
    {"ncdhw", tag::ncdhw, 5}, {"ndhwc", tag::ndhwc, 5},
    {"oihw", tag::oihw, 4}, {"goihw", tag::goihw, 5}, {"hwio", tag::hwio, 4},
    {"ohwi", tag::ohwi, 4}, {"oiw", tag::oiw, 3}, {"goiw", tag::goiw, 4}, {"oidhw", tag::oidhw, 5},
    {"goidhw", tag::goidhw, 6},
    {"nc", tag::nc, 2}, {"oi", tag::oi, 2}, {"io", tag::io, 2},
    {"x", tag::x, 1}, {"wio", tag::wio, 3}, {"owi", tag::owi, 3}, {"odhwi", tag::odhwi, 5},
    {"dhwio", tag::dhwio, 5},
    {"a", tag::a, 1}, {"ab", tag::ab, 2}, {"ba", tag::ba, 2}, {"abc", tag::abc, 3},
    {"acb", tag::acb, 3}, {"cba", tag::cba, 3}, {"abcd", tag::abcd, 4}, {"acdb", tag::acdb, 4},
    {"cdba", tag::cdba, 4}, {"abcde", tag::abcde, 5}, {"acdeb", tag::acdeb, 5},
    {"cdeba", tag::cdeba, 5}, {"abcdef", tag::abcdef, 6},
};

// A pattern: one letter per dim (a.. in any order, uppercase when blocked), then blocks
// "16b". Its rank is the number of leading letters; prim checks the rest at case time.
bool pattern_rank(const std::string &s, int &rank) {
    size_t pos = 0;
    while (pos < s.size() && std::isalpha(static_cast<unsigned char>(s[pos]))) ++pos;
    rank = static_cast<int>(pos);
    if (rank < 1 || rank > 6) return false;
    for (size_t j = 0; j < pos; ++j)
        if (std::tolower(static_cast<unsigned char>(s[j])) - 'a' >= rank) return false;
    while (pos < s.size()) {
        const size_t digits = pos;
        while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
        if (pos == digits || pos >= s.size() || !std::islower(static_cast<unsigned char>(s[pos]))
                || s[pos] - 'a' >= rank)
            return false;
        ++pos;
    }
    return true;
}

} // namespace

std::optional<tag_info> parse_tag(const std::string &name) {
    tag_info info;
    if (name == "any") {
        info.any = true;
        return info;
    }
    for (const named_tag &n : named_tags)
        if (name == n.name) {
            info.named = true;
            info.tag = n.t;
            info.rank = n.rank;
            return info;
        }
    if (!pattern_rank(name, info.rank)) return std::nullopt;
    info.pattern = name;
    return info;
}

prim::memory::desc make_desc(const prim::memory::dims &dims, const std::string &tag_name,
                             const char *option) {
    const auto dt = prim::memory::data_type::f32;
    const std::optional<tag_info> info = parse_tag(tag_name);
    if (!info) // options are checked before the run, so only a caller's mistake gets here
        throw prim::error(prim::status::invalid_arguments, "unknown tag '" + tag_name + "'");
    if (info->any) return prim::memory::desc(dims, dt, tag::any);
    if (info->rank != static_cast<int>(dims.size()))
        throw prim::error(prim::status::invalid_arguments,
                std::string(option) + "=" + tag_name + " describes " + std::to_string(info->rank)
                        + " dims but the tensor has " + std::to_string(dims.size()));
    if (info->named) return prim::memory::desc(dims, dt, info->tag);
    return prim::memory::desc(dims, dt, info->pattern);
}

prim::memory::desc plain_desc(const prim::memory::dims &dims) {
    static const tag by_rank[] = {tag::undef, tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde,
                                  tag::abcdef};
    return prim::memory::desc(dims, prim::memory::data_type::f32, by_rank[dims.size()]);
}

} // namespace bdl
