// The fuser's patterns: each hand-built model runs fused and unfused on every ISA, both equal to
// the plain reference interpreter (test_graph_util.hpp); the fusion log names what was merged.
#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;

TEST_CASE("graph: Conv + bias Add + a chain of activations is one convolution", "[graph]") {
    builder b;
    b.input("x", {2, 5, 7, 9}).init("w", {11, 5, 3, 3}).init("bias", {11, 1, 1});
    b.op("Conv", "Conv_0", {"x", "w"}, {"c"}, {{"pads", ais({1, 1, 1, 1})}});
    b.op("Add", "Add_1", {"c", "bias"}, {"a"});
    b.op("Relu", "Relu_2", {"a"}, {"r"});
    b.op("LeakyRelu", "LeakyRelu_3", {"r"}, {"l"}, {{"alpha", af(0.25f)}});
    b.op("Tanh", "Tanh_4", {"l"}, {"y"});
    b.output("y");
    auto cm = check_model(b.m, make_inputs(b.m, {}));
    const auto log = cm.fusion_log();
    INFO(log_text(log));
    CHECK(has_fusion(log, "Conv+Add(bias)+Relu+LeakyRelu+Tanh", {"Conv_0", "Add_1", "Relu_2", "LeakyRelu_3", "Tanh_4"}));
    const std::string steps = steps_text(cm);
    INFO(steps);
    CHECK(steps.find("folded bias bias") != std::string::npos);
    CHECK(steps.find("post-ops relu+relu:0.25+tanh") != std::string::npos);
}

