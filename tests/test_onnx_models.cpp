// The model writers of scripts/models (ResNet-50 v1.5, MobileNet v2, a BERT encoder layer), run at
// test time into a temporary folder, load through the front end with the structure each model
// promises: op counts, batch norms not folded, Clip(0, 6) as attributes, depthwise groups,
// LayerNormalization, the Erf GELU, the batch symbolic or fixed. When scripts/ort/node_modules is
// installed, ONNX Runtime writes the expected output and read_tensor_pb reads it back.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>

#include <unistd.h>

#include "prim/onnx.hpp"

namespace fs = std::filesystem;
using namespace prim;

namespace {

// A temporary folder removed at exit (the models weigh about 130 MB).
struct scratch_dir {
    fs::path path = fs::temp_directory_path() / ("prim_onnx_models_" + std::to_string(::getpid()));
    scratch_dir() { fs::create_directories(path); }
    ~scratch_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const fs::path &dir() {
    static scratch_dir d;
    return d.path;
}

// Writes scripts/models/NAME.py's model with ARGS; returns its path.
std::string write_model(const std::string &script, const std::string &file, const std::string &args) {
    const fs::path out = dir() / file;
    if (!fs::exists(out)) {
        const std::string cmd = "/usr/bin/python3 " PRIM_SOURCE_DIR "/scripts/models/" + script + ".py -o "
                + out.string() + " " + args + " > /dev/null";
        INFO(cmd);
        REQUIRE(std::system(cmd.c_str()) == 0);
    }
    return out.string();
}

std::map<std::string, int> op_counts(const graph::model &m) {
    std::map<std::string, int> c;
    for (const auto &n : m.nodes) ++c[n.op_type];
    return c;
}

bool have_ort() { return fs::exists(PRIM_SOURCE_DIR "/scripts/ort/node_modules/onnxruntime-node"); }

// Runs ONNX Runtime on DATA's input_0.pb; checks output_0.pb against the model's output dims.
void check_ort_output(const std::string &model, const fs::path &data, const memory::dims &expect) {
    if (!have_ort()) {
        WARN("scripts/ort/node_modules not installed (npm install --ignore-scripts): ORT outputs not checked");
        return;
    }
    const std::string cmd = "node " PRIM_SOURCE_DIR "/scripts/ort/run_model.js " + model + " " + data.string()
            + " > /dev/null";
    INFO(cmd);
    REQUIRE(std::system(cmd.c_str()) == 0);
    const graph::tensor y = read_tensor_pb((data / "output_0.pb").string());
    CHECK(y.dims == expect);
    // Weights are scaled so activations stay O(1): the output is neither zero nor exploding.
    double sum2 = 0;
    for (float v : y.data) sum2 += double(v) * v;
    const double rms = std::sqrt(sum2 / y.data.size());
    INFO("rms " << rms);
    CHECK(rms > 0.05);
    CHECK(rms < 20.0);
}

} // namespace

TEST_CASE("ResNet-50 v1.5: batch norms kept, symbolic or fixed batch", "[onnx][models]") {
    const std::string path = write_model("resnet50", "resnet50.onnx", "--data " + (dir() / "resnet50").string());
    const graph::model m = load_onnx(path);
    auto c = op_counts(m);
    CHECK(c["Conv"] == 53);
    CHECK(c["BatchNormalization"] == 53);
    CHECK(c["Relu"] == 49);
    CHECK(c["Add"] == 16);
    CHECK(c["MaxPool"] == 1);
    CHECK(c["GlobalAveragePool"] == 1);
    CHECK(c["Gemm"] == 1);
    REQUIRE(m.inputs.size() == 1);
    CHECK(m.inputs[0].dims == memory::dims{-1, 3, 224, 224});
    CHECK(m.initializers.size() == 267u);
    int strided_3x3 = 0;
    for (const auto &n : m.nodes)
        if (n.op_type == "Conv" && n.attrs.at("kernel_shape").ints[0] == 3 && n.attrs.at("strides").ints[0] == 2)
            ++strided_3x3;
    CHECK(strided_3x3 == 3);  // v1.5: the stride is in the 3x3 conv of the first block of stages 2-4

    onnx_options o;
    o.dim_values["N"] = 8;
    const graph::model m8 = load_onnx(path, o);
    CHECK(m8.inputs[0].dims == memory::dims{8, 3, 224, 224});
    CHECK(m8.outputs[0].dims == memory::dims{8, 1000});

    const fs::path data = dir() / "resnet50" / "test_data_set_0";
    CHECK(read_tensor_pb((data / "input_0.pb").string()).dims == memory::dims{1, 3, 224, 224});
    check_ort_output(path, data, {1, 1000});
}

TEST_CASE("MobileNet v2: Clip(0, 6) and depthwise convolutions", "[onnx][models]") {
    const std::string path = write_model("mobilenet_v2", "mobilenet_v2.onnx",
            "--batch 1 --data " + (dir() / "mobilenet_v2").string());
    const graph::model m = load_onnx(path);
    auto c = op_counts(m);
    CHECK(c["Conv"] == 52);
    CHECK(c["Clip"] == 35);
    CHECK(c["Add"] == 10);
    CHECK(m.inputs[0].dims == memory::dims{1, 3, 224, 224});
    int depthwise = 0;
    for (const auto &n : m.nodes) {
        if (n.op_type == "Clip") {
            CHECK(n.inputs.size() == 1);
            CHECK(n.attrs.at("min").f == 0.f);
            CHECK(n.attrs.at("max").f == 6.f);
        }
        if (n.op_type == "Conv" && n.attrs.at("group").i > 1) {
            const auto &w = m.initializers.at(n.inputs[1]);
            CHECK(w.dims[0] == n.attrs.at("group").i);
            CHECK(w.dims[1] == 1);
            ++depthwise;
        }
    }
    CHECK(depthwise == 17);
    CHECK(m.initializers.count("clip_min_0") == 0);  // the bounds are attributes, not tensors
    check_ort_output(path, dir() / "mobilenet_v2" / "test_data_set_0", {1, 1000});
}

TEST_CASE("BERT encoder layer: MatMul, LayerNormalization, Softmax, Erf GELU", "[onnx][models]") {
    const std::string path = write_model("bert_encoder", "bert_encoder.onnx",
            "--seq 32 --data " + (dir() / "bert_encoder").string());
    onnx_options o;
    o.dim_values["N"] = 2;
    const graph::model m = load_onnx(path, o);
    auto c = op_counts(m);
    CHECK(c["MatMul"] == 8);
    CHECK(c["LayerNormalization"] == 2);
    CHECK(c["Softmax"] == 1);
    CHECK(c["Erf"] == 1);
    CHECK(c["Reshape"] == 4);
    CHECK(c["Transpose"] == 4);
    CHECK(m.opset == 17);
    CHECK(m.inputs[0].dims == memory::dims{2, 32, 768});
    CHECK(m.outputs[0].dims == memory::dims{2, 32, 768});
    for (const auto &n : m.nodes) {
        if (n.op_type == "Reshape") {
            CHECK(n.inputs.size() == 1);
            const auto &s = n.attrs.at("shape").ints;
            CHECK((s == std::vector<int64_t>{0, 0, 12, 64} || s == std::vector<int64_t>{0, 0, 768}));
        }
        if (n.op_type == "LayerNormalization") {
            CHECK(n.attrs.at("axis").i == -1);
            CHECK(n.attrs.at("epsilon").f == 1e-12f);
        }
        if (n.op_type == "Softmax") CHECK(n.attrs.at("axis").i == -1);
    }
    CHECK(m.initializers.count("heads_shape_0") == 0);  // int64 shapes became attributes
    check_ort_output(path, dir() / "bert_encoder" / "test_data_set_0", {1, 32, 768});
}
