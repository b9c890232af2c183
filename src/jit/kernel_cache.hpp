// One process-wide cache of generated kernels, so that equal primitives share one kernel.
// The key must hold everything that changes the code: kernel kind, ISA, shape parameters and the
// post-ops chain with its parameters as exact bit patterns (key_of below). Thread-safe.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "jit/jit_generator.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace jit {

// "e5:3f800000:00000000:3f800000+s:3f000000": the chain with bit-exact parameters.
std::string key_of(const post_ops &chain);

class kernel_cache {
public:
    static kernel_cache &instance();

    // The cached kernel for key, or make() it (create_kernel() is called here), cache it and
    // return it. make() runs under the cache's lock, so one key is generated only once.
    std::shared_ptr<const jit_generator> get_or_create(
            const std::string &key, const std::function<std::unique_ptr<jit_generator>()> &make);

    struct stats_t {
        long hits = 0, misses = 0, size = 0;
    };
    stats_t stats() const;

private:
    kernel_cache() = default;
    struct impl;
    std::shared_ptr<impl> impl_;
};

} // namespace jit
} // namespace prim
