// Clip with its min and max given as graph inputs (ONNX opset 11 on; ONNX Runtime runs it and
// ONNX's test_clip_* node tests give the bounds this way): the bounds are runtime post-op
// parameters, read at every run, so one compiled model clips to whatever values each run passes.
// Fused into a Conv, into a batched MatMul, and as a Clip of its own; fused and unfused on every
// ISA, against the plain reference interpreter (test_graph_util.hpp).
#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;

namespace {

// The same model with the bounds as constants (initializers "lo" and "hi" of the values in).
model with_constant_bounds(model m, const tmap &in) {
    for (const char *t : {"lo", "hi"}) {
        auto it = std::find_if(m.inputs.begin(), m.inputs.end(), [&](const auto &v) { return v.name == t; });
        if (it == m.inputs.end()) continue;
        m.initializers[t] = in.at(t);
        m.inputs.erase(it);
    }
    return m;
}

// Runs m compiled once per ISA and fusion, with each pair of bounds in turn (lo, hi: the graph
// inputs "lo" and "hi" when the model has them). Expected: the reference interpreter's result,
// or (interpreter = false, for the ops it lacks) prim's run of the same model with the bounds
// as constants, unfused on the reference kernels.
compiled_model check_bounds(const model &m, tmap in, const std::vector<std::pair<float, float>> &bounds,
                            bool interpreter = true) {
    for (auto isa : test_isas())
        for (bool fuse : {true, false}) {
            INFO("isa " << prim::cpu_isa_name(isa) << " fuse " << fuse);
            prim::graph::options o;
            o.fuse = fuse;
            o.max_isa = isa;
            const compiled_model cm(m, o);
            for (const auto &lh : bounds) {
                INFO("bounds " << lh.first << " " << lh.second);
                if (in.count("lo")) in["lo"].data = {lh.first};
                if (in.count("hi")) in["hi"].data = {lh.second};
                if (interpreter) {
                    check_close(cm.run(in), ref_run(m, in));
                    continue;
                }
                prim::graph::options ref;
                ref.fuse = false;
                ref.max_isa = prim::cpu_isa::none;
                tmap data = in;
                data.erase("lo");
                data.erase("hi");
                check_close(cm.run(in), compiled_model(with_constant_bounds(m, in), ref).run(data));
            }
        }
    return compiled_model(m);
}

const float inf = INFINITY;

} // namespace

TEST_CASE("graph: Clip's bounds as graph inputs, fused into a Conv", "[graph]") {
    builder b;
    b.m.opset = 13;
    b.input("x", {2, 5, 7, 9}).input("lo", {}).input("hi", {}).init("w", {11, 5, 3, 3});
    b.op("Conv", "Conv_0", {"x", "w"}, {"c"}, {{"pads", ais({1, 1, 1, 1})}});
    b.op("Clip", "Clip_1", {"c", "lo", "hi"}, {"k"});
    b.op("Relu", "Relu_2", {"k"}, {"y"});
    b.output("y");
    auto cm = check_bounds(b.m, make_inputs(b.m, {}), {{0.f, 6.f}, {-0.5f, 0.25f}, {-inf, 0.1f}, {2.f, 1.f}});
    INFO(log_text(cm.fusion_log()));
    CHECK(has_fusion(cm.fusion_log(), "Conv+Clip+Relu", {"Conv_0", "Clip_1", "Relu_2"}));
    INFO(steps_text(cm));
    CHECK(steps_text(cm).find("post-ops clip:*:*+relu") != std::string::npos);
}

TEST_CASE("graph: a Clip bound as a graph input, the other constant, after a batched MatMul", "[graph]") {
    builder b;
    b.m.opset = 13;
    b.input("a", {3, 4, 5}).input("lo", {1}).init("w", {3, 5, 6}).init_values("six", {}, {6.f});
    b.op("MatMul", "MatMul_0", {"a", "w"}, {"p"});
    b.op("Clip", "Clip_1", {"p", "lo", "six"}, {"y"});
    b.output("y");
    auto cm = check_bounds(b.m, make_inputs(b.m, {}), {{0.f, 6.f}, {-0.25f, 6.f}, {1.f, 6.f}}, false);
    CHECK(has_fusion(cm.fusion_log(), "MatMul+Clip", {"MatMul_0", "Clip_1"}));
}

TEST_CASE("graph: a Clip of its own with bounds as graph inputs, max left out", "[graph]") {
    builder b;
    b.m.opset = 13;
    b.input("x", {4, 33}).input("lo", {});
    b.op("Clip", "Clip_0", {"x", "lo"}, {"c"});
    b.op("Tanh", "Tanh_1", {"c"}, {"y"});
    b.output("y");
    check_bounds(b.m, make_inputs(b.m, {}), {{0.f, inf}, {-0.5f, inf}, {0.75f, inf}});
}

TEST_CASE("graph: a Clip bound must hold one value", "[graph]") {
    builder b;
    b.m.opset = 13;
    b.input("x", {4, 3}).input("lo", {3});
    b.op("Clip", "Clip_0", {"x", "lo"}, {"y"});
    b.output("y");
    CHECK_THROWS_WITH(compiled_model(b.m), Catch::Contains("Clip_0 (Clip): input 'min' must hold one value, not 3"));
}
