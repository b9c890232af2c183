// The issue-13 passes (doc/performance.md), each group in rotation, ARG1 rounds (default 11):
// (1) 1x1 ic64->oc256 56x56 mb2: convolution with mul:f32:per_oc+add:f32:per_oc+relu against
//     convolution, batch_normalization_forward, relu as three primitives;
// (2) batch norm (global stats, scale, shift) + relu on mb32ic256ih56, nchw and nChw16c: prim and
//     oneDNN 2.6 against a two-thread memcpy of the same bytes;
// (3) layer norm 4096x1024 (computed statistics, scale, shift): prim and oneDNN against a copy;
// (4) binary add + relu on 32x256x56x56 per tensor: prim (nchw, nChw16c) and oneDNN against a copy.
// GB/s count bytes read plus written. Run: OMP_NUM_THREADS=2 ./bench/prim_binary_passes_timing
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dnnl.hpp>
#include <functional>
#include <memory>
#include <omp.h>
#include <prim/prim.hpp>
#include <vector>
static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
struct job {
    std::string name;
    double bytes;
    std::function<void()> f;
    std::vector<double> t;
};
// A two-thread memcpy of n floats from a to c, each thread one half: the bandwidth reference.
static job copy_job(const std::string &name, const float *a, float *c, size_t n) {
    return {name, 2.0 * n * 4, [=] {
#pragma omp parallel num_threads(2)
                {
                    const int t = omp_get_thread_num();
                    const size_t h = n / 2;
                    memcpy(c + t * h, a + t * h, (t ? n - h : h) * 4);
                }
            },
            {}};
}

