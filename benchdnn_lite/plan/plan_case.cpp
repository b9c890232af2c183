#include "plan/plan_case.hpp"

#include <cmath>
#include <cstdio>
#include <random>

#include "perf.hpp"
#include "problem_case.hpp"
#include "problem_parse.hpp"
#include "ref/ref_kernels.hpp"

namespace bdl {

using namespace prim;

namespace {

std::vector<float> grid(int64_t n, int lo, int hi, unsigned seed, float step) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<float> v(static_cast<size_t>(n));
    for (float &x : v) x = static_cast<float>(d(rng)) * step;
    return v;
}

struct plan_data {
    std::vector<float> src, wei, old_dst;
    std::vector<std::vector<float>> per_op; // B: bias; N: scale shift mean var; D: src1
};

// The equivalent primitive's chain: what the plan compiles to, written out by hand (a run of
// B/N letters is a mul when it has an N, then an add; biases right after C are the bias).
post_ops equivalent_chain(const std::string &letters, bool *conv_bias, const memory::desc &src1) {
    post_ops po;
    size_t i = 1;
    size_t j = i;
    while (j < letters.size() && (letters[j] == 'B' || letters[j] == 'N')) ++j;
    *conv_bias = j > i && letters.substr(i, j - i).find('N') == std::string::npos;
    if (*conv_bias) i = j;
    while (i < letters.size()) {
        const char l = letters[i];
        if (l == 'B' || l == 'N') {
            bool any_n = false;
            for (; i < letters.size() && (letters[i] == 'B' || letters[i] == 'N'); ++i)
                any_n |= letters[i] == 'N';
            if (any_n) po.append_binary(algorithm::binary_mul, post_ops::policy::per_oc);
            po.append_binary(algorithm::binary_add, post_ops::policy::per_oc);
            continue;
        }
        if (l == 'A') po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        if (l == 'S') po.append_sum(1.f);
        if (l == 'D') po.append_binary(algorithm::binary_add, src1);
        ++i;
    }
    return po;
}

} // namespace

