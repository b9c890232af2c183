// Models built to break a loader (found by fuzzing the front end): what would make ONNX's own
// shape inference divide by zero, index past its vectors, loop for minutes or read past a
// buffer, and sizes whose arithmetic would overflow, are refused with a message naming the
// tensor, node or attribute, before anything reads them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

#include <onnx/onnx_pb.h>

#include "prim/error.hpp"
#include "prim/graph.hpp"
#include "prim/onnx.hpp"
#include "onnx_test_util.hpp"

namespace fs = std::filesystem;
using namespace prim;
using ::onnx::ModelProto;
using ::onnx::NodeProto;
using ::onnx::TensorProto;

namespace {

TensorProto *f32_initializer(ModelProto &m, const std::string &name, const std::vector<int64_t> &dims) {
    TensorProto *t = m.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) {
        t->add_dims(d);
        n *= d;
    }
    const std::vector<float> v(static_cast<size_t>(n), 0.25f);
    t->set_raw_data(v.data(), v.size() * sizeof(float));
    return t;
}

void ints(NodeProto *n, const std::string &name, const std::vector<int64_t> &values) {
    auto *a = n->add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
}

// The graph's only output: name, of rank dims whose sizes are symbols.
void symbolic_output(ModelProto &m, const std::string &name, size_t rank) {
    auto *g = m.mutable_graph();
    auto *y = g->output_size() ? g->mutable_output(0) : g->add_output();
    y->Clear();
    y->set_name(name);
    auto *t = y->mutable_type()->mutable_tensor_type();
    t->set_elem_type(TensorProto::FLOAT);
    auto *shape = t->mutable_shape();
    for (size_t i = 0; i < rank; ++i) shape->add_dim()->set_dim_param("d" + std::to_string(i));
}

// X (x_dims) -> Conv with W (w_dims) -> Y, the output's dims left symbolic.
ModelProto conv_model(const std::vector<int64_t> &x_dims, const std::vector<int64_t> &w_dims) {
    ModelProto m = empty_model("hostile");
    auto *g = m.mutable_graph();
    f32_value(g->add_input(), "X", x_dims);
    f32_initializer(m, "W", w_dims);
    auto *conv = g->add_node();
    conv->set_op_type("Conv");
    conv->set_name("conv");
    conv->add_input("X");
    conv->add_input("W");
    conv->add_output("Y");
    symbolic_output(m, "Y", x_dims.size());
    return m;
}

// Appends Z = Reshape(Y, shape) as the graph's output of rank `rank`; returns the int64 shape
// initializer, its dims and values for the caller to write.
TensorProto *reshape_output(ModelProto &m, size_t rank) {
    TensorProto *s = m.mutable_graph()->add_initializer();
    s->set_name("shape");
    s->set_data_type(TensorProto::INT64);
    auto *r = m.mutable_graph()->add_node();
    r->set_op_type("Reshape");
    r->set_name("reshape");
    r->add_input("Y");
    r->add_input("shape");
    r->add_output("Z");
    symbolic_output(m, "Z", rank);
    return s;
}

// The error loading and compiling m gives (the loader's own checks, or the graph's).
std::pair<status, std::string> load_error_of(const ModelProto &m, const std::string &name) {
    const fs::path p = fs::temp_directory_path() / ("prim_onnx_hostile_" + std::to_string(::getpid()) + "_" + name + ".onnx");
    std::ofstream(p, std::ios::binary) << m.SerializeAsString();
    std::pair<status, std::string> e = {status::success, "nothing thrown"};
    try {
        graph::compiled_model cm(load_onnx(p.string()));
    } catch (const prim::error &x) {
        e = {x.get_status(), x.what()};
    }
    std::remove(p.string().c_str());
    return e;
}

} // namespace

