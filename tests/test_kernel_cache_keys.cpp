// The kernel cache's keys are derived from the kernels' configuration structs (kernel_key()):
// for the convolution's conv_kernel_conf, the inner product's ip_gemm_conf and the eltwise kernel's
// eltwise_kernel_conf, a change
// of any byte of the struct (so of any field, present or added later: the structs have no
// padding) changes the key, as do the ISA and the chain; and through the real cache,
// configurations differing in one field get different kernels, equal ones the same kernel.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "jit/conv/conv_conf.hpp"
#include "jit/eltwise/eltwise_kernel.hpp"
#include "jit/ip/ip_gemm_kernel.hpp"
#include "jit/gen/kernel_cache.hpp"

using namespace prim;
using namespace prim::jit;

namespace {

// key(conf) for conf and for conf with each of its bytes flipped in turn: all different.
template <typename conf_t, typename key_fn>
void check_every_byte_is_in_the_key(const conf_t &base, key_fn key) {
    std::set<std::string> keys = {key(base)};
    for (size_t i = 0; i < sizeof(conf_t); ++i) {
        conf_t changed;
        std::memcpy(&changed, &base, sizeof(conf_t));
        reinterpret_cast<unsigned char *>(&changed)[i] ^= 0x5a;
        INFO("byte " << i << " of " << sizeof(conf_t));
        CHECK(keys.insert(key(changed)).second);
    }
}

// The kernels the cache gives for configurations 0..n_confs-1, all different: one new kernel
// per configuration; asking for configuration 0 again gives its kernel again.
template <typename make_fn>
void check_distinct_kernels(size_t n_confs, make_fn kernel_for) {
    const kernel_cache::stats_t before = kernel_cache::instance().stats();
    std::vector<std::shared_ptr<const jit_generator>> kernels;
    std::set<const jit_generator *> distinct;
    for (size_t i = 0; i < n_confs; ++i) {
        kernels.push_back(kernel_for(i));
        INFO("configuration " << i);
        CHECK(distinct.insert(kernels.back().get()).second);
    }
    CHECK(kernel_for(0) == kernels[0]);
    const kernel_cache::stats_t after = kernel_cache::instance().stats();
    CHECK(after.misses - before.misses == static_cast<long>(n_confs));
    CHECK(after.hits - before.hits == 1);
}

ip_gemm_conf ip_base() {
    ip_gemm_conf c;
    c.mr = 2;
    c.nr = 1;
    c.lda = 4 * 40;
    c.ldw = 32;
    c.wei_k_step = 32;
    c.ldc = 4 * 24;
    c.ldp = 32;
    return c;
}

// One configuration per field of ip_gemm_conf, each differing from ip_base() in that field.
std::vector<ip_gemm_conf> ip_one_field_changes() {
    std::vector<ip_gemm_conf> v(10, ip_base());
    v[1].mr = 3;
    v[2].nr = 2;
    v[3].tail = 5;
    v[4].lda = 4 * 41;
    v[5].ldw = 64;
    v[6].wei_k_step = 64;
    v[7].ldc = 4 * 25;
    v[8].ldp = 64;
    v[9].with_bias = 1;
    return v;
}

} // namespace

TEST_CASE("ip_gemm_conf: every byte, the ISA and the chain are in the key", "[jit][kernel_cache]") {
    const post_ops chain = parse_post_ops("sum+relu");
    check_every_byte_is_in_the_key(ip_base(), [&](const ip_gemm_conf &c) {
        return ip_gemm_kernel<cpu_isa::avx2>::cache_key(c, chain);
    });
    const std::set<std::string> keys = {ip_gemm_kernel<cpu_isa::avx2>::cache_key(ip_base(), chain),
            ip_gemm_kernel<cpu_isa::avx512>::cache_key(ip_base(), chain),
            ip_gemm_kernel<cpu_isa::avx2>::cache_key(ip_base(), parse_post_ops("sum+relu:0.5")),
            ip_gemm_kernel<cpu_isa::avx2>::cache_key(ip_base(), post_ops())};
    CHECK(keys.size() == 4);
}

