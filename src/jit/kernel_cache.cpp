// The kernel cache: a map from key to kernel under one mutex. Kernels live until the process
// ends (their number is bounded by the distinct primitives a program creates).
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "jit/kernel_cache.hpp"

namespace prim {
namespace jit {
namespace {

std::string hex(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%08x", bits);
    return buf;
}

} // namespace

std::string key_of(const post_ops &chain) {
    std::string key;
    for (const post_ops::entry &e : chain.entries()) {
        if (!key.empty()) key += '+';
        if (e.kind == post_ops::kind::sum)
            key += "s:" + hex(e.scale);
        else
            key += "e" + std::to_string(static_cast<int>(e.alg)) + ":" + hex(e.alpha) + ":"
                    + hex(e.beta) + ":" + hex(e.scale);
    }
    return key;
}

struct kernel_cache::impl {
    mutable std::mutex mutex;
    std::map<std::string, std::shared_ptr<const jit_generator>> kernels;
    long hits = 0, misses = 0;
};

kernel_cache &kernel_cache::instance() {
    static kernel_cache cache;
    static std::once_flag once;
    std::call_once(once, [] { cache.impl_ = std::make_shared<impl>(); });
    return cache;
}

std::shared_ptr<const jit_generator> kernel_cache::get_or_create(
        const std::string &key, const std::function<std::unique_ptr<jit_generator>()> &make) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto it = impl_->kernels.find(key);
    if (it != impl_->kernels.end()) {
        ++impl_->hits;
        return it->second;
    }
    std::unique_ptr<jit_generator> kernel = make();
    kernel->create_kernel();
    std::shared_ptr<const jit_generator> shared(std::move(kernel));
    impl_->kernels.emplace(key, shared);
    ++impl_->misses;
    return shared;
}

kernel_cache::stats_t kernel_cache::stats() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    stats_t s;
    s.hits = impl_->hits;
    s.misses = impl_->misses;
    s.size = static_cast<long>(impl_->kernels.size());
    return s;
}

} // namespace jit
} // namespace prim
