// Runs an ONNX model through the installed prim::onnx package, as the README's C++ line does:
// load_onnx, compiled_model, run. Usage: consumer_onnx DIR, where DIR holds ONNX's node test
// test_relu (model.onnx and test_data_set_0/input_0.pb, output_0.pb).
#include <cstdio>
#include <string>

#include <prim/graph.hpp>
#include <prim/onnx.hpp>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::printf("usage: consumer_onnx DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    try {
        prim::graph::compiled_model m(prim::load_onnx(dir + "/model.onnx"));
        const prim::graph::tensor x = prim::read_tensor_pb(dir + "/test_data_set_0/input_0.pb");
        const prim::graph::tensor want = prim::read_tensor_pb(dir + "/test_data_set_0/output_0.pb");
        auto out = m.run({{"x", x}});
        const prim::graph::tensor &y = out.at("y");
        if (y.dims != want.dims || y.data != want.data) {
            std::printf("consumer_onnx: the output differs from ONNX's expected one\n");
            return 1;
        }
    } catch (const std::exception &e) {
        std::printf("consumer_onnx: %s\n", e.what());
        return 1;
    }
    std::printf("consumer_onnx: OK\n");
    return 0;
}
