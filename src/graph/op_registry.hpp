// The ops the graph knows: per ONNX op type, its checks, shape inference and lowering. Each op
// family lives in its own ops_*.cpp and returns its definitions; op_registry.cpp lists the
// families, so adding an op (MaxPool, Softmax, Concat...) is one file and one line there.
#pragma once
#include <string>
#include <vector>

#include "graph/plan.hpp"

namespace prim {
namespace graph {
namespace detail {

struct op_def {
    std::string type;
    int min_inputs = 1, max_inputs = 1;
    int max_outputs = 1; // ONNX's optional outputs beyond the first are refused by the check
    // Attributes and constant inputs, checked when the model is compiled (no shapes yet).
    void (*check)(const model &m, const node &n) = nullptr;
    // Output dims from the input dims ({} for an input left out); fails naming the problem.
    std::vector<memory::dims> (*infer)(const model &m, const node &n,
                                       const std::vector<memory::dims> &in) = nullptr;
    void (*lower)(plan_builder &b, const op &o) = nullptr;
    // Output data types from the input types (f32 for an input left out); fails naming the
    // problem. nullptr: the op runs on f32 only (every input f32, outputs f32).
    std::vector<memory::data_type> (*types)(const model &m, const node &n,
                                            const std::vector<memory::data_type> &in) = nullptr;
    // The output may be a view of input 0's buffer (the shape ops): writing one writes the other.
    bool views_input = false;
};

// nullptr for an op type the graph does not know.
const op_def *find_op_def(const std::string &type);

// The families.
std::vector<op_def> conv_ops();
std::vector<op_def> gemm_ops();
std::vector<op_def> eltwise_ops();
std::vector<op_def> binary_ops();
std::vector<op_def> norm_ops();
std::vector<op_def> shape_ops();
std::vector<op_def> pool_ops();
std::vector<op_def> softmax_concat_ops();
std::vector<op_def> expand_ops();
std::vector<op_def> quant_ops();

// t and every tensor that may share its buffer through views (shape ops, transitively, both
// ways): a buffer may be overwritten in place only when none of them is read afterwards.
std::vector<std::string> buffer_sharers(const graph_ir &g, const std::string &t);
// Whether the op at position `at` of g.ops, which reads `reads`, may write over t's buffer: no
// tensor sharing it is a graph input or output, one of `reads`, or read after `at` (by an op
// other than `except`).
bool buffer_free_after(const graph_ir &g, const std::string &t, size_t at,
                       const std::vector<std::string> &reads, const op *except = nullptr);

// What an activation op computes, for the fuser and the eltwise lowering: false when the op is
// not a single eltwise function (Erf, a Pow whose exponent is not a constant scalar...).
bool activation_of(const model &m, const op &o, eltwise_fn &fn);

} // namespace detail
} // namespace graph
} // namespace prim
