// Moving data between benchdnn_lite's plain buffers and the primitive's layouts.
#include "problem_case.hpp"

#include <cstdio>

#include "tags.hpp"

namespace bdl {

int64_t volume(const prim::memory::dims &dims) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    return n;
}

double volume_f(const prim::memory::dims &dims) {
    double n = 1;
    for (auto d : dims) n *= static_cast<double>(d);
    return n;
}

std::vector<float> buffer(int64_t n) { return std::vector<float>(static_cast<size_t>(n > 0 ? n : 1)); }

prim::memory from_plain(const std::vector<float> &data, const prim::memory::dims &dims,
                        const prim::memory::desc &target) {
    const prim::memory user(plain_desc(dims), const_cast<float *>(data.data())); // only read
    prim::memory m(target);
    prim::reorder(user, m).execute(user, m);
    return m;
}

std::vector<float> to_plain(const prim::memory &m, const prim::memory::dims &dims) {
    std::vector<float> out = buffer(volume(dims));
    const prim::memory user(plain_desc(dims), out.data());
    prim::reorder(m, user).execute(m, user);
    return out;
}

void check_memory_budget(double bytes, const std::string &desc) {
    constexpr double limit_gib = 8;
    const double gib = bytes / (1024.0 * 1024.0 * 1024.0);
    if (gib <= limit_gib) return;
    char msg[160];
    std::snprintf(msg, sizeof msg, "needs about %.3g GiB, over benchdnn_lite's limit of %.0f GiB",
                  gib, limit_gib);
    throw prim::error(prim::status::unimplemented, desc + " " + msg);
}

} // namespace bdl
