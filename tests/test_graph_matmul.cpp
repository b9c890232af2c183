// MatMul with numpy semantics in the graph: A of any rank with a 2D B (one inner product over the
// flattened rows), both operands with batch dims (broadcast, one inner product per batch, strided
// and transposed operands read in place), 1D operands, fused chains on each, an attention block,
// and the errors. Each model runs fused and unfused on every ISA against a plain reference.
#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;

namespace {

// numpy's matmul in double, written from ONNX's definition: 1D operands promoted and their dim
// removed from the result, batch dims broadcast.
tensor ref_matmul(const tensor &a, const tensor &b) {
    dims ad = a.dims.size() == 1 ? dims{1, a.dims[0]} : a.dims;
    dims bd = b.dims.size() == 1 ? dims{b.dims[0], 1} : b.dims;
    const int64_t M = ad[ad.size() - 2], K = ad.back(), N = bd.back();
    REQUIRE(bd[bd.size() - 2] == K);
    const size_t rb = std::max(ad.size(), bd.size()) - 2;
    ad.insert(ad.begin(), rb + 2 - ad.size(), 1);
    bd.insert(bd.begin(), rb + 2 - bd.size(), 1);
    dims batch(rb);
    for (size_t i = 0; i < rb; ++i) batch[i] = std::max(ad[i], bd[i]);
    tensor y;
    y.dims = batch;
    if (a.dims.size() > 1) y.dims.push_back(M);
    if (b.dims.size() > 1) y.dims.push_back(N);
    y.data.assign(count(batch) * M * N, 0.f);
    for (int64_t bi = 0; bi < count(batch); ++bi) {
        int64_t rem = bi, aoff = 0, boff = 0, astride = M * K, bstride = K * N;
        for (int i = int(rb) - 1; i >= 0; --i) {
            const int64_t idx = rem % batch[i];
            rem /= batch[i];
            if (ad[i] != 1) aoff += idx * astride;
            if (bd[i] != 1) boff += idx * bstride;
            astride *= ad[i];
            bstride *= bd[i];
        }
        for (int64_t i = 0; i < M; ++i)
            for (int64_t j = 0; j < N; ++j) {
                double acc = 0;
                for (int64_t k = 0; k < K; ++k)
                    acc += double(a.data[aoff + i * K + k]) * b.data[boff + k * N + j];
                y.data[(bi * M + i) * N + j] = float(acc);
            }
    }
    return y;
}

// Softmax over the last axis (opset 13's default).
tensor ref_softmax(const tensor &x) {
    tensor y = x;
    const int64_t d = x.dims.back();
    for (int64_t r = 0; r < count(x.dims) / d; ++r) {
        double mx = -INFINITY, sum = 0;
        for (int64_t i = 0; i < d; ++i) mx = std::max(mx, double(x.data[r * d + i]));
        for (int64_t i = 0; i < d; ++i) sum += std::exp(double(x.data[r * d + i]) - mx);
        for (int64_t i = 0; i < d; ++i) y.data[r * d + i] = float(std::exp(double(x.data[r * d + i]) - mx) / sum);
    }
    return y;
}

// The reference run: MatMul and Softmax here, every other node through ref_run.
tmap ref_run_nd(const model &m, const tmap &inputs) {
    tmap t = inputs;
    for (const auto &kv : m.initializers) t[kv.first] = kv.second;
    for (const auto &n : m.nodes) {
        if (n.op_type == "MatMul") {
            t[n.outputs[0]] = ref_matmul(t.at(n.inputs[0]), t.at(n.inputs[1]));
        } else if (n.op_type == "Softmax") {
            t[n.outputs[0]] = ref_softmax(t.at(n.inputs[0]));
        } else {
            model one;
            one.nodes.push_back(n);
            one.outputs.push_back({n.outputs[0], {}});
            t[n.outputs[0]] = ref_run(one, t).at(n.outputs[0]);
        }
    }
    tmap out;
    for (const auto &o : m.outputs) out[o.name] = t.at(o.name);
    return out;
}

// check_model with the reference above; returns the fused model at the best ISA.
compiled_model check_nd(const model &m, const tmap &inputs, double tol = 1e-4) {
    const tmap want = ref_run_nd(m, inputs);
    for (auto isa : test_isas())
        for (bool fuse : {true, false}) {
            INFO("isa " << prim::cpu_isa_name(isa) << " fuse " << fuse);
            prim::graph::options o;
            o.fuse = fuse;
            o.max_isa = isa;
            compiled_model cm(m, o);
            check_close(cm.run(inputs), want, tol);
            check_close(cm.run(inputs), want, tol);
        }
    return compiled_model(m);
}

std::pair<prim::status, std::string> failure(const model &m) {
    try {
        compiled_model cm(m);
    } catch (const prim::error &e) {
        return {e.get_status(), e.what()};
    }
    return {prim::status::success, "nothing thrown"};
}

} // namespace

