// The JIT eltwise implementation, called directly through create_jit_eltwise: its checks and
// layout resolution, in place and out of place, tails, threading, post-ops with sums, and the
// kernel cache that makes equal primitives share one kernel.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "isa_under_test.hpp"
#include "jit/gen/cpu_isa_detect.hpp"
#include "jit/eltwise/jit_eltwise.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "ref/ref_kernels.hpp"

using namespace prim;
using namespace prim::impl;
using tag = memory::format_tag;

namespace {

eltwise_request make_request(const memory::dims &dims, algorithm alg, float alpha, float beta,
                             const std::string &chain = "", tag stag = tag::any, tag dtag = tag::any) {
    eltwise_request req;
    req.prb.dims = dims;
    req.alg = alg;
    req.alpha = alpha;
    req.beta = beta;
    req.src = memory::desc(dims, memory::data_type::f32, stag);
    req.dst = memory::desc(dims, memory::data_type::f32, dtag);
    primitive_attr attr;
    attr.set_post_ops(parse_post_ops(chain));
    req.attr = attr;
    return req;
}

std::vector<float> make_data(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-4.f, 4.f);
    std::vector<float> v(n);
    for (float &x : v) x = dist(gen);
    return v;
}

bool close(float got, float ref) {
    if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got);
    return got == ref || std::fabs(got - ref) <= 2e-5 * std::fabs(ref) + 1e-6;
}

// Runs the impl on random data (dst prefilled for sums) and compares with ref_eltwise_fwd.
void check_run(const primitive_impl &impl, const eltwise_request &req, bool in_place) {
    const size_t n = static_cast<size_t>(req.prb.nelems());
    const std::vector<float> src = make_data(n, 1), old = make_data(n, 2);
    std::vector<float> dst = in_place ? src : old;
    std::vector<float> ref = dst;
    ref_eltwise_fwd(req.alg, req.alpha, req.beta, req.attr.get_post_ops(), in_place ? ref.data() : src.data(),
                    ref.data(), static_cast<int64_t>(n));
    exec_ptrs args;
    args.src = in_place ? dst.data() : src.data();
    args.dst = dst.data();
    impl.execute(args);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
        if (!close(dst[i], ref[i]) && bad++ < 3)
            FAIL_CHECK(impl.name() << " i=" << i << " got=" << dst[i] << " ref=" << ref[i]);
    CHECK(bad == 0);
}

cpu_isa best() { return jit::detect_cpu_isa(); }

} // namespace

TEST_CASE("jit eltwise: name and checks", "[jit][eltwise]") {
    REQUIRE(best() >= cpu_isa::avx2);
    std::string why;
    auto req = make_request({2, 17, 5, 7}, algorithm::eltwise_relu, 0.f, 0.f);
    auto impl2 = create_jit_eltwise(req, cpu_isa::avx2, why);
    REQUIRE(impl2);
    CHECK(impl2->name() == "jit:avx2");
    if (prim_test::under_test(cpu_isa::avx512)) {
        auto impl5 = create_jit_eltwise(req, cpu_isa::avx512, why);
        REQUIRE(impl5);
        CHECK(impl5->name() == "jit:avx512");
        CHECK(create_jit_eltwise(req, cpu_isa::all, why)->name() == "jit:avx512");
    }
    // 'any' on both sides resolves to plain; on one side to the other one's layout
    CHECK(impl2->src_md() == memory::desc({2, 17, 5, 7}, memory::data_type::f32, tag::nchw));
    CHECK(impl2->dst_md() == impl2->src_md());
    auto nhwc = create_jit_eltwise(make_request({2, 17, 5, 7}, algorithm::eltwise_relu, 0, 0, "", tag::nhwc),
                                   cpu_isa::avx2, why);
    REQUIRE(nhwc);
    CHECK(nhwc->dst_md() == memory::desc({2, 17, 5, 7}, memory::data_type::f32, tag::nhwc));

    why.clear();
    CHECK_FALSE(create_jit_eltwise(req, cpu_isa::none, why));
    CHECK(why.find("avx2") != std::string::npos);
    why.clear();
    CHECK_FALSE(create_jit_eltwise(make_request({2, 17, 5, 7}, algorithm::eltwise_relu, 0, 0, "", tag::nchw, tag::nhwc),
                                   cpu_isa::avx512, why));
    CHECK(why.find("layouts differ") != std::string::npos);
    why.clear();
    auto blocked = make_request({2, 17, 5, 7}, algorithm::eltwise_relu, 0.f, 0.f);
    blocked.src = blocked.dst = memory::desc({2, 17, 5, 7}, memory::data_type::f32, "aBcd16b");
    CHECK_FALSE(create_jit_eltwise(blocked, cpu_isa::avx512, why));
    CHECK(why.find("padded") != std::string::npos);
}

