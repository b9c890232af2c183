// Thread safety: primitives created concurrently (equal ones race on the kernel cache, different
// ones fill it side by side), one primitive executed from many threads at once, and results that
// do not depend on the number of OpenMP threads. Every result must be bit-identical to a
// single-threaded run of the same primitive, on every ISA the machine has, and close to the
// reference implementation (so that a kernel corrupted while the cache was under contention is
// caught even when every thread got the same corrupted kernel).
#include <catch2/catch.hpp>

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "isa_under_test.hpp"
#include "prim/prim.hpp"

using namespace prim;
using tag = memory::format_tag;
using dt = memory::data_type;
using dims = memory::dims;

namespace {

const int n_threads = 4;

enum class kind { conv, ip, eltwise };

// One primitive to build: shapes in plain layouts, the post-ops chain as a fusion string.
struct problem {
    kind k;
    dims src, wei, bias, dst;                 // wei and bias unused by eltwise; bias may be empty
    dims strides, dilates, pad_l, pad_r;      // convolution only
    algorithm alg = algorithm::eltwise_relu;  // eltwise only
    float alpha = 0.f, beta = 0.f;
    std::string chain;
    bool any_data = false; // src and dst 'any' (the primitive's native layout) instead of plain
};

std::string describe(const problem &p) {
    std::string s = p.k == kind::conv ? "conv" : p.k == kind::ip ? "ip" : "eltwise";
    s += " src";
    for (auto d : p.src) s += " " + std::to_string(d);
    s += " wei";
    for (auto d : p.wei) s += " " + std::to_string(d);
    return s + " chain '" + p.chain + "'" + (p.any_data ? " any" : "");
}

memory::desc plain(const dims &d) {
    static const tag by_rank[] = {tag::undef, tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde,
                                  tag::abcdef};
    return memory::desc(d, dt::f32, by_rank[d.size()]);
}

memory::desc any(const dims &d) { return memory::desc(d, dt::f32, tag::any); }

memory::dim nelems(const dims &d) {
    memory::dim n = 1;
    for (auto x : d) n *= x;
    return n;
}

float *data(const memory &m) { return static_cast<float *>(m.get_data_handle()); }

// Deterministic values in [-1, 1], different for each seed.
void fill(const memory &m, uint32_t seed) {
    const memory::dim n = nelems(m.get_desc().get_dims());
    for (memory::dim i = 0; i < n; ++i)
        data(m)[i] = float((uint32_t(i) * 2654435761u + seed * 40503u) % 97u) / 48.f - 1.f;
}

struct created {
    primitive_desc_base pd;
    std::shared_ptr<primitive> prim;
};

// Source and destination in plain layouts (the user's) unless any_data, weights 'any' (the
// primitive's choice).
created create(const problem &p, cpu_isa isa) {
    const auto data_md = [&](const dims &d) { return p.any_data ? any(d) : plain(d); };
    primitive_attr attr;
    attr.set_max_cpu_isa(isa);
    attr.set_post_ops(parse_post_ops(p.chain));
    const auto pk = prop_kind::forward_inference;
    const memory::desc bias = p.bias.empty() ? memory::desc() : plain(p.bias);
    switch (p.k) {
    case kind::conv: {
        convolution_forward::primitive_desc pd({pk, algorithm::convolution_direct, data_md(p.src),
                any(p.wei), bias, data_md(p.dst), p.strides, p.dilates, p.pad_l, p.pad_r}, attr);
        return {pd, std::make_shared<convolution_forward>(pd)};
    }
    case kind::ip: {
        inner_product_forward::primitive_desc pd({pk, data_md(p.src), any(p.wei), bias,
                data_md(p.dst)}, attr);
        return {pd, std::make_shared<inner_product_forward>(pd)};
    }
    case kind::eltwise: break;
    }
    eltwise_forward::primitive_desc pd({pk, p.alg, data_md(p.src), p.alpha, p.beta}, attr);
    return {pd, std::make_shared<eltwise_forward>(pd)};
}

// The arguments of one execution, in the layouts the primitive_desc reported. dst starts with
// deterministic values, which a sum post-op reads.
struct buffers {
    memory src, wei, bias, dst;
    exec_args args() const {
        exec_args a {{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}};
        if (!wei.is_empty()) a[PRIM_ARG_WEIGHTS] = wei;
        if (!bias.is_empty()) a[PRIM_ARG_BIAS] = bias;
        return a;
    }
};

memory filled_as(const memory::desc &reported, uint32_t seed) {
    const memory::desc user = plain(reported.get_dims());
    memory m(user);
    fill(m, seed);
    if (reported == user) return m;
    memory r(reported);
    reorder(user, reported).execute(m, r);
    return r;
}

buffers make_buffers(const problem &p, const primitive_desc_base &pd) {
    buffers b;
    b.src = filled_as(pd.src_desc(), 1);
    if (p.k != kind::eltwise) {
        b.wei = filled_as(pd.weights_desc(), 2);
        if (!p.bias.empty()) b.bias = filled_as(pd.bias_desc(), 3);
    }
    b.dst = filled_as(pd.dst_desc(), 4);
    return b;
}

std::vector<float> read_dst(const memory &dst) {
    const memory::desc user = plain(dst.get_desc().get_dims());
    memory m(user);
    reorder(dst.get_desc(), user).execute(dst, m);
    return std::vector<float>(data(m), data(m) + nelems(user.get_dims()));
}

std::vector<float> run_once(const problem &p, const created &c) {
    const buffers b = make_buffers(p, c.pd);
    c.prim->execute(b.args());
    return read_dst(b.dst);
}

bool same_bits(const std::vector<float> &a, const std::vector<float> &b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Index of the first element further from the reference than rounding explains, or -1.
long first_far_from(const std::vector<float> &got, const std::vector<float> &ref) {
    if (got.size() != ref.size()) return 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const float tol = 1e-4f * (1.f + std::fabs(ref[i]));
        if (!(std::fabs(got[i] - ref[i]) <= tol) && !(std::isnan(got[i]) && std::isnan(ref[i])))
            return long(i);
    }
    return -1;
}

// The ISAs to test: the reference and every JIT level this machine has.
std::vector<cpu_isa> isas() { return prim_test::isas_under_test(); }

problem conv(dims src, dims wei, dims dst, dims s, dims p, std::string chain, bool bias = true) {
    problem pr;
    pr.k = kind::conv;
    pr.src = src;
    pr.wei = wei;
    pr.dst = dst;
    if (bias) pr.bias = {dst[1]};
    pr.strides = s;
    pr.dilates = dims(s.size(), 0);
    pr.pad_l = pr.pad_r = p;
    pr.chain = std::move(chain);
    return pr;
}

problem ip(dims src, dims wei, std::string chain, bool bias = true) {
    problem pr;
    pr.k = kind::ip;
    pr.src = src;
    pr.wei = wei;
    pr.dst = {src[0], wei[0]};
    if (bias) pr.bias = {wei[0]};
    pr.chain = std::move(chain);
    return pr;
}

problem with_any_data(problem p) {
    p.any_data = true;
    return p;
}

problem eltwise(dims src, algorithm alg, float alpha, float beta, std::string chain) {
    problem pr;
    pr.k = kind::eltwise;
    pr.src = pr.dst = src;
    pr.alg = alg;
    pr.alpha = alpha;
    pr.beta = beta;
    pr.chain = std::move(chain);
    return pr;
}

// Small problems of every kind. Chains with parameters no other test here uses, so that their
// kernels are generated for the first time while the threads race.
std::vector<problem> small_problems() {
    return {
            conv({2, 16, 7, 7}, {16, 16, 3, 3}, {2, 16, 7, 7}, {1, 1}, {1, 1},
                 "sum:0.625+tanh+linear:1.0625:0.0625"),
            with_any_data(conv({2, 16, 7, 7}, {16, 16, 3, 3}, {2, 16, 7, 7}, {1, 1}, {1, 1},
                               "relu:0.0625+sum:-0.375")),
            conv({1, 3, 9, 9}, {20, 3, 3, 3}, {1, 20, 4, 4}, {2, 2}, {0, 0},
                 "gelu_erf+sum:0.4375+clip:-0.8125:0.8125", false),
            // depthwise, 1D
            conv({2, 8, 6}, {8, 1, 1, 3}, {2, 8, 6}, {1}, {1}, "swish:1.125+sum:0.3125"),
            with_any_data(conv({1, 24, 5, 6}, {24, 1, 1, 3, 3}, {1, 24, 5, 6}, {1, 1}, {1, 1},
                               "sum:0.8125+relu:0.1875")),
            ip({5, 37}, {19, 37}, "sum:0.5625+hardswish+abs"),
            with_any_data(ip({3, 16, 3, 3}, {33, 16, 3, 3}, "elu:0.6875+sum+logistic")),
            ip({1, 64}, {48, 64}, "softsign:0:0:1.1875", false),
            eltwise({3, 5, 7}, algorithm::eltwise_gelu_tanh, 0.f, 0.f, "sum:0.1875+mish"),
            eltwise({4, 33}, algorithm::eltwise_clip, -0.3125f, 0.6875f, "sum:-0.5625+square"),
    };
}

// A problem created and run by one thread (equal ones are created by every thread).
std::vector<float> create_and_run(const problem &p, cpu_isa isa) {
    return run_once(p, create(p, isa));
}

// Starts every thread's work at the same moment, to maximise contention.
struct start_line {
    std::atomic<int> waiting {0};
    void arrive_and_wait(int total) {
        waiting.fetch_add(1);
        while (waiting.load() < total) std::this_thread::yield();
    }
};

} // namespace

