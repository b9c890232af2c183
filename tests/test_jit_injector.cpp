// The post-ops injector, through the JIT eltwise kernel and through a "register contract" host
// kernel: every algorithm x ISA x sizes with tails x chains with sums at different places,
// compared with the reference chain (ref_apply_post_ops); registers not lent are preserved;
// MXCSR is neither read for rounding nor changed; why_not() takes every chain of the contract
// and words a refusal one way.
#include <catch2/catch.hpp>

#include <xmmintrin.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "attr/algorithm_table.hpp"
#include "isa_under_test.hpp"
#include "jit/gen/cpu_isa_detect.hpp"
#include "prim/error.hpp"
#include "jit/inject/eltwise_emitter.hpp"
#include "jit/eltwise/eltwise_kernel.hpp"
#include "jit/inject/post_ops_injector.hpp"
#include "jit/gen/tail_mask.hpp"
#include "ref/ref_kernels.hpp"

using namespace prim;
using namespace prim::jit;

namespace {

struct alg_params {
    algorithm alg;
    float alpha, beta;
};

// Every algorithm, with the default parameters of doc/reference.md §1 and some non-default ones.
const std::vector<alg_params> all_algs = {
    {algorithm::eltwise_relu, 0.f, 0.f}, {algorithm::eltwise_relu, -0.25f, 0.f},
    {algorithm::eltwise_tanh, 0.f, 0.f}, {algorithm::eltwise_elu, 1.f, 0.f},
    {algorithm::eltwise_square, 0.f, 0.f}, {algorithm::eltwise_abs, 0.f, 0.f},
    {algorithm::eltwise_sqrt, 0.f, 0.f}, {algorithm::eltwise_linear, 1.f, 0.f},
    {algorithm::eltwise_linear, -2.f, 0.5f}, {algorithm::eltwise_linear, 0.f, 1.f},
    {algorithm::eltwise_clip, -INFINITY, INFINITY}, {algorithm::eltwise_clip, -0.5f, 1.5f},
    {algorithm::eltwise_clip_v2, 0.f, 6.f}, {algorithm::eltwise_soft_relu, 1.f, 0.f},
    {algorithm::eltwise_soft_relu, 0.7f, 0.f}, {algorithm::eltwise_logistic, 0.f, 0.f},
    {algorithm::eltwise_exp, 0.f, 0.f}, {algorithm::eltwise_log, 0.f, 0.f},
    {algorithm::eltwise_gelu_tanh, 0.f, 0.f}, {algorithm::eltwise_gelu_erf, 0.f, 0.f},
    {algorithm::eltwise_swish, 1.f, 0.f}, {algorithm::eltwise_swish, 0.f, 0.f},
    {algorithm::eltwise_hardsigmoid, 0.2f, 0.5f}, {algorithm::eltwise_hardswish, 1.f / 6, 0.5f},
    {algorithm::eltwise_hardswish, 0.f, 0.25f}, {algorithm::eltwise_mish, 0.f, 0.f},
    {algorithm::eltwise_pow, 1.f, 1.f}, {algorithm::eltwise_pow, 2.f, 3.f},
    {algorithm::eltwise_pow, 1.f, -2.f}, {algorithm::eltwise_pow, 1.f, 0.5f},
    {algorithm::eltwise_pow, 1.f, 1.7f}, {algorithm::eltwise_pow, 1.f, 21.f},
    {algorithm::eltwise_pow, 0.f, 2.f}, {algorithm::eltwise_round, 0.f, 0.f},
    {algorithm::eltwise_celu, 1.f, 0.f}, {algorithm::eltwise_celu, 0.3f, 0.f},
    {algorithm::eltwise_selu, 1.6732632f, 1.0507010f}, {algorithm::eltwise_softsign, 0.f, 0.f},
    {algorithm::eltwise_shrink, 0.f, 0.5f}, {algorithm::eltwise_shrink, 0.25f, 1.f},
    {algorithm::eltwise_thresholded_relu, 1.f, 0.f}, {algorithm::eltwise_scaled_tanh, 1.f, 1.f},
    {algorithm::eltwise_scaled_tanh, 1.5f, 0.f}, {algorithm::eltwise_softplus, 1.f, 0.f},
    {algorithm::eltwise_parametric_softplus, 1.f, 1.f},
    {algorithm::eltwise_parametric_softplus, 0.5f, 2.f}, {algorithm::eltwise_identity, 0.f, 0.f},
    {algorithm::eltwise_logsigmoid, 0.f, 0.f},
};

std::vector<float> inputs(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-3.f, 3.f);
    const float specials[] = {0.f, -0.f, 1.f, -1.f, 0.5f, 2.5f, -2.5f, 20.f, -20.f, INFINITY,
            -INFINITY, NAN, 1e-20f, -1e-20f, 1e30f, -1e30f};
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = (i % 7 == 3) ? specials[(i / 7) % (sizeof(specials) / sizeof(float))] : dist(gen);
    return v;
}