TEST_CASE("jit eltwise: results, in place and out of place, tails, threads, sums", "[jit][eltwise]") {
    const std::vector<memory::dims> shapes = {{1}, {7}, {2, 17, 5, 7}, {3, 1001}, {1, 3, 333, 333}};
    struct alg_case { algorithm alg; float alpha, beta; const char *chain; };
    const alg_case cases[] = {
        {algorithm::eltwise_relu, 0.f, 0.f, ""},
        {algorithm::eltwise_gelu_erf, 0.f, 0.f, "sum"},
        {algorithm::eltwise_tanh, 0.f, 0.f, "sum:0.5+relu+sum:-2"},
        {algorithm::eltwise_linear, 2.f, -1.f, "logistic:0:0:3"},
        {algorithm::eltwise_soft_relu, 1.5f, 0.f, "sum+abs"},
    };
    for (cpu_isa isa : prim_test::jit_isas_under_test())
        for (const memory::dims &dims : shapes)
            for (const alg_case &c : cases) {
                std::string why;
                const auto req = make_request(dims, c.alg, c.alpha, c.beta, c.chain);
                auto impl = create_jit_eltwise(req, isa, why);
                REQUIRE(impl);
                INFO(cpu_isa_name(isa) << " " << algorithm_name(c.alg) << " chain '" << c.chain
                     << "' nelems " << req.prb.nelems());
                check_run(*impl, req, false);
                check_run(*impl, req, true);
            }
}

TEST_CASE("jit eltwise: large out-of-place runs use streaming stores, still correct", "[jit][eltwise]") {
    // 4M + 5 elements: above the streaming threshold, threaded, with a tail; dst aligned or not
    const memory::dims dims = {(4 << 20) + 5};
    std::string why;
    const auto req = make_request(dims, algorithm::eltwise_relu, 0.1f, 0.f);
    auto impl = create_jit_eltwise(req, cpu_isa::avx2, why);
    REQUIRE(impl);
    check_run(*impl, req, false);
    const size_t n = static_cast<size_t>(dims[0]);
    std::vector<float> src = make_data(n, 3), dst(n + 1, 0.f);
    exec_ptrs args;
    args.src = src.data();
    args.dst = dst.data() + 1; // misaligned: ordinary stores
    impl->execute(args);
    for (size_t i = 0; i < n; i += 4099)
        REQUIRE(dst[i + 1] == (src[i] > 0 ? src[i] : 0.1f * src[i]));
}

TEST_CASE("kernel cache: equal primitives share one kernel", "[jit][cache]") {
    auto &cache = jit::kernel_cache::instance();
    std::string why;
    const auto req = make_request({5, 77}, algorithm::eltwise_elu, 0.75f, 0.f, "sum:0.25+clip:-1:2.5");
    const auto before = cache.stats();
    auto a = create_jit_eltwise(req, cpu_isa::avx2, why);
    const auto after_first = cache.stats();
    CHECK(after_first.misses == before.misses + 1);
    auto b = create_jit_eltwise(req, cpu_isa::avx2, why);
    // the same problem shape does not matter: a different size also hits
    auto c = create_jit_eltwise(make_request({3, 1000}, algorithm::eltwise_elu, 0.75f, 0.f, "sum:0.25+clip:-1:2.5"),
                                cpu_isa::avx2, why);
    const auto after = cache.stats();
    CHECK(after.misses == after_first.misses);
    CHECK(after.hits == after_first.hits + 2);
    // anything that changes the code is a different key: a parameter, the chain, the ISA
    create_jit_eltwise(make_request({5, 77}, algorithm::eltwise_elu, 0.5f, 0.f, "sum:0.25+clip:-1:2.5"),
                       cpu_isa::avx2, why);
    create_jit_eltwise(make_request({5, 77}, algorithm::eltwise_elu, 0.75f, 0.f, "sum:0.25+clip:-1:2"),
                       cpu_isa::avx2, why);
    CHECK(cache.stats().misses == after.misses + 2);
    if (prim_test::under_test(cpu_isa::avx512)) {
        create_jit_eltwise(req, cpu_isa::avx512, why);
        CHECK(cache.stats().misses == after.misses + 3);
    }
    check_run(*b, req, false);
}

TEST_CASE("kernel cache: concurrent creation makes one kernel", "[jit][cache]") {
    auto &cache = jit::kernel_cache::instance();
    const auto req = make_request({1000}, algorithm::eltwise_swish, 0.3f, 0.f, "sum:0.125");
    const auto before = cache.stats();
    std::vector<std::unique_ptr<primitive_impl>> impls(8);
#pragma omp parallel for num_threads(4)
    for (int i = 0; i < 8; ++i) {
        std::string why;
        impls[i] = create_jit_eltwise(req, cpu_isa::avx2, why);
    }
    CHECK(cache.stats().misses == before.misses + 1);
    for (auto &impl : impls) REQUIRE(impl);
}
