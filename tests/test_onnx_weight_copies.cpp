// The loader's weight copies (onnx/weight_copies.hpp): a helper thread copies the detached
// weights while ONNX's checker runs, then the caller's threads join. Whatever the thread count
// (one: no helper; two: helper and caller; more: a team beside the helper), every tensor gets its
// own values; a model the checker refuses stops the copies and reports the checker's error.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <omp.h>
#include <unistd.h>

#include <onnx/onnx_pb.h>

#include "onnx_test_util.hpp"
#include "prim/error.hpp"
#include "prim/onnx.hpp"

namespace fs = std::filesystem;
using namespace prim;
using ::onnx::ModelProto;
using ::onnx::TensorProto;

namespace {

constexpr int n_weights = 24;
constexpr int64_t width = 2048; // 8 KiB each: detached

float weight_value(int t, int64_t i) { return 0.5f * static_cast<float>(t) + 0.0001f * static_cast<float>(i) - 0.7f; }

// Y = ((X + C0) + C1) + ... with n_weights constants of `width` floats, each distinct.
ModelProto add_chain_model() {
    ModelProto m = empty_model("weight_copies");
    auto *g = m.mutable_graph();
    f32_value(g->add_input(), "X", {1, width});
    f32_value(g->add_output(), "Y", {1, width});
    std::string prev = "X";
    for (int k = 0; k < n_weights; ++k) {
        TensorProto *t = g->add_initializer();
        t->set_name("C" + std::to_string(k));
        t->set_data_type(TensorProto::FLOAT);
        t->add_dims(width);
        std::vector<float> v(static_cast<size_t>(width));
        for (int64_t i = 0; i < width; ++i) v[static_cast<size_t>(i)] = weight_value(k, i);
        t->set_raw_data(v.data(), v.size() * sizeof(float));
        auto *add = g->add_node();
        add->set_op_type("Add");
        add->set_name("add" + std::to_string(k));
        add->add_input(prev);
        add->add_input(t->name());
        prev = k + 1 == n_weights ? "Y" : "A" + std::to_string(k);
        add->add_output(prev);
    }
    return m;
}

struct temp_model {
    std::string path;
    temp_model(const ModelProto &m, const std::string &name)
        : path((fs::temp_directory_path() / ("prim_onnx_copies_" + std::to_string(::getpid()) + "_" + name + ".onnx")).string()) {
        std::ofstream(path, std::ios::binary) << m.SerializeAsString();
    }
    ~temp_model() { std::remove(path.c_str()); }
};

// Restores OpenMP's thread count at the end of a test.
struct thread_count {
    int saved = omp_get_max_threads();
    explicit thread_count(int n) { omp_set_num_threads(n); }
    ~thread_count() { omp_set_num_threads(saved); }
};

} // namespace

TEST_CASE("weight copies: every tensor its own values on 1 to 4 threads", "[onnx][large]") {
    temp_model f(add_chain_model(), "values");
    for (int threads : {1, 2, 3, 4}) {
        INFO(threads << " threads");
        thread_count tc(threads);
        const graph::model g = load_onnx(f.path);
        REQUIRE(g.initializers.size() == n_weights);
        for (int k = 0; k < n_weights; ++k) {
            const graph::tensor &t = g.initializers.at("C" + std::to_string(k));
            REQUIRE(t.data.size() == static_cast<size_t>(width));
            size_t wrong = 0;
            for (int64_t i = 0; i < width; ++i) wrong += t.data[static_cast<size_t>(i)] != weight_value(k, i);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("weight copies: a model the checker refuses stops them and reports the checker", "[onnx][large]") {
    ModelProto m = add_chain_model();
    *m.mutable_graph()->add_initializer() = m.graph().initializer(3); // C3 named twice
    temp_model f(m, "refused");
    for (int threads : {1, 2}) {
        INFO(threads << " threads");
        thread_count tc(threads);
        const auto e = load_error(f.path);
        CHECK(e.first == status::invalid_arguments);
        CHECK(e.second.find("'C3'") != std::string::npos);
    }
}
