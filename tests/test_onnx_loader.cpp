// The ONNX front end's rules, on small models written at test time by
// scripts/models/small_models.py (Debian's python3-onnx): attribute defaults per opset, constant
// inputs turned into attributes, auto_pad resolved into pads, symbolic dims, generated names,
// refusals naming node, op and attribute or input; malformed files; read_tensor_pb.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include <unistd.h>

#include <onnx/onnx_pb.h>

#include "prim/error.hpp"
#include "prim/onnx.hpp"
#include "onnx_test_util.hpp"

namespace fs = std::filesystem;
using namespace prim;

namespace {

// The models, written once per run into a fresh temporary folder, removed at exit.
struct scratch_dir {
    fs::path path = fs::temp_directory_path() / ("prim_onnx_small_" + std::to_string(::getpid()));
    scratch_dir() {
        fs::create_directories(path);
        const std::string cmd = "/usr/bin/python3 " PRIM_SOURCE_DIR "/scripts/models/small_models.py " + path.string();
        INFO(cmd);
        REQUIRE(std::system(cmd.c_str()) == 0);
    }
    ~scratch_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const fs::path &models_dir() {
    static scratch_dir d;
    return d.path;
}

std::string model_path(const std::string &name) { return (models_dir() / (name + ".onnx")).string(); }
graph::model load(const std::string &name, const onnx_options &o = {}) { return load_onnx(model_path(name), o); }

const graph::node &only_node(const graph::model &m, const std::string &op) {
    const graph::node *found = nullptr;
    for (const auto &n : m.nodes)
        if (n.op_type == op) {
            REQUIRE(found == nullptr);
            found = &n;
        }
    REQUIRE(found != nullptr);
    return *found;
}


void check_words(const std::string &msg, std::initializer_list<const char *> words) {
    INFO(msg);
    for (const char *w : words) CHECK(msg.find(w) != std::string::npos);
}

} // namespace

TEST_CASE("auto_pad becomes explicit pads as ONNX defines SAME_UPPER, SAME_LOWER, VALID", "[onnx][loader]") {
    // Input 7, kernel 4, stride 2: 4 outputs, 3 rows of padding, the odd one after or before.
    const auto upper = only_node(load("conv_same_upper"), "Conv");
    CHECK(upper.attrs.at("auto_pad").s == "NOTSET");
    CHECK(upper.attrs.at("pads").ints == std::vector<int64_t>{1, 1, 2, 2});
    const auto lower = only_node(load("conv_same_lower"), "Conv");
    CHECK(lower.attrs.at("pads").ints == std::vector<int64_t>{2, 2, 1, 1});
    const auto valid = only_node(load("conv_valid"), "Conv");
    CHECK(valid.attrs.at("pads").ints == std::vector<int64_t>{0, 0, 0, 0});
    CHECK(valid.attrs.at("kernel_shape").ints == std::vector<int64_t>{4, 4});
    CHECK(valid.attrs.at("dilations").ints == std::vector<int64_t>{1, 1});
    CHECK(valid.attrs.at("group").i == 1);
    // Unknown spatial dims: kept for the executor to resolve.
    const auto symbolic = only_node(load("conv_same_symbolic"), "Conv");
    CHECK(symbolic.attrs.at("auto_pad").s == "SAME_UPPER");
    CHECK(symbolic.attrs.count("pads") == 0);
}

TEST_CASE("symbolic batch: -1 unless given; generated node names; initializers", "[onnx][loader]") {
    const auto m = load("conv_relu_batch_n");
    REQUIRE(m.inputs.size() == 1);
    CHECK(m.inputs[0].dims == memory::dims{-1, 2, 5, 5});
    CHECK(m.opset == 13);
    REQUIRE(m.nodes.size() == 2);
    CHECK(m.nodes[0].name == "Conv_0");
    CHECK(m.nodes[1].name == "Relu_1");
    CHECK(m.initializers.count("W") == 1);
    CHECK(m.initializers.at("W").dims == memory::dims{4, 2, 3, 3});
    CHECK(m.initializers.at("W").data.size() == 72u);
    CHECK(m.initializers.at("B").data == std::vector<float>(4, 0.f));

    onnx_options o;
    o.dim_values["N"] = 8;
    const auto m8 = load("conv_relu_batch_n", o);
    CHECK(m8.inputs[0].dims == memory::dims{8, 2, 5, 5});
    REQUIRE(m8.outputs.size() == 1);
    CHECK(m8.outputs[0].dims == memory::dims{8, 4, 5, 5});

    onnx_options bad;
    bad.dim_values["batch"] = 2;
    auto e = load_error(model_path("conv_relu_batch_n"), bad);
    CHECK(e.first == status::invalid_arguments);
    check_words(e.second, {"'batch'", "symbolic dim"});
    onnx_options bad_fixed;
    bad_fixed.fixed_inputs["nope"] = graph::tensor{{1}, {0.f}};
    check_words(load_error(model_path("conv_relu_batch_n"), bad_fixed).second, {"'nope'", "not a graph input"});
}

TEST_CASE("Clip bounds are attributes min and max in every opset, graph inputs stay inputs", "[onnx][loader]") {
    auto n6 = only_node(load("clip_opset6"), "Clip");
    CHECK(n6.attrs.at("min").f == 0.f);
    CHECK(n6.attrs.at("max").f == 6.f);
    auto n6d = only_node(load("clip_opset6_default"), "Clip");
    CHECK(n6d.attrs.at("min").f == std::numeric_limits<float>::lowest());
    CHECK(n6d.attrs.at("max").f == std::numeric_limits<float>::max());
    auto m11 = load("clip_opset11_inputs");
    auto n11 = only_node(m11, "Clip");
    CHECK(n11.inputs == std::vector<std::string>{"x"});
    CHECK(n11.attrs.at("min").f == 0.5f);
    CHECK(n11.attrs.at("max").f == 2.5f);
    CHECK(m11.initializers.empty());  // the bounds are attributes now, not tensors
    auto n13 = only_node(load("clip_opset13_max_only"), "Clip");
    CHECK(n13.attrs.at("min").f == -INFINITY);
    CHECK(n13.attrs.at("max").f == 6.f);
    CHECK(n13.inputs.size() == 1);

    // A bound given as a graph input stays an input (read at every run); max, absent, is +inf.
    const auto mg = load("clip_opset13_graph_input_bound");
    const auto ng = only_node(mg, "Clip");
    CHECK(ng.inputs == std::vector<std::string>{"x", "lo"});
    CHECK(ng.attrs.count("min") == 0);
    CHECK(ng.attrs.at("max").f == INFINITY);
    CHECK(mg.inputs.size() == 2);
    onnx_options fixed;
    fixed.fixed_inputs["lo"] = graph::tensor{{}, {-1.5f}};
    const auto mf = load("clip_opset13_graph_input_bound", fixed);
    CHECK(only_node(mf, "Clip").attrs.at("min").f == -1.5f);
    CHECK(mf.inputs.size() == 1);
}

TEST_CASE("Reshape, Squeeze, Unsqueeze: shapes and axes become attributes", "[onnx][loader]") {
    auto r = only_node(load("reshape_initializer"), "Reshape");
    CHECK(r.attrs.at("shape").ints == std::vector<int64_t>{0, -1});
    CHECK(r.attrs.at("allowzero").i == 0);
    CHECK(r.inputs.size() == 1);
    auto mc = load("reshape_constant_node");
    REQUIRE(mc.nodes.size() == 1);  // the Constant is folded
    CHECK(mc.nodes[0].attrs.at("shape").ints == std::vector<int64_t>{6, 4});
    CHECK(mc.initializers.empty());
    CHECK(mc.outputs[0].dims == memory::dims{6, 4});
    CHECK(only_node(load("reshape_opset4_attr"), "Reshape").attrs.at("shape").ints == std::vector<int64_t>{4, 6});
    CHECK(only_node(load("squeeze_opset11_no_axes"), "Squeeze").attrs.at("axes").ints == std::vector<int64_t>{0, 2});
    auto u = only_node(load("unsqueeze_opset13_input"), "Unsqueeze");
    CHECK(u.attrs.at("axes").ints == std::vector<int64_t>{0, 3});
    CHECK(u.inputs.size() == 1);
}

TEST_CASE("Constant nodes become initializers", "[onnx][loader]") {
    auto m = load("add_constant");
    REQUIRE(m.nodes.size() == 1);
    CHECK(m.nodes[0].op_type == "Add");
    REQUIRE(m.initializers.count("k") == 1);
    CHECK(m.initializers.at("k").dims == memory::dims{1, 3});
    CHECK(m.initializers.at("k").data == std::vector<float>{1.f, 2.f, 3.f});
    auto f = load("constant_value_floats");
    CHECK(f.initializers.at("k").data == std::vector<float>{1.f, 2.f, 3.f});
}

TEST_CASE("defaults per opset: Softmax, LeakyRelu, Transpose, Gemm, legacy broadcasting", "[onnx][loader]") {
    CHECK(only_node(load("softmax_opset11_last"), "Softmax").attrs.at("axis").i == 1);
    CHECK(only_node(load("softmax_opset13_default"), "Softmax").attrs.at("axis").i == -1);
    auto e = load_error(model_path("softmax_opset11_axis1_rank4"));
    CHECK(e.first == status::unimplemented);
    check_words(e.second, {"node 'sm'", "(Softmax)", "attribute 'axis'"});

    CHECK(only_node(load("leaky_relu_default"), "LeakyRelu").attrs.at("alpha").f == 0.01f);
    CHECK(only_node(load("transpose_default"), "Transpose").attrs.at("perm").ints == std::vector<int64_t>{2, 1, 0});

    auto g = only_node(load("gemm_opset6_broadcast"), "Gemm");
    CHECK(g.attrs.count("broadcast") == 0);
    CHECK(g.attrs.at("transB").i == 1);
    CHECK(g.attrs.at("transA").i == 0);
    CHECK(g.attrs.at("alpha").f == 1.f);
    CHECK(g.attrs.at("beta").f == 1.f);
    auto ge = load_error(model_path("gemm_bad_c"));
    CHECK(ge.first == status::invalid_arguments);
    check_words(ge.second, {"node 'fc'", "(Gemm)", "input 'C'"});

    auto a = only_node(load("add_opset6_suffix_axis"), "Add");
    CHECK(a.attrs.empty());
    check_words(load_error(model_path("add_opset6_axis1")).second, {"node 'bias'", "(Add)", "attribute 'axis'"});
    for (const char *name : {"add_opset6_no_broadcast", "gemm_opset6_no_broadcast"}) {
        const auto nb = load_error(model_path(name));
        CHECK(nb.first == status::invalid_arguments);
        check_words(nb.second, {"'broadcast'", "opset 6"});
    }
}

TEST_CASE("refusals name the node, the op and the attribute or input", "[onnx][loader]") {
    struct refusal { const char *model; std::initializer_list<const char *> words; };
    const refusal cases[] = {
        {"bn_spatial0", {"node 'bn1'", "(BatchNormalization)", "attribute 'spatial'"}},
        {"layernorm_stash0", {"node 'ln'", "(LayerNormalization)", "attribute 'stash_type'"}},
        {"custom_domain", {"node 'FusedThing_0'", "(FusedThing)", "domain 'com.example'"}},
        {"int64_input", {"node 'Relu_0'", "(Relu)", "input 'x'", "int64"}},
        {"unsupported_op_in_domain_onnx", {"node 'Resize_0'", "(Resize)", "op 'Resize' is not supported"}},
        {"external_data", {"initializer 'W'", "external data"}},
        {"opset18", {"opset 18"}},
    };
    for (const auto &r : cases) {
        auto e = load_error(model_path(r.model));
        INFO(r.model);
        CHECK(e.first == status::unimplemented);
        check_words(e.second, r.words);
    }
    // An op ONNX does not know fails ONNX's checker: an invalid model.
    auto u = load_error(model_path("unknown_op"));
    CHECK(u.first == status::invalid_arguments);
    check_words(u.second, {"checker", "Gelu2"});
}

TEST_CASE("duplicate node names are made unique", "[onnx][loader]") {
    auto m = load("duplicate_names");
    REQUIRE(m.nodes.size() == 4);
    CHECK(m.nodes[0].name == "r");
    CHECK(m.nodes[1].name == "r_1");
    CHECK(m.nodes[2].name == "Relu_3");
    CHECK(m.nodes[3].name == "Relu_3_1");  // generated, taken already
}

TEST_CASE("malformed files give clear errors", "[onnx][loader]") {
    const fs::path dir = models_dir();
    auto missing = load_error((dir / "no_such.onnx").string());
    CHECK(missing.first == status::invalid_arguments);
    check_words(missing.second, {"cannot open"});

    // Truncated: the first half of a valid model.
    std::ifstream in(model_path("conv_relu_batch_n"), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const fs::path cut = dir / "truncated.onnx";
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    auto t = load_error(cut.string());
    CHECK(t.first == status::invalid_arguments);
    check_words(t.second, {"truncated.onnx", "not an ONNX model"});

    const fs::path text = dir / "text.onnx";
    std::ofstream(text) << "this is not a protobuf file\n";
    auto x = load_error(text.string());
    CHECK(x.first == status::invalid_arguments);
    check_words(x.second, {"text.onnx"});

    // A valid protobuf of another message (a TensorProto): fails the checker.
    auto w = load_error((dir / "tensor_raw.pb").string());
    CHECK(w.first == status::invalid_arguments);
    check_words(w.second, {"tensor_raw.pb"});

    const fs::path empty = dir / "empty.onnx";
    std::ofstream(empty).close();
    CHECK(load_error(empty.string()).first == status::invalid_arguments);
}

TEST_CASE("read_tensor_pb reads raw_data and typed fields, round trip", "[onnx][tensor_pb]") {
    const fs::path dir = models_dir();
    std::vector<float> expect(24);
    for (int k = 0; k < 24; ++k) expect[k] = static_cast<float>(k) * 0.37f - 5.f;
    for (const char *f : {"tensor_raw.pb", "tensor_float_data.pb"}) {
        INFO(f);
        const graph::tensor t = read_tensor_pb((dir / f).string());
        CHECK(t.dims == memory::dims{2, 3, 4});
        REQUIRE(t.data.size() == 24u);
        for (int k = 0; k < 24; ++k) CHECK(t.data[k] == expect[k]);
    }
    CHECK(read_tensor_pb((dir / "tensor_int64.pb").string()).data == std::vector<float>{1.f, -1.f, 7.f});
    auto f64 = [&] { read_tensor_pb((dir / "tensor_f64.pb").string()); };
    CHECK_THROWS_WITH(f64(), Catch::Contains("f64"));

    // Written here, read back bit for bit: odd values, a NaN, both encodings.
    const std::vector<float> odd = {0.f, -0.f, 1e-38f, 3.4e38f, -INFINITY, NAN, 1.f / 3.f};
    for (bool raw : {true, false}) {
        ::onnx::TensorProto p;
        p.set_name("odd");
        p.set_data_type(::onnx::TensorProto::FLOAT);
        p.add_dims(7);
        if (raw) p.set_raw_data(std::string(reinterpret_cast<const char *>(odd.data()), odd.size() * 4));
        else for (float v : odd) p.add_float_data(v);
        const fs::path file = dir / "odd.pb";
        std::ofstream(file, std::ios::binary) << p.SerializeAsString();
        const graph::tensor t = read_tensor_pb(file.string());
        REQUIRE(t.data.size() == odd.size());
        for (size_t k = 0; k < odd.size(); ++k) {
            INFO("raw " << raw << " k " << k);
            CHECK(std::memcmp(&t.data[k], &odd[k], 4) == 0);
        }
    }
    // A raw_data size that does not match the dims, a big int64, a missing file.
    ::onnx::TensorProto bad;
    bad.set_data_type(::onnx::TensorProto::FLOAT);
    bad.add_dims(3);
    bad.set_raw_data(std::string(8, '\0'));
    std::ofstream(dir / "bad.pb", std::ios::binary) << bad.SerializeAsString();
    CHECK_THROWS_WITH(read_tensor_pb((dir / "bad.pb").string()), Catch::Contains("raw_data holds 8 bytes"));
    ::onnx::TensorProto big;
    big.set_data_type(::onnx::TensorProto::INT64);
    big.add_dims(1);
    big.add_int64_data(int64_t(1) << 40);
    std::ofstream(dir / "big.pb", std::ios::binary) << big.SerializeAsString();
    CHECK_THROWS_WITH(read_tensor_pb((dir / "big.pb").string()), Catch::Contains("not exact in f32"));
    CHECK_THROWS_WITH(read_tensor_pb((dir / "none.pb").string()), Catch::Contains("cannot open"));
}

TEST_CASE("the claimed ops", "[onnx][loader]") {
    const auto &ops = onnx_claimed_ops();
    CHECK(ops.size() == 43u);
    CHECK(std::is_sorted(ops.begin(), ops.end()));
    for (const char *op : {"Conv", "Gemm", "BatchNormalization", "LayerNormalization", "Constant", "Softmax"})
        CHECK(std::find(ops.begin(), ops.end(), op) != ops.end());
}

namespace {

bool same_attr(const graph::attribute &a, const graph::attribute &b) {
    return a.kind == b.kind && a.f == b.f && a.i == b.i && a.s == b.s && a.floats == b.floats && a.ints == b.ints;
}

std::string describe(const graph::node &n) {
    std::string s = n.op_type + "(";
    for (const auto &i : n.inputs) s += i + " ";
    s += ")";
    for (const auto &a : n.attrs) {
        s += " " + a.first + "=";
        if (a.second.kind == graph::attribute::type::f) s += std::to_string(a.second.f);
        if (a.second.kind == graph::attribute::type::i) s += std::to_string(a.second.i);
        if (a.second.kind == graph::attribute::type::s) s += a.second.s;
        for (auto v : a.second.ints) s += std::to_string(v) + ",";
    }
    return s;
}

} // namespace

TEST_CASE("every version of every claimed op up to opset 17 loads to the newest version's form", "[onnx][opsets]") {
    // scripts/models/small_models.py writes sweep_<Op>_<version>.onnx, one per version of the op.
    std::map<std::string, std::map<int, fs::path>> sweep;
    for (const auto &e : fs::directory_iterator(models_dir())) {
        const std::string f = e.path().stem().string();
        if (f.rfind("sweep_", 0) != 0) continue;
        const auto cut = f.rfind('_');
        sweep[f.substr(6, cut - 6)][std::stoi(f.substr(cut + 1))] = e.path();
    }
    std::set<std::string> claimed(onnx_claimed_ops().begin(), onnx_claimed_ops().end());
    for (const auto &op : claimed) {
        INFO("op " << op);
        CHECK(sweep.count(op) == 1);
    }
    int files = 0;
    for (const auto &op : sweep) {
        const graph::model newest = load_onnx(op.second.rbegin()->second.string());
        for (const auto &v : op.second) {
            INFO(v.second.filename().string());
            const graph::model m = load_onnx(v.second.string());
            CHECK(m.opset == v.first);
            REQUIRE(m.nodes.size() == newest.nodes.size());
            for (size_t k = 0; k < m.nodes.size(); ++k) {
                const auto &a = m.nodes[k], &b = newest.nodes[k];
                INFO(describe(a) << " vs newest " << describe(b));
                CHECK(a.op_type == b.op_type);
                CHECK(a.inputs == b.inputs);
                CHECK(a.outputs == b.outputs);
                bool same = a.attrs.size() == b.attrs.size();
                for (const auto &x : a.attrs) same = same && b.attrs.count(x.first) && same_attr(x.second, b.attrs.at(x.first));
                CHECK(same);
            }
            CHECK(m.initializers.size() == newest.initializers.size());
            ++files;
        }
    }
    CHECK(files == 133);
}
