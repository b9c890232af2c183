// One process-wide cache of generated kernels, so that equal primitives share one kernel,
// bounded (least recently used evicted first).
// The key must hold everything that changes the code: kernel kind, ISA, configuration and the
// post-ops chain with its parameters as exact bit patterns. kernel_key() derives it from the
// configuration struct itself, so a field added there cannot be forgotten. Thread-safe.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <type_traits>

#include "jit/gen/jit_generator.hpp"
#include "prim/attr.hpp"

namespace prim {
namespace jit {

// "e5:3f800000:00000000:3f800000+s:3f000000": the chain with bit-exact parameters.
std::string key_of(const post_ops &chain);

// The cache key of a kernel: its kind (kernel class and ISA, e.g. "conv_avx512"), every byte of
// its configuration, and its chain. The configuration must be a struct without padding or
// floating-point fields, so that equal bytes mean equal fields (checked at compile time).
template <typename conf>
std::string kernel_key(const char *kind, const conf &c, const post_ops &chain) {
    static_assert(std::has_unique_object_representations_v<conf>,
                  "a kernel configuration needs integer fields and no padding to be a cache key");
    std::string key(kind);
    key += ':';
    key.append(reinterpret_cast<const char *>(&c), sizeof(c));
    key += ':';
    key += key_of(chain);
    return key;
}

// The cache behind prim::set_kernel_cache_capacity (include/prim/kernel_cache.hpp): a map from
// key to kernel with least-recently-used eviction.
class kernel_cache {
public:
    static kernel_cache &instance();

    // The cached kernel for key, or make() it (create_kernel() is called here), cache it and
    // return it. make() runs under the cache's lock, so one key is generated only once.
    std::shared_ptr<const jit_generator> get_or_create(
            const std::string &key, const std::function<std::unique_ptr<jit_generator>()> &make);

    void set_capacity(int capacity); // evicts down to it at once
    int capacity() const;

    struct stats_t {
        long hits = 0, misses = 0, size = 0;
    };
    stats_t stats() const;
    int64_t generated() const; // kernels generated so far, cached or not

private:
    kernel_cache() = default;
    struct impl;
    std::shared_ptr<impl> impl_;
};

} // namespace jit
} // namespace prim
