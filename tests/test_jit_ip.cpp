// The JIT inner product against the reference kernel ref_ip_fwd, on both ISAs: every tail of mb,
// ic and oc, spatial sources, bias or not, the K split (partial sums), chains with sums anywhere,
// plain user layouts (repacked per call), determinism across thread counts, and the declines.
// Inputs are small integers, so with exact post-ops every sum is exact and the comparison is
// bitwise (threshold 0); transcendental chains get a small relative tolerance.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <omp.h>

#include "isa_under_test.hpp"
#include "jit/gen/cpu_isa_detect.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/ip/ip_blocking.hpp"
#include "jit/ip/jit_inner_product.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "prim/memory.hpp"
#include "ref/ref_kernels.hpp"

using prim::cpu_isa;
using prim::memory;
using prim::post_ops;
using prim::impl::ip_problem;
using prim::impl::ip_request;

namespace {

std::vector<cpu_isa> isas_to_test() { return prim_test::jit_isas_under_test(); }

ip_problem make_problem(int64_t mb, int64_t ic, int64_t oc, std::vector<int64_t> spatial = {}) {
    ip_problem p;
    p.mb = mb;
    p.ic = ic;
    p.oc = oc;
    p.nsp = static_cast<int>(spatial.size());
    for (int j = 0; j < p.nsp; ++j) p.i[3 - p.nsp + j] = spatial[j];
    return p;
}

memory::dims src_dims(const ip_problem &p) {
    memory::dims d = {p.mb, p.ic};
    for (int j = 0; j < p.nsp; ++j) d.push_back(p.i[3 - p.nsp + j]);
    return d;
}
memory::dims wei_dims(const ip_problem &p) {
    memory::dims d = src_dims(p);
    d[0] = p.oc;
    return d;
}

memory::desc any_desc(const memory::dims &d) {
    return memory::desc(d, memory::data_type::f32, memory::format_tag::any);
}
memory::desc plain_desc(const memory::dims &d) {
    std::string pattern;
    for (size_t i = 0; i < d.size(); ++i) pattern += static_cast<char>('a' + i);
    return memory::desc(d, memory::data_type::f32, pattern);
}

std::vector<float> small_ints(size_t n, int lo, int hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> dist(lo, hi);
    std::vector<float> v(n);
    for (float &x : v) x = static_cast<float>(dist(gen));
    return v;
}

struct case_opts {
    bool with_bias = true;
    std::string chain;
    // Layouts the user gives; empty means 'any'. Data is always made plain and reordered in.
    std::string src_layout, wei_layout;
    double tolerance = 0.0; // relative, against max(1, |ref|)
};

struct run_result {
    std::string impl_name;
    std::vector<float> got, want;
};

run_result run_case(cpu_isa isa, const ip_problem &p, const case_opts &o, unsigned seed = 1) {
    const post_ops po = prim::parse_post_ops(o.chain);
    ip_request req;
    req.prb = p;
    req.with_bias = o.with_bias;
    req.src = o.src_layout.empty()
                      ? any_desc(src_dims(p))
                      : memory::desc(src_dims(p), memory::data_type::f32, o.src_layout);
    req.wei = o.wei_layout.empty()
                      ? any_desc(wei_dims(p))
                      : memory::desc(wei_dims(p), memory::data_type::f32, o.wei_layout);
    req.bias = o.with_bias ? any_desc({p.oc}) : memory::desc();
    req.dst = any_desc({p.mb, p.oc});
    req.attr.set_post_ops(po);

    std::string why_not;
    auto impl = prim::impl::create_jit_ip(req, isa, why_not);
    INFO("why_not: " << why_not);
    REQUIRE(impl != nullptr);

    const int64_t k = p.ic * p.spatial();
    const auto src = small_ints(static_cast<size_t>(p.mb * k), -3, 3, seed);
    const auto wei = small_ints(static_cast<size_t>(p.oc * k), -2, 2, seed + 1);
    const auto bias = small_ints(static_cast<size_t>(p.oc), -5, 5, seed + 2);
    const auto dst_old = small_ints(static_cast<size_t>(p.mb * p.oc), -4, 4, seed + 3);

    // Move the plain data into the layouts the implementation chose.
    auto to_layout = [](const memory::desc &plain, const memory::desc &md, const float *data) {
        std::vector<float> out(static_cast<size_t>(md.nelems_padded()), 0.f);
        prim::reorder(plain, md).execute(memory(plain, const_cast<float *>(data)),
                                         memory(md, out.data()));
        return out;
    };
    const auto src_l = to_layout(plain_desc(src_dims(p)), impl->src_md(), src.data());
    const auto wei_l = to_layout(plain_desc(wei_dims(p)), impl->wei_md(), wei.data());
    REQUIRE(impl->dst_md() == plain_desc({p.mb, p.oc}));

    run_result r;
    r.impl_name = impl->name();
    r.got = dst_old;
    prim::impl::exec_ptrs args;
    args.src = src_l.data();
    args.wei = wei_l.data();
    args.bias = o.with_bias ? bias.data() : nullptr;
    args.dst = r.got.data();
    impl->execute(args);

    r.want = dst_old;
    prim::impl::ref_ip_fwd(p, src.data(), wei.data(), o.with_bias ? bias.data() : nullptr, po,
                           r.want.data());
    return r;
}

// Counts mismatches and reports the first one.
void check_equal(const run_result &r, double tolerance, const std::string &what) {
    int64_t errors = 0;
    std::string first;
    for (size_t i = 0; i < r.want.size(); ++i) {
        const double want = r.want[i], got = r.got[i];
        bool ok;
        if (std::isnan(want))
            ok = std::isnan(got);
        else if (std::isinf(want))
            ok = got == want;
        else
            ok = std::fabs(got - want) <= tolerance * std::max(1.0, std::fabs(want));
        if (!ok && errors++ == 0)
            first = "index " + std::to_string(i) + ": got " + std::to_string(got) + ", want "
                    + std::to_string(want);
    }
    INFO(what << " [" << r.impl_name << "] errors " << errors << ", first at " << first);
    CHECK(errors == 0);
}

std::string describe(cpu_isa isa, const ip_problem &p, const case_opts &o) {
    return std::string(prim::cpu_isa_name(isa)) + " " + prim::impl::to_string(p) + " bias="
           + (o.with_bias ? "1" : "0") + " chain='" + o.chain + "' src=" + o.src_layout
           + " wei=" + o.wei_layout;
}

void check_case(cpu_isa isa, const ip_problem &p, const case_opts &o, unsigned seed = 1) {
    check_equal(run_case(isa, p, o, seed), o.tolerance, describe(isa, p, o));
}

} // namespace

