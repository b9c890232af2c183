// A 64-byte-aligned float buffer for one call's repacked argument or a thread's working rows.
#pragma once
#include <cstddef>
#include <cstdlib>

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

} // namespace jit
} // namespace prim
