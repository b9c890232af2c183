// A plan: the graph lowered for one set of input dims. The builder gives every tensor a memory
// (its buffer and layout), inserts reorders where a consumer needs another layout, and records
// the steps to run; a step whose inputs are all constant runs once, while the plan is built.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "graph/graph_ir.hpp"
#include "prim/prim.hpp"

namespace prim {
namespace graph {
namespace detail {

struct plan {
    struct step {
        std::string text;
        std::function<void()> run;
    };
    std::map<std::string, memory> inputs;  // graph inputs, plain; run() copies into them
    std::vector<step> steps;
    std::vector<std::pair<std::string, memory>> outputs; // plain
    std::vector<fusion_record> log;
    std::vector<std::string> step_texts;   // every step, those run at build time marked
};

class plan_builder {
public:
    plan_builder(const graph_ir &g, const options &opt);

    const graph_ir &g;
    const options &opt;
    plan result;

    // An attribute carrying the chain and the ISA cap.
    primitive_attr attr(const post_ops &po = post_ops()) const;

    // The tensor's memory as its producer left it (any layout).
    memory get(const std::string &t) const;
    bool is_constant(const std::string &t) const { return constants_.count(t) != 0; }
    // Registers t. owned: the buffer was allocated for t alone (a later sum may overwrite it
    // when t has no other reader); a view or a graph input is not.
    void set(const std::string &t, const memory &m, bool constant, bool owned);
    bool may_overwrite(const std::string &t) const;

    // t in the dense row-major layout (a reorder when it is not, made once per tensor).
    memory plain(const std::string &t);
    // t in layout want (a reorder into a new buffer when it differs).
    memory in_layout(const std::string &t, const memory::desc &want);
    // m (not a named tensor) in layout want: m itself or a reordered copy.
    memory in_layout_memory(const memory &m, const memory::desc &want, bool constant);
    // A plain desc of dims.
    static memory::desc plain_desc(const memory::dims &d);
    // A new zero-filled buffer, kept alive by the plan.
    memory alloc(const memory::desc &md);

    // Adds a step; run at once (and not recorded) when constant.
    void step(const std::string &text, std::function<void()> fn, bool constant);
    // A reorder step from src to dst.
    void reorder_step(const std::string &text, const memory &src, const memory &dst, bool constant);
    // True when every tensor op reads (inputs and fused operands) is constant.
    bool all_constant(const op &o) const;

private:
    std::map<std::string, memory> mems_;
    std::map<std::string, memory> plain_cache_;
    std::set<std::string> constants_, owned_;
};

// Lowers one op (with its fused entries): defined by each op family, found through the registry.
void lower_op(plan_builder &b, const op &o);

} // namespace detail
} // namespace graph
} // namespace prim