void run_plan_case(const std::string &desc, const settings &s, const post_ops &chain,
                   const std::string &repro, reporter &rep) {
    const int64_t index = rep.begin_case();
    const auto finish = [&](case_status st, const char *name, const std::string &detail) {
        rep.status_line(index, name, detail, repro);
        rep.end_case(st);
    };
    if (chain.len() != 0)
        return finish(case_status::skipped, "SKIPPED", "--plan takes no --attr-post-ops: its letters are the chain");
    if (s.dir != direction::fwd_b && s.dir != direction::fwd_i)
        return finish(case_status::skipped, "SKIPPED", "--plan runs FWD_B/FWD_I only (B is a letter)");
    try {
        const impl::conv_problem prb = parse_conv_problem(desc);
        const std::string &L = s.plan;
        const int first = 3 - prb.nsp;
        memory::dims src_d {prb.mb, prb.ic}, wei_d, out_d {prb.mb, prb.oc};
        wei_d = prb.g > 1 ? memory::dims {prb.g, prb.ocg(), prb.icg()} : memory::dims {prb.oc, prb.ic};
        fusion_plan::convolution_params cp;
        for (int sp = first; sp < 3; ++sp) {
            src_d.push_back(prb.i[sp]);
            out_d.push_back(prb.o[sp]);
            wei_d.push_back(prb.k[sp]);
            cp.strides.push_back(prb.s[sp]);
            cp.dilates.push_back(prb.d[sp]);
            cp.padding_l.push_back(prb.p[sp]);
            cp.padding_r.push_back(prb.p_end[sp]);
        }
        // The input in --stag, or where 'any' lets the convolution choose.
        memory::desc src_md;
        if (s.stag != "any") {
            src_md = memory::desc(src_d, memory::data_type::f32, s.stag);
        } else {
            const convolution_forward::desc d(prop_kind::forward_inference,
                    algorithm::convolution_direct, memory::desc(src_d, memory::data_type::f32, memory::format_tag::any),
                    memory::desc(wei_d, memory::data_type::f32, memory::format_tag::any),
                    memory::desc(out_d, memory::data_type::f32, memory::format_tag::any),
                    cp.strides, cp.dilates, cp.padding_l, cp.padding_r);
            src_md = convolution_forward::primitive_desc(d).src_desc();
        }
        const memory::desc wei_any(wei_d, memory::data_type::f32, memory::format_tag::any);
        const memory::desc chan_md({prb.oc}, memory::data_type::f32, memory::format_tag::x);
        const memory::desc full_md(out_d, memory::data_type::f32, src_md.layout());

        fusion_plan plan(fusion_direction::vertical, src_md);
        const convolution_op conv = plan.add_convolution(cp, wei_any);
        std::vector<fusion_op> ops;
        for (size_t i = 1; i < L.size(); ++i) {
            switch (L[i]) {
            case 'B': ops.push_back(plan.add_bias(chan_md)); break;
            case 'N': ops.push_back(plan.add_batch_norm_inference(batch_norm_mode::spatial, chan_md)); break;
            case 'A': ops.push_back(plan.add_activation(activation_mode::relu)); break;
            case 'S': ops.push_back(plan.add_sum()); break;
            default: ops.push_back(plan.add_binary(algorithm::binary_add, full_md)); break;
            }
        }
        plan.compile();
        const memory::desc out_md = plan.output_desc();

        plan_data pd;
        const int64_t n_src = volume(src_d), n_wei = volume(wei_d), n_out = volume(out_d);
        pd.src = grid(n_src, -4, 4, 1, 1.f);
        pd.wei = grid(n_wei, -2, 2, 2, 1.f);
        pd.old_dst = grid(n_out, -4, 4, 3, 1.f);
        std::vector<memory> keep;
        fusion_args args;
        const memory wei = from_plain(pd.wei, wei_d, plan.weights_desc());
        args.set_convolution(conv, wei);
        pd.per_op.resize(ops.size());
        for (size_t i = 0; i < ops.size(); ++i) {
            const char l = L[i + 1];
            const unsigned seed = 10 + static_cast<unsigned>(i) * 5;
            if (l == 'B' || l == 'D') {
                pd.per_op[i] = grid(l == 'B' ? prb.oc : n_out, -8, 8, seed, 0.25f);
                keep.push_back(from_plain(pd.per_op[i], l == 'B' ? memory::dims {prb.oc} : out_d,
                                          l == 'B' ? chan_md : full_md));
                if (l == 'B') args.set_bias(static_cast<const bias_op &>(ops[i]), keep.back());
                else args.set_binary(static_cast<const binary_op &>(ops[i]), keep.back());
            } else if (l == 'N') {
                std::vector<memory> m;
                for (int k = 0; k < 4; ++k) {
                    const auto v = k == 3 ? grid(prb.oc, 2, 32, seed + k, 0.125f)
                                          : grid(prb.oc, -8, 8, seed + k, 0.25f);
                    pd.per_op[i].insert(pd.per_op[i].end(), v.begin(), v.end());
                    m.push_back(from_plain(v, {prb.oc}, chan_md));
                }
                keep.insert(keep.end(), m.begin(), m.end());
                args.set_batch_norm_inference(static_cast<const batch_norm_op &>(ops[i]), m[0], m[1],
                                              m[2], m[3], 1e-5);
            }
        }
        const memory src = from_plain(pd.src, src_d, src_md);
        const memory dst = from_plain(pd.old_dst, out_d, out_md);

        bool passed = true;
        std::string detail;
        if (s.mode_c) {
            plan.execute(src, dst, args);
            const std::vector<float> got = to_plain(dst, out_d);
            std::vector<float> want(static_cast<size_t>(n_out));
            impl::ref_conv_fwd(prb, pd.src.data(), pd.wei.data(), nullptr, post_ops(), want.data());
            int64_t spatial = 1;
            for (size_t j = 2; j < out_d.size(); ++j) spatial *= out_d[j];
            int64_t errors = 0;
            double worst = 0;
            for (int64_t e = 0; e < n_out; ++e) {
                const int64_t c = (e / spatial) % prb.oc;
                double x = want[e];
                for (size_t i = 0; i < ops.size(); ++i) {
                    const std::vector<float> &v = pd.per_op[i];
                    switch (L[i + 1]) {
                    case 'B': x += v[c]; break;
                    case 'N':
                        x = v[c] * (x - v[2 * prb.oc + c]) / std::sqrt(double(v[3 * prb.oc + c]) + 1e-5)
                                + v[prb.oc + c];
                        break;
                    case 'A': x = std::max(0.0, x); break;
                    case 'S': x += pd.old_dst[e]; break;
                    default: x += v[e]; break;
                    }
                }
                const double err = std::fabs(got[e] - x) / std::max(1.0, std::fabs(x));
                worst = std::max(worst, err);
                if (!(err <= 1e-5)) ++errors;
            }
            passed = errors == 0;
            if (!passed) {
                char buf[96];
                std::snprintf(buf, sizeof buf, "errors:%lld total:%lld worst:%.3g",
                              static_cast<long long>(errors), static_cast<long long>(n_out), worst);
                detail = buf;
            }
        }
        if (s.mode_p && passed) {
            // The sum reads the output: both sides run on the same buffer, values irrelevant.
            const auto run_plan = [&] { plan.execute(src, dst, args); };
            timing tp, tq;
            bool conv_bias = false;
            const memory::desc src1 = full_md;
            primitive_attr attr;
            attr.set_post_ops(equivalent_chain(L, &conv_bias, src1));
            if (s.fused == fused_mode::both) {
                const convolution_forward::desc d(prop_kind::forward_inference,
                        algorithm::convolution_direct, src_md, plan.weights_desc(),
                        conv_bias ? chan_md : memory::desc(), out_md, cp.strides, cp.dilates,
                        cp.padding_l, cp.padding_r);
                const convolution_forward::primitive_desc ppd(d, attr);
                const convolution_forward prim(ppd);
                exec_args ea {{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_DST, dst}};
                if (conv_bias) ea.emplace(PRIM_ARG_BIAS, memory(chan_md));
                const post_ops &po = attr.get_post_ops();
                for (int i = 0; i < po.len(); ++i)
                    if (po.get_kind(i) == post_ops::kind::binary)
                        ea.emplace(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1,
                                   memory(ppd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1)));
                time_alternating(run_plan, [&] { prim.execute(ea); }, s.max_ms, tp, tq);
            } else {
                tp = time_runs(run_plan, s.max_ms);
            }
            const double gf = prb.flops() * 1e-6;
            char buf[512];
            std::snprintf(buf, sizeof buf, "perf,conv,%s,plan:%s,%s,%.2f,%.4f,%.4f",
                          plan.impl_name().c_str(), L.c_str(), desc.c_str(), gf / tp.min_ms,
                          tp.min_ms, tp.median_ms);
            rep.line(buf);
            if (s.fused == fused_mode::both) {
                std::snprintf(buf, sizeof buf, "perf_cmp,conv,plan:%s,%s,%.2f,%.2f,%.4f", L.c_str(),
                              desc.c_str(), gf / tp.min_ms, gf / tq.min_ms, tq.median_ms / tp.median_ms);
                rep.line(buf);
                rep.record_comparison("perf_cmp", "conv", gf / tp.median_ms, gf / tq.median_ms);
            }
        }
        finish(passed ? case_status::passed : case_status::failed, passed ? "PASSED" : "FAILED",
               detail);
    } catch (const error &e) {
        const bool inv = e.get_status() == status::invalid_arguments;
        finish(inv ? case_status::invalid_arguments : case_status::unimplemented,
               inv ? "INVALID_ARGUMENTS" : "UNIMPLEMENTED", e.what());
    }
}

} // namespace bdl