TEST_CASE("primitives created concurrently compute what single-threaded ones compute",
          "[threads][creation]") {
    const std::vector<problem> problems = small_problems();
    const std::vector<cpu_isa> isa_list = isas();
    const size_t n_jobs = problems.size() * isa_list.size();

    // results[t][job]: each thread creates every primitive (the equal ones race on the kernel
    // cache), starting at a different one so that different primitives are created side by side.
    std::vector<std::vector<std::vector<float>>> results(
            n_threads, std::vector<std::vector<float>>(n_jobs));
    std::vector<std::string> errors(n_threads);
    start_line start;
    std::vector<std::thread> threads;
    for (int t = 0; t < n_threads; ++t)
        threads.emplace_back([&, t] {
            start.arrive_and_wait(n_threads);
            try {
                for (size_t j = 0; j < n_jobs; ++j) {
                    const size_t job = (j + size_t(t) * 3) % n_jobs;
                    results[t][job] = create_and_run(problems[job % problems.size()],
                                                     isa_list[job / problems.size()]);
                }
            } catch (const std::exception &e) {
                errors[t] = e.what();
            }
        });
    for (auto &th : threads) th.join();
    for (int t = 0; t < n_threads; ++t) {
        INFO("thread " << t);
        CHECK(errors[t] == "");
    }

    for (size_t job = 0; job < n_jobs; ++job) {
        const problem &p = problems[job % problems.size()];
        const cpu_isa isa = isa_list[job / problems.size()];
        INFO(describe(p) << " isa " << cpu_isa_name(isa));
        const std::vector<float> single = create_and_run(p, isa);
        const std::vector<float> ref = create_and_run(p, cpu_isa::none);
        for (int t = 0; t < n_threads; ++t) {
            INFO("thread " << t);
            CHECK(same_bits(results[t][job], single));
        }
        CHECK(first_far_from(single, ref) == -1);
    }
}

