// Random graphs of convolutions, batch norms, activations and binaries over one shape, with
// results read by several ops, graph outputs in the middle, and operands given as graph inputs:
// the fuser's choices (sum in place, binary, folds, refusals) and the arena's buffer sharing must
// all give the reference's result, fused and unfused, on every ISA.
#include "test_graph_util.hpp"

using namespace gt;

namespace {

model random_model(unsigned seed) {
    std::mt19937 gen(seed);
    auto pick = [&](int n) { return static_cast<int>(gen() % static_cast<unsigned>(n)); };
    const int64_t c = 8 + 8 * pick(2); // 8 or 16 channels: padded and unpadded blocks
    const dims shape = {2, c, 5, 5};
    builder b;
    b.seed = seed * 1000;
    b.input("x", shape);
    std::vector<std::string> tensors = {"x"};
    const int n_ops = 6 + pick(8);
    for (int i = 0; i < n_ops; ++i) {
        const std::string out = "t" + std::to_string(i);
        const std::string name = "op" + std::to_string(i);
        // Mostly the latest result (chains), sometimes an older one (several readers).
        const std::string in = pick(3) ? tensors.back() : tensors[pick(static_cast<int>(tensors.size()))];
        switch (pick(7)) {
        case 0:
        case 1: {
            const int64_t k = pick(2) ? 3 : 1;
            b.init(name + "_w", {c, c, k, k}, -0.3f, 0.3f);
            std::vector<std::string> ins = {in, name + "_w"};
            if (pick(2)) {
                b.init(name + "_b", {c});
                ins.push_back(name + "_b");
            }
            b.op("Conv", name, ins, {out}, {{"pads", ais({k / 2, k / 2, k / 2, k / 2})}});
            break;
        }
        case 2: {
            const bool stats_input = pick(3) == 0;
            for (const char *p : {"_s", "_sh", "_m"})
                if (stats_input) b.input(name + p, {c}); else b.init(name + p, {c});
            if (stats_input) b.input(name + "_v", {c}); else b.init(name + "_v", {c}, 0.5f, 1.5f);
            b.op("BatchNormalization", name, {in, name + "_s", name + "_sh", name + "_m", name + "_v"}, {out});
            break;
        }
        case 3: {
            const char *acts[] = {"Relu", "Tanh", "Sigmoid", "Abs", "Elu"};
            b.op(acts[pick(5)], name, {in}, {out});
            break;
        }
        case 4:
        case 5: {
            // Another result, a per-channel constant, a graph input of the full shape, or a side
            // branch read by this op only (a residual: summed in place).
            std::string other;
            const int kind = pick(4);
            if (kind == 0) other = tensors[pick(static_cast<int>(tensors.size()))];
            if (kind == 1) b.init(other = name + "_k", {c, 1, 1});
            if (kind == 2) b.input(other = name + "_in", shape);
            if (kind == 3) {
                b.init(name + "_sw", {c, c, 1, 1}, -0.3f, 0.3f);
                b.op("Conv", name + "_side", {tensors[pick(static_cast<int>(tensors.size()))], name + "_sw"},
                     {other = name + "_s_out"});
            }
            const bool swap = pick(2);
            b.op(pick(3) ? "Add" : "Mul", name, {swap ? other : in, swap ? in : other}, {out});
            break;
        }
        default: {
            b.op("Sub", name, {in, tensors[pick(static_cast<int>(tensors.size()))]}, {out});
            break;
        }
        }
        tensors.push_back(out);
    }
    b.output(tensors.back());
    if (pick(2) && tensors.size() > 3) b.output(tensors[1 + pick(static_cast<int>(tensors.size()) - 2)]);
    return b.m;
}

} // namespace

TEST_CASE("graph: random graphs, fused and unfused, equal the reference", "[graph]") {
    for (unsigned seed = 1; seed <= 40; ++seed) {
        const model m = random_model(seed);
        std::string ops;
        for (const auto &n : m.nodes) ops += n.name + ":" + n.op_type + "(" + n.inputs[0] + ") ";
        INFO("seed " << seed << ": " << ops);
        tmap in = make_inputs(m, {}, seed);
        for (auto &kv : in)
            if (kv.first.size() > 2 && kv.first.substr(kv.first.size() - 2) == "_v")
                for (auto &v : kv.second.data) v = std::fabs(v) + 0.5f;
        auto cm = check_model(m, in, 2e-4);
        INFO(log_text(cm.fusion_log()));
        INFO(steps_text(cm));
        SUCCEED();
    }
}