// got matches the reference: both NaN, equal, or within 2e-5 relative (+1e-6 absolute); the
// exact accuracy of each algorithm is test_jit_accuracy's business.
bool close(float got, float ref) {
    if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got);
    if (got == ref) return true;
    if (std::isinf(ref) || std::isinf(got)) return false;
    return std::fabs(got - ref) <= 2e-5 * std::fabs(ref) + 1e-6;
}

std::string describe(const post_ops &po) { return po.len() ? to_string(po) : std::string("(empty)"); }

// Runs chain over src through the eltwise kernel (dst holds dst_old on entry) and compares.
template <cpu_isa isa>
void check_kernel(const post_ops &chain, size_t n, bool in_place, unsigned seed) {
    eltwise_kernel<isa> kernel(eltwise_kernel_conf(), chain);
    kernel.create_kernel();
    const std::vector<float> src = inputs(n, seed), old = inputs(n, seed + 1);
    std::vector<float> dst = in_place ? src : old;
    const std::vector<float> &dst_old = in_place ? src : old;
    eltwise_call_args args{in_place ? dst.data() : src.data(), dst.data(), static_cast<int64_t>(n)};
    kernel.template entry_as<eltwise_kernel_fn>()(&args);
    int bad = 0;
    for (size_t i = 0; i < n && bad < 3; ++i) {
        const float ref = impl::ref_apply_post_ops(chain, src[i], dst_old[i]);
        if (!close(dst[i], ref)) {
            ++bad;
            FAIL_CHECK(isa_traits<isa>::name << " chain " << describe(chain) << " n=" << n
                       << (in_place ? " in place" : "") << " i=" << i << " x=" << src[i]
                       << " old=" << dst_old[i] << " got=" << dst[i] << " ref=" << ref);
        }
    }
}

template <cpu_isa isa>
void check_all_algorithms() {
    const size_t sizes[] = {1, 7, isa_traits<isa>::simd_w, isa_traits<isa>::simd_w + 3, 8 * 16 + 5, 1001};
    unsigned seed = 1;
    for (const alg_params &a : all_algs) {
        post_ops alone, with_sums;
        alone.append_eltwise(a.alg, a.alpha, a.beta, 1.f);
        with_sums.append_sum(0.5f);
        with_sums.append_eltwise(a.alg, a.alpha, a.beta, -1.5f); // scale after the algorithm
        with_sums.append_sum(1.f);
        for (size_t n : sizes) {
            check_kernel<isa>(alone, n, false, seed++);
            check_kernel<isa>(with_sums, n, n % 2 == 0, seed++);
        }
    }
}

} // namespace

TEST_CASE("every algorithm, alone and between sums, every tail: avx2", "[jit][injector][avx2]") {
    check_all_algorithms<cpu_isa::avx2>();
}

TEST_CASE("every algorithm, alone and between sums, every tail: avx512", "[jit][injector][avx512]") {
    check_all_algorithms<cpu_isa::avx512>();
}

