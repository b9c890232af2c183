// Small networks built the way exporters write them (ResNet bottlenecks, a MobileNetV2 block,
// a BERT feed-forward block): fused and unfused on every ISA against the reference, and the
// fusions each should get.
#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;

namespace {

// Conv (no bias) + BatchNormalization with constant statistics; returns the BN's output name.
std::string conv_bn(builder &b, const std::string &name, const std::string &in, int64_t ic, int64_t oc,
                    int64_t k, int64_t stride, int64_t group = 1) {
    const std::string w = name + "_w";
    b.init(w, {oc, ic / group, k, k}, -0.5f, 0.5f);
    for (const char *p : {"_s", "_b", "_m"}) b.init(name + p, {oc});
    b.init(name + "_v", {oc}, 0.5f, 1.5f);
    const int64_t pad = k / 2;
    b.op("Conv", name, {in, w}, {name + "_out"},
         {{"strides", ais({stride, stride})}, {"pads", ais({pad, pad, pad, pad})}, {"group", ai(group)}});
    b.op("BatchNormalization", name + "_bn", {name + "_out", name + "_s", name + "_b", name + "_m", name + "_v"},
         {name + "_bn_out"});
    return name + "_bn_out";
}

} // namespace

TEST_CASE("graph: ResNet bottlenecks, with a projection and with an identity shortcut", "[graph]") {
    builder b;
    b.input("x", {2, 16, 8, 8});
    // Projection block: 16 -> 8 -> 8 (stride 2) -> 32, shortcut 1x1 stride 2.
    std::string t = conv_bn(b, "c1", "x", 16, 8, 1, 1);
    b.op("Relu", "c1_relu", {t}, {"r1"});
    t = conv_bn(b, "c2", "r1", 8, 8, 3, 2);
    b.op("Relu", "c2_relu", {t}, {"r2"});
    t = conv_bn(b, "c3", "r2", 8, 32, 1, 1);
    const std::string sc = conv_bn(b, "cp", "x", 16, 32, 1, 2);
    b.op("Add", "add1", {t, sc}, {"s1"});
    b.op("Relu", "add1_relu", {"s1"}, {"y1"});
    // Identity block: 32 -> 8 -> 8 -> 32, shortcut y1 (also read by c4).
    t = conv_bn(b, "c4", "y1", 32, 8, 1, 1);
    b.op("Relu", "c4_relu", {t}, {"r4"});
    t = conv_bn(b, "c5", "r4", 8, 8, 3, 1);
    b.op("Relu", "c5_relu", {t}, {"r5"});
    t = conv_bn(b, "c6", "r5", 8, 32, 1, 1);
    b.op("Add", "add2", {"y1", t}, {"s2"});
    b.op("Relu", "add2_relu", {"s2"}, {"y"});
    b.output("y");
    auto cm = check_model(b.m, make_inputs(b.m, {}));
    const auto log = cm.fusion_log();
    INFO(log_text(log));
    INFO(steps_text(cm));
    CHECK(has_fusion(log, "Conv+BatchNormalization(folded)+Relu", {"c1", "c1_bn", "c1_relu"}));
    CHECK(has_fusion(log, "Conv+BatchNormalization(folded)+Add(sum)+Relu", {"c3", "c3_bn", "add1", "add1_relu"}));
    CHECK(has_fusion(log, "Conv+BatchNormalization(folded)", {"cp", "cp_bn"}));
    // y1 is also read by c4, which runs before c6: c6 sums into y1's buffer.
    CHECK(has_fusion(log, "Conv+BatchNormalization(folded)+Add(sum)+Relu", {"c6", "c6_bn", "add2", "add2_relu"}));
    // 7 fused convolutions (every BN folded) and nothing else but the edges' reorders.
    int convs = 0, others = 0;
    for (const auto &s : cm.steps()) {
        if (s.find(": convolution") != std::string::npos) ++convs;
        else if (s.find("(at load time)") == std::string::npos) ++others;
    }
    CHECK(convs == 7);
    CHECK(others <= 2); // x into the convolutions' layout, y back to plain
}

