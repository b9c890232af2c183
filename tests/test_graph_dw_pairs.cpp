// The graph fuser's dw pairs (src/graph/fuse_dw_pairs.cpp): a 1x1 convolution with its chain and
// the depthwise convolution reading its output become one convolution with a dw post-op. Each
// model runs fused and unfused on every ISA against the plain reference interpreter
// (test_graph_util.hpp), and with the dw fusion turned off (PRIM_GRAPH_DW_FUSION=0); the log
// names the merge or the reason for a refusal.
#include <cstdlib>

#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;

namespace {

// x -> Conv_0 (pw_k x pw_k, pw_stride; 'expand' channels) -> BatchNormalization_1 -> Clip_2 ->
// Conv_3 (depthwise: k x k, stride s, dw_pads, 'multiplier' outputs per channel)
// [-> BatchNormalization_4] -> Relu_5 -> Conv_6 (1x1 projection to 8 channels) -> y
// [; Clip_2's output also read by Relu_7 -> z].
struct pair_model {
    dims x = {2, 8, 9, 9};
    int64_t expand = 24;
    int64_t pw_k = 1, pw_stride = 1;
    int64_t k = 3, s = 1, multiplier = 1;
    std::vector<int64_t> dw_pads = {1, 1, 1, 1};
    std::vector<int64_t> dw_kernel; // {kh, kw} when not square
    bool bn_after_dw = false, second_reader = false;

    model make() const {
        builder b;
        const int64_t c = x[1], e = expand;
        b.input("x", x);
        b.init("w0", {e, c, pw_k, pw_k}).init("b0", {e});
        b.init("scale1", {e}).init("shift1", {e}).init("mean1", {e}).init("var1", {e}, 0.5f, 2.f);
        b.init_values("lo", {}, {0.f}).init_values("hi", {}, {1.5f});
        const dims kk = dw_kernel.empty() ? dims{k, k} : dw_kernel;
        b.init("w3", {e * multiplier, 1, kk[0], kk[1]}).init("b3", {e * multiplier});
        b.init("w6", {8, e * multiplier, 1, 1}, -0.3f, 0.3f);
        const int64_t p = pw_k / 2;
        b.op("Conv", "Conv_0", {"x", "w0", "b0"}, {"c0"},
             {{"pads", ais({p, p, p, p})}, {"strides", ais({pw_stride, pw_stride})}});
        b.op("BatchNormalization", "BatchNormalization_1", {"c0", "scale1", "shift1", "mean1", "var1"}, {"n1"});
        b.op("Clip", "Clip_2", {"n1", "lo", "hi"}, {"e"});
        b.op("Conv", "Conv_3", {"e", "w3", "b3"}, {"c3"},
             {{"group", ai(e)}, {"strides", ais({s, s})}, {"pads", ais(dw_pads)}});
        std::string last = "c3";
        if (bn_after_dw) {
            b.init("scale4", {e * multiplier}).init("shift4", {e * multiplier}).init("mean4", {e * multiplier});
            b.init("var4", {e * multiplier}, 0.5f, 2.f);
            b.op("BatchNormalization", "BatchNormalization_4", {"c3", "scale4", "shift4", "mean4", "var4"}, {"n4"});
            last = "n4";
        }
        b.op("Relu", "Relu_5", {last}, {"r5"});
        b.op("Conv", "Conv_6", {"r5", "w6"}, {"y"});
        b.output("y");
        if (second_reader) {
            b.op("Relu", "Relu_7", {"e"}, {"z"});
            b.output("z");
        }
        return b.m;
    }
};

// Sets PRIM_GRAPH_DW_FUSION for its lifetime (the fuser reads it at each plan).
struct dw_fusion_switch {
    explicit dw_fusion_switch(bool on) { setenv("PRIM_GRAPH_DW_FUSION", on ? "1" : "0", 1); }
    ~dw_fusion_switch() { unsetenv("PRIM_GRAPH_DW_FUSION"); }
};

// check_model (fused and unfused on every ISA against the reference), then the same with the dw
// fusion off; returns the fused model at the best ISA.
compiled_model check_both(const model &m, const tmap &in) {
    {
        dw_fusion_switch off(false);
        check_model(m, in);
    }
    return check_model(m, in);
}

bool any_dw_fusion(const std::vector<prim::graph::fusion_record> &log) {
    for (const auto &r : log)
        if (r.fused && r.pattern.find("+dw:") != std::string::npos) return true;
    return false;
}

const std::vector<std::string> pair_nodes = {"Conv_0", "BatchNormalization_1", "Clip_2", "Conv_3", "Relu_5"};

} // namespace

TEST_CASE("graph dw pairs: 1x1 + batch norm + Clip, depthwise + Relu: one convolution", "[graph][dw]") {
    struct geometry {
        dims x;
        int64_t k, s;
        std::vector<int64_t> pads;
    };
    // Even and odd sizes at stride 2 (the end padding ONNX gives is not always used), kernels 3
    // and 5, a one-row image, padding only at the end.
    const geometry cases[] = {
        {{2, 8, 9, 9}, 3, 1, {1, 1, 1, 1}},   {{1, 8, 8, 10}, 3, 2, {1, 1, 1, 1}},
        {{1, 8, 7, 7}, 3, 2, {1, 1, 1, 1}},   {{1, 5, 11, 6}, 5, 1, {2, 2, 2, 2}},
        {{1, 16, 9, 12}, 5, 2, {2, 2, 2, 2}}, {{1, 8, 1, 13}, 3, 1, {1, 1, 1, 1}},
        {{2, 8, 6, 6}, 3, 1, {0, 0, 2, 2}},   {{1, 8, 6, 6}, 2, 2, {0, 0, 0, 0}},
    };
    for (const auto &g : cases) {
        pair_model p;
        p.x = g.x;
        p.k = g.k;
        p.s = g.s;
        p.dw_pads = g.pads;
        const std::string entry = "dw:k" + std::to_string(g.k) + "s" + std::to_string(g.s) + "p" +
                                  std::to_string(g.pads[0]);
        INFO("x " << g.x[1] << "x" << g.x[2] << "x" << g.x[3] << " " << entry);
        const model m = p.make();
        const tmap in = make_inputs(m, {});
        compiled_model cm = check_both(m, in);
        const auto log = cm.fusion_log();
        INFO(log_text(log));
        CHECK(has_fusion(log, "Conv+BatchNormalization(folded)+Clip+" + entry + "(Conv+Relu)", pair_nodes));
        const std::string steps = steps_text(cm);
        INFO(steps);
        CHECK(steps.find("post-ops clip:0:1.5+" + entry + ":f32+relu") != std::string::npos);
    }
}

