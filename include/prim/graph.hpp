// prim::graph: compiles a model graph (prim/graph_model.hpp) onto prim's primitives and runs it.
//
// Compiling checks the graph (every op known, attributes valid, inputs present, no cycle) and sorts
// it. Once every input dim is known (from the model, options::batch, or the first run's inputs)
// the shapes are inferred, the fuser merges ops into primitives with post-ops (doc/graph.md: the
// patterns and the reasons a candidate is refused), and every primitive is created once. run()
// then executes them as often as wanted; other input dims build another plan (the plans of the
// four latest input dims are kept).
// Every error is a prim::error naming the node, its op and the problem.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "prim/api.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/graph_model.hpp"

namespace prim {
namespace graph {

struct PRIM_API options {
    bool fuse = true;                // false: one primitive per ONNX op (the unfused path)
    cpu_isa max_isa = cpu_isa::all;  // caps every primitive's ISA (with PRIM_MAX_CPU_ISA)
    int64_t batch = -1;              // replaces a -1 in dim 0 of the inputs; -1: from run()'s inputs
};

// One line of the fusion log: a fusion made (the nodes merged, first the one that computes) or a
// candidate refused (the node that was not merged, the node it would have joined, the reason).
struct PRIM_API fusion_record {
    bool fused = false;
    std::string pattern;              // fused: "Conv+BatchNormalization(folded)+Relu"
    std::vector<std::string> nodes;   // fused: every node merged; refused: {candidate, target}
    std::string reason;               // refused: "Add_12 not fused into Conv_10: ..."
    // The PRIM_VERBOSE=2 line: "prim_verbose,fuse,fused,PATTERN,NODE+NODE..." or
    // "prim_verbose,fuse,refused,CANDIDATE,TARGET,REASON".
    std::string line() const;
};

class PRIM_API compiled_model {
public:
    // Checks and sorts the model (a copy is kept); builds the plan at once when every input dim is
    // known. Throws prim::error (invalid_arguments or unimplemented) naming node, op and problem.
    // m by value: std::move a model that is not needed any more (its weights are not copied).
    explicit compiled_model(model m, const options &opt = options());
    ~compiled_model();
    compiled_model(compiled_model &&) noexcept;
    compiled_model &operator=(compiled_model &&) noexcept;

    // Runs the graph on the named inputs (row-major f32 tensors of the dims the model declares,
    // -1 dims taking the given size) and returns every graph output by name. Runs are serialised.
    std::map<std::string, tensor> run(const std::map<std::string, tensor> &inputs) const;

    // The fusion log of the latest plan used (empty before the first plan exists).
    std::vector<fusion_record> fusion_log() const;
    // The steps of the latest plan, one line each, in execution order ("Conv_0+Relu_1:
    // convolution jit:avx512 post-ops relu", "reorder Conv_0 -> plain"...), for tests and tools.
    std::vector<std::string> steps() const;
    // Bytes of the one buffer the latest plan's intermediate results share (each placed there for
    // the steps that use it, so results whose lifetimes do not overlap share bytes).
    size_t arena_bytes() const;
    // The graph's nodes in the order they run (topologically sorted).
    std::vector<std::string> sorted_nodes() const;

private:
    struct state;
    std::unique_ptr<state> s_;
};

} // namespace graph
} // namespace prim
