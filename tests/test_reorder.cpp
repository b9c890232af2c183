// prim::reorder between every pair of layouts: each element lands where the destination desc's
// offset() says, whatever the loop order the copy chooses (it walks the dims innermost in memory
// last), including dims of size 1, odd sizes against the blocks, and ranks 1 to 5.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "prim/prim.hpp"

using namespace prim;

namespace {

// Every index of dims in row-major order.
std::vector<memory::dims> all_indices(const memory::dims &dims) {
    std::vector<memory::dims> out;
    memory::dims idx(dims.size(), 0);
    for (;;) {
        out.push_back(idx);
        int i = static_cast<int>(dims.size()) - 1;
        for (; i >= 0; --i) {
            if (++idx[i] < dims[i]) break;
            idx[i] = 0;
        }
        if (i < 0) return out;
    }
}

void check_all_pairs(const memory::dims &dims, const std::vector<std::string> &patterns) {
    const auto indices = all_indices(dims);
    for (const std::string &from : patterns)
        for (const std::string &to : patterns) {
            const memory::desc src_md(dims, memory::data_type::f32, from);
            const memory::desc dst_md(dims, memory::data_type::f32, to);
            memory src(src_md), dst(dst_md);
            float *s = static_cast<float *>(src.get_data_handle());
            float *d = static_cast<float *>(dst.get_data_handle());
            for (size_t e = 0; e < indices.size(); ++e)
                s[src_md.offset(indices[e].data())] = static_cast<float>(e + 1);
            for (memory::dim i = 0; i < dst_md.nelems_padded(); ++i) d[i] = -1.f; // padding garbage
            reorder(src_md, dst_md).execute(src, dst);
            size_t wrong = 0;
            for (size_t e = 0; e < indices.size(); ++e)
                wrong += d[dst_md.offset(indices[e].data())] != static_cast<float>(e + 1);
            double padding = 0; // every element accounted for: the padding holds zeros
            for (memory::dim i = 0; i < dst_md.nelems_padded(); ++i) padding += d[i];
            padding -= 0.5 * static_cast<double>(indices.size()) * (indices.size() + 1);
            INFO(from << " -> " << to);
            CHECK(wrong == 0);
            CHECK(padding == 0);
        }
}

} // namespace

TEST_CASE("reorder: every pair of 4D data and weight layouts", "[reorder]") {
    check_all_pairs({3, 21, 4, 5}, {"abcd", "acdb", "cdba", "bacd", "aBcd16b", "aBcd8b",
                                    "ABcd16b16a", "ABcd8a8b", "Abcd8a"});
}

TEST_CASE("reorder: dims of size 1 and other ranks", "[reorder]") {
    check_all_pairs({2, 17, 1, 3}, {"abcd", "acdb", "aBcd16b", "ABcd16b16a"});
    check_all_pairs({1, 5, 1, 1}, {"abcd", "acdb", "aBcd8b"});
    check_all_pairs({37}, {"a"});
    check_all_pairs({9, 20}, {"ab", "ba", "Ab8a", "aB16b", "AB8b8a"});
    check_all_pairs({2, 3, 2, 3, 19}, {"abcde", "acdeb", "aBcde8b", "edcba"});
}
