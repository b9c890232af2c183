// buffer_slab: chunks of at least 64 MiB mapped one after the other, each allocation placed after
// the previous one. Pages of a chunk that no buffer reaches are never touched, so they cost
// address space only. No MADV_HUGEPAGE: on the Firecracker VM where prim is measured, 2 MiB
// pages made ResNet-50's compile bimodal (35-45 ms or 160-330 ms, median 178 ms against 62 ms
// with 4 KiB pages), the huge frames' first touch being slow on the host's side.
#include "graph/buffer_slab.hpp"

#include <sys/mman.h>

#include <string>
#include <utility>

#include "prim/error.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {
constexpr size_t huge_page = size_t(2) << 20;
constexpr size_t min_chunk = size_t(64) << 20;
constexpr size_t alignment = 64;
size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }
} // namespace

buffer_slab::~buffer_slab() { release(); }

buffer_slab::buffer_slab(buffer_slab &&other) noexcept : chunks_(std::move(other.chunks_)) {
    other.chunks_.clear();
}

buffer_slab &buffer_slab::operator=(buffer_slab &&other) noexcept {
    if (this != &other) {
        release();
        chunks_ = std::move(other.chunks_);
        other.chunks_.clear();
    }
    return *this;
}

void buffer_slab::release() {
    for (const chunk &c : chunks_) ::munmap(c.base, c.size);
    chunks_.clear();
}

void *buffer_slab::allocate(size_t bytes) {
    bytes = round_up(bytes ? bytes : 1, alignment);
    if (chunks_.empty() || chunks_.back().used + bytes > chunks_.back().size - (chunks_.back().start - chunks_.back().base)) {
        // One 2 MiB more than needed, so that the usable part starts on a huge-page boundary
        // (where the kernel's transparent huge pages, when enabled for all memory, may apply).
        chunk c;
        c.size = round_up(bytes, huge_page) + huge_page;
        if (c.size < min_chunk) c.size = min_chunk;
        void *p = ::mmap(nullptr, c.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            throw error(status::out_of_memory, "graph: cannot map " + std::to_string(c.size) + " bytes for the plan's buffers");
        c.base = static_cast<char *>(p);
        c.start = reinterpret_cast<char *>(round_up(reinterpret_cast<size_t>(c.base), huge_page));
        chunks_.push_back(c);
    }
    chunk &c = chunks_.back();
    void *p = c.start + c.used;
    c.used += bytes;
    return p;
}

} // namespace detail
} // namespace graph
} // namespace prim
