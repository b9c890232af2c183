// The JIT convolution's layouts (conv_layouts.hpp).
#include <cctype>

#include "jit/conv/conv_layouts.hpp"

namespace prim {
namespace jit {

namespace {

// The letters of the spatial dims of a rank-(first + nsp) tensor, starting at letter `first`.
std::string spatial_letters(int first, int nsp) {
    std::string s;
    for (int j = 0; j < nsp; ++j) s += static_cast<char>('a' + first + j);
    return s;
}

} // namespace

data_geom analyze_data_desc(const memory::desc &md, int nsp) {
    data_geom g;
    if (md.is_zero() || md.is_any() || md.ndims() != nsp + 2) return g;
    // The layout string: one letter per dim, then the inner blocks ("aBcd16b").
    const std::string lay = md.layout();
    size_t pos = 0;
    while (pos < lay.size() && std::isalpha(static_cast<unsigned char>(lay[pos]))) ++pos;
    const std::string blocks = lay.substr(pos);
    const auto &st = md.strides();
    if (blocks.empty()) {
        g.blk = 1;
        g.s_c = st[1];
        g.s_cb = st[1];
    } else {
        // Exactly one inner block, on the channel dim (b).
        size_t end = 0;
        const long blk = std::stol(blocks, &end);
        if (end + 1 != blocks.size() || blocks[end] != 'b') return g;
        g.blk = blk;
        g.s_c = 1;
        g.s_cb = st[1];
    }
    g.s_n = st[0];
    for (int j = 0; j < nsp; ++j) g.s_sp[sp_index(nsp, j)] = st[2 + j];
    g.ok = true;
    return g;
}

std::string blocked_data_pattern(int nsp, int simd_w) {
    return "aB" + spatial_letters(2, nsp) + std::to_string(simd_w) + "b";
}

std::string channels_last_pattern(int nsp) { return "a" + spatial_letters(2, nsp) + "b"; }

memory::desc packed_weights_desc(const memory::dims &wei_dims, bool grouped, int nsp, int simd_w) {
    const std::string w = std::to_string(simd_w);
    const std::string pattern = grouped ? "aBC" + spatial_letters(3, nsp) + w + "c" + w + "b"
                                        : "AB" + spatial_letters(2, nsp) + w + "b" + w + "a";
    return memory::desc(wei_dims, memory::data_type::f32, pattern);
}

memory::desc packed_dw_weights_desc(const memory::dims &wei_dims, int nsp, int simd_w) {
    return memory::desc(wei_dims, memory::data_type::f32,
                        "Abc" + spatial_letters(3, nsp) + std::to_string(simd_w) + "a");
}

} // namespace jit
} // namespace prim
