// benchdnn_lite --onnx (onnx_driver.cpp): built where the ONNX front end (prim_onnx) is.
#pragma once
#include <string>
#include <vector>

namespace bdl {

// args: the whole command line after the program name, args[0] == "--onnx". Returns the exit
// status: 2 for a bad option (before any model runs), 1 when a model failed, else 0.
int run_onnx_driver(const std::vector<std::string> &args);

} // namespace bdl
