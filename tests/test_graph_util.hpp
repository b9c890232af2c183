// For the graph tests: building small models by hand, filling them, and a plain reference
// interpreter of the ONNX ops (naive loops in double, written from ONNX's definitions, sharing no
// code with src/graph) to check the compiled model against.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "isa_under_test.hpp"
#include "prim/prim.hpp"

namespace gt {

using prim::memory;
using dims = prim::memory::dims;
using prim::graph::attribute;
using prim::graph::model;
using prim::graph::node;
using prim::graph::tensor;

inline int64_t count(const dims &d) {
    int64_t p = 1;
    for (auto v : d) p *= v;
    return p;
}

inline attribute ai(int64_t v) { attribute a; a.kind = attribute::type::i; a.i = v; return a; }
inline attribute af(float v) { attribute a; a.kind = attribute::type::f; a.f = v; return a; }
inline attribute as(const std::string &v) { attribute a; a.kind = attribute::type::s; a.s = v; return a; }
inline attribute ais(const std::vector<int64_t> &v) { attribute a; a.kind = attribute::type::ints; a.ints = v; return a; }

// Values in [lo, hi), fixed by seed.
inline std::vector<float> fill(int64_t n, unsigned seed, float lo = -1.f, float hi = 1.f) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v) x = dist(gen);
    return v;
}

struct builder {
    model m;
    unsigned seed = 1;
    builder &input(const std::string &name, const dims &d) {
        m.inputs.push_back({name, d});
        return *this;
    }
    builder &init(const std::string &name, const dims &d, float lo = -1.f, float hi = 1.f) {
        m.initializers[name] = {d, fill(count(d), seed++, lo, hi)};
        return *this;
    }
    builder &init_values(const std::string &name, const dims &d, const std::vector<float> &v) {
        m.initializers[name] = {d, v};
        return *this;
    }
    builder &op(const std::string &type, const std::string &name, const std::vector<std::string> &in,
                const std::vector<std::string> &out, const std::map<std::string, attribute> &attrs = {}) {
        m.nodes.push_back({name, type, in, out, attrs});
        return *this;
    }
    builder &output(const std::string &name, const dims &d = {}) {
        m.outputs.push_back({name, d});
        return *this;
    }
};

// ---- the reference interpreter ----------------------------------------------------------

using tmap = std::map<std::string, tensor>;

inline int64_t geti(const node &n, const std::string &k, int64_t d) {
    auto it = n.attrs.find(k);
    return it == n.attrs.end() ? d : it->second.i;
}
inline float getf(const node &n, const std::string &k, float d) {
    auto it = n.attrs.find(k);
    return it == n.attrs.end() ? d : it->second.f;
}
inline std::vector<int64_t> getis(const node &n, const std::string &k, const std::vector<int64_t> &d) {
    auto it = n.attrs.find(k);
    return it == n.attrs.end() ? d : it->second.ints;
}
inline std::string gets(const node &n, const std::string &k, const std::string &d) {
    auto it = n.attrs.find(k);
    return it == n.attrs.end() ? d : it->second.s;
}