TEST_CASE("graph dw pairs: a batch norm after the depthwise folds into its weights", "[graph][dw]") {
    pair_model p;
    p.bn_after_dw = true;
    const model m = p.make();
    compiled_model cm = check_both(m, make_inputs(m, {}));
    const auto log = cm.fusion_log();
    INFO(log_text(log));
    CHECK(has_fusion(log,
                     "Conv+BatchNormalization(folded)+Clip+dw:k3s1p1(Conv+BatchNormalization(folded)+Relu)",
                     {"Conv_0", "BatchNormalization_1", "Clip_2", "Conv_3", "BatchNormalization_4", "Relu_5"}));
    const std::string steps = steps_text(cm);
    INFO(steps);
    CHECK(steps.find("post-ops clip:0:1.5+dw:k3s1p1:f32+relu") != std::string::npos);
}

TEST_CASE("graph dw pairs: the 1x1's output gets no buffer", "[graph][dw]") {
    pair_model p;
    p.x = {1, 16, 32, 32};
    p.expand = 96;
    const model m = p.make();
    const size_t mid_bytes = size_t(count({1, 96, 32, 32})) * sizeof(float);
    const compiled_model fused(m);
    size_t apart = 0;
    {
        dw_fusion_switch off(false);
        apart = compiled_model(m).arena_bytes();
    }
    INFO("arena: fused " << fused.arena_bytes() << " apart " << apart);
    CHECK(any_dw_fusion(fused.fusion_log()));
    CHECK(fused.arena_bytes() + mid_bytes <= apart);
}

TEST_CASE("graph dw pairs: PRIM_GRAPH_DW_FUSION=0 turns only this fusion off", "[graph][dw]") {
    const model m = pair_model().make();
    dw_fusion_switch off(false);
    const compiled_model cm(m);
    const auto log = cm.fusion_log();
    INFO(log_text(log));
    CHECK_FALSE(any_dw_fusion(log));
    CHECK(has_fusion(log, "Conv+BatchNormalization(folded)+Clip", {"Conv_0", "BatchNormalization_1", "Clip_2"}));
    CHECK(has_fusion(log, "Conv+Relu", {"Conv_3", "Relu_5"}));
}

TEST_CASE("graph dw pairs: pairs the dw post-op does not express stay apart, logged", "[graph][dw]") {
    struct refused {
        const char *what;
        pair_model p;
        std::string reason;
    };
    std::vector<refused> cases;
    const auto add = [&](const char *what, const std::function<void(pair_model &)> &set, const std::string &why) {
        pair_model p;
        set(p);
        cases.push_back({what, p, "Conv_3 not fused into Conv_0: " + why});
    };
    add("two readers", [](pair_model &p) { p.second_reader = true; }, "Conv_0's output has another consumer");
    add("3x3 first", [](pair_model &p) { p.pw_k = 3; },
        "Conv_0 has a 3x3 kernel: the dw post-op follows a 1x1 convolution only");
    add("strided 1x1", [](pair_model &p) { p.pw_stride = 2; },
        "Conv_0 has stride 2: the dw post-op follows stride 1 only");
    add("start padding only", [](pair_model &p) { p.dw_pads = {1, 1, 0, 0}; },
        "Conv_3's output 2x24x8x8 with end padding 0x0 is not the dw post-op's: ceil(i / 1) = 9x9 with end padding 1x1");
    add("padding beyond", [](pair_model &p) { p.dw_pads = {2, 2, 2, 2}; },
        "Conv_3's output 2x24x11x11 with end padding 2x2 is not the dw post-op's: ceil(i / 1) = 9x9 with end padding 0x0");
    add("h and w padded apart", [](pair_model &p) { p.dw_pads = {1, 0, 1, 0}; },
        "Conv_3's start paddings differ along h and w");
    add("padding = kernel", [](pair_model &p) { p.k = 1; p.dw_pads = {1, 1, 1, 1}; },
        "Conv_3's padding is not below its kernel");
    add("not square", [](pair_model &p) { p.dw_kernel = {3, 1}; p.dw_pads = {1, 0, 1, 0}; },
        "Conv_3's kernel 3x1 is not square");
    add("multiplier 2", [](pair_model &p) { p.multiplier = 2; }, "Conv_3 has 2 output channels per group, not 1");
    for (const auto &c : cases) {
        INFO(c.what);
        const model m = c.p.make();
        compiled_model cm = check_both(m, make_inputs(m, {}));
        const auto log = cm.fusion_log();
        INFO(log_text(log));
        CHECK_FALSE(any_dw_fusion(log));
        CHECK(has_refusal(log, c.reason));
    }
}