TEST_CASE("one primitive executed from many threads at once gives identical results",
          "[threads][execute]") {
    for (const problem &p : small_problems())
        for (const cpu_isa isa : isas()) {
            INFO(describe(p) << " isa " << cpu_isa_name(isa));
            const created c = create(p, isa);
            const std::vector<float> single = run_once(p, c);
            // src, weights and bias are shared and read by every thread; each has its own dst.
            const buffers shared = make_buffers(p, c.pd);
            std::vector<std::vector<float>> results(n_threads);
            std::vector<std::string> errors(n_threads);
            start_line start;
            std::vector<std::thread> threads;
            for (int t = 0; t < n_threads; ++t)
                threads.emplace_back([&, t] {
                    buffers own = shared;
                    start.arrive_and_wait(n_threads);
                    try {
                        for (int rep = 0; rep < 4; ++rep) {
                            own.dst = filled_as(c.pd.dst_desc(), 4);
                            c.prim->execute(own.args());
                            std::vector<float> r = read_dst(own.dst);
                            if (rep > 0 && !same_bits(r, results[t]))
                                errors[t] = "repetition " + std::to_string(rep) + " differs";
                            results[t] = std::move(r);
                        }
                    } catch (const std::exception &e) {
                        errors[t] = e.what();
                    }
                });
            for (auto &th : threads) th.join();
            for (int t = 0; t < n_threads; ++t) {
                INFO("thread " << t);
                CHECK(errors[t] == "");
                CHECK(same_bits(results[t], single));
            }
        }
}

