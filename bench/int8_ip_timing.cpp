// The int8 inner product on the BERT-base layers (mb128, 768->768, 768->3072, 3072->768), u8 src,
// s8 weights, f32 dst, per-channel output scales, f32 bias, gelu_erf (doc/inner_product.md):
// prim int8 under the ISA cap ARG2 (avx512_vnni, avx512, avx2; default none = the machine's),
// prim f32 under the same cap (f32 kernels: avx512 or avx2), oneDNN 2.6 int8 and f32 with the
// same attributes (its ISA: ONEDNN_MAX_CPU_ISA). Runs the four in rotation, ARG1 rounds (default
// 9), each round about 0.2 s per side; prints per layer the best and median GOPS and the median
// of the per-round ratios. Run: OMP_NUM_THREADS=2 ./bench/prim_int8_ip_timing 9 avx512_vnni
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dnnl.hpp>
#include <functional>
#include <memory>
#include <prim/prim.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
}

struct side {
    const char *name;
    std::function<void()> run;
    std::vector<double> gops; // per round
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Fills a buffer of bytes with small values that reach both ends of the int8 ranges.
void fill_bytes(void *p, size_t n, int mod, int off) {
    auto *b = static_cast<unsigned char *>(p);
    for (size_t i = 0; i < n; ++i) b[i] = static_cast<unsigned char>(int((i * 37) % mod) + off);
}

using pdt = prim::memory::data_type;
using ptag = prim::memory::format_tag;

std::function<void()> prim_ip(long mb, long ic, long oc, bool int8, prim::cpu_isa cap) {
    prim::primitive_attr attr;
    attr.set_max_cpu_isa(cap);
    attr.set_strict(true); // a JIT or nothing
    attr.set_post_ops(prim::parse_post_ops("gelu_erf"));
    std::vector<float> scales(static_cast<size_t>(oc), 1.f / 4096);
    if (int8) attr.set_output_scales(1 << 1, scales);
    const prim::inner_product_forward::primitive_desc pd(
            prim::inner_product_forward::desc(
                    prim::prop_kind::forward_inference,
                    prim::memory::desc({mb, ic}, int8 ? pdt::u8 : pdt::f32, ptag::any),
                    prim::memory::desc({oc, ic}, int8 ? pdt::s8 : pdt::f32, ptag::any),
                    prim::memory::desc({oc}, pdt::f32, ptag::x),
                    prim::memory::desc({mb, oc}, pdt::f32, ptag::any)),
            attr);
    std::printf("  prim %s: %s\n", int8 ? "int8" : "f32", pd.impl_name().c_str());
    auto ip = std::make_shared<prim::inner_product_forward>(pd);
    auto args = std::make_shared<prim::exec_args>(prim::exec_args {
            {prim::PRIM_ARG_SRC, prim::memory(pd.src_desc())},
            {prim::PRIM_ARG_WEIGHTS, prim::memory(pd.weights_desc())},
            {prim::PRIM_ARG_BIAS, prim::memory(pd.bias_desc())},
            {prim::PRIM_ARG_DST, prim::memory(pd.dst_desc())}});
    for (auto &[id, m] : *args) {
        if (int8) fill_bytes(m.get_data_handle(), m.get_desc().get_size(), 97, 0);
        else std::memset(m.get_data_handle(), 0, m.get_desc().get_size());
    }
    return [ip, args] { ip->execute(*args); };
}

std::function<void()> dnnl_ip(dnnl::engine &eng, dnnl::stream &strm, long mb, long ic, long oc, bool int8) {
    using dt = dnnl::memory::data_type;
    using tag = dnnl::memory::format_tag;
    dnnl::primitive_attr attr;
    dnnl::post_ops po;
    po.append_eltwise(1.f, dnnl::algorithm::eltwise_gelu_erf, 0.f, 0.f);
    attr.set_post_ops(po);
    if (int8) attr.set_output_scales(1 << 1, std::vector<float>(static_cast<size_t>(oc), 1.f / 4096));
    const dnnl::inner_product_forward::primitive_desc pd(
            dnnl::inner_product_forward::desc(dnnl::prop_kind::forward_inference,
                                              dnnl::memory::desc({mb, ic}, int8 ? dt::u8 : dt::f32, tag::any),
                                              dnnl::memory::desc({oc, ic}, int8 ? dt::s8 : dt::f32, tag::any),
                                              dnnl::memory::desc({oc}, dt::f32, tag::x),
                                              dnnl::memory::desc({mb, oc}, dt::f32, tag::any)),
            attr, eng);
    std::printf("  oneDNN %s: %s\n", int8 ? "int8" : "f32", pd.impl_info_str());
    auto ip = std::make_shared<dnnl::inner_product_forward>(pd);
    auto args = std::make_shared<std::unordered_map<int, dnnl::memory>>(std::unordered_map<int, dnnl::memory> {
            {DNNL_ARG_SRC, dnnl::memory(pd.src_desc(), eng)},
            {DNNL_ARG_WEIGHTS, dnnl::memory(pd.weights_desc(), eng)},
            {DNNL_ARG_BIAS, dnnl::memory(pd.bias_desc(), eng)},
            {DNNL_ARG_DST, dnnl::memory(pd.dst_desc(), eng)}});
    for (auto &[id, m] : *args) {
        if (int8) fill_bytes(m.get_data_handle(), m.get_desc().get_size(), 97, 0);
        else std::memset(m.get_data_handle(), 0, m.get_desc().get_size());
    }
    return [ip, args, &strm] {
        ip->execute(strm, *args);
        strm.wait();
    };
}

} // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
    const std::string isa_name = argc > 2 ? argv[2] : "all";
    const prim::cpu_isa cap = isa_name == "avx2" ? prim::cpu_isa::avx2
            : isa_name == "avx512" ? prim::cpu_isa::avx512
            : isa_name == "avx512_vnni" ? prim::cpu_isa::avx512_vnni : prim::cpu_isa::all;
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    struct layer { long mb, ic, oc; };
    const layer layers[] = {{128, 768, 768}, {128, 768, 3072}, {128, 3072, 768}};
    for (const layer &l : layers) {
        std::printf("mb%ld ic%ld oc%ld, prim cap %s\n", l.mb, l.ic, l.oc, isa_name.c_str());
        const double gop = 2.0 * l.mb * l.ic * l.oc * 1e-9;
        std::vector<side> sides = {{"prim int8", prim_ip(l.mb, l.ic, l.oc, true, cap), {}},
                                   {"prim f32", prim_ip(l.mb, l.ic, l.oc, false, cap), {}},
                                   {"oneDNN int8", dnnl_ip(eng, strm, l.mb, l.ic, l.oc, true), {}},
                                   {"oneDNN f32", dnnl_ip(eng, strm, l.mb, l.ic, l.oc, false), {}}};
        for (auto &s : sides) s.run(); // warm-up
        for (int r = 0; r < rounds; ++r)
            for (auto &s : sides) {
                int calls = 0;
                const double t0 = now_ms();
                double t = t0;
                while (t - t0 < 200) {
                    s.run();
                    ++calls;
                    t = now_ms();
                }
                s.gops.push_back(gop * calls / ((t - t0) * 1e-3));
            }
        std::vector<double> vs_dnnl, vs_f32;
        for (int r = 0; r < rounds; ++r) {
            vs_dnnl.push_back(sides[0].gops[r] / sides[2].gops[r]);
            vs_f32.push_back(sides[0].gops[r] / sides[1].gops[r]);
        }
        for (const auto &s : sides)
            std::printf("  %-12s best %7.1f median %7.1f GOPS\n", s.name,
                        *std::max_element(s.gops.begin(), s.gops.end()), median(s.gops));
        std::printf("  prim int8 / oneDNN int8 median ratio %.2f, prim int8 / prim f32 %.2f\n",
                    median(vs_dnnl), median(vs_f32));
    }
}
