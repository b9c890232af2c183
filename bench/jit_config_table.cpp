// Prints the configuration the JIT chooses for each layer of batch files: register blocking,
// loop order, row merging and the strided-1x1 gather of every convolution, the tiles and cache
// blocks of every inner product, on both ISAs. Two runs (before and after a change to a
// decision, or on two machines) diffed line by line show what the change moved:
//   prim_jit_config_table --conv benchdnn_lite/inputs/resnet50 --ip benchdnn_lite/inputs/ip_bert
// Every layer is configured with the chain sum+relu (its spare registers bound the blocking).
// --cpu NAME (first) configures for one of the CPUs the project runs on, from the facts CPUID
// reports there, instead of this one: so any machine shows what a decision change moves on each
// (scripts/jit_config.sh diffs them against bench/jit_config_NAME.txt).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "common/cpu_info.hpp"
#include "common/primitive_impl.hpp"
#include "jit/conv/conv_conf.hpp"
#include "jit/ip/ip_blocking.hpp"
#include "jit/inject/kernel_chain_plan.hpp"
#include "jit/gen/uarch.hpp"
#include "prim/attr.hpp"
#include "problem_parse.hpp"

namespace {

using prim::cpu_isa;
using prim::memory;

// The descriptors of a batch file: one or more per line, '#' to the end of the line a comment,
// options (--...) skipped.
std::vector<std::string> descriptors(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line.substr(0, line.find('#')));
        std::string w;
        while (words >> w)
            if (w.rfind("--", 0) != 0) out.push_back(w);
    }
    return out;
}

memory::dims data_dims(const prim::impl::conv_problem &p, int64_t c, const int64_t *sp) {
    memory::dims d = {p.mb, c};
    for (int j = 3 - p.nsp; j < 3; ++j) d.push_back(sp[j]);
    return d;
}

// The facts of the CPUs the project runs on, as CPUID reports them (the L3 is the whole chip's).
struct named_cpu {
    const char *name;
    prim::impl::cpu_info info;
};
prim::impl::cpu_info facts(prim::impl::cpu_vendor vendor, const char *id, int family, int model,
                           int64_t l1d_k, int64_t l2_k, int64_t l3_k) {
    prim::impl::cpu_info c;
    c.vendor = vendor;
    c.vendor_id = id;
    c.family = family;
    c.model = model;
    c.l1d_bytes = l1d_k * 1024;
    c.l2_bytes = l2_k * 1024;
    c.l3_bytes = l3_k * 1024;
    c.caches_from_cpuid = true;
    return c;
}
const named_cpu known_cpus[] = {
        {"zen3", facts(prim::impl::cpu_vendor::amd, "AuthenticAMD", 25, 1, 32, 512, 32768)},
        {"zen4", facts(prim::impl::cpu_vendor::amd, "AuthenticAMD", 25, 17, 32, 1024, 32768)},
        {"zen5", facts(prim::impl::cpu_vendor::amd, "AuthenticAMD", 26, 2, 48, 1024, 32768)},
        {"xeon207", facts(prim::impl::cpu_vendor::intel, "GenuineIntel", 6, 207, 48, 2048, 107520)},
};

void print_conv(const std::string &text, cpu_isa allowed, const prim::post_ops &chain,
                const prim::jit::uarch &u) {
    const prim::impl::conv_problem p = bdl::parse_conv_problem(text);
    prim::impl::conv_request req;
    req.prb = p;
    req.with_bias = true;
    req.bias = memory::desc({p.oc}, memory::data_type::f32, "a");
    req.src = memory::desc(data_dims(p, p.ic, p.i), memory::data_type::f32, memory::format_tag::any);
    req.dst = memory::desc(data_dims(p, p.oc, p.o), memory::data_type::f32, memory::format_tag::any);
    memory::dims wd = p.g > 1 ? memory::dims {p.g, p.ocg(), p.icg()} : memory::dims {p.oc, p.ic};
    for (int j = 3 - p.nsp; j < 3; ++j) wd.push_back(p.k[j]);
    req.wei = memory::desc(wd, memory::data_type::f32, memory::format_tag::any);
    req.attr.set_post_ops(chain);
    // What the primitive runs where the CPU allows `allowed`: its kernels' ISA may be narrower;
    // its chain as its creator plans it (jit_convolution.cpp).
    const cpu_isa isa = prim::jit::conv_kernel_isa(p, allowed, u);
    prim::jit::kernel_chain_needs needs;
    needs.batch_per_call = true;
    const prim::jit::kernel_chain_plan plan = prim::jit::plan_kernel_chain(isa, chain, req.dst, needs);
    prim::jit::conv_setup s;
    const std::string why = plan.why_not.empty() ? prim::jit::init_conv_conf(s, req, isa, allowed, plan, u)
                                                 : plan.why_not;
    const prim::jit::conv_conf &c = s.conf;
    std::printf("conv,%s,%s,", prim::cpu_isa_name(allowed), prim::impl::to_string(p).c_str());
    if (!why.empty()) {
        std::printf("declined: %s\n", why.c_str());
        return;
    }
    std::printf("kernel=%s ur_w=%d nb_oc=%d hold_bcast=%d share_taps=%d narrow_tail=%d "
                "n_ocbg=%lld order=%s gather=%d row=%lldx%lld depthwise=%d\n",
                prim::cpu_isa_name(isa), c.ur_w, c.nb_oc, c.hold_bcast ? 1 : 0,
                c.share_taps ? 1 : 0, c.narrow_tail ? 1 : 0, static_cast<long long>(c.n_ocbg),
                c.ocbg_inner ? "ocbg_inner" : "ocbg_outer", s.unit_stride.enabled() ? 1 : 0,
                static_cast<long long>(c.o[1]), static_cast<long long>(c.o[2]),
                c.depthwise ? 1 : 0);
}

