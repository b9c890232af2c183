// Binary post-ops in the convolution, the 20 ResNet-50 layers at mb2 (doc/performance.md):
// prim with relu, prim with a batch norm folded in (mul:f32:per_oc+add:f32:per_oc+relu), oneDNN
// 2.6 with the same chain, prim with sum+relu and with a residual as add:f32:per_tensor+relu. The
// five run in rotation, ARG1 rounds (default 15); per layer the medians and three ratios, then
// their geomeans and medians. Run: OMP_NUM_THREADS=2 ./bench/prim_binary_conv_timing 15
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <dnnl.hpp>
#include <functional>
#include <prim/prim.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "resnet50_layers.hpp"
using tag = prim::memory::format_tag;
static double now() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
static void fillm(float *p, size_t n) {
    for (size_t i = 0; i < n; ++i)
        p[i] = float((i * 7) % 13) * 0.1f - 0.6f;
}
struct runner {
    std::function<void()> f;
    std::vector<double> t;
};
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 15;
    const std::vector<bench::resnet_layer> &L = bench::resnet50_layers();
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    std::vector<double> r_bn_relu, r_bn_dnnl, r_res_sum;
    printf("%-16s %9s %9s %9s %9s %9s | %7s %7s %7s\n", "layer", "relu", "bn+relu", "dnnl_bn",
           "sum+relu", "add+relu", "bn/relu", "dnnl/us", "add/sum");
    for (const bench::resnet_layer &l : L) {
        const long mb = 2, pe = (l.oh - 1) * l.s - l.ih + l.k - l.p;
        prim::memory::dims sd{mb, l.ic, l.ih, l.ih}, wd{l.oc, l.ic, l.k, l.k},
            dd{mb, l.oc, l.oh, l.oh};
        std::vector<runner> rs;
        auto make_prim = [&](const char *chain) {
            prim::post_ops po = prim::parse_post_ops(chain);
            prim::primitive_attr attr;
            attr.set_post_ops(po);
            prim::convolution_forward::desc d(
                prim::prop_kind::forward_inference, prim::algorithm::convolution_direct,
                prim::memory::desc(sd, prim::memory::data_type::f32, tag::any),
                prim::memory::desc(wd, prim::memory::data_type::f32, tag::any),
                prim::memory::desc({l.oc}, prim::memory::data_type::f32, tag::x),
                prim::memory::desc(dd, prim::memory::data_type::f32, tag::any), {l.s, l.s}, {0, 0},
                {l.p, l.p}, {pe, pe});
            prim::convolution_forward::primitive_desc pd(d, attr);
            auto conv = std::make_shared<prim::convolution_forward>(pd);
            prim::exec_args args{{prim::PRIM_ARG_SRC, prim::memory(pd.src_desc())},
                                 {prim::PRIM_ARG_WEIGHTS, prim::memory(pd.weights_desc())},
                                 {prim::PRIM_ARG_BIAS, prim::memory(pd.bias_desc())},
                                 {prim::PRIM_ARG_DST, prim::memory(pd.dst_desc())}};
            for (int i = 0; i < po.len(); ++i) {
                int arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | prim::PRIM_ARG_SRC_1;
                if (po.get_kind(i) == prim::post_ops::kind::binary)
                    args[arg] = prim::memory(pd.query_md(arg));
            }
            for (auto &a : args)
                fillm((float *)a.second.get_data_handle(), a.second.get_desc().get_size() / 4);
            return runner{[conv, args] { conv->execute(args); }, {}};
        };
        auto make_dnnl = [&](bool bn) {
            using dt = dnnl::memory::data_type;
            using ft = dnnl::memory::format_tag;
            dnnl::post_ops po;
            dnnl::memory::desc pc({1, l.oc, 1, 1}, dt::f32, ft::nchw);
            if (bn) {
                po.append_binary(dnnl::algorithm::binary_mul, pc);
                po.append_binary(dnnl::algorithm::binary_add, pc);
            }
            po.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
            dnnl::primitive_attr attr;
            attr.set_post_ops(po);
            dnnl::convolution_forward::desc d(
                dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                dnnl::memory::desc(sd, dt::f32, ft::any), dnnl::memory::desc(wd, dt::f32, ft::any),
                dnnl::memory::desc({l.oc}, dt::f32, ft::x),
                dnnl::memory::desc(dd, dt::f32, ft::any), {l.s, l.s}, {l.p, l.p}, {pe, pe});
            dnnl::convolution_forward::primitive_desc pd(d, attr, eng);
            auto conv = std::make_shared<dnnl::convolution_forward>(pd);
            std::unordered_map<int, dnnl::memory> args{
                {DNNL_ARG_SRC, dnnl::memory(pd.src_desc(), eng)},
                {DNNL_ARG_WEIGHTS, dnnl::memory(pd.weights_desc(), eng)},
                {DNNL_ARG_BIAS, dnnl::memory(pd.bias_desc(), eng)},
                {DNNL_ARG_DST, dnnl::memory(pd.dst_desc(), eng)}};
            if (bn)
                for (int i = 0; i < 2; ++i)
                    args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1] =
                        dnnl::memory(pc, eng);
            for (auto &a : args)
                fillm((float *)a.second.get_data_handle(), a.second.get_desc().get_size() / 4);
            return runner{[conv, args, &strm]() mutable {
                              conv->execute(strm, args);
                              strm.wait();
                          },
                          {}};
        };
        rs.push_back(make_prim("relu"));
        rs.push_back(make_prim("mul:f32:per_oc+add:f32:per_oc+relu"));
        rs.push_back(make_dnnl(true));
        rs.push_back(make_prim("sum+relu"));
        rs.push_back(make_prim("add:f32:per_tensor+relu"));
        for (auto &r : rs)
            for (int w = 0; w < 3; ++w)
                r.f();
        for (int it = 0; it < reps; ++it)
            for (auto &r : rs) {
                double t0 = now();
                r.f();
                r.t.push_back(now() - t0);
            }
        auto med = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        double m[5];
        for (int i = 0; i < 5; ++i)
            m[i] = med(rs[i].t);
        printf("%-16s %9.3f %9.3f %9.3f %9.3f %9.3f | %7.3f %7.3f %7.3f\n", l.name, m[0], m[1],
               m[2], m[3], m[4], m[1] / m[0], m[2] / m[1], m[4] / m[3]);
        r_bn_relu.push_back(m[1] / m[0]);
        r_bn_dnnl.push_back(m[2] / m[1]);
        r_res_sum.push_back(m[4] / m[3]);
    }
    auto gm = [](const std::vector<double> &v) {
        double s = 0;
        for (double x : v)
            s += std::log(x);
        return std::exp(s / v.size());
    };
    auto md = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    printf("geomean: bn/relu %.3f  dnnl_time/ours %.3f  add/sum %.3f | median: %.3f %.3f %.3f\n",
           gm(r_bn_relu), gm(r_bn_dnnl), gm(r_res_sum), md(r_bn_relu), md(r_bn_dnnl),
           md(r_res_sum));
}