static void fill(const prim::memory &m) {
    float *p = (float *)m.get_data_handle();
    size_t n = m.get_desc().get_size() / 4;
    for (size_t i = 0; i < n; ++i)
        p[i] = float((i * 7) % 13) * 0.1f + 0.1f;
}
static void fill(const dnnl::memory &m) {
    float *p = (float *)m.get_data_handle();
    size_t n = m.get_desc().get_size() / 4;
    for (size_t i = 0; i < n; ++i)
        p[i] = float((i * 7) % 13) * 0.1f + 0.1f;
}
using namespace prim;
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 11;
    std::vector<std::vector<job>> groups;
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    auto strm = std::make_shared<dnnl::stream>(eng);
    using dt = memory::data_type;
    const auto GCH = normalization_flags::use_global_stats | normalization_flags::use_scale |
                     normalization_flags::use_shift;
    { // (1)
        std::vector<job> g;
        memory::dims sd{2, 64, 56, 56}, wd{256, 64, 1, 1}, dd{2, 256, 56, 56};
        auto conv_pd = [&](const char *chain) {
            primitive_attr attr;
            attr.set_post_ops(parse_post_ops(chain));
            return convolution_forward::primitive_desc(
                convolution_forward::desc(prop_kind::forward_inference,
                                          algorithm::convolution_direct,
                                          memory::desc(sd, dt::f32, memory::format_tag::any),
                                          memory::desc(wd, dt::f32, memory::format_tag::any),
                                          memory::desc({256}, dt::f32, memory::format_tag::x),
                                          memory::desc(dd, dt::f32, memory::format_tag::any),
                                          {1, 1}, {0, 0}, {0, 0}, {0, 0}),
                attr);
        };
        auto fpd = conv_pd("mul:f32:per_oc+add:f32:per_oc+relu");
        auto fconv = std::make_shared<convolution_forward>(fpd);
        exec_args fa{{PRIM_ARG_SRC, memory(fpd.src_desc())},
                     {PRIM_ARG_WEIGHTS, memory(fpd.weights_desc())},
                     {PRIM_ARG_BIAS, memory(fpd.bias_desc())},
                     {PRIM_ARG_DST, memory(fpd.dst_desc())},
                     {PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1,
                      memory(fpd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1))},
                     {PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_SRC_1,
                      memory(fpd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_SRC_1))}};
        for (auto &a : fa)
            fill(a.second);
        g.push_back(
            {"conv+bn+relu fused (" + fpd.impl_name() + ")", 0, [=] { fconv->execute(fa); }, {}});
        auto upd = conv_pd("");
        auto uconv = std::make_shared<convolution_forward>(upd);
        memory y(upd.dst_desc());
        exec_args ua{{PRIM_ARG_SRC, memory(upd.src_desc())},
                     {PRIM_ARG_WEIGHTS, memory(upd.weights_desc())},
                     {PRIM_ARG_BIAS, memory(upd.bias_desc())},
                     {PRIM_ARG_DST, y}};
        for (auto &a : ua)
            fill(a.second);
        batch_normalization_forward::primitive_desc bpd(batch_normalization_forward::desc(
            prop_kind::forward_inference, y.get_desc(), y.get_desc(), 1e-5f, GCH));
        auto bn = std::make_shared<batch_normalization_forward>(bpd);
        memory z(y.get_desc());
        exec_args ba{{PRIM_ARG_SRC, y},
                     {PRIM_ARG_DST, z},
                     {PRIM_ARG_MEAN, memory(bpd.mean_desc())},
                     {PRIM_ARG_VARIANCE, memory(bpd.variance_desc())},
                     {PRIM_ARG_SCALE, memory(bpd.scale_desc())},
                     {PRIM_ARG_SHIFT, memory(bpd.shift_desc())}};
        for (auto &a : ba)
            if (a.first != PRIM_ARG_SRC && a.first != PRIM_ARG_DST)
                fill(a.second);
        eltwise_forward::primitive_desc rpd(
            eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_relu,
                                  z.get_desc(), z.get_desc(), 0.f, 0.f));
        auto relu = std::make_shared<eltwise_forward>(rpd);
        memory o(z.get_desc());
        g.push_back({"conv, bnorm, relu unfused (" + bpd.impl_name() + ")",
                     0,
                     [=] {
                         uconv->execute(ua);
                         bn->execute(ba);
                         relu->execute({{PRIM_ARG_SRC, z}, {PRIM_ARG_DST, o}});
                     },
                     {}});
        groups.push_back(g);
    }
    for (const char *layout : {"abcd", "aBcd16b"}) { // (2)
        std::vector<job> g;
        memory::dims d{32, 256, 56, 56};
        size_t n = 32ul * 256 * 56 * 56;
        memory::desc md(d, dt::f32, std::string(layout));
        float *a = (float *)aligned_alloc(64, n * 4), *c = (float *)aligned_alloc(64, n * 4);
        for (size_t i = 0; i < n; ++i) {
            a[i] = (i % 7) - 3.f;
            c[i] = 0;
        }
        g.push_back(copy_job(std::string("copy ") + layout, a, c, n));
        primitive_attr attr;
        attr.set_post_ops(parse_post_ops("relu"));
        batch_normalization_forward::primitive_desc bpd(
            batch_normalization_forward::desc(prop_kind::forward_inference, md, md, 1e-5f, GCH),
            attr);
        auto bn = std::make_shared<batch_normalization_forward>(bpd);
        exec_args ba{{PRIM_ARG_SRC, memory(md, a)},
                     {PRIM_ARG_DST, memory(md, c)},
                     {PRIM_ARG_MEAN, memory(bpd.mean_desc())},
                     {PRIM_ARG_VARIANCE, memory(bpd.variance_desc())},
                     {PRIM_ARG_SCALE, memory(bpd.scale_desc())},
                     {PRIM_ARG_SHIFT, memory(bpd.shift_desc())}};
        for (auto &x : ba)
            if (x.first != PRIM_ARG_SRC && x.first != PRIM_ARG_DST)
                fill(x.second);
        g.push_back({std::string("prim bnorm+relu ") + bpd.impl_name(),
                     2.0 * n * 4,
                     [=] { bn->execute(ba); },
                     {}});
        dnnl::memory::desc dmd(d, dnnl::memory::data_type::f32,
                               std::string(layout) == "abcd" ? dnnl::memory::format_tag::nchw
                                                             : dnnl::memory::format_tag::nChw16c);
        dnnl::post_ops po;
        po.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
        dnnl::primitive_attr dattr;
        dattr.set_post_ops(po);
        auto fl = dnnl::normalization_flags::use_global_stats |
                  dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
        dnnl::batch_normalization_forward::primitive_desc dpd(
            dnnl::batch_normalization_forward::desc(dnnl::prop_kind::forward_inference, dmd, 1e-5f,
                                                    fl),
            dattr, eng);
        auto dbn = std::make_shared<dnnl::batch_normalization_forward>(dpd);
        std::unordered_map<int, dnnl::memory> da{
            {DNNL_ARG_SRC, dnnl::memory(dmd, eng, a)},
            {DNNL_ARG_DST, dnnl::memory(dmd, eng, c)},
            {DNNL_ARG_MEAN, dnnl::memory(dpd.mean_desc(), eng)},
            {DNNL_ARG_VARIANCE, dnnl::memory(dpd.variance_desc(), eng)},
            {DNNL_ARG_SCALE, dnnl::memory(dpd.weights_desc(), eng)},
            {DNNL_ARG_SHIFT, dnnl::memory(dpd.weights_desc(), eng)}};
        for (auto &x : da)
            if (x.first != DNNL_ARG_SRC && x.first != DNNL_ARG_DST)
                fill(x.second);
        g.push_back({std::string("onednn bnorm+relu ") + dpd.impl_info_str(),
                     2.0 * n * 4,
                     [=] {
                         dbn->execute(*strm, da);
                         strm->wait();
                     },
                     {}});
        groups.push_back(g);
    }
    { // (3)
        std::vector<job> g;
        memory::dims d{4096, 1024};
        size_t n = 4096ul * 1024;
        memory::desc md(d, dt::f32, memory::format_tag::ab);
        float *a = (float *)aligned_alloc(64, n * 4), *c = (float *)aligned_alloc(64, n * 4);
        for (size_t i = 0; i < n; ++i) {
            a[i] = (i % 7) - 3.f;
            c[i] = 0;
        }
        g.push_back(copy_job("copy lnorm", a, c, n));
        const auto CH = normalization_flags::use_scale | normalization_flags::use_shift;
        layer_normalization_forward::primitive_desc lpd(
            layer_normalization_forward::desc(prop_kind::forward_inference, md, 1e-5f, CH));
        auto ln = std::make_shared<layer_normalization_forward>(lpd);
        exec_args la{{PRIM_ARG_SRC, memory(md, a)},
                     {PRIM_ARG_DST, memory(md, c)},
                     {PRIM_ARG_SCALE, memory(lpd.scale_desc())},
                     {PRIM_ARG_SHIFT, memory(lpd.shift_desc())}};
        fill(la[PRIM_ARG_SCALE]);
        fill(la[PRIM_ARG_SHIFT]);
        g.push_back({"prim lnorm " + lpd.impl_name(), 2.0 * n * 4, [=] { ln->execute(la); }, {}});
        dnnl::memory::desc dmd(d, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab);
        auto fl = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
        dnnl::layer_normalization_forward::primitive_desc dpd(
            dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_inference, dmd, 1e-5f,
                                                    fl),
            eng);
        auto dln = std::make_shared<dnnl::layer_normalization_forward>(dpd);
        std::unordered_map<int, dnnl::memory> da{
            {DNNL_ARG_SRC, dnnl::memory(dmd, eng, a)},
            {DNNL_ARG_DST, dnnl::memory(dmd, eng, c)},
            {DNNL_ARG_SCALE, dnnl::memory(dpd.weights_desc(), eng)},
            {DNNL_ARG_SHIFT, dnnl::memory(dpd.weights_desc(), eng)}};
        for (auto &x : da)
            if (x.first != DNNL_ARG_SRC && x.first != DNNL_ARG_DST)
                fill(x.second);
        g.push_back({std::string("onednn lnorm ") + dpd.impl_info_str(),
                     2.0 * n * 4,
                     [=] {
                         dln->execute(*strm, da);
                         strm->wait();
                     },
                     {}});
        groups.push_back(g);
    }
    { // (4)
        std::vector<job> jobs;
        memory::dims d{32, 256, 56, 56};
        size_t n = 32ul * 256 * 56 * 56;
        // copy
        float *a = (float *)aligned_alloc(64, n * 4), *b = (float *)aligned_alloc(64, n * 4),
              *c = (float *)aligned_alloc(64, n * 4);
        for (size_t i = 0; i < n; ++i) {
            a[i] = (i % 7) - 3.f;
            b[i] = (i % 5) - 2.f;
            c[i] = 0;
        }
        jobs.push_back(copy_job("copy(2 threads)", a, c, n));
        for (const char *layout : {"abcd", "aBcd16b"}) {
            memory::desc md(d, memory::data_type::f32, std::string(layout));
            primitive_attr attr;
            attr.set_post_ops(parse_post_ops("relu"));
            binary::primitive_desc pd(binary::desc(algorithm::binary_add, md, md, md), attr);
            auto p = std::make_shared<binary>(pd);
            memory m0(md, a), m1(md, b), m2(md, c);
            jobs.push_back(
                {layout[1] == 'B' ? "prim binary add+relu blk" : "prim binary add+relu nchw",
                 3.0 * n * 4,
                 [=] {
                     p->execute({{PRIM_ARG_SRC_0, m0}, {PRIM_ARG_SRC_1, m1}, {PRIM_ARG_DST, m2}});
                 },
                 {}});
        }
        {
            memory::desc md(d, memory::data_type::f32, memory::format_tag::nchw);
            eltwise_forward::primitive_desc pd(eltwise_forward::desc(
                prop_kind::forward_inference, algorithm::eltwise_relu, md, md, 0.f, 0.f));
            auto p = std::make_shared<eltwise_forward>(pd);
            memory m0(md, a), m2(md, c);
            jobs.push_back({"prim eltwise relu",
                            2.0 * n * 4,
                            [=] {
                                p->execute({{PRIM_ARG_SRC, m0}, {PRIM_ARG_DST, m2}});
                            },
                            {}});
        }
        {
            dnnl::memory::desc md(d, dnnl::memory::data_type::f32, dnnl::memory::format_tag::nchw);
            dnnl::post_ops po;
            po.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
            dnnl::primitive_attr attr;
            attr.set_post_ops(po);
            dnnl::binary::primitive_desc pd(
                dnnl::binary::desc(dnnl::algorithm::binary_add, md, md, md), attr, eng);
            auto p = std::make_shared<dnnl::binary>(pd);
            dnnl::memory m0(md, eng, a), m1(md, eng, b), m2(md, eng, c);
            jobs.push_back(
                {"onednn binary add+relu",
                 3.0 * n * 4,
                 [=] {
                     p->execute(*strm,
                                {{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, m2}});
                     strm->wait();
                 },
                 {}});
        }
        groups.push_back(jobs);
    }
    for (auto &g : groups) {
        for (auto &j : g)
            j.f();
        for (int r = 0; r < reps; ++r)
            for (auto &j : g) {
                double t0 = now();
                j.f();
                j.t.push_back(now() - t0);
            }
        double base = 0, base_gbs = 0;
        for (auto &j : g) {
            std::sort(j.t.begin(), j.t.end());
            double m = j.t[j.t.size() / 2];
            if (base == 0) {
                base = m;
                base_gbs = j.bytes ? j.bytes / m / 1e9 : 0;
            }
            if (j.bytes)
                printf("%-50s median %8.3f ms %6.1f GB/s %5.2f of first\n", j.name.c_str(), m * 1e3,
                       j.bytes / m / 1e9, (j.bytes / m / 1e9) / base_gbs);
            else
                printf("%-50s median %8.3f ms  (first/this %.3f)\n", j.name.c_str(), m * 1e3,
                       base / m);
        }
        printf("\n");
    }
}
