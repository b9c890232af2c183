// The quantized MatMul whose B is computed at run time (src/graph/ops_qmatmul_runtime_b.cpp):
// QLinearMatMul and MatMulInteger with B a graph input, u8 or s8, with zero points that leave a
// row-sum correction (u8 B not at 128, s8 B not at 0) and that do not, 2-D and batched, B read
// through a Transpose's view (attention's Kᵀ), tails in M, K and N; and the QDQ form attention
// writes (DequantizeLinear on both operands, MatMul, QuantizeLinear), fused into one int8 op.
// Each runs fused and unfused on the entry's ISA against integers computed here from ONNX's
// definitions: integer outputs within ±1 (s32 exactly), and the steps must name an int8 JIT
// inner product. Refused: a zero point per column on a run-time B, or a scale per column with a
// zero point that leaves a rest (taken with one that does not).
#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;
using dt = prim::memory::data_type;

namespace {

// ONNX's rounding (half to even) and saturation.
float saturate(double v, dt t) {
    const double lo = t == dt::u8 ? 0 : t == dt::s8 ? -128 : -2147483648.0;
    const double hi = t == dt::u8 ? 255 : t == dt::s8 ? 127 : 2147483647.0;
    return static_cast<float>(std::min(hi, std::max(lo, std::nearbyint(v))));
}

tensor integers(const dims &d, dt t, unsigned seed) {
    std::vector<float> v = fill(count(d), seed, t == dt::u8 ? 0.f : -128.f, t == dt::u8 ? 256.f : 128.f);
    for (auto &x : v) x = std::floor(x);
    tensor r;
    r.dims = d;
    r.data = v;
    r.dt = t;
    return r;
}

struct qcase {
    dims a, b;           // A (..., M, K), B (..., K, N) as the MatMul reads it
    dt at, bt, yt;       // yt s32: MatMulInteger
    int32_t za, zb, zy;
    bool b_transposed;   // B given as (..., N, K), read through a Transpose of its last two dims
};

// Σ_k (a − za)(b − zb) per output, batches row-major (B 2-D: shared by every row of A).
std::vector<double> accumulators(const qcase &c, const tensor &a, const tensor &b) {
    const int64_t K = c.a.back(), N = c.b.back(), M = c.a[c.a.size() - 2];
    const int64_t rows = count(c.a) / K, batches = count(c.b) / (K * N);
    std::vector<double> acc;
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t bt = batches == 1 ? 0 : r / M;
        for (int64_t n = 0; n < N; ++n) {
            double s = 0;
            for (int64_t k = 0; k < K; ++k) {
                const int64_t bi = c.b_transposed ? (bt * N + n) * K + k : (bt * K + k) * N + n;
                s += (a.data[r * K + k] - c.za) * (b.data[bi] - c.zb);
            }
            acc.push_back(s);
        }
    }
    return acc;
}

dims swap_last_two(dims d) {
    std::swap(d[d.size() - 1], d[d.size() - 2]);
    return d;
}

std::vector<int64_t> swap_perm(size_t rank) {
    std::vector<int64_t> p(rank);
    for (size_t i = 0; i < rank; ++i) p[i] = static_cast<int64_t>(i);
    std::swap(p[rank - 1], p[rank - 2]);
    return p;
}

const float sa = 0.02f, sb = 0.05f, sy = 0.4f;

// QLinearMatMul (or MatMulInteger for an s32 y) with B a graph input.
model qlinear_model(const qcase &c) {
    builder g;
    g.input("a", c.a).input("b_in", c.b_transposed ? swap_last_two(c.b) : c.b);
    g.m.inputs[0].dt = c.at;
    g.m.inputs[1].dt = c.bt;
    g.m.initializers["za"] = {{}, {float(c.za)}, c.at};
    g.m.initializers["zb"] = {{}, {float(c.zb)}, c.bt};
    g.init_values("sb", {}, {sb});
    std::string b = "b_in";
    if (c.b_transposed) {
        // An int8 tensor moves through a Transpose between DequantizeLinear and QuantizeLinear
        // (exact: the same integers), which the fuser turns into a Transpose of the int8 data.
        g.op("DequantizeLinear", "DequantizeLinear_b", {"b_in", "sb", "zb"}, {"bf"});
        g.op("Transpose", "Transpose_b", {"bf"}, {"btf"}, {{"perm", ais(swap_perm(c.b.size()))}});
        g.op("QuantizeLinear", "QuantizeLinear_b", {"btf", "sb", "zb"}, {"b"});
        b = "b";
    }
    if (c.yt == dt::s32) {
        g.op("MatMulInteger", "MatMulInteger_0", {"a", b, "za", "zb"}, {"y"});
    } else {
        g.init_values("sa", {}, {sa}).init_values("sy", {}, {sy});
        g.m.initializers["zy"] = {{}, {float(c.zy)}, c.yt};
        g.op("QLinearMatMul", "QLinearMatMul_0", {"a", "sa", "za", b, "sb", "zb", "sy", "zy"}, {"y"});
    }
    g.output("y");
    g.m.outputs[0].dt = c.yt;
    return g.m;
}