inline tensor ref_conv(const node &n, const tensor &x, const tensor &w, const tensor *b) {
    const size_t nsp = x.dims.size() - 2;
    const int64_t N = x.dims[0], C = x.dims[1], M = w.dims[0], g = geti(n, "group", 1);
    const int64_t cg = C / g, mg = M / g;
    int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, pb[3] = {0, 0, 0},
            o[3] = {1, 1, 1};
    auto strides = getis(n, "strides", std::vector<int64_t>(nsp, 1));
    auto dil = getis(n, "dilations", std::vector<int64_t>(nsp, 1));
    auto pads = getis(n, "pads", std::vector<int64_t>(2 * nsp, 0));
    const std::string ap = gets(n, "auto_pad", "NOTSET");
    for (size_t i = 0; i < nsp; ++i) {
        const size_t j = 3 - nsp + i;
        in[j] = x.dims[2 + i];
        k[j] = w.dims[2 + i];
        s[j] = strides[i];
        d[j] = dil[i];
        const int64_t ext = (k[j] - 1) * d[j] + 1;
        int64_t b0 = pads[i], e0 = pads[nsp + i];
        if (ap == "VALID") b0 = e0 = 0;
        if (ap == "SAME_UPPER" || ap == "SAME_LOWER") {
            const int64_t oo = (in[j] + s[j] - 1) / s[j];
            const int64_t tot = std::max<int64_t>(0, (oo - 1) * s[j] + ext - in[j]);
            b0 = ap == "SAME_UPPER" ? tot / 2 : tot - tot / 2;
            e0 = tot - b0;
        }
        pb[j] = b0;
        o[j] = (in[j] + b0 + e0 - ext) / s[j] + 1;
    }
    tensor y;
    y.dims = {N, M};
    for (size_t i = 0; i < nsp; ++i) y.dims.push_back(o[3 - nsp + i]);
    y.data.assign(count(y.dims), 0.f);
    for (int64_t nn = 0; nn < N; ++nn)
        for (int64_t m = 0; m < M; ++m)
            for (int64_t od = 0; od < o[0]; ++od)
                for (int64_t oh = 0; oh < o[1]; ++oh)
                    for (int64_t ow = 0; ow < o[2]; ++ow) {
                        double acc = b ? b->data[m] : 0.0;
                        const int64_t grp = m / mg;
                        for (int64_t c = 0; c < cg; ++c)
                            for (int64_t kd = 0; kd < k[0]; ++kd)
                                for (int64_t kh = 0; kh < k[1]; ++kh)
                                    for (int64_t kw = 0; kw < k[2]; ++kw) {
                                        const int64_t id = od * s[0] - pb[0] + kd * d[0];
                                        const int64_t ih = oh * s[1] - pb[1] + kh * d[1];
                                        const int64_t iw = ow * s[2] - pb[2] + kw * d[2];
                                        if (id < 0 || id >= in[0] || ih < 0 || ih >= in[1] || iw < 0 || iw >= in[2])
                                            continue;
                                        const int64_t ci = grp * cg + c;
                                        acc += double(x.data[(((nn * C + ci) * in[0] + id) * in[1] + ih) * in[2] + iw]) *
                                               w.data[(((m * cg + c) * k[0] + kd) * k[1] + kh) * k[2] + kw];
                                    }
                        y.data[(((nn * M + m) * o[0] + od) * o[1] + oh) * o[2] + ow] = float(acc);
                    }
    return y;
}

// Elementwise op with numpy broadcasting.
inline tensor ref_broadcast(const tensor &a, const tensor &b, const std::function<double(double, double)> &f) {
    const size_t r = std::max(a.dims.size(), b.dims.size());
    dims ad = a.dims, bd = b.dims;
    ad.insert(ad.begin(), r - ad.size(), 1);
    bd.insert(bd.begin(), r - bd.size(), 1);
    tensor y;
    for (size_t i = 0; i < r; ++i) y.dims.push_back(std::max(ad[i], bd[i]));
    y.data.resize(count(y.dims));
    std::vector<int64_t> idx(r, 0);
    for (int64_t e = 0; e < count(y.dims); ++e) {
        int64_t rem = e, oa = 0, ob = 0;
        for (int i = int(r) - 1; i >= 0; --i) {
            idx[i] = rem % y.dims[i];
            rem /= y.dims[i];
        }
        for (size_t i = 0; i < r; ++i) {
            oa = oa * ad[i] + (ad[i] == 1 ? 0 : idx[i]);
            ob = ob * bd[i] + (bd[i] == 1 ? 0 : idx[i]);
        }
        y.data[e] = float(f(a.data[oa], b.data[ob]));
    }
    return y;
}

inline tensor ref_unary(const tensor &x, const std::function<double(double)> &f) {
    tensor y = x;
    for (auto &v : y.data) v = float(f(v));
    return y;
}

inline tensor ref_gemm(const node &n, const tensor &a, const tensor &b, const tensor *c) {
    const bool gemm = n.op_type == "Gemm";
    const bool ta = gemm && geti(n, "transA", 0), tb = gemm && geti(n, "transB", 0);
    const double alpha = gemm ? getf(n, "alpha", 1.f) : 1.0, beta = gemm ? getf(n, "beta", 1.f) : 1.0;
    const int64_t M = ta ? a.dims[1] : a.dims[0], K = ta ? a.dims[0] : a.dims[1];
    const int64_t N = tb ? b.dims[0] : b.dims[1];
    tensor y;
    y.dims = {M, N};
    y.data.resize(M * N);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            double acc = 0;
            for (int64_t kk = 0; kk < K; ++kk)
                acc += double(ta ? a.data[kk * M + i] : a.data[i * K + kk]) *
                       (tb ? b.data[j * K + kk] : b.data[kk * N + j]);
            y.data[i * N + j] = float(alpha * acc);
        }
    if (c) {
        tensor bc = *c;
        y = ref_broadcast(y, bc, [beta](double p, double q) { return p + beta * q; });
    }
    return y;
}

