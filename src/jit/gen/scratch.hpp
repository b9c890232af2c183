// A 64-byte-aligned float buffer for one call's repacked argument or a thread's working rows.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <memory>

#include "prim/error.hpp"

namespace prim {
namespace jit {

class scratch {
public:
    explicit scratch(size_t bytes)
        : p_(static_cast<float *>(std::aligned_alloc(64, (bytes + 63) / 64 * 64))) {
        if (!p_) throw error(status::out_of_memory, "convolution: cannot allocate scratch memory");
    }
    ~scratch() { std::free(p_); }
    scratch(const scratch &) = delete;
    scratch &operator=(const scratch &) = delete;
    float *get() const { return p_; }

private:
    float *p_;
};

// The calling thread's working buffer `Slot` (one per use, so that two never share one), at
// least `bytes` long: it grows, never shrinks, and lives as long as the thread, so that it
// stays warm in the thread's caches from call to call.
enum class thread_slot { dw_ring, int8_src_rows, int8_dw_window };
template <thread_slot Slot>
float *thread_buffer(size_t bytes) {
    thread_local std::unique_ptr<scratch> buffer;
    thread_local size_t capacity = 0;
    if (capacity < bytes) {
        buffer.reset(); // free before allocating: the two need not coexist
        capacity = 0;
        buffer = std::make_unique<scratch>(bytes);
        capacity = bytes;
    }
    return buffer->get();
}

} // namespace jit
} // namespace prim
