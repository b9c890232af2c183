// A plan: the graph lowered for one set of input dims. The builder gives every tensor a memory
// (its buffer and layout), inserts reorders where a consumer needs another layout, and records
// the steps to run; a step whose inputs are all constant runs once, while the plan is built.
//
// Buffers: a transient buffer (alloc) gets a placeholder address while the plan is built; every
// step names the memories it touches, which gives each buffer its first and last step. finish()
// then places the transient buffers in one arena, two buffers sharing bytes only when no step
// needs both (a buffer reused after its last reader ran). A buffer touched by a step run at load
// time, a graph output, or a layout with padding or gaps (whose unwritten bytes must stay zero)
// gets a buffer of its own instead.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "graph/buffer_slab.hpp"
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
    buffer_slab slab;                      // the bytes of every buffer below
    std::map<std::string, memory> inputs;  // graph inputs, plain; run() copies into them
    std::vector<memory> storage;           // the buffers: the arena and the persistent ones
    std::vector<step> steps;
    struct output {
        std::string name;
        memory::dims dims; // the tensor's own ({} for a scalar, whose memory has dims {1})
        memory mem;        // plain
    };
    std::vector<output> outputs;
    std::vector<fusion_record> log;
    std::vector<std::string> step_texts;   // every step, those run at build time marked
    size_t arena_bytes = 0;
};

class plan_builder {
public:
    plan_builder(const graph_ir &g, const options &opt);

    const graph_ir &g;
    const options &opt;
    plan result;

    // An attribute carrying the chain and the ISA cap.
    primitive_attr attr(const post_ops &po = post_ops()) const;

    // The tensor's memory as its producer left it (any layout); a lazy constant's made now.
    memory get(const std::string &t);
    bool is_constant(const std::string &t) const { return constants_.count(t) != 0; }
    // Registers t. owned: the buffer was allocated for t alone (a later sum may overwrite it
    // when t has no other reader); a view or a graph input is not.
    void set(const std::string &t, const memory &m, bool constant, bool owned);
    // Registers t as a constant whose buffer make() gives at t's first get(): an integer
    // initializer that a fused op reads from the model itself never gets one (a QDQ ResNet-50's
    // weights are 25 MB of fresh pages).
    void set_lazy_constant(const std::string &t, std::function<memory()> make);
    bool may_overwrite(const std::string &t) const;
    // Integer initializers whose values (f32 in the model) no one has checked yet to be integers
    // of their type (integer_values.hpp): whoever reads all of one checks them and erases it; the
    // build checks those left.
    std::set<std::string> unchecked_integers;
    // The position in g.ops of the op being lowered (set by the caller): reads before it have run.
    size_t current_op = 0;

    // t in the dense row-major layout (a reorder when it is not, made once per tensor).
    memory plain(const std::string &t);
    // t in layout want (a reorder into a new buffer when it differs, made once per layout).
    memory in_layout(const std::string &t, const memory::desc &want);
    // m (not a named tensor) in layout want: m itself or a reordered copy.
    memory in_layout_memory(const memory &m, const memory::desc &want, bool constant);
    // A plain desc of dims (of type dt).
    static memory::desc plain_desc(const memory::dims &d, memory::data_type dt = memory::data_type::f32);
    // A transient buffer: its address is settled by finish().
    memory alloc(const memory::desc &md);
    // A zero-filled buffer of its own from the plan's slab, usable at once (constants written
    // while building, inputs), kept as long as the plan.
    memory persistent(const memory::desc &md);
    // Room for n floats that load-time steps may use while they run (a step run at once is done
    // before the next asks): reused, so its pages are fresh only once per plan.
    float *scratch(size_t n) {
        if (scratch_size_ < n) { // contents need not survive: no copy, no zero-fill
            scratch_.reset(new float[n]);
            scratch_size_ = n;
        }
        return scratch_.get();
    }
    // base's buffer seen with another desc (the same bytes from the same address).
    memory view(const memory &base, const memory::desc &md);

    // Adds a step touching `uses` (every memory it reads or writes); run at once (and not
    // recorded) when constant.
    void step(const std::string &text, std::function<void()> fn, bool constant,
              const std::vector<memory> &uses);
    // A step executing a primitive on args.
    template <typename P>
    void primitive_step(const std::string &text, const P &prim, const exec_args &args, bool constant) {
        std::vector<memory> uses;
        for (const auto &kv : args) uses.push_back(kv.second);
        step(text, [prim, args] { prim.execute(args); }, constant, uses);
    }
    // Places the transient buffers (outputs: the graph outputs' memories).
    void finish(const std::vector<memory> &outputs);
    size_t arena_bytes() const { return arena_bytes_; }
    // A reorder step from src to dst.
    void reorder_step(const std::string &text, const memory &src, const memory &dst, bool constant);
    // True when every tensor op reads (inputs and fused operands) is constant.
    bool all_constant(const op &o) const;

private:
    struct buffer_group {
        size_t bytes = 0;
        bool keep_zero = false;       // padding or gaps: never shared
        std::vector<memory> members;  // every memory object on this buffer
        int first = -1, last = -1;    // runtime steps using it
        void *real = nullptr;         // its address once settled
    };
    // The group of m (registering m in it), or nullptr when m's buffer is not transient.
    buffer_group *track(const memory &m);
    void settle(buffer_group &g, void *address);
    void make_persistent(buffer_group &g);

    std::vector<buffer_group> groups_;
    std::map<uintptr_t, size_t> group_at_; // placeholder address -> group
    uintptr_t next_placeholder_ = uintptr_t(1) << 46;
    size_t arena_bytes_ = 0;
    std::map<std::string, memory> mems_;
    std::map<std::string, std::function<memory()>> lazy_; // constants without a buffer yet
    std::map<std::string, memory> plain_cache_;
    std::map<std::string, std::vector<memory>> layout_cache_; // t's reordered copies
    std::set<std::string> constants_, owned_;
    std::unique_ptr<float[]> scratch_;
    size_t scratch_size_ = 0;
};

// Lowers one op (with its fused entries): defined by each op family, found through the registry.
void lower_op(plan_builder &b, const op &o);

} // namespace detail
} // namespace graph
} // namespace prim