TEST_CASE("chains of any length and order, with any number of sums", "[jit][injector]") {
    const char *chains[] = {
        "", "sum", "sum:0.5", "relu", "sum+relu", "relu+sum", "sum:2+relu:0.1+sum:-1",
        "relu:0.1+relu:0.2+relu:-3", // equal algorithms with different constants coexist
        "sum:0.5+gelu_erf+linear:2:1:0.5",
        "tanh:0:0:2+sum+logistic+sum:0.25+exp:0:0:0.5+sum:-1",
        "elu:0.5+sum+abs+sqrt+soft_relu:1+logistic+exp+swish:1",
    };
    std::string long_chain;
    const char *pieces[] = {"relu:0.1", "sum:0.5", "tanh", "linear:0.5:0.25", "clip:-1:1",
                            "gelu_erf", "sum", "logistic:0:0:2", "mish", "abs", "swish:0.7",
                            "hardswish", "selu", "sum:-0.25", "square", "soft_relu:2"};
    for (int i = 0; i < 40; ++i) long_chain += std::string(i ? "+" : "") + pieces[i % 16];
    std::vector<post_ops> all;
    for (const char *c : chains) all.push_back(parse_post_ops(c));
    all.push_back(parse_post_ops(long_chain));
    REQUIRE(all.back().len() == 40);
    unsigned seed = 100;
    for (const post_ops &po : all) {
        for (size_t n : {5, 16, 37, 300}) {
            prim_test::for_each_isa_under_test([&](auto isa) {
                check_kernel<isa()>(po, n, false, seed++);
                check_kernel<isa()>(po, n, true, seed++);
            });
        }
    }
}

namespace {

// A host kernel with scattered accumulators and spares: loads every vector register from
// regs_in, runs the chain over `acc` (a sum reads dst_old[j] for the j-th accumulator), and
// stores every register to regs_out. Registers neither in acc nor in aux must come back intact.
template <cpu_isa isa>
class contract_kernel : public jit_generator {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    contract_kernel(const post_ops &chain, std::vector<int> acc, std::vector<int> aux, std::vector<int> masks)
        : jit_generator("contract", isa_traits<isa>::vlen), chain_(chain), acc_(acc), aux_(aux), masks_(masks) {}

private:
    void generate() override {
        using namespace Xbyak::util;
        constexpr int vlen = isa_traits<isa>::vlen;
        // rdi: regs_in, rsi: regs_out, rdx: dst_old (one vector per accumulator)
        post_ops_injector<isa> inj(*this, chain_, [&](const sum_args &s) {
            int j = 0;
            while (acc_[j] != s.acc_idx) ++j;
            vmovups(Vmm(s.aux_idx), ptr[rdx + j * vlen]);
            vfmadd231ps(Vmm(s.acc_idx), Vmm(s.aux_idx), s.scale_vec);
        });
        preamble();
        load_table_address(r11);
        for (int i = 0; i < isa_traits<isa>::n_vregs; ++i) vmovups(Vmm(i), ptr[rdi + i * vlen]);
        inj.compute({acc_, aux_, masks_, r11});
        for (int i = 0; i < isa_traits<isa>::n_vregs; ++i) vmovups(ptr[rsi + i * vlen], Vmm(i));
        postamble();
    }
    post_ops chain_;
    std::vector<int> acc_, aux_, masks_;
};

template <cpu_isa isa>
// lend_all: the whole pool and every opmask, so that the injector interleaves several
// accumulators (op_sink.hpp); else exactly what the chain needs.
void check_register_contract(const post_ops &chain, const std::vector<int> &acc,
                             const std::vector<int> &spare_pool, bool lend_all = false) {
    constexpr int w = isa_traits<isa>::simd_w, nregs = isa_traits<isa>::n_vregs;
    const int n_aux = lend_all ? static_cast<int>(spare_pool.size())
                               : post_ops_injector<isa>::aux_vecs_count(chain);
    const int n_masks = lend_all ? 7 : post_ops_injector<isa>::aux_opmasks_count(chain);
    REQUIRE(post_ops_injector<isa>::aux_vecs_count(chain) <= static_cast<int>(spare_pool.size()));
    REQUIRE((lend_all || n_masks <= 2));
    const std::vector<int> aux(spare_pool.begin(), spare_pool.begin() + n_aux);
    const std::vector<int> masks = lend_all ? std::vector<int>{1, 2, 3, 4, 5, 6, 7}
                                            : std::vector<int>{3, 6};
    contract_kernel<isa> k(chain, acc, aux, std::vector<int>(masks.begin(), masks.begin() + n_masks));
    k.create_kernel();
    const std::vector<float> in = inputs(nregs * w, 7), old = inputs(acc.size() * w, 8);
    std::vector<float> out(nregs * w, 0.f);
    k.template entry_as<void (*)(const float *, float *, const float *)>()(in.data(), out.data(), old.data());
    for (int r = 0; r < nregs; ++r) {
        const auto it = std::find(acc.begin(), acc.end(), r);
        const bool is_aux = std::find(aux.begin(), aux.end(), r) != aux.end();
        for (int l = 0; l < w; ++l) {
            const float x = in[r * w + l], got = out[r * w + l];
            if (it != acc.end()) {
                const float ref = impl::ref_apply_post_ops(chain, x, old[(it - acc.begin()) * w + l]);
                if (!close(got, ref))
                    FAIL_CHECK(isa_traits<isa>::name << " " << describe(chain) << " acc " << r
                               << " lane " << l << " x=" << x << " got=" << got << " ref=" << ref);
            } else if (!is_aux && std::memcmp(&got, &x, sizeof(float)) != 0) {
                FAIL_CHECK(isa_traits<isa>::name << " " << describe(chain) << ": register " << r
                           << " was not lent but changed");
            }
        }
    }
}

} // namespace

