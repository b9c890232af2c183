// Helpers shared by the ONNX front end's tests.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "prim/error.hpp"
#include "prim/onnx.hpp"

// The error a load gives, with its status (the test fails when the load succeeds).
inline std::pair<prim::status, std::string> load_error(const std::string &path,
                                                       const prim::onnx_options &o = {}) {
    try {
        prim::load_onnx(path, o);
    } catch (const prim::error &e) {
        return {e.get_status(), e.what()};
    }
    FAIL("no error loading " << path);
    return {};
}

// A model of IR ir_version importing ONNX's default domain at opset 13, its graph named `name`
// and empty: the tests that write their own models start from it.
inline ::onnx::ModelProto empty_model(const std::string &name, int64_t ir_version = 8) {
    ::onnx::ModelProto m;
    m.set_ir_version(ir_version);
    auto *op = m.add_opset_import();
    op->set_domain("");
    op->set_version(13);
    m.mutable_graph()->set_name(name);
    return m;
}

// v: an f32 tensor named `name` of fixed dims.
inline void f32_value(::onnx::ValueInfoProto *v, const std::string &name, const std::vector<int64_t> &dims) {
    v->set_name(name);
    auto *t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(::onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}