std::vector<float> expected(const qcase &c, const tensor &a, const tensor &b) {
    std::vector<float> y;
    for (double acc : accumulators(c, a, b))
        y.push_back(c.yt == dt::s32 ? float(acc) : saturate(acc * sa * sb / sy + c.zy, c.yt));
    return y;
}

void check_integers(const tensor &got, const std::vector<float> &want, bool exact) {
    REQUIRE(got.data.size() == want.size());
    int wrong = 0;
    for (size_t i = 0; i < want.size(); ++i)
        if (std::fabs(double(got.data[i]) - want[i]) > (exact ? 0. : 1.) && wrong++ < 5)
            UNSCOPED_INFO("index " << i << ": got " << got.data[i] << ", want " << want[i]);
    CHECK(wrong == 0);
}

// Runs m fused and unfused on the entry's ISAs; the fused plan's steps must hold an int8 JIT
// inner product (u8/s8 A, s8 weights).
void check_runs(const model &m, const tmap &in, const std::vector<float> &want, bool exact) {
    for (auto isa : test_isas())
        for (bool fuse : {true, false}) {
            INFO("isa " << prim::cpu_isa_name(isa) << " fuse " << fuse);
            prim::graph::options o;
            o.fuse = fuse;
            o.max_isa = isa;
            const compiled_model cm(m, o);
            check_integers(cm.run(in).at("y"), want, exact);
            check_integers(cm.run(in).at("y"), want, exact); // the packed B is redone each run
            bool int8_jit = false;
            for (const auto &s : cm.steps())
                int8_jit = int8_jit || (s.find("inner product jit:") != std::string::npos &&
                                        s.find("packed at every run") != std::string::npos);
            // Unfused, the QDQ form runs its MatMul in f32; the reference ISA has no JIT.
            if (isa != prim::cpu_isa::none && (fuse || m.nodes.back().op_type != "QuantizeLinear")) CHECK(int8_jit);
        }
}

} // namespace

TEST_CASE("QLinearMatMul and MatMulInteger with B computed at run time", "[graph][int8]") {
    const std::vector<qcase> cases = {
            // u8 B whose zero point leaves a rest (the row-sum correction), batched, tails everywhere
            {{2, 3, 5, 19}, {2, 3, 19, 33}, dt::u8, dt::u8, dt::u8, 120, 137, 10, false},
            // attention's Kᵀ: B through a Transpose, 128-ish sizes
            {{1, 2, 17, 64}, {1, 2, 64, 40}, dt::u8, dt::u8, dt::u8, 3, 250, 0, true},
            // u8 B at 128 (no rest), s8 output
            {{2, 7, 9}, {2, 9, 16}, dt::u8, dt::u8, dt::s8, 0, 128, -3, false},
            // s8 A and B with zero points
            {{3, 4, 70}, {3, 70, 5}, dt::s8, dt::s8, dt::u8, -7, 5, 100, true},
            // 2-D B shared by A's flattened rows
            {{2, 6, 12}, {12, 7}, dt::u8, dt::u8, dt::u8, 9, 0, 128, false},
            // MatMulInteger: s32 exact
            {{2, 5, 23}, {2, 23, 11}, dt::u8, dt::u8, dt::s32, 17, 200, 0, false},
            {{4, 31}, {31, 18}, dt::s8, dt::u8, dt::s32, 0, 60, 0, true},
    };
    unsigned seed = 11;
    for (const auto &c : cases) {
        INFO("A " << c.a.size() << "-D, M " << c.a[c.a.size() - 2] << " K " << c.a.back() << " N " << c.b.back()
                  << ", B " << (c.bt == dt::u8 ? "u8" : "s8") << " zp " << c.zb << (c.b_transposed ? " transposed" : ""));
        const model m = qlinear_model(c);
        const tensor a = integers(c.a, c.at, seed++);
        const tensor b_in = integers(c.b_transposed ? swap_last_two(c.b) : c.b, c.bt, seed++);
        check_runs(m, {{"a", a}, {"b_in", b_in}}, expected(c, a, b_in), c.yt == dt::s32);
    }
}

