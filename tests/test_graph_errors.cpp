// The fuser's refusals (with their log lines) and bad graphs (with their error messages): every
// refused candidate still runs, unfused, and equals the reference.
#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;
using prim::status;

namespace {

// The message and status of what compiling (and, when given, running) the model threw.
std::pair<status, std::string> failure(const model &m, const tmap *inputs = nullptr) {
    try {
        compiled_model cm(m);
        if (inputs) cm.run(*inputs);
    } catch (const prim::error &e) {
        return {e.get_status(), e.what()};
    }
    return {status::success, "nothing thrown"};
}

} // namespace

TEST_CASE("graph: refusals are logged with their reason", "[graph]") {
    SECTION("an intermediate result with another consumer") {
        builder b;
        b.input("x", {1, 8, 5, 5}).init("w", {8, 8, 3, 3}).init("k", {1, 8, 5, 5});
        b.op("Conv", "Conv_10", {"x", "w"}, {"c"}, {{"pads", ais({1, 1, 1, 1})}});
        b.op("Relu", "Relu_11", {"c"}, {"r"});
        b.op("Add", "Add_12", {"c", "k"}, {"a"});
        b.output("a").output("r");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        const auto log = cm.fusion_log();
        INFO(log_text(log));
        CHECK(has_refusal(log, "Add_12 not fused into Conv_10: Conv_10's output has another consumer"));
        CHECK(has_refusal(log, "Relu_11 not fused into Conv_10: Conv_10's output has another consumer"));
        bool line_found = false;
        for (const auto &r : log)
            line_found = line_found || r.line() == "prim_verbose,fuse,refused,Add_12,Conv_10,Add_12 not fused "
                                                   "into Conv_10: Conv_10's output has another consumer";
        CHECK(line_found);
        for (const auto &r : log) CHECK_FALSE(r.fused);
    }
    SECTION("a graph output in the middle") {
        builder b;
        b.input("x", {1, 4, 5, 5}).init("w", {4, 4, 1, 1});
        b.op("Conv", "Conv_0", {"x", "w"}, {"c"});
        b.op("Relu", "Relu_1", {"c"}, {"y"});
        b.output("y").output("c");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        CHECK(has_refusal(cm.fusion_log(), "Relu_1 not fused into Conv_0: Conv_0's output is a graph output"));
    }
    SECTION("a binary entry after LayerNormalization: the chain starts after it") {
        builder b;
        b.input("x", {3, 8}).input("z", {3, 8}).init("s", {8});
        b.op("Tanh", "Tanh_0", {"x"}, {"t"});
        b.op("LayerNormalization", "LayerNormalization_1", {"t", "s"}, {"n"});
        b.op("Tanh", "Tanh_2", {"n"}, {"u"});
        b.op("Add", "Add_3", {"u", "z"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        const auto log = cm.fusion_log();
        INFO(log_text(log));
        CHECK(has_refusal(log, "Add_3 not fused into LayerNormalization_1: layer normalization takes only eltwise "
                               "entries after it"));
        CHECK(has_fusion(log, "Tanh+Add(binary)", {"Tanh_2", "Add_3"}));
    }
    SECTION("the Conv's result as the right operand of Sub, an operand that broadcasts the result") {
        builder b;
        b.input("x", {1, 4, 3, 3}).init("w", {4, 4, 1, 1}).init("k", {4, 1, 1}).init("big", {2, 4, 3, 3});
        b.op("Conv", "Conv_0", {"x", "w"}, {"c"});
        b.op("Sub", "Sub_1", {"k", "c"}, {"s"});
        b.op("Conv", "Conv_2", {"s", "w"}, {"c2"});
        b.op("Add", "Add_3", {"c2", "big"}, {"y"});
        b.output("y");
        auto cm = check_model(b.m, make_inputs(b.m, {}));
        const auto log = cm.fusion_log();
        INFO(log_text(log));
        CHECK(has_refusal(log, "Sub_1 not fused into Conv_0: Conv_0's result is the right operand of Sub"));
        CHECK(has_refusal(log, "Add_3 not fused into Conv_2: the other operand (2x4x3x3) broadcasts the result "
                               "(1x4x3x3) to a larger shape"));
    }
    SECTION("fusion off: no log, one primitive per op") {
        builder b;
        b.input("x", {2, 4}).init("w", {4, 3});
        b.op("MatMul", "MatMul_0", {"x", "w"}, {"m"});
        b.op("Relu", "Relu_1", {"m"}, {"y"});
        b.output("y");
        prim::graph::options o;
        o.fuse = false;
        compiled_model cm(b.m, o);
        CHECK(cm.fusion_log().empty());
        CHECK(cm.steps().size() >= 2);
    }
}

TEST_CASE("graph: bad graphs are refused naming the node, the op and the problem", "[graph]") {
    auto conv_model = [] {
        builder b;
        b.input("x", {1, 3, 5, 5}).init("w", {8, 3, 3, 3});
        b.op("Conv", "Conv_0", {"x", "w"}, {"y"});
        b.output("y");
        return b;
    };
    struct bad {
        const char *what;
        std::function<void(builder &)> edit;
        status st;
        std::string message;
    };
    const std::vector<bad> cases = {
        {"unknown op", [](builder &b) { b.op("Foo", "Foo_1", {"y"}, {"z"}); }, status::unimplemented,
         "Foo_1 (Foo): unknown op Foo"},
        {"bad attribute value", [](builder &b) { b.m.nodes[0].attrs["auto_pad"] = as("SAME_MIDDLE"); },
         status::invalid_arguments, "Conv_0 (Conv): bad attribute auto_pad=SAME_MIDDLE"},
        {"attribute of the wrong type", [](builder &b) { b.m.nodes[0].attrs["group"] = af(1.f); },
         status::invalid_arguments, "Conv_0 (Conv): attribute group should be an int"},
        {"bad strides", [](builder &b) { b.m.nodes[0].attrs["strides"] = ais({1}); },
         status::invalid_arguments, "Conv_0 (Conv): bad attribute: strides and dilations need 2 values and pads 4"},
        {"shape mismatch", [](builder &b) { b.m.initializers["w"].dims = {6, 4, 3, 3}; b.m.initializers["w"].data.resize(216); },
         status::invalid_arguments, "Conv_0 (Conv): X has 3 channels but W (6x4x3x3) with group=1 expects 4"},
        {"kernel larger than the input", [](builder &b) { b.m.nodes[0].attrs["dilations"] = ais({3, 3}); },
         status::invalid_arguments, "Conv_0 (Conv): the kernel (extent 7) does not fit the padded input (5)"},
        {"missing input", [](builder &b) { b.op("Relu", "Relu_1", {"nope"}, {"z"}); },
         status::invalid_arguments, "Relu_1 (Relu): missing input nope: no node, graph input or initializer provides it"},
        {"missing required input", [](builder &b) { b.m.nodes[0].inputs = {"x", ""}; },
         status::invalid_arguments, "Conv_0 (Conv): missing input: input 1 is required"},
        {"wrong input count", [](builder &b) { b.m.nodes[0].inputs = {"x"}; },
         status::invalid_arguments, "Conv_0 (Conv): takes 2 to 3 inputs, not 1"},
        {"cycle", [](builder &b) {
             b.op("Relu", "Relu_1", {"q"}, {"p"});
             b.op("Tanh", "Tanh_2", {"p"}, {"q"});
         }, status::invalid_arguments, "graph: the nodes form a cycle: Relu_1 (Relu), Tanh_2 (Tanh)"},
        {"two writers", [](builder &b) { b.op("Relu", "Relu_1", {"x"}, {"y"}); },
         status::invalid_arguments, "Relu_1 (Relu): writes y, which Conv_0 writes too"},
        {"duplicate name", [](builder &b) { b.op("Relu", "Conv_0", {"y"}, {"z"}); },
         status::invalid_arguments, "Conv_0 (Relu): another node has the same name"},
        {"output not computed", [](builder &b) { b.output("zz"); },
         status::invalid_arguments, "graph: output zz is not computed by any node"},
        {"initializer of the wrong size", [](builder &b) { b.m.initializers["w"].data.pop_back(); },
         status::invalid_arguments, "graph: initializer w holds 215 values for dims 8x3x3x3"},
        {"Add that does not broadcast", [](builder &b) {
             b.init("k", {8, 2, 3});
             b.op("Add", "Add_1", {"y", "k"}, {"z"});
         }, status::invalid_arguments, "Add_1 (Add): shape mismatch: 1x8x3x3 and 8x2x3 do not broadcast"},
        {"Pow whose exponent does not broadcast", [](builder &b) {
             b.input("e", {8, 2, 3});
             b.op("Pow", "Pow_1", {"y", "e"}, {"z"});
         }, status::invalid_arguments, "Pow_1 (Pow): shape mismatch: 1x8x3x3 and 8x2x3 do not broadcast"},
        {"Reshape with a shape given at run time", [](builder &b) {
             b.input("s", {2});
             b.op("Reshape", "Reshape_1", {"y", "s"}, {"z"});
         }, status::unimplemented, "Reshape_1 (Reshape): shape (input 1) must be an initializer"},
        {"Clip with a bound computed by another node", [](builder &b) {
             b.input("s", {});
             b.op("Relu", "Relu_s", {"s"}, {"lo"});
             b.op("Clip", "Clip_1", {"y", "lo"}, {"z"});
         }, status::unimplemented, "Clip_1 (Clip): input 'min' (tensor 'lo') must be a constant or a graph input, not another node's output"},
        {"batched MatMul whose K differs", [](builder &b) {
             b.init("m", {1, 8, 4, 2});
             b.op("MatMul", "MatMul_1", {"y", "m"}, {"z"});
         }, status::invalid_arguments, "MatMul_1 (MatMul): shape mismatch: A (1x8x3x3) and B (1x8x4x2) do not agree on K"},
        {"training batch norm", [](builder &b) {
             b.init("s", {8}).init("sh", {8}).init("mu", {8}).init("v", {8});
             b.op("BatchNormalization", "BatchNormalization_1", {"y", "s", "sh", "mu", "v"}, {"z"},
                  {{"training_mode", ai(1)}});
         }, status::unimplemented, "BatchNormalization_1 (BatchNormalization): bad attribute training_mode=1"},
        {"a NaN parameter", [](builder &b) {
             b.op("LeakyRelu", "LeakyRelu_1", {"y"}, {"z"}, {{"alpha", af(NAN)}});
         }, status::invalid_arguments, "LeakyRelu_1 (LeakyRelu): bad attribute: "},
        {"an output the op does not have", [](builder &b) { b.op("Relu", "Relu_1", {"y"}, {"z", "z2"}); },
         status::invalid_arguments, "Relu_1 (Relu): has 2 outputs; Relu has 1"},
        {"the internal op", [](builder &b) { b.op("Eltwise", "Eltwise_1", {"y"}, {"z"}); },
         status::invalid_arguments, "Eltwise_1 (Eltwise): Eltwise is the graph's internal op"},
        {"LayerNormalization whose Scale varies along the other axes", [](builder &b) {
             b.init("s", {3, 1});
             b.op("LayerNormalization", "LayerNormalization_1", {"y", "s"}, {"z"});
         }, status::unimplemented,
         "LayerNormalization_1 (LayerNormalization): shape mismatch: Scale has dims 3x1, the normalized dims are 3"},
        {"LayerNormalization whose B does not broadcast to X", [](builder &b) {
             b.init("s", {3}).init("bb", {2, 3});
             b.op("LayerNormalization", "LayerNormalization_1", {"y", "s", "bb"}, {"z"});
         }, status::invalid_arguments, "(it does not broadcast to X)"},
        // Sizes whose arithmetic would overflow int64 (found by fuzzing the ONNX front end).
        {"a dim above 2^31 - 1", [](builder &b) { b.m.inputs[0].dims = {1, 3, int64_t(1) << 40, 5}; },
         status::unimplemented, "graph: input x (dims 1x3x1099511627776x5): a dim above 2147483647"},
        {"more than 2^40 elements", [](builder &b) { b.m.inputs[0].dims = {1 << 20, 3, 1 << 20, 5}; },
         status::unimplemented, "graph: input x (dims 1048576x3x1048576x5): more than 2^40 elements"},
        {"rank 8", [](builder &b) { b.input("r", {1, 1, 1, 1, 1, 1, 1, 2}); },
         status::unimplemented, "graph: input r (dims 1x1x1x1x1x1x1x2): rank 8: at most 6 dims are supported"},
        {"an initializer of huge dims", [](builder &b) {
             b.m.initializers["w"].dims = {(int64_t(1) << 62) + 1, 4};
         }, status::unimplemented, "graph: initializer w (dims 4611686018427387905x4): a dim above 2147483647"},
        {"an empty initializer", [](builder &b) { b.m.initializers["w"] = {{8, 0, 3, 3}, {}}; },
         status::unimplemented, "graph: initializer w has a dim of 0 (dims 8x0x3x3): empty tensors are not supported"},
        {"group beyond the channels", [](builder &b) { b.m.nodes[0].attrs["group"] = ai(int64_t(1) << 62); },
         status::invalid_arguments, "Conv_0 (Conv): bad attribute group=4611686018427387904 for X's 3 channels"},
        {"a huge dilation", [](builder &b) { b.m.nodes[0].attrs["dilations"] = ais({int64_t(1) << 62, 1}); },
         status::invalid_arguments, "Conv_0 (Conv): bad attribute dilations: 4611686018427387904 is outside [1, 2147483647]"},
        {"a huge pad", [](builder &b) { b.m.nodes[0].attrs["pads"] = ais({0, 0, int64_t(1) << 62, 0}); },
         status::invalid_arguments, "Conv_0 (Conv): bad attribute pads: 4611686018427387904 is outside [0, 2147483647]"},
        {"a pool's huge pad", [](builder &b) {
             b.op("MaxPool", "MaxPool_1", {"y"}, {"z"}, {{"kernel_shape", ais({2, 2})},
                                                      {"pads", ais({int64_t(1) << 62, 0, 0, 0})}});
         }, status::invalid_arguments, "MaxPool_1 (MaxPool): bad attribute pads: 4611686018427387904 is outside"},
        {"Reshape to huge dims", [](builder &b) {
             b.init_values("s", {3}, {float(int64_t(1) << 40), 1.f, 1.f});
             b.op("Reshape", "Reshape_1", {"y", "s"}, {"z"});
         }, status::unimplemented, "Reshape_1 (Reshape): shape has a dim above 2147483647: 1099511627776"},
        {"bad input dim", [](builder &b) { b.m.inputs[0].dims = {1, 3, -2, 5}; },
         status::invalid_arguments, "graph: input x has a bad dim -2"},
        {"empty input", [](builder &b) { b.m.inputs[0].dims = {1, 3, 0, 5}; },
         status::unimplemented, "graph: input x has a dim of 0 (dims 1x3x0x5): empty tensors are not supported"},
    };
    for (const auto &c : cases) {
        INFO(c.what);
        builder b = conv_model();
        b.m.opset = 13;
        c.edit(b);
        const auto f = failure(b.m);
        CHECK(f.first == c.st);
        CHECK_THAT(f.second, Catch::Contains(c.message));
    }
}

TEST_CASE("graph: bad inputs to run()", "[graph]") {
    builder b;
    b.input("x", {2, 3}).init("w", {3, 4});
    b.op("MatMul", "MatMul_0", {"x", "w"}, {"y"});
    b.output("y");
    compiled_model cm(b.m);
    tmap none;
    CHECK_THROWS_WITH(cm.run(none), Catch::Equals("graph: missing input 'x'; the model's input is 'x' (2x3)"));
    tmap wrong = make_inputs(b.m, {{"x", {3, 3}}});
    CHECK_THROWS_WITH(cm.run(wrong), Catch::Contains("graph: input 'x' has dims 3x3, the model declares 2x3"));
    tmap short_data = make_inputs(b.m, {});
    short_data["x"].data.pop_back();
    CHECK_THROWS_WITH(cm.run(short_data), Catch::Contains("graph: input 'x' holds 5 values for dims 2x3"));
    // A wrong name is quoted (a user's "input" read as a word before) and the inputs listed.
    tmap extra = make_inputs(b.m, {});
    extra["input"] = extra["x"];
    CHECK_THROWS_WITH(cm.run(extra), Catch::Equals("graph: 'input' is not an input of the model; "
                                                   "the model's input is 'x' (2x3)"));
    tmap renamed;
    renamed["input"] = make_inputs(b.m, {})["x"];
    CHECK_THROWS_WITH(cm.run(renamed), Catch::Equals("graph: 'input' is not an input of the model; "
                                                     "the model's input is 'x' (2x3)"));
    tmap weights = make_inputs(b.m, {});
    weights["w"] = b.m.initializers.at("w");
    CHECK_THROWS_WITH(cm.run(weights), Catch::Equals("graph: 'w' is an initializer of the model, not "
                                                     "an input; the model's input is 'x' (2x3)"));
    builder two;
    two.input("a", {2, 3}).input("mask", {-1, 3});
    two.op("Add", "Add_0", {"a", "mask"}, {"y"});
    two.output("y");
    CHECK_THROWS_WITH(compiled_model(two.m).run({{"A", {{2, 3}, std::vector<float>(6)}}}),
                      Catch::Equals("graph: 'A' is not an input of the model; the model's inputs "
                                    "are 'a' (2x3), 'mask' (-1x3)"));
    // Still usable after the refusals.
    tmap good = make_inputs(b.m, {});
    check_close(cm.run(good), ref_run(b.m, good));
}

TEST_CASE("graph: the fusion log's lines", "[graph]") {
    prim::graph::fusion_record f;
    f.fused = true;
    f.pattern = "Conv+Relu";
    f.nodes = {"Conv_0", "Relu_1"};
    CHECK(f.line() == "prim_verbose,fuse,fused,Conv+Relu,Conv_0+Relu_1");
    prim::graph::fusion_record r;
    r.nodes = {"Add_12", "Conv_10"};
    r.reason = "Add_12 not fused into Conv_10: Conv_10's output has another consumer";
    CHECK(r.line() == "prim_verbose,fuse,refused,Add_12,Conv_10,Add_12 not fused into Conv_10: Conv_10's "
                      "output has another consumer");
}

// Run by ctest with PRIM_VERBOSE=2 (tests/CMakeLists.txt): the refusal and the fusion are printed.
TEST_CASE("graph: PRIM_VERBOSE=2 prints the fusion log", "[.verbose]") {
    builder b;
    b.input("x", {1, 8, 5, 5}).init("w", {8, 8, 3, 3}).init("k", {1, 8, 5, 5});
    b.op("Conv", "Conv_10", {"x", "w"}, {"c"}, {{"pads", ais({1, 1, 1, 1})}});
    b.op("Relu", "Relu_11", {"c"}, {"r"});
    b.op("Add", "Add_12", {"c", "k"}, {"a"});
    b.op("Sigmoid", "Sigmoid_13", {"a"}, {"s"});
    b.op("Tanh", "Tanh_14", {"s"}, {"y"});
    b.output("y").output("r");
    compiled_model cm(b.m);
    CHECK(cm.fusion_log().size() == 3);
}
