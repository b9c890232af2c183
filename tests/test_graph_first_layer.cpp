// A first layer's convolution (few input channels, the model's plain nchw image) reads the
// image directly, with no reorder step into channels last; a convolution with many input
// channels still reorders a plain source into its blocked layout. Results against the
// reference interpreter on every ISA, fused and unfused, mb1 and mb2, stride 2 and padding.
#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;

namespace {

// x (mb, ic, h, w) -> Conv 3x3 stride 2 pad 1 -> Clip(0, 6) -> Conv 1x1 to 16 channels.
model first_layer_model(int64_t mb, int64_t ic, int64_t h, int64_t w) {
    builder b;
    b.m.opset = 13;
    b.input("x", {mb, ic, h, w});
    b.init("w1", {24, ic, 3, 3}, -0.5f, 0.5f).init("b1", {24});
    b.init("w2", {16, 24, 1, 1}, -0.5f, 0.5f);
    b.init_values("zero", {}, {0.f}).init_values("six", {}, {6.f});
    b.op("Conv", "first", {"x", "w1", "b1"}, {"c1"},
         {{"strides", ais({2, 2})}, {"pads", ais({1, 1, 1, 1})}});
    b.op("Clip", "clip", {"c1", "zero", "six"}, {"a1"});
    b.op("Conv", "second", {"a1", "w2"}, {"y"});
    b.output("y");
    return b.m;
}

// The plan's steps at one ISA cap.
std::string steps_at(const model &m, prim::cpu_isa isa) {
    prim::graph::options o;
    o.max_isa = isa;
    return steps_text(compiled_model(m, o));
}

// check(steps) on the plan's steps at every JIT ISA the machine has.
template <typename Check>
void for_each_jit_isa(const model &m, Check check) {
    for (auto isa : test_isas()) {
        if (isa == prim::cpu_isa::none) continue;
        INFO("isa " << prim::cpu_isa_name(isa));
        const std::string steps = steps_at(m, isa);
        INFO(steps);
        check(steps);
    }
}

} // namespace

TEST_CASE("graph: a first layer's convolution reads the plain image without a reorder", "[graph]") {
    for (int64_t mb : {1, 2}) {
        INFO("mb " << mb);
        const model m = first_layer_model(mb, 3, 17, 19);
        check_model(m, make_inputs(m, {}));
        for_each_jit_isa(m, [](const std::string &steps) {
            CHECK(steps.find("reorder x") == std::string::npos);
            CHECK(steps.find(" src abcd ") != std::string::npos);
        });
    }
}

TEST_CASE("graph: a convolution with many input channels still reorders a plain source", "[graph]") {
    const model m = first_layer_model(1, 32, 9, 8);
    check_model(m, make_inputs(m, {}));
    for_each_jit_isa(m, [](const std::string &steps) {
        CHECK(steps.find("reorder x abcd -> aBcd") != std::string::npos);
    });
}
