// Same-type permutation reorders (src/common/move_unblocked.cpp) through prim::reorder against a
// one-thread memcpy of the same bytes: the BERT attention's head split, merge and K transpose
// (u8, seq 128, 12 heads of 64) and two larger ones. Each case times batches of executions,
// reorder and copy alternating; figures are medians over the rounds. Usage:
//   OMP_NUM_THREADS=2 ./bench/prim_permute_timing [ROUNDS [NAME_PART]]   (only the cases whose
//   name contains NAME_PART)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "copy_timing.hpp"
#include "prim/prim.hpp"

using namespace prim;

namespace {

using dt = memory::data_type;
using dims = memory::dims;

struct permute_case {
    const char *name;
    dims shape;    // the reorder's dims
    dims strides;  // src's strides (a view of some plain tensor); dst is plain
    dt type;
};

dims plain_strides(const dims &d) {
    dims s(d.size(), 1);
    for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * d[i + 1];
    return s;
}

} // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 21;
    const std::vector<permute_case> cases = {
        // K: a plain 1x128x12x64 (batch, seq, head, dim) seen as (batch, head, dim, seq).
        {"adbc:u8:1x12x64x128->abcd (K transposed)", {1, 12, 64, 128}, {98304, 64, 1, 768}, dt::u8},
        // Heads split: the same tensor seen as (batch, head, seq, dim).
        {"acbd:u8:1x12x128x64->abcd (heads split)", {1, 12, 128, 64}, {98304, 64, 768, 1}, dt::u8},
        // Heads merged: a plain 1x12x128x64 seen as (batch, seq, head, dim).
        {"acbd:u8:1x128x12x64->abcd (heads merged)", {1, 128, 12, 64}, {98304, 64, 8192, 1}, dt::u8},
        // A call's fixed cost: 64 bytes.
        {"acbd:u8:1x2x2x16->abcd (tiny)", {1, 2, 2, 16}, {64, 16, 32, 1}, dt::u8},
        {"abdc:u8:1x12x512x512->abcd (transposed)", {1, 12, 512, 512}, {3145728, 262144, 1, 512}, dt::u8},
        {"acdb:f32:2x64x56x56->abcd (nhwc->nchw)", {2, 64, 56, 56}, {200704, 1, 3584, 64}, dt::f32},
        {"adbc:s32:1x12x64x128->abcd (K transposed)", {1, 12, 64, 128}, {98304, 64, 1, 768}, dt::s32},
    };
    std::printf("case,reorder_ms,memcpy_ms,ratio\n");
    for (const auto &c : cases) {
        if (argc > 2 && !std::strstr(c.name, argv[2])) continue;
        const memory::desc src_md(c.shape, c.type, c.strides), dst_md(c.shape, c.type, plain_strides(c.shape));
        memory src(src_md), dst(dst_md);
        auto *p = static_cast<unsigned char *>(src.get_data_handle());
        const size_t bytes = dst_md.get_size();
        for (size_t i = 0, n = src_md.get_size(); i < n; ++i) p[i] = static_cast<unsigned char>(i * 7);
        std::vector<char> a(bytes, 1), b(bytes, 2);
        const reorder r(src_md, dst_md);
        // Batches of about 1 MB moved, so that tiny cases are above the timer's resolution.
        const int batch = static_cast<int>(std::max<size_t>(1, (size_t(1) << 20) / bytes));
        std::vector<double> tr, tc;
        r.execute(src, dst);
        for (int k = 0; k < rounds; ++k) {
            tc.push_back(bench::ms_of([&] {
                for (int i = 0; i < batch; ++i) std::memcpy(b.data(), a.data(), bytes);
            }) / batch);
            tr.push_back(bench::ms_of([&] {
                for (int i = 0; i < batch; ++i) r.execute(src, dst);
            }) / batch);
        }
        const double mr = bench::median(tr), mc = bench::median(tc);
        std::printf("%s,%.4f,%.4f,%.2f\n", c.name, mr, mc, mr / mc);
    }
    return 0;
}