TEST_CASE("graph: MatMul of a 3D A and a 2D B is one inner product with its chain", "[graph][matmul]") {
    SECTION("bias Add of a constant row folds into the bias, then an activation") {
        builder b;
        b.input("a", {2, 3, 5}).init("w", {5, 7}).init("bias", {7});
        b.op("MatMul", "MatMul_0", {"a", "w"}, {"m"});
        b.op("Add", "Add_1", {"m", "bias"}, {"s"});
        b.op("Relu", "Relu_2", {"s"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        INFO(log_text(cm.fusion_log()));
        CHECK(has_fusion(cm.fusion_log(), "MatMul+Add(binary)+Relu", {"MatMul_0", "Add_1", "Relu_2"}));
        const std::string steps = steps_text(cm);
        INFO(steps);
        CHECK(steps.find("folded bias bias post-ops relu") != std::string::npos);
        CHECK(steps.find("batches") == std::string::npos);
    }
    SECTION("residual Add of a graph input, then a per-row Mul and a 1x1x7 Sub") {
        builder b;
        b.input("a", {4, 3, 6}).input("r", {4, 3, 7}).init("w", {6, 7}).init("rows", {3, 1}).init("c", {1, 1, 7});
        b.op("MatMul", "MatMul_0", {"a", "w"}, {"m"});
        b.op("Add", "Add_1", {"r", "m"}, {"s"});
        b.op("Mul", "Mul_2", {"s", "rows"}, {"p"});
        b.op("Sub", "Sub_3", {"p", "c"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "MatMul+Add(binary)+Mul(binary)+Sub(binary)",
                         {"MatMul_0", "Add_1", "Mul_2", "Sub_3"}));
        // The per-row operand varies along only some of the rows: one inner product per batch.
        CHECK(steps_text(cm).find("x4 batches") != std::string::npos);
    }
    SECTION("residual computed by an op: a sum into its buffer; a 4D A") {
        builder b;
        b.input("a", {2, 2, 3, 8}).input("x", {2, 2, 3, 5}).init("w", {8, 5});
        b.op("Tanh", "Tanh_0", {"x"}, {"t"});
        b.op("MatMul", "MatMul_1", {"a", "w"}, {"m"});
        b.op("Add", "Add_2", {"m", "t"}, {"s"});
        b.op("Elu", "Elu_3", {"s"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        INFO(log_text(cm.fusion_log()));
        CHECK(has_fusion(cm.fusion_log(), "MatMul+Add(sum)+Elu", {"MatMul_1", "Add_2", "Elu_3"}));
    }
    SECTION("BatchNormalization over dim 1 of the result: per-channel entries, per batch") {
        builder b;
        b.input("a", {2, 4, 6}).init("w", {6, 5});
        b.init("s", {4}).init("sh", {4}).init("mu", {4}).init("v", {4}, 0.5f, 2.f);
        b.op("MatMul", "MatMul_0", {"a", "w"}, {"m"});
        b.op("BatchNormalization", "BatchNormalization_1", {"m", "s", "sh", "mu", "v"}, {"n"});
        b.op("Relu", "Relu_2", {"n"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "MatMul+BatchNormalization(per-channel)+Relu",
                         {"MatMul_0", "BatchNormalization_1", "Relu_2"}));
    }
    SECTION("B given at run time, an A with tails in every dim") {
        builder b;
        b.input("a", {3, 17, 33}).input("w", {33, 19});
        b.op("MatMul", "MatMul_0", {"a", "w"}, {"y"});
        b.output("y");
        check_nd(b.m, make_inputs(b.m, {}));
    }
    SECTION("B given at run time through a Transpose: read in place") {
        builder b;
        b.input("a", {2, 5, 9}).input("bt", {11, 9});
        b.op("Transpose", "Transpose_0", {"bt"}, {"w"}, {{"perm", ais({1, 0})}});
        b.op("MatMul", "MatMul_1", {"a", "w"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        INFO(steps_text(cm));
        CHECK(steps_text(cm).find("reorder") == std::string::npos);
    }
    SECTION("the GELU form after a projection becomes one chain") {
        builder b;
        b.input("a", {1, 9, 16}).init("w", {16, 24}).init("bias", {24});
        b.init_values("sqrt2", {}, {1.41421356f}).init_values("one", {}, {1.f}).init_values("half", {}, {0.5f});
        b.op("MatMul", "MatMul_0", {"a", "w"}, {"m"});
        b.op("Add", "Add_1", {"m", "bias"}, {"h"});
        b.op("Div", "Div_2", {"h", "sqrt2"}, {"d"});
        b.op("Erf", "Erf_3", {"d"}, {"e"});
        b.op("Add", "Add_4", {"e", "one"}, {"e1"});
        b.op("Mul", "Mul_5", {"h", "e1"}, {"g"});
        b.op("Mul", "Mul_6", {"g", "half"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        const std::string steps = steps_text(cm);
        INFO(steps);
        CHECK(steps.find("folded bias bias post-ops gelu_erf") != std::string::npos);
    }
}

TEST_CASE("graph: batched MatMul, batch dims broadcast, one inner product per batch", "[graph][matmul]") {
    struct shapes {
        dims a, b;
    };
    const std::vector<shapes> cases = {
        {{2, 3, 4, 5}, {2, 3, 5, 6}},   // same batch dims
        {{3, 1, 4, 5}, {2, 5, 6}},      // broadcast both ways: batch 3x2
        {{4, 5}, {3, 5, 7}},            // 2D A against a batched B
        {{2, 1, 7, 9}, {1, 3, 9, 17}},  // tails
        {{1, 1, 4, 5}, {1, 1, 5, 6}},   // batch dims of 1
        {{4, 3, 33, 64}, {3, 64, 47}},  // enough work for the batches to run on several threads
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        INFO("case " << i);
        builder b;
        b.input("a", cases[i].a).input("b", cases[i].b).init_values("s", {}, {8.f});
        b.op("MatMul", "MatMul_0", {"a", "b"}, {"m"});
        b.op("Div", "Div_1", {"m", "s"}, {"d"});
        b.op("Sigmoid", "Sigmoid_2", {"d"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "MatMul+Div(binary)+Sigmoid", {"MatMul_0", "Div_1", "Sigmoid_2"}));
    }
    SECTION("a residual computed by an op: a sum into its buffer, batch by batch") {
        builder b;
        b.input("a", {2, 3, 4, 6}).input("b", {2, 3, 6, 5}).input("x", {2, 3, 4, 5});
        b.op("Tanh", "Tanh_0", {"x"}, {"t"});
        b.op("MatMul", "MatMul_1", {"a", "b"}, {"m"});
        b.op("Add", "Add_2", {"m", "t"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "MatMul+Add(sum)", {"MatMul_1", "Add_2"}));
    }
    SECTION("both operands constant: computed once, at load time") {
        builder b;
        b.input("x", {2, 3, 5}).init("a", {2, 3, 4}).init("w", {2, 4, 5});
        b.op("MatMul", "MatMul_0", {"a", "w"}, {"m"});
        b.op("Relu", "Relu_1", {"x"}, {"r"});
        b.op("Add", "Add_2", {"r", "m"}, {"y"});
        b.output("y");
        auto cm = check_nd(b.m, make_inputs(b.m, {}));
        const std::string steps = steps_text(cm);
        INFO(steps);
        CHECK(steps.find("x2 batches (at load time)") != std::string::npos);
    }
    SECTION("constant batched B, an operand varying along the batch") {
        builder b;
        b.input("a", {3, 4, 5}).init("w", {3, 5, 6}).init("o", {3, 1, 6});
        b.op("MatMul", "MatMul_0", {"a", "w"}, {"m"});
        b.op("Mul", "Mul_1", {"m", "o"}, {"y"});
        b.output("y");
        check_nd(b.m, make_inputs(b.m, {}));
    }
}

TEST_CASE("graph: MatMul reads transposed operands in place", "[graph][matmul]") {
    // Q x K^T as attention writes it: both from [N, S, H, D] through Transposes (views).
    builder b;
    b.input("q", {2, 6, 3, 4}).input("k", {2, 6, 3, 4});
    b.op("Transpose", "Transpose_0", {"q"}, {"qt"}, {{"perm", ais({0, 2, 1, 3})}});
    b.op("Transpose", "Transpose_1", {"k"}, {"kt"}, {{"perm", ais({0, 2, 3, 1})}});
    b.op("MatMul", "MatMul_2", {"qt", "kt"}, {"y"});
    b.output("y");
    auto cm = check_nd(b.m, make_inputs(b.m, {}));
    const std::string steps = steps_text(cm);
    INFO(steps);
    CHECK(steps.find("reorder") == std::string::npos);
    CHECK(steps.find("x6 batches") != std::string::npos);
}

TEST_CASE("graph: MatMul with 1D operands", "[graph][matmul]") {
    struct shapes {
        dims a, b;
    };
    const std::vector<shapes> cases = {
        {{5}, {5, 7}}, {{2, 3, 5}, {5}}, {{5}, {5}}, {{5}, {2, 5, 7}}, {{6, 5}, {5}},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        INFO("case " << i);
        builder b;
        b.input("a", cases[i].a).input("b", cases[i].b);
        b.op("MatMul", "MatMul_0", {"a", "b"}, {"m"});
        b.op("Relu", "Relu_1", {"m"}, {"y"});
        b.output("y");
        check_nd(b.m, make_inputs(b.m, {}));
    }
    SECTION("a constant 1D B and a bias row") {
        builder b;
        b.input("a", {3, 4, 9}).init("v", {9}).init("c", {4});
        b.op("MatMul", "MatMul_0", {"a", "v"}, {"m"});
        b.op("Add", "Add_1", {"m", "c"}, {"y"});
        b.output("y");
        check_nd(b.m, make_inputs(b.m, {}));
    }
}

TEST_CASE("graph: a BERT-style attention block", "[graph][matmul]") {
    const int64_t S = 10, H = 12, heads = 3, D = H / heads;
    builder b;
    b.input("x", {1, S, H});
    b.init_values("heads_shape", {4}, {0.f, 0.f, float(heads), float(D)});
    b.init_values("merged_shape", {3}, {0.f, 0.f, float(H)});
    b.init_values("sqrt_d", {}, {2.f});
    for (const char *p : {"q", "k", "v", "o"}) b.init(std::string("w") + p, {H, H}).init(std::string("b") + p, {H});
    for (const char *p : {"q", "k", "v"}) {
        const std::string s = p;
        b.op("MatMul", "MatMul_" + s, {"x", "w" + s}, {"mm" + s});
        b.op("Add", "Add_" + s, {"mm" + s, "b" + s}, {"l" + s});
        b.op("Reshape", "Reshape_" + s, {"l" + s, "heads_shape"}, {"r" + s});
        b.op("Transpose", "Transpose_" + s, {"r" + s}, {"t" + s},
             {{"perm", ais(s == "k" ? std::vector<int64_t>{0, 2, 3, 1} : std::vector<int64_t>{0, 2, 1, 3})}});
    }
    b.op("MatMul", "MatMul_scores", {"tq", "tk"}, {"sc"});
    b.op("Div", "Div_scores", {"sc", "sqrt_d"}, {"scd"});
    b.op("Softmax", "Softmax_0", {"scd"}, {"p"}, {{"axis", ai(-1)}});
    b.op("MatMul", "MatMul_ctx", {"p", "tv"}, {"ctx"});
    b.op("Transpose", "Transpose_ctx", {"ctx"}, {"ctxt"}, {{"perm", ais({0, 2, 1, 3})}});
    b.op("Reshape", "Reshape_ctx", {"ctxt", "merged_shape"}, {"merged"});
    b.op("MatMul", "MatMul_o", {"merged", "wo"}, {"mo"});
    b.op("Add", "Add_o", {"mo", "bo"}, {"lo"});
    b.op("Add", "Add_res", {"lo", "x"}, {"y"});
    b.output("y");
    auto cm = check_nd(b.m, make_inputs(b.m, {}));
    INFO(log_text(cm.fusion_log()));
    CHECK(has_fusion(cm.fusion_log(), "MatMul+Div(binary)", {"MatMul_scores", "Div_scores"}));
    CHECK(has_fusion(cm.fusion_log(), "MatMul+Add(binary)+Add(binary)", {"MatMul_o", "Add_o", "Add_res"}));
}

TEST_CASE("graph: MatMul errors name the node", "[graph][matmul]") {
    SECTION("K differs") {
        builder b;
        b.input("a", {2, 3, 5}).input("b", {2, 4, 6});
        b.op("MatMul", "MatMul_7", {"a", "b"}, {"y"});
        b.output("y");
        const auto f = failure(b.m);
        CHECK(f.first == prim::status::invalid_arguments);
        CHECK(f.second == "MatMul_7 (MatMul): shape mismatch: A (2x3x5) and B (2x4x6) do not agree on K");
    }
    SECTION("batch dims that do not broadcast") {
        builder b;
        b.input("a", {2, 3, 5}).input("b", {3, 5, 6});
        b.op("MatMul", "MatMul_7", {"a", "b"}, {"y"});
        b.output("y");
        const auto f = failure(b.m);
        CHECK(f.first == prim::status::invalid_arguments);
        CHECK(f.second == "MatMul_7 (MatMul): shape mismatch: the batch dims of A (2x3x5) and B (3x5x6) do not broadcast");
    }
    SECTION("an empty inner dim: the empty initializer is named") {
        builder b;
        b.input("x", {2, 6}).init("a", {2, 0}).init("b", {0, 6});
        b.op("MatMul", "MatMul_7", {"a", "b"}, {"m"});
        b.op("Add", "Add_8", {"m", "x"}, {"y"});
        b.output("y");
        const auto f = failure(b.m);
        INFO(f.second);
        CHECK(f.first == prim::status::unimplemented);
        CHECK(f.second == "graph: initializer a has a dim of 0 (dims 2x0): empty tensors are not supported");
    }
}
