// The loader's detached initializers (onnx/model_file.hpp): large f32 raw_data weights are left
// out of what protobuf parses and copied straight from the mapped file. A model must load to the
// same graph::model whether its weights are detached (raw_data of 4 KiB or more) or parsed by
// protobuf (float_data, or small), for IR 8 and for IR 3 (initializers listed as graph inputs);
// the loader's checks still apply to them (a name given twice, a size that does not match the
// dims, a fixed input naming one that is not a graph input, an IR 3 one not listed as an input,
// a file cut inside one), and a fixed input overrides one that is a graph input.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <onnx/onnx_pb.h>

#include "prim/error.hpp"
#include "prim/onnx.hpp"
#include "onnx_test_util.hpp"

namespace fs = std::filesystem;
using namespace prim;
using ::onnx::ModelProto;
using ::onnx::TensorProto;

namespace {

enum class storage { raw, float_data };

// Conv(X, W, B) -> Relu -> Y with W 32x16x3x3 (18 KiB: detached when raw) and B of 32 (128 bytes:
// never detached). Weight values are distinct and not round, so a byte out of place shows.
ModelProto conv_model(storage w_storage, int64_t ir_version = 8) {
    ModelProto m = empty_model("large_initializers", ir_version);
    auto *g = m.mutable_graph();
    f32_value(g->add_input(), "X", {1, 16, 6, 6});
    f32_value(g->add_output(), "Y", {1, 32, 4, 4});
    const auto tensor = [&](const std::string &name, std::vector<int64_t> dims, storage s) {
        TensorProto *t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(TensorProto::FLOAT);
        int64_t n = 1;
        for (int64_t d : dims) {
            t->add_dims(d);
            n *= d;
        }
        std::vector<float> v(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = 0.001f * static_cast<float>(i) - 1.3f;
        if (s == storage::raw) t->set_raw_data(v.data(), v.size() * sizeof(float));
        else for (float x : v) t->add_float_data(x);
        if (ir_version < 4) f32_value(g->add_input(), name, dims);
    };
    tensor("W", {32, 16, 3, 3}, w_storage);
    tensor("B", {32}, storage::raw);
    auto *conv = g->add_node();
    conv->set_op_type("Conv");
    conv->set_name("conv");
    for (const char *in : {"X", "W", "B"}) conv->add_input(in);
    conv->add_output("C");
    auto *relu = g->add_node();
    relu->set_op_type("Relu");
    relu->set_name("relu");
    relu->add_input("C");
    relu->add_output("Y");
    return m;
}

std::string write(const ModelProto &m, const std::string &name) {
    const fs::path p = fs::temp_directory_path() / ("prim_onnx_large_" + std::to_string(::getpid()) + "_" + name + ".onnx");
    std::ofstream(p, std::ios::binary) << m.SerializeAsString();
    return p.string();
}

// Removes the file at the end of the test.
struct temp_file {
    std::string path;
    ~temp_file() { std::remove(path.c_str()); }
};


void same_model(const graph::model &a, const graph::model &b) {
    REQUIRE(a.initializers.size() == b.initializers.size());
    for (const auto &kv : a.initializers) {
        INFO(kv.first);
        REQUIRE(b.initializers.count(kv.first));
        CHECK(kv.second.dims == b.initializers.at(kv.first).dims);
        CHECK(kv.second.data == b.initializers.at(kv.first).data);
    }
    REQUIRE(a.inputs.size() == b.inputs.size());
    for (size_t i = 0; i < a.inputs.size(); ++i) {
        CHECK(a.inputs[i].name == b.inputs[i].name);
        CHECK(a.inputs[i].dims == b.inputs[i].dims);
    }
    REQUIRE(a.outputs.size() == b.outputs.size());
    CHECK(a.outputs[0].dims == b.outputs[0].dims);
    REQUIRE(a.nodes.size() == b.nodes.size());
    for (size_t i = 0; i < a.nodes.size(); ++i) {
        CHECK(a.nodes[i].op_type == b.nodes[i].op_type);
        CHECK(a.nodes[i].inputs == b.nodes[i].inputs);
        CHECK(a.nodes[i].attrs.size() == b.nodes[i].attrs.size());
    }
}

} // namespace

TEST_CASE("detached raw_data weights load as protobuf's float_data does", "[onnx][large]") {
    for (int64_t ir : {8, 3}) {
        INFO("IR version " << ir);
        temp_file raw{write(conv_model(storage::raw, ir), "raw")};
        temp_file typed{write(conv_model(storage::float_data, ir), "typed")};
        const graph::model a = load_onnx(raw.path), b = load_onnx(typed.path);
        same_model(a, b);
        // Only X is a graph input: W and B are initializers, though IR 3 lists them as inputs.
        REQUIRE(a.inputs.size() == 1);
        CHECK(a.inputs[0].name == "X");
        CHECK(a.initializers.at("W").dims == memory::dims{32, 16, 3, 3});
        CHECK(a.initializers.at("W").data[4607] == 0.001f * 4607.f - 1.3f);
        CHECK(a.outputs[0].dims == memory::dims{1, 32, 4, 4}); // shape inference saw W
    }
}

TEST_CASE("detached weights keep the loader's checks", "[onnx][large]") {
    SECTION("a name given to two initializers") {
        ModelProto m = conv_model(storage::raw);
        TensorProto *twin = m.mutable_graph()->add_initializer();
        *twin = m.graph().initializer(0);
        twin->clear_raw_data();
        for (int i = 0; i < 32 * 16 * 9; ++i) twin->add_float_data(0.f);
        temp_file f{write(m, "twice")};
        const auto e = load_error(f.path);
        CHECK(e.first == status::invalid_arguments);
        CHECK(e.second.find("'W'") != std::string::npos);
    }
    SECTION("raw_data of another size than the dims need") {
        ModelProto m = conv_model(storage::raw);
        m.mutable_graph()->mutable_initializer(0)->mutable_raw_data()->append(4, '\0');
        temp_file f{write(m, "size")};
        const auto e = load_error(f.path);
        CHECK(e.first == status::invalid_arguments);
        CHECK(e.second.find("raw_data holds 18436 bytes, the dims need 18432") != std::string::npos);
    }
    SECTION("a fixed input naming a detached initializer") {
        temp_file f{write(conv_model(storage::raw), "fixed")};
        onnx_options o;
        o.fixed_inputs["W"] = graph::tensor{{32, 16, 3, 3}, std::vector<float>(32 * 16 * 9, 1.f)};
        const auto e = load_error(f.path, o);
        CHECK(e.first == status::invalid_arguments);
        CHECK(e.second.find("fixed input 'W' is not a graph input") != std::string::npos);
    }
    SECTION("an IR 3 initializer that is not listed as a graph input") {
        ModelProto m = conv_model(storage::raw, 3);
        auto *inputs = m.mutable_graph()->mutable_input();
        for (int i = 0; i < inputs->size(); ++i)
            if (inputs->Get(i).name() == "W") inputs->DeleteSubrange(i, 1);
        temp_file f{write(m, "ir3_not_input")};
        const auto e = load_error(f.path);
        CHECK(e.first == status::invalid_arguments);
        CHECK(e.second.find("W in initializer but not in graph input") != std::string::npos);
    }
    SECTION("a file cut inside the weights") {
        const std::string bytes = conv_model(storage::raw).SerializeAsString();
        const fs::path p = fs::temp_directory_path() / ("prim_onnx_large_cut_" + std::to_string(::getpid()) + ".onnx");
        temp_file f{p.string()};
        std::ofstream(p, std::ios::binary) << bytes.substr(0, bytes.size() - 9000);
        const auto e = load_error(f.path);
        CHECK(e.first == status::invalid_arguments);
        CHECK(e.second.find("not an ONNX model") != std::string::npos);
    }
}

TEST_CASE("a fixed input replaces the detached initializer of the same name", "[onnx][large]") {
    // An initializer listed as a graph input is a default the caller may override (IR >= 4; in
    // IR 3 every initializer is listed): the fixed value wins, however W is stored in the file.
    for (const storage st : {storage::raw, storage::float_data}) {
        ModelProto m = conv_model(st);
        f32_value(m.mutable_graph()->add_input(), "W", {32, 16, 3, 3});
        temp_file f{write(m, st == storage::raw ? "override_raw" : "override_typed")};
        onnx_options o;
        o.fixed_inputs["W"] = graph::tensor{{32, 16, 3, 3}, std::vector<float>(32 * 16 * 9, 1.f)};
        const graph::model g = load_onnx(f.path, o);
        INFO((st == storage::raw ? "raw_data" : "float_data"));
        CHECK(g.initializers.at("W").data == std::vector<float>(32 * 16 * 9, 1.f));
        CHECK(g.initializers.at("B").data[1] == 0.001f - 1.3f);
    }
}

namespace {

// DequantizeLinear(W, scale, zero point) -> Conv(X, W_f) -> Y with W 32x16x3x3 of type `type`
// (int8 or uint8: 4.5 KiB, detached when raw; the zero point of one byte never is). Values
// cover the whole range of the type, in an order where a byte out of place shows.
ModelProto dequantized_conv_model(int type, storage w_storage, int64_t ir_version = 8) {
    ModelProto m = empty_model("large_int8_initializers", ir_version);
    auto *g = m.mutable_graph();
    f32_value(g->add_input(), "X", {1, 16, 6, 6});
    f32_value(g->add_output(), "Y", {1, 32, 4, 4});
    const bool s8 = type == TensorProto::INT8;
    const auto integers = [&](const std::string &name, std::vector<int64_t> dims, storage s) {
        TensorProto *t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        int64_t n = 1;
        for (int64_t d : dims) {
            t->add_dims(d);
            n *= d;
        }
        std::string bytes;
        for (int64_t i = 0; i < n; ++i) {
            const int v = static_cast<int>((i * 37 + 11) % 256) - (s8 ? 128 : 0);
            bytes.push_back(static_cast<char>(v));
            if (s != storage::raw) t->add_int32_data(v);
        }
        if (s == storage::raw) t->set_raw_data(bytes);
        if (ir_version < 4) {
            auto *v = g->add_input();
            v->set_name(name);
            auto *tt = v->mutable_type()->mutable_tensor_type();
            tt->set_elem_type(type);
            auto *shape = tt->mutable_shape(); // present, if empty (a scalar)
            for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
        }
    };
    integers("W", {32, 16, 3, 3}, w_storage);
    integers("W_zp", {}, storage::raw);
    TensorProto *scale = g->add_initializer();
    scale->set_name("W_scale");
    scale->set_data_type(TensorProto::FLOAT);
    scale->add_float_data(0.02f);
    if (ir_version < 4) { // a scalar: an empty shape, present
        auto *v = g->add_input();
        v->set_name("W_scale");
        v->mutable_type()->mutable_tensor_type()->set_elem_type(TensorProto::FLOAT);
        v->mutable_type()->mutable_tensor_type()->mutable_shape();
    }
    auto *dq = g->add_node();
    dq->set_op_type("DequantizeLinear");
    dq->set_name("dq");
    for (const char *in : {"W", "W_scale", "W_zp"}) dq->add_input(in);
    dq->add_output("W_f");
    auto *conv = g->add_node();
    conv->set_op_type("Conv");
    conv->set_name("conv");
    for (const char *in : {"X", "W_f"}) conv->add_input(in);
    conv->add_output("Y");
    return m;
}

} // namespace

TEST_CASE("detached int8 and uint8 raw_data weights load as protobuf's int32_data does", "[onnx][large]") {
    for (int type : {int(TensorProto::INT8), int(TensorProto::UINT8)})
        for (int64_t ir : {8, 3}) {
            INFO("element type " << type << ", IR version " << ir);
            temp_file raw{write(dequantized_conv_model(type, storage::raw, ir), "raw_int")};
            temp_file typed{write(dequantized_conv_model(type, storage::float_data, ir), "typed_int")};
            const graph::model a = load_onnx(raw.path), b = load_onnx(typed.path);
            same_model(a, b);
            const graph::tensor &w = a.initializers.at("W");
            CHECK(w.dt == (type == TensorProto::INT8 ? memory::data_type::s8 : memory::data_type::u8));
            CHECK(b.initializers.at("W").dt == w.dt);
            CHECK(w.dims == memory::dims{32, 16, 3, 3});
            CHECK(w.data[4607] == static_cast<float>((4607 * 37 + 11) % 256 - (type == TensorProto::INT8 ? 128 : 0)));
            CHECK(a.outputs[0].dims == memory::dims{1, 32, 4, 4}); // shape inference saw W's type and dims
        }
}
