// Helpers shared by the ONNX front end's tests.
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <utility>

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