TEST_CASE("jit ip: every mb, ic and oc tail, with and without bias", "[jit_ip]") {
    for (cpu_isa isa : isas_to_test())
        for (int64_t mb : {1, 2, 7, 13})
            for (int64_t ic : {1, 3, 17, 100})
                for (int64_t oc : {1, 5, 16, 33}) {
                    case_opts o;
                    o.with_bias = (mb + ic + oc) % 2 == 0;
                    check_case(isa, make_problem(mb, ic, oc), o);
                    o.with_bias = !o.with_bias;
                    o.chain = "sum:2+relu";
                    check_case(isa, make_problem(mb, ic, oc), o);
                }
}

TEST_CASE("jit ip: larger shapes: several tiles, panels and the last panel's tail", "[jit_ip]") {
    for (cpu_isa isa : isas_to_test())
        for (int64_t mb : {9, 16, 33})
            for (int64_t oc : {48, 64, 100, 129}) {
                case_opts o;
                o.chain = "sum+linear:2:1";
                check_case(isa, make_problem(mb, 40, oc), o);
            }
    // Tall and narrow: one panel, the rows cut into several m chunks for the threads.
    for (cpu_isa isa : isas_to_test()) {
        case_opts o;
        o.chain = "sum:0.5+relu";
        check_case(isa, make_problem(300, 20, 5), o);
        check_case(isa, make_problem(100, 1500, 16), o); // and a K split
    }
}