TEST_CASE("graph: a MobileNetV2 block with ReLU6 and a hardswish variant", "[graph]") {
    for (int act = 0; act < 2; ++act) {
        INFO("activation " << act);
        builder b;
        b.m.opset = 13;
        b.input("x", {1, 8, 9, 9});
        b.init_values("zero", {}, {0.f}).init_values("six", {}, {6.f});
        auto activation = [&](const std::string &name, const std::string &in) {
            if (act == 0) {
                b.op("Clip", name, {in, "zero", "six"}, {name + "_out"});
            } else {
                b.op("HardSigmoid", name + "_hs", {in}, {name + "_h"}, {{"alpha", af(1.f / 6)}});
                b.op("Mul", name, {in, name + "_h"}, {name + "_out"});
            }
            return name + "_out";
        };
        std::string t = conv_bn(b, "expand", "x", 8, 48, 1, 1);
        t = activation("a1", t);
        t = conv_bn(b, "dw", t, 48, 48, 3, 1, 48);
        t = activation("a2", t);
        t = conv_bn(b, "project", t, 48, 8, 1, 1);
        b.op("Add", "add", {"x", t}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        const auto log = cm.fusion_log();
        INFO(log_text(log));
        if (act == 0) {
            CHECK(has_fusion(log, "Conv+BatchNormalization(folded)+Clip", {"dw", "dw_bn", "a2"}));
        } else {
            CHECK(has_fusion(log, "hardswish", {"a2_hs", "a2"}));
            CHECK(has_fusion(log, "Conv+BatchNormalization(folded)+hardswish", {"dw", "dw_bn", "a2_hs", "a2"}));
        }
        CHECK(has_fusion(log, "Conv+BatchNormalization(folded)+Add(binary)", {"project", "project_bn", "add"}));
    }
}

TEST_CASE("graph: a BERT feed-forward block: MatMul + bias + GELU, MatMul + bias + residual, LayerNorm",
          "[graph]") {
    builder b;
    b.input("x", {6, 32}).init("w1", {32, 64}, -0.3f, 0.3f).init("b1", {64}).init("w2", {64, 32}, -0.3f, 0.3f);
    b.init("b2", {32}).init("g", {32}).init("beta", {32});
    b.init_values("sqrt2", {}, {1.41421354f}).init_values("one", {}, {1.f}).init_values("half", {}, {0.5f});
    b.op("MatMul", "mm1", {"x", "w1"}, {"h0"});
    b.op("Add", "bias1", {"h0", "b1"}, {"h1"});
    b.op("Div", "gelu_div", {"h1", "sqrt2"}, {"g0"});
    b.op("Erf", "gelu_erf", {"g0"}, {"g1"});
    b.op("Add", "gelu_add", {"g1", "one"}, {"g2"});
    b.op("Mul", "gelu_mul", {"h1", "g2"}, {"g3"});
    b.op("Mul", "gelu_half", {"g3", "half"}, {"h2"});
    b.op("MatMul", "mm2", {"h2", "w2"}, {"h3"});
    b.op("Add", "bias2", {"b2", "h3"}, {"h4"});
    b.op("Add", "residual", {"h4", "x"}, {"h5"});
    b.op("LayerNormalization", "ln", {"h5", "g", "beta"}, {"y"}, {{"epsilon", af(1e-5f)}});
    b.output("y");
    auto cm = check_model(b.m, make_inputs(b.m, {}), 2e-4);
    const auto log = cm.fusion_log();
    INFO(log_text(log));
    CHECK(has_fusion(log, "gelu_erf", {"gelu_div", "gelu_erf", "gelu_add", "gelu_mul", "gelu_half"}));
    CHECK(has_fusion(log, "MatMul+Add(bias)+gelu_erf",
                     {"mm1", "bias1", "gelu_div", "gelu_erf", "gelu_add", "gelu_mul", "gelu_half"}));
    CHECK(has_fusion(log, "MatMul+Add(bias)+Add(binary)", {"mm2", "bias2", "residual"}));
}