TEST_CASE("ip_gemm_conf: one field changed, another kernel from the cache", "[jit][kernel_cache]") {
    const std::vector<ip_gemm_conf> confs = ip_one_field_changes();
    const post_ops chain = parse_post_ops("sum:0.5+tanh");
    check_distinct_kernels(confs.size() + 2, [&](size_t i) {
        if (i == confs.size()) // the chain changed
            return kernel_cache::instance().get_or_create(
                    ip_gemm_kernel<cpu_isa::avx2>::cache_key(confs[0], post_ops()),
                    [&] { return std::make_unique<ip_gemm_kernel<cpu_isa::avx2>>(confs[0], post_ops()); });
        if (i == confs.size() + 1) // the ISA changed
            return kernel_cache::instance().get_or_create(
                    ip_gemm_kernel<cpu_isa::avx512>::cache_key(confs[0], chain),
                    [&] { return std::make_unique<ip_gemm_kernel<cpu_isa::avx512>>(confs[0], chain); });
        return kernel_cache::instance().get_or_create(
                ip_gemm_kernel<cpu_isa::avx2>::cache_key(confs[i], chain),
                [&] { return std::make_unique<ip_gemm_kernel<cpu_isa::avx2>>(confs[i], chain); });
    });
}

TEST_CASE("eltwise_kernel_conf: every byte, the ISA and the chain are in the key", "[jit][kernel_cache]") {
    const post_ops chain = parse_post_ops("elu:0.5+sum");
    check_every_byte_is_in_the_key(eltwise_kernel_conf(), [&](const eltwise_kernel_conf &c) {
        return eltwise_kernel<cpu_isa::avx512>::cache_key(c, chain);
    });
    const eltwise_kernel_conf c;
    const std::set<std::string> keys = {eltwise_kernel<cpu_isa::avx2>::cache_key(c, chain),
            eltwise_kernel<cpu_isa::avx512>::cache_key(c, chain),
            eltwise_kernel<cpu_isa::avx2>::cache_key(c, parse_post_ops("elu:0.25+sum")),
            eltwise_kernel<cpu_isa::avx2>::cache_key(c, parse_post_ops("elu:0.5"))};
    CHECK(keys.size() == 4);
}

TEST_CASE("eltwise_kernel_conf: one field changed, another kernel from the cache", "[jit][kernel_cache]") {
    const post_ops chain = parse_post_ops("gelu_erf+linear:2:1");
    eltwise_kernel_conf streaming;
    streaming.stream_stores = true;
    const std::vector<eltwise_kernel_conf> confs = {eltwise_kernel_conf(), streaming};
    check_distinct_kernels(confs.size() + 2, [&](size_t i) {
        if (i == confs.size()) return get_eltwise_kernel(cpu_isa::avx2, confs[0], parse_post_ops("gelu_erf"));
        if (i == confs.size() + 1) return get_eltwise_kernel(cpu_isa::avx512, confs[0], chain);
        return get_eltwise_kernel(cpu_isa::avx2, confs[i], chain);
    });
}

TEST_CASE("kernel keys: every byte of conv_kernel_conf, the kind and the chain are in the key",
          "[kernel_cache]") {
    // Real layers differing in one field each get their own kernels: test_jit_conv.cpp.
    const post_ops chain = parse_post_ops("sum+relu");
    check_every_byte_is_in_the_key(conv_kernel_conf(), [&](const conv_kernel_conf &c) {
        return kernel_key("conv_avx512", c, chain);
    });
    const std::string key = kernel_key("conv_avx512", conv_kernel_conf(), chain);
    CHECK(kernel_key("conv_avx2", conv_kernel_conf(), chain) != key);
    CHECK(kernel_key("conv_avx512", conv_kernel_conf(), parse_post_ops("sum+relu:0.5")) != key);
}

TEST_CASE("key_of: a binary or prelu entry's algorithm and access are in the key, src1 is not",
          "[jit][kernel_cache]") {
    using prim::jit::key_of;
    using policy = prim::post_ops::policy;
    const auto chain = [](prim::algorithm alg, int mask) {
        prim::post_ops po;
        po.append_binary(alg, mask);
        return po;
    };
    const std::string add_oc = key_of(chain(prim::algorithm::binary_add, policy::per_oc));
    CHECK(key_of(chain(prim::algorithm::binary_mul, policy::per_oc)) != add_oc);
    CHECK(key_of(chain(prim::algorithm::binary_add, policy::per_tensor)) != add_oc);
    prim::post_ops prelu_oc, prelu_common;
    prelu_oc.append_prelu(policy::per_oc);
    prelu_common.append_prelu(policy::common);
    CHECK(key_of(prelu_oc) != key_of(prelu_common));
    CHECK(key_of(prelu_oc) != add_oc);
    // A given src1 of the same policy: kernels address it by the policy alone.
    prim::post_ops given;
    given.append_binary(prim::algorithm::binary_add,
                        prim::memory::desc({1, 19, 1, 1}, prim::memory::data_type::f32,
                                           prim::memory::format_tag::nchw));
    CHECK(key_of(given) == add_oc);
}