void print_ip(const std::string &text, cpu_isa isa, const prim::post_ops &chain,
              const prim::jit::uarch &u) {
    const prim::impl::ip_problem p = bdl::parse_ip_problem(text);
    // The inner product's chain as its creator plans it (jit_inner_product.cpp).
    prim::jit::kernel_chain_needs needs;
    needs.operand_mask_spare = true;
    const memory::desc dst({p.mb, p.oc}, memory::data_type::f32, memory::format_tag::any);
    const prim::jit::kernel_chain_plan plan = prim::jit::plan_kernel_chain(isa, chain, dst, needs);
    prim::jit::ip_blocking b;
    const std::string why = plan.why_not.empty()
            ? prim::jit::init_ip_blocking(b, isa, p, plan.aux_vecs, plan.chain.has_sum(), u)
            : plan.why_not;
    std::printf("ip,%s,%s,", prim::cpu_isa_name(isa), prim::impl::to_string(p).c_str());
    if (!why.empty()) {
        std::printf("declined: %s\n", why.c_str());
        return;
    }
    std::printf("mr=%d nr=%d panels=%lld k_blk=%lld k_blocks=%lld m_chunk=%lld m_chunks=%lld\n",
                b.mr, b.nr, static_cast<long long>(b.panels), static_cast<long long>(b.k_blk),
                static_cast<long long>(b.k_blocks), static_cast<long long>(b.m_chunk),
                static_cast<long long>(b.m_chunks));
}

} // namespace

int main(int argc, char **argv) {
    const auto usage = [&] {
        std::fprintf(stderr, "usage: %s [--cpu zen3|zen4|zen5|xeon207] (--conv FILE | --ip FILE)...\n",
                     argv[0]);
        return 2;
    };
    if (argc < 3 || argc % 2 == 0) return usage();
    try {
        prim::post_ops chain = prim::parse_post_ops("sum+relu");
        // What the decisions rest on: the CPU's facts and the figures derived from them.
        prim::impl::cpu_info cpu = prim::impl::get_cpu_info();
        int a = 1;
        if (std::string(argv[1]) == "--cpu") {
            const std::string name = argv[2];
            const named_cpu *known = nullptr;
            for (const named_cpu &k : known_cpus)
                if (name == k.name) known = &k;
            if (!known) throw std::runtime_error("unknown CPU " + name + " (zen3, zen4, zen5, xeon207)");
            cpu = known->info;
            a = 3;
        }
        const prim::jit::uarch u = prim::jit::uarch_for(cpu);
        std::printf("# %s\n", prim::impl::to_string(cpu).c_str());
        std::printf("# uarch: fma_per_cycle=%g loads_per_cycle=%g fma_latency=%g fma_unit_bits=%d "
                    "conv_block_weights=%lld conv_ocbg_inner_weights=%lld gather_min_oc=%lld "
                    "ip_max_k_blk=%lld ip_src_block=%lld stream_threshold=%lld lnorm_block=%lld\n",
                    u.fma_per_cycle, u.loads_per_cycle, u.fma_latency, u.fma_unit_bits,
                    static_cast<long long>(u.conv_block_weights_bytes),
                    static_cast<long long>(u.conv_ocbg_inner_weights_bytes),
                    static_cast<long long>(u.gather_min_oc), static_cast<long long>(u.ip_max_k_blk),
                    static_cast<long long>(u.ip_src_block_bytes),
                    static_cast<long long>(u.stream_threshold_bytes),
                    static_cast<long long>(u.lnorm_block_bytes));
        for (; a + 1 < argc; a += 2) {
            const std::string opt = argv[a], file = argv[a + 1];
            if (opt != "--conv" && opt != "--ip") throw std::runtime_error("unknown option " + opt);
            for (const std::string &d : descriptors(file))
                for (cpu_isa isa : {cpu_isa::avx512, cpu_isa::avx2}) {
                    if (opt == "--conv") print_conv(d, isa, chain, u);
                    else print_ip(d, isa, chain, u);
                }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