TEST_CASE("in-place eltwise from many threads on disjoint buffers", "[threads][execute]") {
    for (const cpu_isa isa : isas()) {
        INFO("isa " << cpu_isa_name(isa));
        const problem p = eltwise({64, 1031}, algorithm::eltwise_tanh, 0.f, 0.f, "sum:0.25+relu");
        const created c = create(p, isa);
        const memory::desc md = c.pd.src_desc();
        memory expect_mem(md);
        fill(expect_mem, 7);
        c.prim->execute({{PRIM_ARG_SRC, expect_mem}, {PRIM_ARG_DST, expect_mem}});
        const std::vector<float> expect = read_dst(expect_mem);
        std::vector<std::vector<float>> results(n_threads);
        std::vector<std::thread> threads;
        for (int t = 0; t < n_threads; ++t)
            threads.emplace_back([&, t] {
                memory m(md);
                fill(m, 7);
                c.prim->execute({{PRIM_ARG_SRC, m}, {PRIM_ARG_DST, m}});
                results[t] = read_dst(m);
            });
        for (auto &th : threads) th.join();
        for (int t = 0; t < n_threads; ++t) CHECK(same_bits(results[t], expect));
    }
}

TEST_CASE("results do not depend on the number of OpenMP threads", "[threads][omp]") {
    // Large enough that every implementation splits the work between threads.
    const std::vector<problem> problems = {
            conv({2, 32, 20, 20}, {48, 32, 3, 3}, {2, 48, 20, 20}, {1, 1}, {1, 1}, "sum:0.5+tanh"),
            with_any_data(conv({2, 32, 20, 20}, {48, 32, 3, 3}, {2, 48, 20, 20}, {1, 1}, {1, 1},
                               "sum:0.5+tanh")),
            // (above 1 MFLOP: smaller problems run on the calling thread alone)
            with_any_data(conv({2, 32, 64, 64}, {32, 1, 1, 3, 3}, {2, 32, 64, 64}, {1, 1}, {1, 1},
                               "sum+relu")),
            conv({2, 32, 64, 64}, {32, 1, 1, 3, 3}, {2, 32, 64, 64}, {1, 1}, {1, 1}, "relu"),
            ip({64, 512}, {256, 512}, "sum+gelu_erf"),
            ip({4, 1024}, {512, 1024}, "linear:0.5:0.25"),
            eltwise({2, 64, 32, 32}, algorithm::eltwise_swish, 1.f, 0.f, "sum:0.5+tanh"),
    };
    const int saved = omp_get_max_threads();
    for (const problem &p : problems)
        for (const cpu_isa isa : isas()) {
            INFO(describe(p) << " isa " << cpu_isa_name(isa));
            const created c = create(p, isa);
            omp_set_num_threads(1);
            const std::vector<float> one = run_once(p, c);
            omp_set_num_threads(2);
            const std::vector<float> two = run_once(p, c);
            omp_set_num_threads(3); // more threads than cores, and an odd split
            const std::vector<float> three = run_once(p, c);
            omp_set_num_threads(saved);
            CHECK(same_bits(one, two));
            CHECK(same_bits(one, three));
        }
    omp_set_num_threads(saved);
}
