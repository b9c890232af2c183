// The bounded kernel cache through the public API (include/prim/kernel_cache.hpp): its capacity,
// least-recently-used eviction, flat memory over many distinct primitives, primitives that keep
// working after their kernel left the cache, and the count of generated kernels.
#include <catch2/catch.hpp>

#include <fstream>
#include <unistd.h>

#include "prim/prim.hpp"

using namespace prim;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

const memory::desc md {{4, 16}, dt::f32, tag::nc};

// A leaky relu whose slope makes it a kernel of its own (the chain's parameters are in the key).
eltwise_forward::primitive_desc relu_pd(float slope) {
    return eltwise_forward::primitive_desc(
            eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_relu, md, slope, 0.f));
}

// Resident memory of this process, in bytes.
long rss_bytes() {
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

bool jit_available() { return get_effective_cpu_isa() >= cpu_isa::avx2; }

// Restores the capacity a test changed, whatever happens in it.
struct capacity_guard {
    int saved = get_kernel_cache_capacity();
    ~capacity_guard() { set_kernel_cache_capacity(saved); }
};

} // namespace

TEST_CASE("kernel cache: default capacity, and a negative one is refused", "[kernel_cache]") {
    CHECK(get_kernel_cache_capacity() == 1024); // PRIM_KERNEL_CACHE_CAPACITY is not set in ctest
    capacity_guard guard;
    CHECK_THROWS_WITH(set_kernel_cache_capacity(-1), Catch::Contains("negative"));
    set_kernel_cache_capacity(7);
    CHECK(get_kernel_cache_capacity() == 7);
}

TEST_CASE("kernel cache: an equal primitive reuses the kernel, capacity 0 generates again",
          "[kernel_cache]") {
    if (!jit_available()) return;
    capacity_guard guard;
    relu_pd(0.125f);
    int64_t before = get_generated_kernel_count();
    relu_pd(0.125f);
    CHECK(get_generated_kernel_count() == before); // cached
    set_kernel_cache_capacity(0);
    before = get_generated_kernel_count();
    relu_pd(0.125f);
    relu_pd(0.125f);
    CHECK(get_generated_kernel_count() == before + 2); // no cache: generated each time
}

TEST_CASE("kernel cache: least recently used is evicted first", "[kernel_cache]") {
    if (!jit_available()) return;
    capacity_guard guard;
    set_kernel_cache_capacity(2);
    relu_pd(1.f / 3);
    relu_pd(1.f / 5);
    relu_pd(1.f / 3); // now the most recently used
    relu_pd(1.f / 7); // evicts 1/5
    const int64_t before = get_generated_kernel_count();
    relu_pd(1.f / 3);
    CHECK(get_generated_kernel_count() == before); // still cached
    relu_pd(1.f / 5);
    CHECK(get_generated_kernel_count() == before + 1); // was evicted
}

TEST_CASE("kernel cache: a primitive keeps working after its kernel is evicted", "[kernel_cache]") {
    if (!jit_available()) return;
    capacity_guard guard;
    const eltwise_forward prim_kept(relu_pd(0.25f));
    set_kernel_cache_capacity(1);
    for (int i = 1; i <= 20; ++i) relu_pd(0.25f + i); // evicts the kernel of prim_kept
    memory src(md), dst(md);
    float *s = static_cast<float *>(src.get_data_handle());
    float *d = static_cast<float *>(dst.get_data_handle());
    for (int i = 0; i < 64; ++i) s[i] = float(i - 32);
    prim_kept.execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
    for (int i = 0; i < 64; ++i) CHECK(d[i] == (s[i] > 0 ? s[i] : 0.25f * s[i]));
}

TEST_CASE("kernel cache: memory stays flat over 100,000 distinct primitives", "[kernel_cache]") {
    if (!jit_available()) return;
    REQUIRE(get_kernel_cache_capacity() == 1024);
    // Fill the cache past its capacity first, so the allocator has reached its working set.
    int slope = 0;
    for (; slope < 5000; ++slope) relu_pd(1.f + slope);
    const long before = rss_bytes();
    const int64_t generated = get_generated_kernel_count();
    for (; slope < 100000; ++slope) relu_pd(1.f + slope);
    CHECK(get_generated_kernel_count() - generated == 95000);
    // Unbounded, 95,000 kernels of a page each held 390 MB; bounded, nothing should grow.
    CHECK(rss_bytes() - before < 16L * 1024 * 1024);
}
