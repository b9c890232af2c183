#include "graph/batch_views.hpp"

namespace prim {
namespace graph {
namespace detail {

memory strided_or_plain(plan_builder &b, const std::string &t) {
    const memory mem = b.get(t);
    const memory::desc &md = mem.get_desc();
    try {
        if (md == memory::desc(md.get_dims(), md.get_data_type(), md.strides())) return mem;
    } catch (const error &) {
        // a blocked layout whose outer strides are no layout by themselves
    }
    return b.plain(t);
}

memory::desc last_two(const memory::dims &d, const memory::dims &st, memory::data_type dt, bool transposed) {
    const size_t r = d.size();
    return transposed ? memory::desc({d[r - 1], d[r - 2]}, dt, memory::dims{st[r - 1], st[r - 2]})
                      : memory::desc({d[r - 2], d[r - 1]}, dt, memory::dims{st[r - 2], st[r - 1]});
}

std::vector<int64_t> batch_offsets(const memory::dims &batch, const memory::dims &d, const memory::dims &st) {
    const size_t nb = batch.size(), lead = d.size() - 2;
    std::vector<int64_t> offs(static_cast<size_t>(product(batch)), 0);
    memory::dims idx(nb, 0);
    for (size_t bi = 0; bi < offs.size(); ++bi) {
        int64_t off = 0;
        for (size_t j = 0; j < lead; ++j) {
            const size_t bj = nb - lead + j; // this dim's place among the batch dims
            if (d[j] != 1) off += idx[bj] * st[j];
        }
        offs[bi] = off;
        for (int j = static_cast<int>(nb) - 1; j >= 0; --j) {
            if (++idx[j] < batch[j]) break;
            idx[j] = 0;
        }
    }
    return offs;
}

} // namespace detail
} // namespace graph
} // namespace prim