inline tensor ref_bnorm(const node &n, const tensor &x, const tensor &sc, const tensor &bi,
                        const tensor &mean, const tensor &var) {
    const double eps = getf(n, "epsilon", 1e-5f);
    tensor y = x;
    const int64_t C = x.dims[1], inner = count(x.dims) / x.dims[0] / C;
    for (int64_t e = 0; e < count(x.dims); ++e) {
        const int64_t c = (e / inner) % C;
        y.data[e] = float((x.data[e] - double(mean.data[c])) / std::sqrt(double(var.data[c]) + eps) * sc.data[c] +
                          bi.data[c]);
    }
    return y;
}

inline tensor ref_lnorm(const node &n, const tensor &x, const tensor &sc, const tensor *bi) {
    int64_t axis = geti(n, "axis", -1);
    if (axis < 0) axis += int64_t(x.dims.size());
    const int64_t d = count(dims(x.dims.begin() + axis, x.dims.end()));
    const double eps = getf(n, "epsilon", 1e-5f);
    tensor y = x;
    for (int64_t r = 0; r < count(x.dims) / d; ++r) {
        double mean = 0, var = 0;
        for (int64_t i = 0; i < d; ++i) mean += x.data[r * d + i];
        mean /= d;
        for (int64_t i = 0; i < d; ++i) var += (x.data[r * d + i] - mean) * (x.data[r * d + i] - mean);
        var /= d;
        for (int64_t i = 0; i < d; ++i)
            y.data[r * d + i] = float((x.data[r * d + i] - mean) / std::sqrt(var + eps) * sc.data[i] +
                                      (bi ? bi->data[i] : 0.f));
    }
    return y;
}