TEST_CASE("jit ip: K split into blocks keeps dst_old for the sum", "[jit_ip]") {
    // K = 2500 and 1100 exceed one K block: partial sums live in scratch, dst is written once.
    for (cpu_isa isa : isas_to_test()) {
        case_opts o;
        o.chain = "sum:-1+relu:0.5+sum:2";
        check_case(isa, make_problem(21, 2500, 37), o);
        check_case(isa, make_problem(16, 11, 50, {10, 10}), o);
        o.chain = "";
        o.with_bias = false;
        check_case(isa, make_problem(17, 1100, 16), o);
    }
}

TEST_CASE("jit ip: spatial sources, 'any' and plain weights", "[jit_ip]") {
    for (cpu_isa isa : isas_to_test()) {
        case_opts o;
        o.chain = "relu";
        check_case(isa, make_problem(3, 4, 20, {5}), o);
        check_case(isa, make_problem(10, 3, 17, {3, 5}), o);
        check_case(isa, make_problem(2, 2, 9, {2, 3, 4}), o);
        o.src_layout = "abcd";
        o.wei_layout = "abcd";
        auto r = run_case(isa, make_problem(10, 3, 17, {3, 5}), o);
        check_equal(r, 0.0, "plain abcd");
        CHECK(r.impl_name == std::string("jit:") + prim::cpu_isa_name(isa) + "+repack");
        o.src_layout = "acdb"; // nhwc-like source: copied to plain per call
        o.wei_layout = "acdb";
        check_case(isa, make_problem(10, 3, 17, {3, 5}), o);
    }
}

TEST_CASE("jit ip: weights in plain oi and io layouts are repacked per call", "[jit_ip]") {
    for (cpu_isa isa : isas_to_test())
        for (const char *layout : {"ab", "ba"}) {
            case_opts o;
            o.chain = "sum";
            o.wei_layout = layout;
            auto r = run_case(isa, make_problem(13, 17, 33), o);
            check_equal(r, 0.0, layout);
            CHECK(r.impl_name.find("+repack") != std::string::npos);
        }
    // 'any' chooses the packed layout: no repack.
    for (cpu_isa isa : isas_to_test()) {
        auto r = run_case(isa, make_problem(2, 8, 8), case_opts());
        CHECK(r.impl_name == std::string("jit:") + prim::cpu_isa_name(isa));
    }
}

TEST_CASE("jit ip: chains with sums first, middle, last, twice, and long chains", "[jit_ip]") {
    const std::vector<std::string> exact_chains = {
            "sum",
            "sum:0.5+relu",
            "relu:0.25+sum:3",
            "linear:2:1+sum+abs",
            "sum+linear:0.5:1+sum:-1",
            "abs+sum:2+clip:-20:40+sum:0.5+relu",
            "relu+linear:1:-3+sum+abs+clip:0:50+sum:-2+linear:0.5:1+square",
    };
    for (cpu_isa isa : isas_to_test())
        for (const std::string &chain : exact_chains)
            for (int64_t oc : {16, 21}) {
                case_opts o;
                o.chain = chain;
                check_case(isa, make_problem(11, 19, oc), o);
                check_case(isa, make_problem(1, 40, oc), o);
            }

    const std::vector<std::string> inexact_chains = {
            "gelu_erf",
            "sum+gelu_erf",
            "elu:0.5+sum+abs+sqrt+soft_relu:1+logistic+exp+swish:1",
            "tanh+sum:0.5+gelu_tanh+sum+log+pow:2:3",
    };
    for (cpu_isa isa : isas_to_test())
        for (const std::string &chain : inexact_chains) {
            case_opts o;
            o.chain = chain;
            o.tolerance = 1e-5;
            check_case(isa, make_problem(13, 7, 35), o);
            check_case(isa, make_problem(1, 30, 70), o);
        }
}