TEST_CASE("register contract: only accumulators and lent spares change", "[jit][injector]") {
    for (const alg_params &a : all_algs) {
        post_ops po;
        po.append_eltwise(a.alg, a.alpha, a.beta, 2.f);
        po.append_sum(-0.5f);
        prim_test::for_each_isa_under_test([&](auto isa) {
            if constexpr (isa() == cpu_isa::avx2)
                check_register_contract<cpu_isa::avx2>(po, {1, 6, 15}, {0, 3, 8, 11, 13});
            else
                check_register_contract<cpu_isa::avx512>(po, {0, 5, 17, 31}, {2, 9, 20, 25, 28});
        });
    }
}

TEST_CASE("register contract with every register lent: accumulators interleaved", "[jit][injector]") {
    // Up to 4 accumulators' code interleaved, each stream with its own spares and opmasks.
    std::vector<int> pool2, pool5;
    for (int r = 0; r < 16; ++r)
        if (r != 1 && r != 6 && r != 15) pool2.push_back(r);
    for (int r = 0; r < 32; ++r)
        if (r != 0 && r != 5 && r != 17 && r != 31 && r != 9) pool5.push_back(r);
    for (const alg_params &a : all_algs) {
        post_ops po;
        po.append_eltwise(a.alg, a.alpha, a.beta, 2.f);
        po.append_sum(-0.5f);
        po.append_eltwise(a.alg, a.alpha, a.beta, 1.f);
        prim_test::for_each_isa_under_test([&](auto isa) {
            if constexpr (isa() == cpu_isa::avx2)
                check_register_contract<cpu_isa::avx2>(po, {1, 6, 15}, pool2, true);
            else
                check_register_contract<cpu_isa::avx512>(po, {0, 5, 17, 31, 9}, pool5, true);
        });
    }
}

TEST_CASE("spare register counts are stated up front", "[jit][injector]") {
    using inj2 = post_ops_injector<cpu_isa::avx2>;
    using inj5 = post_ops_injector<cpu_isa::avx512>;
    CHECK(inj2::aux_vecs_count(post_ops()) == 0);
    CHECK(inj2::aux_vecs_count(parse_post_ops("sum")) == 1);
    CHECK(inj2::aux_vecs_count(parse_post_ops("relu")) == 1);
    CHECK(inj5::aux_vecs_count(parse_post_ops("relu:0.1")) == 0); // an opmask does it
    CHECK(inj5::aux_opmasks_count(parse_post_ops("relu:0.1")) == 1);
    CHECK(inj2::aux_opmasks_count(parse_post_ops("relu:0.1+gelu_erf")) == 0);
    for (const alg_params &a : all_algs) {
        CHECK(inj2::aux_vecs_count(a.alg, a.alpha, a.beta) <= 5);
        CHECK(inj5::aux_vecs_count(a.alg, a.alpha, a.beta) <= 4);
        CHECK(inj5::aux_opmasks_count(a.alg, a.alpha, a.beta) <= 2);
    }
}