inline double sigm(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// Runs the model on inputs, node by node in the model's order (each node's inputs must be ready:
// the tests list nodes in a valid order unless they test sorting, then they pass `order`).
inline tmap ref_run(const model &m, const tmap &inputs) {
    tmap t = inputs;
    for (const auto &kv : m.initializers) t[kv.first] = kv.second;
    std::vector<bool> done(m.nodes.size(), false);
    for (size_t pass = 0; pass < m.nodes.size(); ++pass)
        for (size_t ni = 0; ni < m.nodes.size(); ++ni) {
            const node &n = m.nodes[ni];
            if (done[ni]) continue;
            bool ready = true;
            for (const auto &i : n.inputs) ready = ready && (i.empty() || t.count(i));
            if (!ready) continue;
            done[ni] = true;
            auto in = [&](size_t i) -> const tensor & { return t.at(n.inputs[i]); };
            auto opt = [&](size_t i) -> const tensor * {
                return i < n.inputs.size() && !n.inputs[i].empty() ? &t.at(n.inputs[i]) : nullptr;
            };
            const std::string &o = n.op_type;
            tensor y;
            if (o == "Conv") y = ref_conv(n, in(0), in(1), opt(2));
            else if (o == "Gemm" || o == "MatMul") y = ref_gemm(n, in(0), in(1), opt(2));
            else if (o == "Add") y = ref_broadcast(in(0), in(1), [](double a, double b) { return a + b; });
            else if (o == "Sub") y = ref_broadcast(in(0), in(1), [](double a, double b) { return a - b; });
            else if (o == "Mul") y = ref_broadcast(in(0), in(1), [](double a, double b) { return a * b; });
            else if (o == "Div") y = ref_broadcast(in(0), in(1), [](double a, double b) { return a / b; });
            else if (o == "Relu") y = ref_unary(in(0), [](double v) { return v > 0 ? v : 0; });
            else if (o == "LeakyRelu") {
                const double a = getf(n, "alpha", 0.01f);
                y = ref_unary(in(0), [a](double v) { return v > 0 ? v : a * v; });
            } else if (o == "Elu") {
                const double a = getf(n, "alpha", 1.f);
                y = ref_unary(in(0), [a](double v) { return v > 0 ? v : a * (std::exp(v) - 1); });
            } else if (o == "Sigmoid") y = ref_unary(in(0), sigm);
            else if (o == "Tanh") y = ref_unary(in(0), [](double v) { return std::tanh(v); });
            else if (o == "Erf") y = ref_unary(in(0), [](double v) { return std::erf(v); });
            else if (o == "Sqrt") y = ref_unary(in(0), [](double v) { return std::sqrt(v); });
            else if (o == "Exp") y = ref_unary(in(0), [](double v) { return std::exp(v); });
            else if (o == "Log") y = ref_unary(in(0), [](double v) { return std::log(v); });
            else if (o == "Abs") y = ref_unary(in(0), [](double v) { return std::fabs(v); });
            else if (o == "Softplus") y = ref_unary(in(0), [](double v) { return std::log1p(std::exp(v)); });
            else if (o == "HardSigmoid" || o == "HardSwish") {
                const double a = o == "HardSwish" ? 1.0 / 6 : getf(n, "alpha", 0.2f);
                const double b = o == "HardSwish" ? 0.5 : getf(n, "beta", 0.5f);
                const bool sw = o == "HardSwish";
                y = ref_unary(in(0), [=](double v) {
                    const double h = std::max(0.0, std::min(1.0, a * v + b));
                    return sw ? v * h : h;
                });
            } else if (o == "Clip") {
                double lo = -INFINITY, hi = INFINITY;
                if (m.opset < 11) {
                    lo = getf(n, "min", -INFINITY);
                    hi = getf(n, "max", INFINITY);
                } else {
                    if (opt(1)) lo = opt(1)->data[0];
                    if (opt(2)) hi = opt(2)->data[0];
                }
                y = ref_unary(in(0), [=](double v) { return std::min(std::max(v, lo), hi); });
            } else if (o == "Pow") {
                const double e = in(1).data[0];
                y = ref_unary(in(0), [e](double v) { return std::pow(v, e); });
            } else if (o == "BatchNormalization") y = ref_bnorm(n, in(0), in(1), in(2), in(3), in(4));
            else if (o == "LayerNormalization") y = ref_lnorm(n, in(0), in(1), opt(2));
            else if (o == "Identity") y = in(0);
            else if (o == "Flatten") {
                int64_t axis = geti(n, "axis", 1);
                if (axis < 0) axis += int64_t(in(0).dims.size());
                y = in(0);
                y.dims = {count(dims(y.dims.begin(), y.dims.begin() + axis)),
                          count(dims(y.dims.begin() + axis, y.dims.end()))};
            } else if (o == "Reshape") {
                y = in(0);
                dims d;
                int64_t known = 1, at = -1;
                for (size_t i = 0; i < in(1).data.size(); ++i) {
                    int64_t v = int64_t(in(1).data[i]);
                    if (v == 0) v = in(0).dims[i];
                    if (v == -1) at = int64_t(i); else known *= v;
                    d.push_back(v);
                }
                if (at >= 0) d[at] = count(in(0).dims) / known;
                y.dims = d;
            } else if (o == "Squeeze" || o == "Unsqueeze") {
                y = in(0);
                std::vector<int64_t> axes = n.inputs.size() > 1 ? std::vector<int64_t>(in(1).data.begin(), in(1).data.end())
                                                                : getis(n, "axes", {});
                if (o == "Squeeze") {
                    dims d;
                    for (size_t i = 0; i < y.dims.size(); ++i) {
                        bool drop = axes.empty() ? y.dims[i] == 1 : false;
                        for (auto a : axes) drop = drop || (a < 0 ? a + int64_t(y.dims.size()) : a) == int64_t(i);
                        if (!drop) d.push_back(y.dims[i]);
                    }
                    y.dims = d;
                } else {
                    const int64_t r = int64_t(y.dims.size() + axes.size());
                    for (auto &a : axes) a = a < 0 ? a + r : a;
                    std::sort(axes.begin(), axes.end());
                    for (auto a : axes) y.dims.insert(y.dims.begin() + a, 1);
                }
            } else if (o == "Transpose") {
                const tensor &x = in(0);
                std::vector<int64_t> perm = getis(n, "perm", {});
                if (perm.empty())
                    for (int64_t i = int64_t(x.dims.size()) - 1; i >= 0; --i) perm.push_back(i);
                y.dims.clear();
                for (auto p : perm) y.dims.push_back(x.dims[p]);
                y.data.resize(x.data.size());
                const size_t r = x.dims.size();
                std::vector<int64_t> xs(r, 1);
                for (int i = int(r) - 2; i >= 0; --i) xs[i] = xs[i + 1] * x.dims[i + 1];
                for (int64_t e = 0; e < count(y.dims); ++e) {
                    int64_t rem = e, off = 0;
                    for (int i = int(r) - 1; i >= 0; --i) {
                        off += (rem % y.dims[i]) * xs[perm[i]];
                        rem /= y.dims[i];
                    }
                    y.data[e] = x.data[off];
                }
            } else {
                FAIL("reference: no op " << o);
            }
            t[n.outputs[0]] = y;
        }
    tmap out;
    for (const auto &o : m.outputs) out[o.name] = t.at(o.name);
    return out;
}

// Every output equal within a tolerance relative to the output's largest value.
inline void check_close(const tmap &got, const tmap &want, double tol = 1e-4) {
    REQUIRE(got.size() == want.size());
    for (const auto &kv : want) {
        INFO("output " << kv.first);
        REQUIRE(got.count(kv.first));
        const tensor &g = got.at(kv.first);
        REQUIRE(g.dims == kv.second.dims);
        double mx = 1;
        for (float v : kv.second.data) mx = std::max(mx, double(std::fabs(v)));
        double worst = 0;
        size_t at = 0;
        for (size_t i = 0; i < g.data.size(); ++i) {
            const double d = std::fabs(double(g.data[i]) - kv.second.data[i]);
            if (!(d <= worst)) { worst = d; at = i; }
        }
        INFO("worst at " << at << ": got " << g.data[at] << " want " << kv.second.data[at]);
        CHECK(worst <= tol * mx);
    }
}

// Random inputs for every graph input of the model, with the given dims.
inline tmap make_inputs(const model &m, const std::map<std::string, dims> &d, unsigned seed = 100) {
    tmap in;
    for (const auto &i : m.inputs) {
        tensor t;
        t.dims = d.count(i.name) ? d.at(i.name) : i.dims;
        t.data = fill(count(t.dims), seed++);
        in[i.name] = t;
    }
    return in;
}

// The ISAs to test: the reference and the JIT ISAs this run checks (isa_under_test.hpp).
inline std::vector<prim::cpu_isa> test_isas() { return prim_test::isas_under_test(); }

// Compiles with and without fusion on every ISA; each result must equal the reference. Returns
// the fused model compiled at the best ISA (for its log and steps).
inline prim::graph::compiled_model check_model(const model &m, const tmap &inputs, double tol = 1e-4) {
    const tmap want = ref_run(m, inputs);
    for (auto isa : test_isas()) {
        for (bool fuse : {true, false}) {
            INFO("isa " << prim::cpu_isa_name(isa) << " fuse " << fuse);
            prim::graph::options o;
            o.fuse = fuse;
            o.max_isa = isa;
            prim::graph::compiled_model cm(m, o);
            check_close(cm.run(inputs), want, tol);
            check_close(cm.run(inputs), want, tol); // a second run gives the same
        }
    }
    return prim::graph::compiled_model(m);
}

inline bool has_fusion(const std::vector<prim::graph::fusion_record> &log, const std::string &pattern,
                       const std::vector<std::string> &nodes) {
    for (const auto &r : log)
        if (r.fused && r.pattern == pattern && r.nodes == nodes) return true;
    return false;
}

inline bool has_refusal(const std::vector<prim::graph::fusion_record> &log, const std::string &reason) {
    for (const auto &r : log)
        if (!r.fused && r.reason == reason) return true;
    return false;
}

inline std::string log_text(const std::vector<prim::graph::fusion_record> &log) {
    std::string s;
    for (const auto &r : log) s += r.line() + "\n";
    return s;
}

inline std::string steps_text(const prim::graph::compiled_model &cm) {
    std::string s;
    for (const auto &l : cm.steps()) s += l + "\n";
    return s;
}

} // namespace gt