TEST_CASE("jit ip: results identical across runs and thread counts", "[jit_ip]") {
    // Non-integer data and a K split, so a different summation order would show.
    for (cpu_isa isa : isas_to_test()) {
        const ip_problem p = make_problem(19, 1500, 70);
        ip_request req;
        req.prb = p;
        req.with_bias = true;
        req.src = any_desc(src_dims(p));
        req.wei = any_desc(wei_dims(p));
        req.bias = any_desc({p.oc});
        req.dst = any_desc({p.mb, p.oc});
        req.attr.set_post_ops(prim::parse_post_ops("sum:0.3+gelu_erf"));
        std::string why_not;
        auto impl = prim::impl::create_jit_ip(req, isa, why_not);
        REQUIRE(impl != nullptr);
        std::mt19937 gen(7);
        std::uniform_real_distribution<float> dist(-1.f, 1.f);
        auto fill = [&](size_t n) {
            std::vector<float> v(n);
            for (float &x : v) x = dist(gen);
            return v;
        };
        const auto src = fill(static_cast<size_t>(p.mb * p.ic));
        const auto wei = fill(static_cast<size_t>(impl->wei_md().nelems_padded()));
        const auto bias = fill(static_cast<size_t>(p.oc));
        const auto dst_old = fill(static_cast<size_t>(p.mb * p.oc));
        auto run = [&](int threads) {
            std::vector<float> dst = dst_old;
            omp_set_num_threads(threads);
            prim::impl::exec_ptrs ptrs;
            ptrs.src = src.data();
            ptrs.wei = wei.data();
            ptrs.bias = bias.data();
            ptrs.dst = dst.data();
            impl->execute(ptrs);
            return dst;
        };
        const int saved = omp_get_max_threads();
        const auto one = run(1), two = run(2), three = run(3), again = run(2);
        omp_set_num_threads(saved);
        CHECK(std::memcmp(one.data(), two.data(), one.size() * 4) == 0);
        CHECK(std::memcmp(one.data(), three.data(), one.size() * 4) == 0);
        CHECK(std::memcmp(two.data(), again.data(), one.size() * 4) == 0);
    }
}

TEST_CASE("jit ip: 'any' weights become one panel of oc innermost", "[jit_ip]") {
    auto chosen = [](cpu_isa isa, const ip_problem &p) {
        ip_request req;
        req.prb = p;
        req.src = any_desc(src_dims(p));
        req.wei = any_desc(wei_dims(p));
        req.dst = any_desc({p.mb, p.oc});
        std::string why_not;
        auto impl = prim::impl::create_jit_ip(req, isa, why_not);
        REQUIRE(impl != nullptr);
        CHECK(impl->src_md() == plain_desc(src_dims(p)));
        return impl->wei_md().layout();
    };
    for (cpu_isa isa : isas_to_test()) {
        const bool avx512 = isa == cpu_isa::avx512;
        CHECK(chosen(isa, make_problem(128, 768, 768)) == (avx512 ? "Ab48a" : "Ab24a"));
        CHECK(chosen(isa, make_problem(64, 3, 64, {7, 7})) == (avx512 ? "Abcd48a" : "Abcd24a"));
        CHECK(chosen(isa, make_problem(1, 2048, 1000)) == (avx512 ? "Ab128a" : "Ab56a"));
    }
}

TEST_CASE("jit ip: equal primitives share their kernels", "[jit_ip]") {
    for (cpu_isa isa : isas_to_test()) {
        ip_request req;
        req.prb = make_problem(13, 21, 37); // all four kernel variants
        req.with_bias = true;
        req.src = any_desc(src_dims(req.prb));
        req.wei = any_desc(wei_dims(req.prb));
        req.bias = any_desc({37});
        req.dst = any_desc({13, 37});
        req.attr.set_post_ops(prim::parse_post_ops("sum:0.25+elu:0.125"));
        std::string why_not;
        REQUIRE(prim::impl::create_jit_ip(req, isa, why_not) != nullptr);
        const auto before = prim::jit::kernel_cache::instance().stats();
        REQUIRE(prim::impl::create_jit_ip(req, isa, why_not) != nullptr);
        const auto after = prim::jit::kernel_cache::instance().stats();
        CHECK(after.hits - before.hits == 4);
        CHECK(after.misses == before.misses);
        // A different chain parameter is a different kernel.
        req.attr.set_post_ops(prim::parse_post_ops("sum:0.25+elu:0.25"));
        REQUIRE(prim::impl::create_jit_ip(req, isa, why_not) != nullptr);
        CHECK(prim::jit::kernel_cache::instance().stats().misses - after.misses == 4);
    }
}

