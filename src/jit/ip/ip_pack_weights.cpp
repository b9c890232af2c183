// Repacking plain weights into [oc/block][K][block], one oc block per OpenMP iteration.
#include <algorithm>
#include <string>

#include "jit/ip/ip_pack_weights.hpp"

namespace prim {
namespace jit {
namespace {

std::string plain_pattern(int ndims) {
    std::string p;
    for (int i = 0; i < ndims; ++i) p += static_cast<char>('a' + i);
    return p;
}

bool is_io(const memory::desc &md) {
    return md.ndims() == 2 && md == memory::desc(md.get_dims(), memory::data_type::f32, "ba");
}

} // namespace

bool can_pack_ip_weights(const memory::desc &user) {
    return user == memory::desc(user.get_dims(), memory::data_type::f32, plain_pattern(user.ndims()))
           || is_io(user);
}

void pack_ip_weights(const memory::desc &user, const float *w, int64_t oc, int64_t k, int64_t block,
                     float *packed) {
    const bool io = is_io(user);
    const int64_t blocks = (oc + block - 1) / block;
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < blocks; ++b) {
        float *out = packed + b * k * block;
        const int64_t lanes = std::min<int64_t>(block, oc - b * block);
        if (io) { // w[k][oc]: each K row holds the block's lanes contiguously
            for (int64_t kk = 0; kk < k; ++kk) {
                const float *row = w + kk * oc + b * block;
                for (int64_t l = 0; l < lanes; ++l) out[kk * block + l] = row[l];
                for (int64_t l = lanes; l < block; ++l) out[kk * block + l] = 0.f;
            }
        } else {  // w[oc][k]: lane l of the block is row b*block + l
            for (int64_t l = 0; l < block; ++l) {
                if (l >= lanes) {
                    for (int64_t kk = 0; kk < k; ++kk) out[kk * block + l] = 0.f;
                    continue;
                }
                const float *row = w + (b * block + l) * k;
                for (int64_t kk = 0; kk < k; ++kk) out[kk * block + l] = row[kk];
            }
        }
    }
}

} // namespace jit
} // namespace prim