TEST_CASE("graph: Conv with groups, strides, dilation, auto_pad, 1D and 3D", "[graph]") {
    struct conv_case {
        dims x, w;
        std::map<std::string, attribute> attrs;
    };
    const std::vector<conv_case> cases = {
        {{2, 6, 9, 8}, {9, 2, 3, 3}, {{"group", ai(3)}, {"strides", ais({2, 1})}, {"pads", ais({1, 0, 2, 1})}}},
        {{1, 4, 10, 10}, {4, 1, 3, 3}, {{"group", ai(4)}, {"dilations", ais({2, 2})}, {"auto_pad", as("SAME_UPPER")}}},
        {{2, 3, 7, 7}, {5, 3, 2, 2}, {{"auto_pad", as("SAME_LOWER")}, {"strides", ais({2, 2})}}},
        {{2, 3, 7, 7}, {5, 3, 3, 3}, {{"auto_pad", as("VALID")}}},
        {{3, 4, 13}, {6, 4, 3}, {{"pads", ais({1, 1})}}},
        {{1, 2, 4, 5, 6}, {3, 2, 2, 3, 3}, {{"pads", ais({0, 1, 1, 1, 1, 1})}}},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        INFO("case " << i);
        builder b;
        b.input("x", cases[i].x).init("w", cases[i].w).init("bias", {cases[i].w[0]});
        b.op("Conv", "Conv_0", {"x", "w", "bias"}, {"c"}, cases[i].attrs);
        b.op("Relu", "Relu_1", {"c"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Conv+Relu", {"Conv_0", "Relu_1"}));
    }
}

TEST_CASE("graph: Gemm and MatMul + bias + activations", "[graph]") {
    SECTION("Gemm transB with a C vector, alpha 1: C is the bias") {
        builder b;
        b.input("a", {5, 17}).init("w", {13, 17}).init("c", {13}).init("bias2", {13});
        b.op("Gemm", "Gemm_0", {"a", "w", "c"}, {"g"}, {{"transB", ai(1)}, {"beta", af(0.5f)}});
        b.op("Add", "Add_1", {"g", "bias2"}, {"s"});
        b.op("Sigmoid", "Sigmoid_2", {"s"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Gemm+Add(bias)+Sigmoid", {"Gemm_0", "Add_1", "Sigmoid_2"}));
    }
    SECTION("Gemm transA, alpha and beta with a C matrix given at run time") {
        builder b;
        b.input("a", {9, 4}).input("c", {4, 6}).init("w", {9, 6});
        b.op("Gemm", "Gemm_0", {"a", "w", "c"}, {"g"},
             {{"transA", ai(1)}, {"alpha", af(0.75f)}, {"beta", af(-2.f)}});
        b.op("Relu", "Relu_1", {"g"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Gemm+Relu", {"Gemm_0", "Relu_1"}));
    }
    SECTION("Gemm with a scalar C and alpha != 1, a row of C") {
        for (dims cd : {dims{1}, dims{7, 1}, dims{1, 3}}) {
            builder b;
            b.input("a", {7, 5}).init("w", {5, 3}).init("c", cd);
            b.op("Gemm", "Gemm_0", {"a", "w", "c"}, {"y"}, {{"alpha", af(2.f)}});
            b.output("y");
            check_model(b.m, make_inputs(b.m, {}));
        }
    }
    SECTION("MatMul + Add of a per-column constant + Elu") {
        builder b;
        b.input("a", {3, 20}).init("w", {20, 35}).init("bias", {35});
        b.op("MatMul", "MatMul_0", {"a", "w"}, {"m"});
        b.op("Add", "Add_1", {"bias", "m"}, {"s"});
        b.op("Elu", "Elu_2", {"s"}, {"y"}, {{"alpha", af(0.5f)}});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "MatMul+Add(bias)+Elu", {"MatMul_0", "Add_1", "Elu_2"}));
    }
    SECTION("MatMul with both operands given at run time") {
        builder b;
        b.input("a", {4, 6}).input("b", {6, 5});
        b.op("MatMul", "MatMul_0", {"a", "b"}, {"y"});
        b.output("y");
        check_model(b.m, make_inputs(b.m, {}));
    }
}

TEST_CASE("graph: Conv + BatchNormalization + Relu, folded when constant", "[graph]") {
    auto make = [](bool stats_inputs, bool weights_input) {
        builder b;
        b.input("x", {2, 3, 8, 8});
        if (weights_input) b.input("w", {16, 3, 3, 3}); else b.init("w", {16, 3, 3, 3});
        b.init("cb", {16});
        for (const char *p : {"scale", "shift", "mean"})
            if (stats_inputs) b.input(p, {16}); else b.init(p, {16});
        if (stats_inputs) b.input("var", {16}); else b.init("var", {16}, 0.5f, 2.f);
        b.op("Conv", "Conv_0", {"x", "w", "cb"}, {"c"}, {{"strides", ais({2, 2})}, {"pads", ais({1, 1, 1, 1})}});
        b.op("BatchNormalization", "BatchNormalization_1", {"c", "scale", "shift", "mean", "var"}, {"n"},
             {{"epsilon", af(1e-3f)}});
        b.op("Relu", "Relu_2", {"n"}, {"y"});
        b.output("y");
        return b.m;
    };
    SECTION("constants: folded into the weights and bias") {
        model m = make(false, false);
        auto cm = check_model(m, make_inputs(m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Conv+BatchNormalization(folded)+Relu",
                         {"Conv_0", "BatchNormalization_1", "Relu_2"}));
        CHECK(steps_text(cm).find("folded batch norm BatchNormalization_1") != std::string::npos);
    }
    SECTION("statistics as graph inputs: per-channel post-ops") {
        model m = make(true, false);
        tmap in = make_inputs(m, {});
        for (auto &v : in["var"].data) v = std::fabs(v) + 0.5f;
        auto cm = check_model(m, in);
        CHECK(has_fusion(cm.fusion_log(), "Conv+BatchNormalization(per-channel)+Relu",
                         {"Conv_0", "BatchNormalization_1", "Relu_2"}));
        const std::string steps = steps_text(cm);
        INFO(steps);
        CHECK(steps.find("post-ops mul:f32:per_oc+add:f32:per_oc+relu") != std::string::npos);
    }
    SECTION("weights as a graph input: nothing folds at load time") {
        model m = make(false, true);
        auto cm = check_model(m, make_inputs(m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Conv+BatchNormalization(per-channel)+Relu",
                         {"Conv_0", "BatchNormalization_1", "Relu_2"}));
    }
}

TEST_CASE("graph: weights and biases as graph inputs, grouped Conv + folded batch norm", "[graph]") {
    SECTION("runtime weights and bias, a constant bias Add: a per-channel binary entry") {
        builder b;
        b.input("x", {2, 6, 7, 7}).input("w", {12, 3, 3, 3}).input("cb", {12}).init("k", {1, 12, 1, 1});
        b.op("Conv", "Conv_0", {"x", "w", "cb"}, {"c"}, {{"group", ai(2)}, {"pads", ais({1, 1, 1, 1})}});
        b.op("Add", "Add_1", {"c", "k"}, {"a"});
        b.op("Relu", "Relu_2", {"a"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Conv+Add(bias)+Relu", {"Conv_0", "Add_1", "Relu_2"}));
        const std::string steps = steps_text(cm);
        INFO(steps);
        CHECK(steps.find("post-ops add:f32:per_oc+relu") != std::string::npos);
        CHECK(steps.find("reorder w plain") != std::string::npos);
        CHECK(steps.find("reorder w plain -> ABcd16b16a (at load time)") == std::string::npos);
    }
    SECTION("grouped Conv without bias, batch norm folded per output channel") {
        builder b;
        b.input("x", {1, 8, 6, 6}).init("w", {8, 2, 3, 3});
        b.init("s", {8}).init("sh", {8}).init("mu", {8}).init("v", {8}, 0.5f, 2.f);
        b.op("Conv", "Conv_0", {"x", "w"}, {"c"}, {{"group", ai(4)}});
        b.op("BatchNormalization", "BatchNormalization_1", {"c", "s", "sh", "mu", "v"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Conv+BatchNormalization(folded)", {"Conv_0", "BatchNormalization_1"}));
    }
}

TEST_CASE("graph: batch norm written as Mul and Add of per-channel constants folds into the Conv", "[graph]") {
    for (bool weights_input : {false, true}) {
        builder b;
        b.input("x", {2, 6, 5, 5}).init("k", {6, 1, 1}).init("sh", {1, 6, 1, 1}).init("cb", {6});
        if (weights_input) b.input("w", {6, 3, 3, 3}); else b.init("w", {6, 3, 3, 3});
        b.op("Conv", "Conv_0", {"x", "w", "cb"}, {"c"}, {{"group", ai(2)}});
        b.op("Mul", "Mul_1", {"k", "c"}, {"m"});
        b.op("Add", "Add_2", {"m", "sh"}, {"a"});
        b.op("Relu", "Relu_3", {"a"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Conv+Mul(scale)+Add(bias)+Relu", {"Conv_0", "Mul_1", "Add_2", "Relu_3"}));
        const std::string steps = steps_text(cm);
        INFO(steps);
        if (weights_input)
            CHECK(steps.find("post-ops mul:f32:per_oc+add:f32:per_oc+relu") != std::string::npos);
        else
            CHECK(steps.find("folded scale k folded bias sh post-ops relu") != std::string::npos);
    }
}

TEST_CASE("graph: batch normalization after other ops: per-channel entries", "[graph]") {
    SECTION("after a Gemm") {
        builder b;
        b.input("a", {4, 5}).init("w", {5, 6}).init("s", {6}).init("sh", {6}).init("mu", {6}).init("v", {6}, 0.5f, 1.f);
        b.op("Gemm", "Gemm_0", {"a", "w"}, {"g"});
        b.op("BatchNormalization", "BatchNormalization_1", {"g", "s", "sh", "mu", "v"}, {"n"});
        b.op("Relu", "Relu_2", {"n"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Gemm+BatchNormalization(per-channel)+Relu",
                         {"Gemm_0", "BatchNormalization_1", "Relu_2"}));
    }
    SECTION("after the Conv's activation; after a constant bias add it still folds") {
        builder b;
        b.input("x", {1, 4, 5, 5}).init("w", {4, 4, 1, 1}).init("k", {4, 1, 1});
        for (const char *p : {"1", "2"}) {
            for (const char *n : {"s", "sh", "mu"}) b.init(std::string(n) + p, {4});
            b.init(std::string("v") + p, {4}, 0.5f, 1.f);
        }
        b.op("Conv", "Conv_0", {"x", "w"}, {"c"});
        b.op("Relu", "Relu_1", {"c"}, {"r"});
        b.op("BatchNormalization", "BatchNormalization_2", {"r", "s1", "sh1", "mu1", "v1"}, {"y"});
        b.op("Conv", "Conv_3", {"y", "w"}, {"c3"});
        b.op("Add", "Add_4", {"c3", "k"}, {"a4"});
        b.op("BatchNormalization", "BatchNormalization_5", {"a4", "s2", "sh2", "mu2", "v2"}, {"z"});
        b.output("z");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        const auto log = cm.fusion_log();
        INFO(log_text(log));
        CHECK(has_fusion(log, "Conv+Relu+BatchNormalization(per-channel)", {"Conv_0", "Relu_1", "BatchNormalization_2"}));
        CHECK(has_fusion(log, "Conv+Add(bias)+BatchNormalization(folded)", {"Conv_3", "Add_4", "BatchNormalization_5"}));
    }
}

TEST_CASE("graph: residual Add as a sum or a binary post-op", "[graph]") {
    SECTION("the other branch is read only by the Add: sum in its buffer") {
        builder b;
        b.input("x", {2, 16, 6, 6}).init("w1", {16, 16, 3, 3}).init("w2", {16, 16, 1, 1});
        b.op("Conv", "Conv_0", {"x", "w1"}, {"c1"}, {{"pads", ais({1, 1, 1, 1})}});
        b.op("Conv", "Conv_1", {"x", "w2"}, {"c2"});
        b.op("Add", "Add_2", {"c1", "c2"}, {"s"});
        b.op("Relu", "Relu_3", {"s"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        INFO(log_text(cm.fusion_log()));
        CHECK(has_fusion(cm.fusion_log(), "Conv+Add(sum)+Relu", {"Conv_0", "Add_2", "Relu_3"}));
        const std::string steps = steps_text(cm);
        INFO(steps);
        CHECK(steps.find("post-ops sum+relu") != std::string::npos);
        CHECK(steps.find("copy c2") == std::string::npos); // summed in place
    }
    SECTION("the other tensor is a graph input: binary add") {
        builder b;
        b.input("x", {2, 8, 5, 5}).input("skip", {2, 8, 5, 5}).init("w", {8, 8, 3, 3});
        b.op("Conv", "Conv_0", {"x", "w"}, {"c"}, {{"pads", ais({1, 1, 1, 1})}});
        b.op("Add", "Add_1", {"skip", "c"}, {"s"});
        b.op("Relu", "Relu_2", {"s"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Conv+Add(binary)+Relu", {"Conv_0", "Add_1", "Relu_2"}));
    }
    SECTION("the other tensor is read elsewhere too: binary add, and it stays intact") {
        builder b;
        b.input("x", {1, 8, 5, 5}).init("w", {8, 8, 3, 3});
        b.op("Relu", "Relu_0", {"x"}, {"r"});
        b.op("Conv", "Conv_1", {"r", "w"}, {"c"}, {{"pads", ais({1, 1, 1, 1})}});
        b.op("Add", "Add_2", {"c", "r"}, {"s"});
        b.op("Mul", "Mul_3", {"s", "r"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Conv+Add(binary)+Mul(binary)", {"Conv_1", "Add_2", "Mul_3"}));
    }
    SECTION("a view of the other tensor is an output, read later or read by the host: it stays intact") {
        // Identity, Reshape and the other shape ops share their input's buffer: a sum into the
        // residual would write the view too (found by fuzzing the ONNX front end).
        for (const char *view : {"Identity", "Reshape", "Flatten"})
            for (int reader : {0, 1, 2}) { // the view: a graph output, read after, read by the host
                INFO(view << " read " << reader);
                builder b;
                b.m.opset = 13;
                b.input("x", {2, 8}).init("w", {8, 8}).init("w2", {8, 8}).init_values("shape", {2}, {2, 8});
                b.op("Sigmoid", "Sigmoid_0", {"x"}, {"c"});
                if (std::string(view) == "Reshape")
                    b.op(view, "View_1", {"c", "shape"}, {"v"});
                else
                    b.op(view, "View_1", {"c"}, {"v"});
                b.op("MatMul", "MatMul_2", {reader == 2 ? "v" : "x", "w"}, {"e"});
                b.op("Add", "Add_3", {"e", "c"}, {"s"});
                if (reader == 1) {
                    b.op("MatMul", "MatMul_4", {"v", "w2"}, {"m"});
                    b.op("Add", "Add_5", {"s", "m"}, {"y"});
                    b.output("y");
                } else {
                    b.output("s").output("v");
                }
                check_model(b.m, make_inputs(b.m, {}));
            }
    }
}

TEST_CASE("graph: BatchNormalization + Add(side) + Relu; Add/Mul + activation", "[graph]") {
    SECTION("batch norm host") {
        builder b;
        b.input("x", {2, 5, 4, 3}).input("side", {2, 5, 4, 3});
        b.init("scale", {5}).init("shift", {5}).init("mean", {5}).init("var", {5}, 0.5f, 2.f);
        b.op("BatchNormalization", "BatchNormalization_0", {"x", "scale", "shift", "mean", "var"}, {"n"});
        b.op("Add", "Add_1", {"n", "side"}, {"s"});
        b.op("Relu", "Relu_2", {"s"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "BatchNormalization+Add(binary)+Relu",
                         {"BatchNormalization_0", "Add_1", "Relu_2"}));
    }
    SECTION("binary hosts with broadcasting") {
        builder b;
        b.input("x", {3, 4, 5}).input("y", {4, 1}).init("k", {5});
        b.op("Add", "Add_0", {"x", "y"}, {"a"});
        b.op("Relu", "Relu_1", {"a"}, {"r"});
        b.op("Mul", "Mul_2", {"k", "r"}, {"m"});
        b.op("Sigmoid", "Sigmoid_3", {"m"}, {"z"});
        b.output("z");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        INFO(log_text(cm.fusion_log()));
        CHECK(has_fusion(cm.fusion_log(), "Add+Relu+Mul(binary)+Sigmoid", {"Add_0", "Relu_1", "Mul_2", "Sigmoid_3"}));
    }
    SECTION("Sub and Div broadcasting either way, unfused and fused") {
        builder b;
        b.input("x", {3, 1, 5}).input("y", {4, 1}).init("d", {3, 4, 5}, 3.f, 4.f);
        b.op("Sub", "Sub_0", {"x", "y"}, {"s"});          // neither has the output's dims
        b.op("Sub", "Sub_1", {"y", "d"}, {"t"});          // the right one has them
        b.op("Div", "Div_2", {"s", "d"}, {"u"});
        b.op("Div", "Div_3", {"u", "t"}, {"v"});
        b.op("Abs", "Abs_4", {"v"}, {"z"});
        b.output("z");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        INFO(log_text(cm.fusion_log()));
        CHECK(has_fusion(cm.fusion_log(), "Sub+Div(binary)+Div(binary)+Abs", {"Sub_0", "Div_2", "Div_3", "Abs_4"}));
    }
}

TEST_CASE("graph: activations written as several ops", "[graph]") {
    SECTION("x * sigmoid(x) -> swish, x * HardSigmoid(x) -> hardswish, after a Conv") {
        builder b;
        b.input("x", {2, 4, 6, 6}).init("w", {8, 4, 1, 1});
        b.op("Conv", "Conv_0", {"x", "w"}, {"c"});
        b.op("Sigmoid", "Sigmoid_1", {"c"}, {"s"});
        b.op("Mul", "Mul_2", {"s", "c"}, {"sw"});
        b.op("HardSigmoid", "HardSigmoid_3", {"sw"}, {"h"}, {{"alpha", af(0.25f)}});
        b.op("Mul", "Mul_4", {"sw", "h"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        const auto log = cm.fusion_log();
        INFO(log_text(log));
        CHECK(has_fusion(log, "swish", {"Sigmoid_1", "Mul_2"}));
        CHECK(has_fusion(log, "hardswish", {"HardSigmoid_3", "Mul_4"}));
        CHECK(has_fusion(log, "Conv+swish+hardswish", {"Conv_0", "Sigmoid_1", "Mul_2", "HardSigmoid_3", "Mul_4"}));
    }
    SECTION("GELU, Erf form, both groupings; a constant off by more than rounding is not GELU") {
        for (float one : {1.f, 0.999f})
        for (int grouping = 0; grouping < 2; ++grouping) {
            builder b;
            b.input("x", {3, 37}).init_values("sqrt2", {}, {1.4142135f}).init_values("one", {}, {one});
            b.init_values("half", {}, {0.5f});
            b.op("Div", "Div_0", {"x", "sqrt2"}, {"d"});
            b.op("Erf", "Erf_1", {"d"}, {"e"});
            b.op("Add", "Add_2", {"e", "one"}, {"a"});
            if (grouping == 0) {
                b.op("Mul", "Mul_3", {"x", "a"}, {"m"});
                b.op("Mul", "Mul_4", {"m", "half"}, {"y"});
            } else {
                b.op("Mul", "Mul_3", {"half", "x"}, {"m"});
                b.op("Mul", "Mul_4", {"a", "m"}, {"y"});
            }
            b.output("y");
            auto cm = check_model(b.m, make_inputs(b.m, {}));
            INFO(log_text(cm.fusion_log()));
            CHECK(has_fusion(cm.fusion_log(), "gelu_erf", {"Div_0", "Erf_1", "Add_2", "Mul_3", "Mul_4"})
                  == (one == 1.f));
        }
    }
    SECTION("GELU, tanh form, x^3 as Pow and as products") {
        for (int cube = 0; cube < 2; ++cube) {
            builder b;
            b.input("x", {2, 3, 11});
            b.init_values("three", {}, {3.f}).init_values("c1", {}, {0.044715f});
            b.init_values("c2", {}, {0.7978845608f}).init_values("one", {}, {1.f}).init_values("half", {}, {0.5f});
            std::vector<std::string> names;
            if (cube == 0) {
                b.op("Pow", "Pow_0", {"x", "three"}, {"p"});
                names = {"Pow_0"};
            } else {
                b.op("Mul", "Mul_0a", {"x", "x"}, {"sq"});
                b.op("Mul", "Mul_0", {"x", "sq"}, {"p"});
                names = {"Mul_0a", "Mul_0"};
            }
            b.op("Mul", "Mul_1", {"p", "c1"}, {"q"});
            b.op("Add", "Add_2", {"x", "q"}, {"w"});
            b.op("Mul", "Mul_3", {"c2", "w"}, {"v"});
            b.op("Tanh", "Tanh_4", {"v"}, {"t"});
            b.op("Add", "Add_5", {"one", "t"}, {"a"});
            b.op("Mul", "Mul_6", {"x", "half"}, {"h"});
            b.op("Mul", "Mul_7", {"h", "a"}, {"y"});
            b.output("y");
            auto cm = check_model(b.m, make_inputs(b.m, {}));
            INFO(log_text(cm.fusion_log()));
            for (const char *n : {"Mul_1", "Add_2", "Mul_3", "Tanh_4", "Add_5", "Mul_6", "Mul_7"}) names.push_back(n);
            CHECK(has_fusion(cm.fusion_log(), "gelu_tanh", names));
        }
    }
    SECTION("near misses are left as they are: a wrong constant, a shared intermediate, another x") {
        builder b;
        b.input("x", {2, 9}).input("z", {2, 9}).init_values("sqrt2", {}, {1.4142135f});
        b.init_values("one", {}, {1.f}).init_values("c", {}, {0.6f});
        b.op("Div", "Div_0", {"x", "sqrt2"}, {"d"});
        b.op("Erf", "Erf_1", {"d"}, {"e"});
        b.op("Add", "Add_2", {"e", "one"}, {"a"});
        b.op("Mul", "Mul_3", {"x", "a"}, {"m"});
        b.op("Mul", "Mul_4", {"m", "c"}, {"g"});       // 0.6, not 0.5
        b.op("Sigmoid", "Sigmoid_5", {"x"}, {"s"});
        b.op("Mul", "Mul_6", {"x", "s"}, {"sw"});      // s is read again below
        b.op("Sigmoid", "Sigmoid_7", {"z"}, {"t"});
        b.op("Mul", "Mul_8", {"x", "t"}, {"u"});       // sigmoid of z times x
        b.op("Add", "Add_9", {"g", "sw"}, {"v"});
        b.op("Add", "Add_10", {"v", "s"}, {"w"});
        b.op("Add", "Add_11", {"w", "u"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        for (const auto &r : cm.fusion_log())
            if (r.fused) {
                CHECK(r.pattern.find("gelu") == std::string::npos);
                CHECK(r.pattern.find("swish") == std::string::npos);
            }
    }
    SECTION("a lone Erf runs on the graph's kernel; Clip(0, 6) and a chain of activations") {
        builder b;
        b.m.opset = 13;
        b.input("x", {4, 9}).init_values("lo", {}, {0.f}).init_values("hi", {}, {6.f});
        b.op("Erf", "Erf_0", {"x"}, {"e"});
        b.op("Mul", "Mul_1", {"e", "x"}, {"m"});
        b.op("Clip", "Clip_2", {"m", "lo", "hi"}, {"c"});
        b.op("Softplus", "Softplus_3", {"c"}, {"s"});
        b.op("Exp", "Exp_4", {"s"}, {"t"});
        b.op("Log", "Log_5", {"t"}, {"u"});
        b.op("Sqrt", "Sqrt_6", {"u"}, {"y"});
        b.output("y");
        tmap in = make_inputs(b.m, {});
        for (auto &v : in["x"].data) v *= 8.f;
        auto cm = check_model(b.m, in);
        INFO(log_text(cm.fusion_log()));
        CHECK(has_fusion(cm.fusion_log(), "Mul+Clip+Softplus+Exp+Log+Sqrt",
                         {"Mul_1", "Clip_2", "Softplus_3", "Exp_4", "Log_5", "Sqrt_6"}));
        CHECK(steps_text(cm).find("Erf_0: erf graph kernel") != std::string::npos);
    }
    SECTION("Clip with attributes before opset 11, HardSwish, Pow") {
        builder b;
        b.m.opset = 9;
        b.input("x", {2, 33}).init_values("e", {}, {2.f});
        b.op("Clip", "Clip_0", {"x"}, {"c"}, {{"min", af(-0.5f)}, {"max", af(0.25f)}});
        b.op("HardSwish", "HardSwish_1", {"c"}, {"h"});
        b.op("Pow", "Pow_2", {"h", "e"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_fusion(cm.fusion_log(), "Clip+HardSwish+Pow", {"Clip_0", "HardSwish_1", "Pow_2"}));
    }
}

TEST_CASE("graph: LayerNormalization, shape ops", "[graph]") {
    SECTION("LayerNormalization over the last dim and over two, + activation") {
        for (int64_t axis : {-1, 1}) {
            builder b;
            // Scale and B as the normalized dims, B with a leading 1 (numpy broadcasting).
            b.input("x", {2, 3, 17}).init("s", axis == -1 ? dims{17} : dims{3, 17}).init("bb", axis == -1 ? dims{1, 17} : dims{1, 3, 17});
            b.op("LayerNormalization", "LayerNormalization_0", {"x", "s", "bb"}, {"n"}, {{"axis", ai(axis)}});
            b.op("Relu", "Relu_1", {"n"}, {"y"});
            b.output("y");
            auto cm = check_model(b.m, make_inputs(b.m, {}));
            CHECK(has_fusion(cm.fusion_log(), "LayerNormalization+Relu", {"LayerNormalization_0", "Relu_1"}));
        }
    }
    SECTION("Conv -> Flatten -> Gemm; Transpose, Reshape, Squeeze, Unsqueeze, Identity") {
        builder b;
        b.m.opset = 13;
        b.input("x", {2, 3, 5, 5}).init("w", {4, 3, 3, 3}).init("fc", {10, 36});
        b.init_values("shape", {3}, {5, 0, -1}).init_values("ax", {1}, {1}).init_values("ax0", {1}, {0});
        b.op("Conv", "Conv_0", {"x", "w"}, {"c"});
        b.op("Flatten", "Flatten_1", {"c"}, {"f"});
        b.op("Gemm", "Gemm_2", {"f", "fc"}, {"g"}, {{"transB", ai(1)}});
        b.op("Transpose", "Transpose_3", {"g"}, {"t"}, {{"perm", ais({1, 0})}});
        b.op("Relu", "Relu_4", {"t"}, {"r"});
        b.op("Reshape", "Reshape_5", {"r", "shape"}, {"rs"});
        b.op("Unsqueeze", "Unsqueeze_6", {"rs", "ax0"}, {"u"});
        b.op("Squeeze", "Squeeze_7", {"u", "ax0"}, {"sq"});
        b.op("Identity", "Identity_8", {"sq"}, {"id"});
        b.op("Transpose", "Transpose_9", {"id"}, {"y"});
        b.output("y");
        check_model(b.m, make_inputs(b.m, {}));
    }
}

TEST_CASE("graph: consecutive convolutions exchange blocked data without reorders", "[graph]") {
    builder b;
    b.input("x", {2, 16, 10, 10}).init("w1", {32, 16, 3, 3}).init("w2", {32, 32, 3, 3}).init("w3", {16, 32, 1, 1});
    b.op("Conv", "Conv_0", {"x", "w1"}, {"c1"}, {{"pads", ais({1, 1, 1, 1})}});
    b.op("Relu", "Relu_1", {"c1"}, {"r1"});
    b.op("Conv", "Conv_2", {"r1", "w2"}, {"c2"}, {{"pads", ais({1, 1, 1, 1})}});
    b.op("Relu", "Relu_3", {"c2"}, {"r2"});
    b.op("Conv", "Conv_4", {"r2", "w3"}, {"y"});
    b.output("y");
    check_model(b.m, make_inputs(b.m, {}));
    for (auto isa : test_isas()) {
        INFO("isa " << prim::cpu_isa_name(isa));
        prim::graph::options o;
        o.max_isa = isa;
        compiled_model cm(b.m, o);
        const std::string steps = steps_text(cm);
        INFO(steps);
        // At most the edges: the graph input in, the output out; none between the convolutions.
        CHECK(steps.find("reorder c1") == std::string::npos);
        CHECK(steps.find("reorder c2") == std::string::npos);
        CHECK(steps.find("reorder r1") == std::string::npos);
        CHECK(steps.find("reorder r2") == std::string::npos);
    }
}

TEST_CASE("graph: a batch of -1 resolved from the options or the inputs", "[graph]") {
    builder b;
    b.input("x", {-1, 3, 6, 6}).init("w", {4, 3, 3, 3});
    b.op("Conv", "Conv_0", {"x", "w"}, {"c"});
    b.op("Relu", "Relu_1", {"c"}, {"y"});
    b.output("y", {-1, 4, 4, 4});
    compiled_model lazy(b.m);
    CHECK(lazy.fusion_log().empty()); // no plan before the dims are known
    for (int64_t n : {2, 5, 1, 2, 5, 6, 7, 8, 2}) { // kept plans, new ones, a dropped one again
        tmap in = make_inputs(b.m, {{"x", {n, 3, 6, 6}}});
        check_close(lazy.run(in), ref_run(b.m, in));
    }
    prim::graph::options o;
    o.batch = 3;
    compiled_model eager(b.m, o);
    CHECK(has_fusion(eager.fusion_log(), "Conv+Relu", {"Conv_0", "Relu_1"}));
    tmap in = make_inputs(b.m, {{"x", {3, 3, 6, 6}}});
    check_close(eager.run(in), ref_run(b.m, in));
    CHECK_THROWS_WITH(eager.run(make_inputs(b.m, {{"x", {2, 3, 6, 6}}})),
                      Catch::Contains("input 'x' has dims 2x3x6x6, the model declares -1x3x6x6 with batch 3"));
}

TEST_CASE("graph: intermediate results share one arena when their lifetimes do not overlap", "[graph]") {
    // Eight activations one after the other, unfused: at most two results live at once.
    builder b;
    const dims d = {1, 64, 32, 32};
    const size_t bytes = size_t(count(d)) * sizeof(float);
    b.input("x", d);
    std::string prev = "x";
    const char *types[] = {"Relu", "Tanh", "Abs", "Sigmoid", "Elu", "Relu", "Tanh", "Sigmoid"};
    for (int i = 0; i < 8; ++i) {
        const std::string out = i == 7 ? "y" : "t" + std::to_string(i);
        b.op(types[i], std::string(types[i]) + "_" + std::to_string(i), {prev}, {out});
        prev = out;
    }
    // A branch read at the end stays alive across the chain.
    b.op("Add", "Add_8", {"t1", "y"}, {"z"});
    b.output("z");
    prim::graph::options o;
    o.fuse = false;
    compiled_model cm(b.m, o);
    INFO(steps_text(cm));
    CHECK(cm.arena_bytes() >= 2 * bytes);
    CHECK(cm.arena_bytes() <= 3 * bytes);
    tmap in = make_inputs(b.m, {});
    check_close(cm.run(in), ref_run(b.m, in));
    check_model(b.m, in);
}

TEST_CASE("graph: scalars and 1D tensors", "[graph]") {
    builder b;
    b.input("s", {}).input("v", {7}).init_values("k", {}, {0.5f});
    b.op("Mul", "Mul_0", {"s", "k"}, {"sk"});
    b.op("Tanh", "Tanh_1", {"sk"}, {"st"});
    b.op("Add", "Add_2", {"v", "st"}, {"y"});
    b.op("Relu", "Relu_3", {"y"}, {"z"});
    b.output("st").output("z");
    auto cm = check_model(b.m, make_inputs(b.m, {}));
    const auto out = cm.run(make_inputs(b.m, {}));
    CHECK(out.at("st").dims == dims{});
    CHECK(out.at("z").dims == dims{7});
}

TEST_CASE("graph: nodes in any order are sorted", "[graph]") {
    builder b;
    b.input("x", {2, 7}).init("w", {7, 3});
    b.op("Tanh", "Tanh_2", {"m"}, {"y"});
    b.op("MatMul", "MatMul_0", {"r", "w"}, {"m"});
    b.op("Relu", "Relu_1", {"x"}, {"r"});
    b.output("y");
    compiled_model cm(b.m);
    CHECK(cm.sorted_nodes() == std::vector<std::string>{"Relu_1", "MatMul_0", "Tanh_2"});
    check_model(b.m, make_inputs(b.m, {}));
}