TEST_CASE("attention's QDQ MatMul of two dequantized activations runs as one int8 op", "[graph][int8]") {
    // DequantizeLinear(a), DequantizeLinear(Transpose(k)), MatMul, QuantizeLinear: the fuser's
    // QLinearMatMul with B at run time (fuse_qdq_matmul.cpp); unfused, the f32 MatMul between.
    const qcase c{{1, 3, 20, 32}, {1, 3, 32, 24}, dt::u8, dt::u8, dt::u8, 131, 118, 5, true};
    builder g;
    g.input("a", c.a).input("b_in", swap_last_two(c.b));
    g.m.inputs[0].dt = dt::u8;
    g.m.inputs[1].dt = dt::u8;
    g.init_values("sa", {}, {sa}).init_values("sb", {}, {sb}).init_values("sy", {}, {sy});
    g.m.initializers["za"] = {{}, {float(c.za)}, dt::u8};
    g.m.initializers["zb"] = {{}, {float(c.zb)}, dt::u8};
    g.m.initializers["zy"] = {{}, {float(c.zy)}, dt::u8};
    g.op("DequantizeLinear", "DequantizeLinear_bt", {"b_in", "sb", "zb"}, {"btf"});
    g.op("Transpose", "Transpose_k", {"btf"}, {"bt"}, {{"perm", ais({0, 1, 3, 2})}});
    g.op("QuantizeLinear", "QuantizeLinear_b", {"bt", "sb", "zb"}, {"b"});
    g.op("DequantizeLinear", "DequantizeLinear_a", {"a", "sa", "za"}, {"af"});
    g.op("DequantizeLinear", "DequantizeLinear_b", {"b", "sb", "zb"}, {"bf"});
    g.op("MatMul", "MatMul_0", {"af", "bf"}, {"yf"});
    g.op("QuantizeLinear", "QuantizeLinear_y", {"yf", "sy", "zy"}, {"y"});
    g.output("y");
    g.m.outputs[0].dt = dt::u8;
    const tensor a = integers(c.a, dt::u8, 3), b_in = integers(swap_last_two(c.b), dt::u8, 4);
    check_runs(g.m, {{"a", a}, {"b_in", b_in}}, expected(c, a, b_in), false);
    bool logged = false;
    for (const auto &r : compiled_model(g.m).fusion_log())
        logged = logged || r.pattern.find("MatMul(B at run time)") != std::string::npos;
    CHECK(logged);
}

TEST_CASE("a run-time B with a zero point or a scale per column is refused naming it", "[graph][int8]") {
    qcase c{{4, 8}, {8, 3}, dt::u8, dt::u8, dt::u8, 0, 7, 0, false};
    model m = qlinear_model(c);
    m.initializers["zb"] = {{3}, {7.f, 8.f, 9.f}, dt::u8};
    m.initializers["sb"] = {{3}, {sb, sb, sb}};
    try {
        compiled_model cm(m);
        FAIL("a per-column zero point on a run-time B compiled");
    } catch (const prim::error &e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find("QLinearMatMul_0") != std::string::npos);
        CHECK(std::string(e.what()).find("zero point per column") != std::string::npos);
    }
    m.initializers["zb"] = {{3}, {7.f, 7.f, 7.f}, dt::u8};
    try {
        compiled_model cm(m);
        FAIL("a per-column scale on a run-time B compiled");
    } catch (const prim::error &e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find("scale per column") != std::string::npos);
    }
    // At 128 a u8 B leaves no rest: a scale per column is the weights' per-channel scale.
    c.zb = 128;
    m.initializers["zb"] = {{3}, {128.f, 128.f, 128.f}, dt::u8};
    const std::vector<float> col_scale = {0.05f, 0.01f, 0.2f};
    m.initializers["sb"] = {{3}, col_scale};
    const tensor a = integers(c.a, dt::u8, 5), b = integers(c.b, dt::u8, 6);
    const std::vector<double> acc = accumulators(c, a, b);
    std::vector<float> want;
    for (size_t i = 0; i < acc.size(); ++i) want.push_back(saturate(acc[i] * sa * col_scale[i % 3] / sy, dt::u8));
    check_runs(m, {{"a", a}, {"b_in", b}}, want, false);
}