TEST_CASE("why_not: every chain of the contract is taken, with the opmasks hosts lend", "[jit][injector]") {
    using inj2 = post_ops_injector<cpu_isa::avx2>;
    using inj5 = post_ops_injector<cpu_isa::avx512>;
    CHECK(inj2::why_not(post_ops()) == "");
    CHECK(inj5::why_not(post_ops()) == "");
    CHECK(inj5::why_not(parse_post_ops("sum:0.5+log+sum+gelu_erf")) == "");
    for (const alg_params &a : all_algs) {
        post_ops po;
        po.append_sum(2.f);
        po.append_eltwise(a.alg, a.alpha, a.beta, 0.5f);
        INFO(describe(po));
        CHECK(inj2::why_not(po) == "");
        CHECK(inj5::why_not(po) == "");
        // what why_not promises: the chain's needs fit what every host lends
        CHECK(inj5::aux_opmasks_count(po) <= static_cast<int>(inj5::opmasks().size()));
    }
    // The opmasks: the injector's k2..k7 on AVX-512, never the host's tail mask; none on AVX2.
    const std::vector<int> ks = inj5::opmasks();
    CHECK(ks == std::vector<int>{2, 3, 4, 5, 6, 7});
    CHECK(std::count(ks.begin(), ks.end(), host_tail_opmask) == 0);
    CHECK(inj2::opmasks().empty());
}

TEST_CASE("every algorithm of the algorithm table has an emitter row", "[jit][injector]") {
    // The two rows of an algorithm (src/attr/algorithm_table.cpp, src/jit/inject/eltwise_emitter.cpp).
    for (algorithm a : prim::impl::eltwise_algorithms()) {
        INFO(algorithm_name(a));
        CHECK(eltwise_emitter<cpu_isa::avx2>::is_supported(a));
        CHECK(eltwise_emitter<cpu_isa::avx512>::is_supported(a));
    }
    CHECK_FALSE(eltwise_emitter<cpu_isa::avx2>::is_supported(algorithm::binary_add));
}

TEST_CASE("why_not: an entry without an emitter is refused, worded one way", "[jit][injector]") {
    // post_ops refuses to hold such an entry, so it is built by hand.
    post_ops::entry e;
    e.kind = post_ops::kind::eltwise;
    e.alg = algorithm::convolution_direct;
    CHECK(post_ops_injector<cpu_isa::avx2>::why_not(e) == "post-op #1 has no JIT emitter");
    CHECK(post_ops_injector<cpu_isa::avx512>::why_not(e) == "post-op #1 has no JIT emitter");
    e.kind = post_ops::kind::sum; // a sum is the host's callback: always taken
    CHECK(post_ops_injector<cpu_isa::avx512>::why_not(e) == "");
    e.kind = post_ops::kind::eltwise;
    e.alg = algorithm::eltwise_gelu_erf;
    CHECK(post_ops_injector<cpu_isa::avx512>::why_not(e) == "");
}

TEST_CASE("the injector checks what the host lends", "[jit][injector]") {
    // A chain with a sum needs a callback.
    struct no_sum_host : jit_generator {
        explicit no_sum_host(const post_ops &po) : jit_generator("t", 64), po_(po) {}
        void generate() override { post_ops_injector<cpu_isa::avx512> inj(*this, po_); }
        post_ops po_;
    };
    no_sum_host h(parse_post_ops("sum"));
    CHECK_THROWS_AS(h.create_kernel(), prim::error);
}

namespace {

template <cpu_isa isa>
std::vector<float> run_chain(const post_ops &po, const std::vector<float> &src) {
    eltwise_kernel<isa> kernel(eltwise_kernel_conf(), po);
    kernel.create_kernel();
    std::vector<float> dst(src.size(), 0.f);
    eltwise_call_args args{src.data(), dst.data(), static_cast<int64_t>(src.size())};
    kernel.template entry_as<eltwise_kernel_fn>()(&args);
    return dst;
}

// Runs po under MXCSR "round toward zero": the kernel must not change MXCSR's control bits.
// Returns the result, computed under that mode.
template <cpu_isa isa>
std::vector<float> run_under_round_to_zero(const post_ops &po, const std::vector<float> &src) {
    const unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | 0x6000u);
    const unsigned before = _mm_getcsr();
    const std::vector<float> got = run_chain<isa>(po, src);
    const unsigned after = _mm_getcsr();
    _mm_setcsr(saved);
    CHECK((after & ~0x3fu) == (before & ~0x3fu)); // the sticky status flags may be set
    return got;
}

} // namespace