TEST_CASE("jit ip: declines with a reason", "[jit_ip]") {
    ip_request req;
    req.prb = make_problem(2, 8, 8);
    req.src = any_desc(src_dims(req.prb));
    req.wei = any_desc(wei_dims(req.prb));
    req.dst = any_desc({2, 8});
    std::string why_not;
    CHECK(prim::impl::create_jit_ip(req, cpu_isa::none, why_not) == nullptr);
    CHECK(why_not == prim::jit::isa_cap_below_avx2);
}

TEST_CASE("jit ip: mb0 executes as a no-op", "[jit_ip]") {
    for (cpu_isa isa : isas_to_test()) {
        ip_request req;
        req.prb = make_problem(0, 8, 8);
        req.with_bias = true;
        req.src = any_desc({0, 8});
        req.wei = any_desc({8, 8});
        req.bias = any_desc({8});
        req.dst = any_desc({0, 8});
        req.attr.set_post_ops(prim::parse_post_ops("sum+relu"));
        std::string why_not;
        auto impl = prim::impl::create_jit_ip(req, isa, why_not);
        REQUIRE(impl != nullptr);
        impl->execute(prim::impl::exec_ptrs()); // null pointers: must not touch anything
    }
}

TEST_CASE("jit ip: blocking leaves the chain its spare registers", "[jit_ip]") {
    using prim::jit::init_ip_blocking;
    prim::jit::ip_blocking b;
    // The default tiles: 8x3 on AVX-512 and 4x3 on AVX2 for a batch of 128.
    REQUIRE(init_ip_blocking(b, cpu_isa::avx512, make_problem(128, 768, 768), 4, true).empty());
    CHECK((b.mr == 8 && b.nr == 3));
    REQUIRE(init_ip_blocking(b, cpu_isa::avx2, make_problem(128, 768, 768), 4, true).empty());
    CHECK((b.mr == 4 && b.nr == 3));
    // A chain needing more spares than 16 - 12 makes the AVX2 tile smaller; never beyond the file.
    for (int aux : {5, 8, 12}) {
        REQUIRE(init_ip_blocking(b, cpu_isa::avx2, make_problem(128, 768, 768), aux, true).empty());
        CHECK(16 - b.mr * b.nr >= aux);
        CHECK(b.mr * b.nr + b.nr + 1 <= 16);
    }
    CHECK_FALSE(init_ip_blocking(b, cpu_isa::avx2, make_problem(128, 768, 768), 16, true).empty());
    // mb1: one row, wide in oc, but at least 4 panels when oc allows.
    REQUIRE(init_ip_blocking(b, cpu_isa::avx512, make_problem(1, 4096, 4096), 4, false).empty());
    CHECK((b.mr == 1 && b.nr == 8 && b.k_blocks == 1));
    REQUIRE(init_ip_blocking(b, cpu_isa::avx512, make_problem(1, 64, 64), 4, false).empty());
    CHECK(b.panels == 4);
    // K split only with several tile rows, in blocks of at most 1024 on a 1 MiB L2 (jit/gen/uarch.hpp:
    // the figures of the tuned machine, whatever CPU runs the test).
    prim::impl::cpu_info l2_1mib;
    l2_1mib.l1d_bytes = 32 * 1024;
    l2_1mib.l2_bytes = 1024 * 1024;
    l2_1mib.l3_bytes = 32 * 1024 * 1024;
    REQUIRE(init_ip_blocking(b, cpu_isa::avx512, make_problem(128, 3072, 768), 4, false,
                             prim::jit::uarch_for(l2_1mib)).empty());
    CHECK((b.k_blocks == 3 && b.k_blk == 1024));
    // One panel: the rows are cut so that there are 8 work items.
    REQUIRE(init_ip_blocking(b, cpu_isa::avx512, make_problem(1024, 64, 16), 0, false).empty());
    CHECK((b.panels == 1 && b.m_chunks == 8 && b.m_chunk % b.mr == 0));
}
