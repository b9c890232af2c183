// The fuser's view of a model: ops in topological order, each an ONNX node (or a multi-node
// activation recognised as one), with the post-op entries fused onto it.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "prim/attr.hpp"
#include "prim/error.hpp"
#include "prim/graph.hpp"

namespace prim {
namespace graph {
namespace detail {

// "Conv_3 (Conv): " : how every message about a node starts.
std::string node_prefix(const node &n);
[[noreturn]] void fail(const node &n, const std::string &problem,
                       status st = status::invalid_arguments);

// One eltwise function: what an activation op computes. A parameter whose tensor is named
// (Clip's min or max given as a graph input) is read from that one-value tensor at every run: a
// runtime post-op parameter (PRIM_RUNTIME_F32_VAL), its value left in alpha or beta unused.
struct eltwise_fn {
    eltwise_fn() = default;
    eltwise_fn(algorithm a, float al, float be) : alg(a), alpha(al), beta(be) {}
    algorithm alg = algorithm::undef;
    float alpha = 0.f, beta = 0.f;
    std::string alpha_input, beta_input;
    bool has_runtime_params() const { return !alpha_input.empty() || !beta_input.empty(); }
};

// An entry fused after the op's own computation, in order.
struct post_entry {
    enum class kind {
        eltwise,  // fn
        sum,      // x += operand, computed in operand's buffer when it may be overwritten
        binary,   // x = x alg operand (the operand broadcast to the output)
        bias_add, // x += per-channel operand: into the bias at load time when constant
        scale,    // x *= per-channel operand: into the weights and bias at load time when constant
        bnorm,    // x = BatchNormalization(x): into weights and bias when constant
        dw,       // x = the depthwise convolution dw_conv (the dw post-op): the entries after it
                  // apply to its output
    };
    kind k = kind::eltwise;
    eltwise_fn fn;            // eltwise
    algorithm alg = algorithm::undef; // binary
    std::string operand;      // sum, binary, bias_add, scale
    // sum of a quantized operand (fuse_qdq_residual.cpp): x += sum_scale * (operand - sum_zero_point)
    float sum_scale = 1.f;
    int32_t sum_zero_point = 0;
    const node *bn = nullptr; // bnorm
    // dw (fuse_dw_pairs.cpp): the depthwise convolution merged into a 1x1 convolution.
    struct depthwise {
        const node *n = nullptr;         // its node (name, attributes)
        std::vector<std::string> inputs; // its op's inputs (Conv: x, W[, B]; QLinearConv: nine)
        int64_t kernel = 0, stride = 0, padding = 0; // as post_ops::append_dw takes them
    } dw_conv;
};

struct op {
    const node *n = nullptr;           // the node that computes (for a recognised form, its last)
    std::string type;                  // n->op_type, or "Eltwise" for a recognised form
    eltwise_fn fn;                     // type "Eltwise"
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::vector<post_entry> post;
    std::vector<std::string> merged;   // names of every node this op stands for, in order
    std::string pattern;               // "Conv+Relu"; empty when nothing was fused
    bool alive = true;
};

struct graph_ir {
    const model *m = nullptr;
    std::map<std::string, memory::dims> shapes; // every tensor's dims
    std::map<std::string, memory::data_type> types; // every tensor's data type
    std::vector<op> ops;                        // topological order; dead ops stay in place
    std::vector<fusion_record> log;

    bool is_initializer(const std::string &t) const { return m->initializers.count(t) != 0; }
    bool is_graph_output(const std::string &t) const;
    bool is_graph_input(const std::string &t) const;
    // Index of the live op writing t, or -1 (graph input, initializer).
    int producer(const std::string &t) const;
    // How many times t is read: live ops' inputs, fused operands, graph outputs.
    int readers(const std::string &t) const;
    // True when t is read after position `index` of ops (by a live op's input or fused operand,
    // or as a graph output), not counting op `except`: a buffer nothing reads later may be
    // overwritten in place (a residual add becomes a sum into it).
    bool read_after(const std::string &t, size_t index, const op *except = nullptr) const;
    const memory::dims &dims_of(const std::string &t) const;
    memory::data_type type_of(const std::string &t) const; // f32 when not recorded
};

// Attribute access with ONNX's defaults; a present attribute of the wrong type is an error.
int64_t attr_int(const node &n, const std::string &name, int64_t dflt);
float attr_float(const node &n, const std::string &name, float dflt);
std::string attr_string(const node &n, const std::string &name, const std::string &dflt);
std::vector<int64_t> attr_ints(const node &n, const std::string &name,
                               const std::vector<int64_t> &dflt);
bool has_attr(const node &n, const std::string &name);

// An input given (present and not "").
inline bool has_input(const node &n, size_t i) { return i < n.inputs.size() && !n.inputs[i].empty(); }
// The values of a constant input (an initializer); fails naming the node when it is not one.
const tensor &constant_input(const model &m, const node &n, size_t i, const char *what);

// ONNX's auto_pad along one spatial dim (input size in, stride s, kernel extent ext): VALID is no
// padding, SAME_UPPER / SAME_LOWER pad to ceil(in / s) outputs (the odd one at the end / start),
// NOTSET keeps pb and pe.
void apply_auto_pad(const std::string &auto_pad, int64_t in, int64_t s, int64_t ext, int64_t &pb,
                    int64_t &pe);

// "" when d is within the sizes a model may have (prim/graph_model.hpp: max_extent, max_elements,
// max_rank; its dims non-negative), else what is not.
std::string dims_beyond_limits(const memory::dims &d);
// Fails naming the node when an attribute value is outside [lo, max_extent].
void check_attr_range(const node &n, const std::string &name, const std::vector<int64_t> &values,
                      int64_t lo);

int64_t product(const memory::dims &d);
std::string dims_text(const memory::dims &d); // "2x3x4"
// numpy broadcasting of two shapes; false when they do not broadcast.
bool broadcast_dims(const memory::dims &a, const memory::dims &b, memory::dims &out);

} // namespace detail
} // namespace graph
} // namespace prim
