// The memory a plan keeps for the whole life of a compiled model: constant weights in their
// kernels' layouts, graph inputs and outputs, buffers with padding, the arena. Carved from large
// anonymous mappings, which the kernel hands out already zero-filled: the zeros every such buffer
// starts with cost no memset pass (prim::memory's own buffers are memset, a second pass over
// ResNet-50's 100 MB of weights before the reorder wrote them).
#pragma once
#include <cstddef>
#include <vector>

namespace prim {
namespace graph {
namespace detail {

class buffer_slab {
public:
    buffer_slab() = default;
    ~buffer_slab();
    buffer_slab(buffer_slab &&other) noexcept;
    buffer_slab &operator=(buffer_slab &&other) noexcept;
    buffer_slab(const buffer_slab &) = delete;
    buffer_slab &operator=(const buffer_slab &) = delete;

    // bytes of zeros, 64-byte aligned, valid until the slab is destroyed. Throws
    // prim::error(out_of_memory) when the system has no memory to map.
    void *allocate(size_t bytes);

private:
    struct chunk {
        char *base = nullptr;   // the mapping
        size_t size = 0;
        size_t used = 0;        // from the first 2 MiB boundary
        char *start = nullptr;  // the first 2 MiB boundary in the mapping
    };
    void release();
    std::vector<chunk> chunks_;
};

} // namespace detail
} // namespace graph
} // namespace prim