TEST_CASE("models that would break ONNX's shape inference are refused first", "[onnx][hostile]") {
    struct hostile {
        const char *name;
        std::function<ModelProto()> make;
        status st;
        const char *message;
    };
    const int64_t huge = int64_t(1) << 62;
    const std::vector<hostile> cases = {
        {"stride_0", [] {
             ModelProto m = conv_model({1, 3, 5, 5}, {4, 3, 3, 3});
             ints(m.mutable_graph()->mutable_node(0), "strides", {0, 1});
             return m;
         }, status::invalid_arguments, "node 'conv' (Conv): bad attribute strides: 0 is outside [1, 2147483647]"},
        {"w_rank_above_x", [] { return conv_model({1, 1, 5}, {1, 1, 1, 1}); },
         status::invalid_arguments, "conv (Conv): W (1x1x1x1) must have X's rank (1x1x5)"},
        {"same_padding_huge_dim", [huge] {
             ModelProto m = conv_model({1, 1, huge}, {1, 1, 3});
             auto *a = m.mutable_graph()->mutable_node(0)->add_attribute();
             a->set_name("auto_pad");
             a->set_type(::onnx::AttributeProto::STRING);
             a->set_s("SAME_UPPER");
             ints(m.mutable_graph()->mutable_node(0), "strides", {2});
             return m;
         }, status::unimplemented, "graph input 'X' has a dim above 2147483647: 4611686018427387904"},
        {"short_raw_data_of_a_shape", [] {
             ModelProto m = conv_model({1, 3, 5, 5}, {4, 3, 3, 3});
             TensorProto *s = reshape_output(m, 2);
             s->add_dims(2);
             s->set_raw_data(std::string(13, '\1'));
             return m;
         }, status::invalid_arguments, "initializer 'shape': raw_data holds 13 bytes, the dims need 16"},
        {"initializer_dims_overflow", [huge] {
             ModelProto m = conv_model({1, 3, 5, 5}, {4, 3, 3, 3});
             TensorProto *k = m.mutable_graph()->add_initializer();
             k->set_name("k");
             k->set_data_type(TensorProto::FLOAT);
             k->add_dims(huge + 1);
             k->add_dims(4); // the product wraps to 4
             k->set_raw_data(std::string(16, '\0'));
             return m;
         }, status::unimplemented, "initializer 'k': dim 4611686018427387905 is above 2147483647"},
        {"huge_dilation", [huge] {
             ModelProto m = conv_model({1, 3, 5, 5}, {4, 3, 3, 3});
             ints(m.mutable_graph()->mutable_node(0), "dilations", {huge, 1});
             return m;
         }, status::invalid_arguments, "node 'conv' (Conv): bad attribute dilations: 4611686018427387904 is outside"},
        {"w_of_a_constant_node_of_another_rank", [] {
             ModelProto m = conv_model({1, 1, 5}, {1, 1, 1, 1});
             auto *g = m.mutable_graph();
             auto *c = g->add_node(); // W as a Constant node's value instead of an initializer
             c->set_op_type("Constant");
             c->set_name("w_const");
             c->add_output("Wc");
             auto *a = c->add_attribute();
             a->set_name("value");
             a->set_type(::onnx::AttributeProto::TENSOR);
             *a->mutable_t() = g->initializer(0);
             a->mutable_t()->clear_name();
             g->mutable_node()->SwapElements(0, 1);
             g->mutable_node(1)->set_input(1, "Wc");
             return m;
         }, status::invalid_arguments, "conv (Conv): W (1x1x1x1) must have X's rank (1x1x5)"},
        {"w_computed_of_another_rank", [] {
             ModelProto m = conv_model({1, 1, 5}, {1, 1, 1, 1});
             auto *g = m.mutable_graph();
             auto *r = g->add_node(); // W = Relu(initializer): its dims come from ONNX's inference
             r->set_op_type("Relu");
             r->set_name("w_relu");
             r->add_input("W");
             r->add_output("Wr");
             g->mutable_node()->SwapElements(0, 1);
             g->mutable_node(1)->set_input(1, "Wr");
             return m;
         }, status::invalid_arguments, "conv (Conv): W (1x1x1x1) must have X's rank (1x1x5)"},
        {"reshape_to_a_huge_dim", [] {
             ModelProto m = conv_model({1, 3, 5, 5}, {4, 3, 3, 3});
             TensorProto *s = reshape_output(m, 3);
             for (int64_t v : {int64_t(1), int64_t(1), int64_t(1) << 40}) s->add_int64_data(v);
             s->add_dims(3);
             return m;
         }, status::unimplemented, "node 'reshape' (Reshape): shape value 1099511627776 is above 2147483647"},
        {"negative_declared_dim", [] { return conv_model({1, 3, -1, 5}, {4, 3, 3, 3}); },
         status::invalid_arguments, "graph input 'X' has a negative dim -1"},
        {"unclaimed_op", [] {
             ModelProto m = conv_model({1, 3, 5, 5}, {4, 3, 3, 3});
             m.mutable_graph()->mutable_node(0)->set_op_type("ConvTranspose");
             return m;
         }, status::unimplemented, "node 'conv' (ConvTranspose): op 'ConvTranspose' is not supported"},
    };
    for (const auto &c : cases) {
        INFO(c.name);
        const auto e = load_error_of(c.make(), c.name);
        INFO(e.second);
        CHECK(e.first == c.st);
        CHECK(e.second.find(c.message) != std::string::npos);
    }
}

TEST_CASE("a Conv without kernel_shape gets W's, which ONNX then checks", "[onnx][hostile]") {
    // The loader writes kernel_shape from W's dims before ONNX's shape inference, so that a W of
    // another rank than X fails ONNX's size check instead of being indexed past its end; a valid
    // model loads as before, kernel_shape equal to W's spatial dims.
    const fs::path p = fs::temp_directory_path() / ("prim_onnx_hostile_" + std::to_string(::getpid()) + "_ok.onnx");
    std::ofstream(p, std::ios::binary) << conv_model({1, 3, 5, 5}, {4, 3, 3, 2}).SerializeAsString();
    const graph::model g = load_onnx(p.string());
    std::remove(p.string().c_str());
    REQUIRE(g.nodes.size() == 1);
    const auto it = g.nodes[0].attrs.find("kernel_shape");
    if (it != g.nodes[0].attrs.end()) CHECK(it->second.ints == std::vector<int64_t>{3, 2});
}
