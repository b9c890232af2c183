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

// A meta-tag: the letters of a pattern with one 'x' among them ("aBx16b", "xcab"); the other
// letters are the first dims, each once, and x stands for the dims after them.
bool is_meta_tag(const std::string &s) {
    size_t pos = 0, xs = 0;
    std::string letters;
    while (pos < s.size() && std::isalpha(static_cast<unsigned char>(s[pos]))) {
        if (s[pos] == 'x') ++xs;
        else letters += static_cast<char>(std::tolower(static_cast<unsigned char>(s[pos])));
        ++pos;
    }
    if (xs != 1 || letters.size() > 5) return false;
    for (size_t j = 0; j < letters.size(); ++j)
        if (letters.find(static_cast<char>('a' + j)) == std::string::npos) return false;
    int rank = 0;
    // The blocks must name the leading letters: check them as a pattern without the x.
    std::string no_x = s;
    no_x.erase(no_x.find('x'), 1);
    return !letters.empty() && pattern_rank(no_x, rank);
}

// oneDNN's named tags: activations written with n c d h w, weights with g o i d h w; uppercase
// for a blocked dim, blocks like "16c" after the letters. The pattern gives each letter its
// position in that canonical order among the letters present ("nChw16c" -> "aBcd16b").
std::string named_to_pattern(const std::string &s) {
    size_t pos = 0;
    std::string letters;
    while (pos < s.size() && std::isalpha(static_cast<unsigned char>(s[pos])))
        letters += static_cast<char>(std::tolower(static_cast<unsigned char>(s[pos++])));
    const std::string order = letters.find('n') != std::string::npos ? "ncdhw" : "goidhw";
    std::string present;
    for (char c : order)
        if (letters.find(c) != std::string::npos) present += c;
    if (present.size() != letters.size()) return ""; // a letter outside the order, or twice
    auto map = [&](char c) {
        const size_t at = present.find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        if (at == std::string::npos) return '\0';
        const char m = static_cast<char>('a' + at);
        return std::isupper(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(m)) : m;
    };
    std::string out;
    for (size_t j = 0; j < s.size(); ++j) {
        const char c = s[j];
        if (!std::isalpha(static_cast<unsigned char>(c))) {
            out += c;
            continue;
        }
        const char m = map(c);
        if (!m) return "";
        out += m;
    }
    return out;
}

} // namespace

std::string tag_info::pattern_for(int r) const {
    if (!adaptive()) return r == rank ? pattern : "";
    const size_t x = pattern.find('x');
    size_t letters = 0;
    while (letters < pattern.size() && std::isalpha(static_cast<unsigned char>(pattern[letters])))
        ++letters;
    const int fixed = static_cast<int>(letters) - 1;
    if (r >= fixed) {
        std::string spatial;
        for (int j = fixed; j < r; ++j) spatial += static_cast<char>('a' + j);
        return pattern.substr(0, x) + spatial + pattern.substr(x + 1);
    }
    // Fewer dims than fixed letters: only a plain tag shrinks (abx, axb, xba for 1 or 2 dims).
    if (letters != pattern.size() || r < 1) return "";
    std::string out;
    for (size_t j = 0; j < letters; ++j)
        if (pattern[j] != 'x' && pattern[j] - 'a' < r) out += pattern[j];
    return out;
}

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
    if (name == "ntc" || name == "tnc") { // oneDNN's names of 3D data with a time dim
        info.pattern = name == "ntc" ? "abc" : "bac";
        info.rank = 3;
        return info;
    }
    if (is_meta_tag(name)) {
        info.pattern = name;
        info.rank = 0;
        return info;
    }
    if (pattern_rank(name, info.rank)) {
        info.pattern = name;
        return info;
    }
    const std::string p = named_to_pattern(name);
    if (p.empty() || !pattern_rank(p, info.rank)) return std::nullopt;
    info.pattern = p;
    return info;
}

std::optional<prim::memory::dims> parse_strides(const std::string &strides, int which,
                                                int max_parts) {
    std::vector<std::string> parts(1);
    for (char ch : strides) {
        if (ch == ':') parts.emplace_back();
        else parts.back() += ch;
    }
    if (static_cast<int>(parts.size()) > max_parts) return std::nullopt;
    prim::memory::dims out;
    for (int p = 0; p < static_cast<int>(parts.size()); ++p) {
        if (parts[p].empty()) continue;
        prim::memory::dims v;
        size_t pos = 0;
        while (pos <= parts[p].size()) {
            const size_t end = std::min(parts[p].find('x', pos), parts[p].size());
            const std::string num = parts[p].substr(pos, end - pos);
            if (num.empty() || num.size() > 18
                    || num.find_first_not_of("0123456789") != std::string::npos || std::stoll(num) < 1)
                return std::nullopt;
            v.push_back(std::stoll(num));
            pos = end + 1;
        }
        if (p == which) out = v;
    }
    return out;
}

prim::memory::desc user_desc(const prim::memory::dims &dims, const std::string &tag,
                             const std::string &strides, int which, int max_parts,
                             const char *option) {
    const std::optional<prim::memory::dims> s = parse_strides(strides, which, max_parts);
    if (s && !s->empty()) return prim::memory::desc(dims, prim::memory::data_type::f32, *s);
    return make_desc(dims, tag, option);
}

prim::memory::desc make_desc(const prim::memory::dims &dims, const std::string &tag_name,
                             const char *option) {
    const auto dt = prim::memory::data_type::f32;
    const std::optional<tag_info> info = parse_tag(tag_name);
    if (!info) // options are checked before the run, so only a caller's mistake gets here
        throw prim::error(prim::status::invalid_arguments, "unknown tag '" + tag_name + "'");
    if (info->any) return prim::memory::desc(dims, dt, tag::any);
    const int rank = static_cast<int>(dims.size());
    const std::string pattern = info->named ? "" : info->pattern_for(rank);
    if (info->adaptive() && pattern.empty())
        throw prim::error(prim::status::invalid_arguments,
                std::string(option) + "=" + tag_name + " cannot describe a tensor of "
                        + std::to_string(rank) + " dims");
    if (!info->adaptive() && info->rank != rank)
        throw prim::error(prim::status::invalid_arguments,
                std::string(option) + "=" + tag_name + " describes " + std::to_string(info->rank)
                        + " dims but the tensor has " + std::to_string(dims.size()));
    if (info->named) return prim::memory::desc(dims, dt, info->tag);
    return prim::memory::desc(dims, dt, pattern);
}

prim::memory::desc plain_desc(const prim::memory::dims &dims) {
    static const tag by_rank[] = {tag::undef, tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde,
                                  tag::abcdef};
    return prim::memory::desc(dims, prim::memory::data_type::f32, by_rank[dims.size()]);
}

} // namespace bdl
