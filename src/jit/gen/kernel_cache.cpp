// The kernel cache: a least-recently-used list of kernels, indexed by key, under one mutex.
// An evicted kernel lives on in the primitives holding it and is freed with the last of them.
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "jit/gen/kernel_cache.hpp"
#include "prim/error.hpp"
#include "prim/kernel_cache.hpp"

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

// key_of() lists the entry's fields (kind, alg, alpha, beta, scale, zero_point, dt, mask): a new
// field must join it. src1 stays out: a kernel addresses an operand by its policy alone, creation
// having checked that the operand's layout is one the kernel reads that way (its type is dt's).
static_assert(sizeof(post_ops::entry) == 8 * 4 + sizeof(memory::desc) + sizeof(post_ops::entry::depthwise),
              "post_ops::entry changed: add the new field to key_of()");

std::string key_of(const post_ops &chain) {
    std::string key;
    for (const post_ops::entry &e : chain.entries()) {
        if (!key.empty()) key += '+';
        // The quantization fields only when they are not the defaults, so f32 keys stay short.
        const std::string types = e.zero_point == 0 && e.dt == memory::data_type::undef
                ? std::string()
                : ":z" + std::to_string(e.zero_point) + ":t" + std::to_string(static_cast<int>(e.dt));
        if (e.kind == post_ops::kind::sum)
            key += "s:" + hex(e.scale) + types;
        else if (e.kind == post_ops::kind::binary)
            key += "b" + std::to_string(static_cast<int>(e.alg)) + ":" + std::to_string(e.mask) + types;
        else if (e.kind == post_ops::kind::prelu)
            key += "p:" + std::to_string(e.mask);
        else if (e.kind == post_ops::kind::dw) // no JIT kernel takes it yet (choose_impl)
            key += "dw:" + std::to_string(e.dw.kernel) + ":" + std::to_string(e.dw.stride) + ":"
                    + std::to_string(e.dw.padding) + ":" + std::to_string(static_cast<int>(e.dw.wei_dt))
                    + ":" + std::to_string(static_cast<int>(e.dw.bias_dt)) + ":"
                    + std::to_string(static_cast<int>(e.dw.dst_dt));
        else
            key += "e" + std::to_string(static_cast<int>(e.alg)) + ":" + hex(e.alpha) + ":"
                    + hex(e.beta) + ":" + hex(e.scale);
    }
    return key;
}

// Most recently used first; the map points into the list, so a hit moves its entry to the front
// and eviction pops the back, both in O(1).
struct kernel_cache::impl {
    using entry = std::pair<std::string, std::shared_ptr<const jit_generator>>;
    mutable std::mutex mutex;
    std::list<entry> lru;
    std::unordered_map<std::string, std::list<entry>::iterator> index;
    int capacity = 1024;
    std::string env_error; // a bad PRIM_KERNEL_CACHE_CAPACITY, reported at every use
    long hits = 0, misses = 0;
    int64_t generated = 0;

    void check_env() const {
        if (!env_error.empty()) throw error(status::invalid_arguments, env_error);
    }
    void evict_to(size_t n) {
        while (lru.size() > n) {
            index.erase(lru.back().first);
            lru.pop_back();
        }
    }
};

namespace {

// PRIM_KERNEL_CACHE_CAPACITY: unset keeps the default; else a decimal integer >= 0.
void read_capacity_env(int &capacity, std::string &env_error) {
    const char *v = std::getenv("PRIM_KERNEL_CACHE_CAPACITY");
    if (!v) return;
    char *end = nullptr;
    errno = 0;
    const long n = std::strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno != 0 || n < 0 || n > INT_MAX)
        env_error = std::string("PRIM_KERNEL_CACHE_CAPACITY=") + v + " is not a non-negative integer";
    else
        capacity = static_cast<int>(n);
}

} // namespace

kernel_cache &kernel_cache::instance() {
    static kernel_cache cache;
    static std::once_flag once;
    std::call_once(once, [] {
        cache.impl_ = std::make_shared<impl>();
        read_capacity_env(cache.impl_->capacity, cache.impl_->env_error);
    });
    return cache;
}

std::shared_ptr<const jit_generator> kernel_cache::get_or_create(
        const std::string &key, const std::function<std::unique_ptr<jit_generator>()> &make) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->check_env();
    auto it = impl_->index.find(key);
    if (it != impl_->index.end()) {
        ++impl_->hits;
        impl_->lru.splice(impl_->lru.begin(), impl_->lru, it->second);
        return it->second->second;
    }
    std::unique_ptr<jit_generator> kernel = make();
    kernel->create_kernel();
    std::shared_ptr<const jit_generator> shared(std::move(kernel));
    ++impl_->misses;
    ++impl_->generated;
    if (impl_->capacity > 0) {
        impl_->lru.emplace_front(key, shared);
        impl_->index.emplace(key, impl_->lru.begin());
        impl_->evict_to(static_cast<size_t>(impl_->capacity));
    }
    return shared;
}

void kernel_cache::set_capacity(int capacity) {
    if (capacity < 0)
        throw error(status::invalid_arguments,
                    "kernel cache capacity " + std::to_string(capacity) + " is negative");
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->check_env();
    impl_->capacity = capacity;
    impl_->evict_to(static_cast<size_t>(capacity));
}

int kernel_cache::capacity() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->check_env();
    return impl_->capacity;
}

kernel_cache::stats_t kernel_cache::stats() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    stats_t s;
    s.hits = impl_->hits;
    s.misses = impl_->misses;
    s.size = static_cast<long>(impl_->lru.size());
    return s;
}

int64_t kernel_cache::generated() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return impl_->generated;
}

} // namespace jit

void set_kernel_cache_capacity(int capacity) { jit::kernel_cache::instance().set_capacity(capacity); }
int get_kernel_cache_capacity() { return jit::kernel_cache::instance().capacity(); }
int64_t get_generated_kernel_count() { return jit::kernel_cache::instance().generated(); }

} // namespace prim
