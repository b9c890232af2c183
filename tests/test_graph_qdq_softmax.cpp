// Softmax -> QuantizeLinear with a zero point of 0 (a QDQ attention's probabilities) fused into
// one softmax with a u8/s8 dst and the QuantizeLinear's scale (fuse_qdq_softmax.cpp): equal to
// the unfused graph (f32 softmax, then the quantizing reorder) within ±1, on the JIT, the fusion
// logged; with a zero point other than 0 the fuser says why it leaves them apart.
#include "test_graph_util.hpp"

using namespace gt;
using prim::graph::compiled_model;
using dt = prim::memory::data_type;

namespace {

model softmax_then_quantize(dt t, float scale, float zp) {
    builder g;
    g.input("x", {2, 3, 37});
    g.init_values("s", {}, {scale});
    g.m.initializers["z"] = {{}, {zp}, t};
    g.op("Softmax", "Softmax_0", {"x"}, {"p"}, {{"axis", ai(-1)}});
    g.op("QuantizeLinear", "QuantizeLinear_0", {"p", "s", "z"}, {"y"});
    g.output("y");
    g.m.outputs[0].dt = t;
    return g.m;
}

std::vector<float> run(const model &m, const tmap &in, bool fuse, prim::cpu_isa isa) {
    prim::graph::options o;
    o.fuse = fuse;
    o.max_isa = isa;
    return compiled_model(m, o).run(in).at("y").data;
}

} // namespace

TEST_CASE("Softmax then QuantizeLinear: one softmax with an int8 dst", "[graph][int8]") {
    tmap in;
    in["x"] = {{2, 3, 37}, fill(2 * 3 * 37, 9, -6.f, 6.f)};
    for (auto isa : test_isas())
        for (const auto &c : {std::make_pair(dt::u8, 1.f / 255), std::make_pair(dt::s8, 1.f / 127),
                              std::make_pair(dt::u8, 1.f / 600)}) { // the last saturates a row's top
            INFO(prim::cpu_isa_name(isa) << " " << prim::data_type_name(c.first) << " scale " << c.second);
            const model m = softmax_then_quantize(c.first, c.second, 0.f);
            const std::vector<float> fused = run(m, in, true, isa), unfused = run(m, in, false, isa);
            REQUIRE(fused.size() == unfused.size());
            int bad = 0;
            for (size_t i = 0; i < fused.size(); ++i) bad += std::fabs(fused[i] - unfused[i]) > 1.f;
            CHECK(bad == 0);
            prim::graph::options o;
            o.max_isa = isa;
            const compiled_model cm(m, o);
            bool one_softmax = false;
            for (const auto &s : cm.steps()) one_softmax = one_softmax || s.find("Softmax_0+QuantizeLinear_0: softmax") == 0;
            CHECK(one_softmax);
            if (isa != prim::cpu_isa::none)
                for (const auto &s : cm.steps()) CHECK(s.find("softmax ref") == std::string::npos);
        }
    // A zero point other than 0: apart, the reason logged.
    const compiled_model apart(softmax_then_quantize(dt::u8, 1.f / 255, 3.f));
    bool logged = false;
    for (const auto &r : apart.fusion_log()) logged = logged || r.line().find("its zero point is not 0") != std::string::npos;
    CHECK(logged);
}