TEST_CASE("kernels do not change MXCSR; round and range reduction ignore its mode", "[jit][injector]") {
    const std::vector<float> src = inputs(37, 5);
    for (const alg_params &a : all_algs) {
        post_ops po;
        po.append_eltwise(a.alg, a.alpha, a.beta, 1.f);
        INFO(describe(po));
        prim_test::for_each_isa_under_test([&](auto isa) { run_under_round_to_zero<isa()>(po, src); });
    }
    // round: half to even whatever MXCSR says (vroundps / vrndscaleps with an immediate mode)
    const std::vector<float> halves = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4f, -2.6f, 1e7f + 1, NAN};
    const std::vector<float> expected = {0.f, 2.f, 2.f, -0.f, -2.f, -2.f, 2.f, -3.f, 1e7f + 1, NAN};
    const post_ops round = parse_post_ops("round");
    std::vector<std::vector<float>> results;
    prim_test::for_each_isa_under_test(
            [&](auto isa) { results.push_back(run_under_round_to_zero<isa()>(round, halves)); });
    for (const std::vector<float> &got : results)
        for (size_t i = 0; i < halves.size(); ++i)
            CHECK((got[i] == expected[i] || (std::isnan(got[i]) && std::isnan(expected[i]))));
    // exp(x) for x = n ln2 + small: a range reduction rounding toward zero would be off by one
    const std::vector<float> xs = {-0.35f, 0.35f, 1.04f, -1.04f, 10.4f};
    const std::vector<float> e = run_under_round_to_zero<cpu_isa::avx2>(parse_post_ops("exp"), xs);
    for (size_t i = 0; i < xs.size(); ++i) CHECK(std::fabs(e[i] - std::exp(xs[i])) <= 1e-6f * std::exp(xs[i]));
}

namespace {

// Copies n (known at code generation) floats through a masked load and a full store to `full`,
// and through a masked store to `part`: the masked load must zero the other lanes and the masked
// store must not write them.
template <cpu_isa isa>
class tail_copy_kernel : public jit_generator {
public:
    using Vmm = typename isa_traits<isa>::Vmm;
    explicit tail_copy_kernel(int n) : jit_generator("tail_copy", isa_traits<isa>::vlen), n_(n) {}

private:
    void generate() override {
        using namespace Xbyak::util;
        // rdi: src, rsi: full, rdx: part
        preamble();
        load_table_address(r11);
        tail_mask<isa> mask(*this, n_, isa_traits<isa>::has_opmask ? 1 : 15);
        mask.prepare(r11, rax);
        vmovups(Vmm(0), ptr[rdi]);
        mask.load(Vmm(0), ptr[rdi]);
        vmovups(ptr[rsi], Vmm(0));
        mask.store(ptr[rdx], Vmm(0));
        postamble();
    }
    int n_;
};

template <cpu_isa isa>
void check_tail_masks() {
    constexpr int w = isa_traits<isa>::simd_w;
    for (int n = 1; n < w; ++n) {
        tail_copy_kernel<isa> k(n);
        k.create_kernel();
        std::vector<float> src(w), full(w, -7.f), part(w, -7.f);
        for (int i = 0; i < w; ++i) src[i] = static_cast<float>(i + 1);
        k.template entry_as<void (*)(const float *, float *, float *)>()(src.data(), full.data(), part.data());
        for (int i = 0; i < w; ++i) {
            CHECK(full[i] == (i < n ? src[i] : 0.f));
            CHECK(part[i] == (i < n ? src[i] : -7.f));
        }
    }
}

} // namespace

TEST_CASE("tail masks: masked loads zero, masked stores skip the other lanes", "[jit][tail]") {
    prim_test::for_each_isa_under_test([](auto isa) { check_tail_masks<isa()>(); });
}
