// load_onnx: file -> checked ModelProto -> fixed inputs and dims applied -> shapes inferred ->
// constants folded -> one rule per node (op_rules) -> element types checked -> graph::model.
#include <algorithm>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include "model_file.hpp"
#include "node_context.hpp"
#include "op_rules.hpp"
#include "prim/error.hpp"
#include "prim/onnx.hpp"
#include "tensor_proto.hpp"
#include "weight_copies.hpp"

namespace prim {

namespace {

using namespace onnx_impl;
using ::onnx::ModelProto;
using ::onnx::TensorProto;
using ::onnx::TypeProto;

constexpr int64_t max_opset = 17;

[[noreturn]] void invalid(const std::string &msg) { throw error(status::invalid_arguments, msg); }
[[noreturn]] void refuse(const std::string &msg) { throw error(status::unimplemented, msg); }

void check_model(const ModelProto &m, const std::string &path) {
    try {
        ::onnx::checker::check_model(m);
    } catch (const std::exception &e) {
        invalid("'" + path + "' fails ONNX's model checker: " + e.what());
    }
}

// What a value's type says, for messages: "f32 tensor", "int64 tensor", "sequence"...
std::string type_text(const TypeProto &t) {
    if (t.has_tensor_type()) return elem_type_name(t.tensor_type().elem_type()) + " tensor";
    if (t.has_sequence_type()) return "sequence";
    if (t.has_optional_type()) return "optional";
    if (t.has_map_type()) return "map";
    return "value of unknown type";
}

bool is_f32_tensor(const TypeProto &t) {
    return t.has_tensor_type() && t.tensor_type().elem_type() == TensorProto::FLOAT;
}

// The graph's data type of a tensor type: f32, u8, s8, s32; none for any other.
std::optional<memory::data_type> graph_type(const TypeProto &t) {
    if (!t.has_tensor_type()) return std::nullopt;
    switch (t.tensor_type().elem_type()) {
        case TensorProto::FLOAT: return memory::data_type::f32;
        case TensorProto::UINT8: return memory::data_type::u8;
        case TensorProto::INT8: return memory::data_type::s8;
        case TensorProto::INT32: return memory::data_type::s32;
        default: return std::nullopt;
    }
}

std::optional<memory::dims> dims_of(const TypeProto &t) {
    if (!t.has_tensor_type() || !t.tensor_type().has_shape()) return std::nullopt;
    memory::dims d;
    for (const auto &dim : t.tensor_type().shape().dim()) d.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
    return d;
}

// Graph inputs with a fixed value become initializers of the input's declared type.
// (not_inputs: the stand-in inputs of detached initializers).
void fold_fixed_inputs(ModelProto &m, const std::map<std::string, graph::tensor> &fixed,
                       const std::set<std::string> &not_inputs) {
    auto *inputs = m.mutable_graph()->mutable_input();
    for (const auto &f : fixed) {
        auto it = std::find_if(inputs->begin(), inputs->end(), [&](const auto &v) { return v.name() == f.first; });
        if (it == inputs->end() || not_inputs.count(f.first)) invalid("fixed input '" + f.first + "' is not a graph input");
        const std::string what = "fixed input '" + f.first + "'";
        if (auto d = dims_of(it->type())) {
            bool same = d->size() == f.second.dims.size();
            for (size_t k = 0; same && k < d->size(); ++k) same = (*d)[k] < 0 || (*d)[k] == f.second.dims[k];
            if (!same) invalid(what + ": its dims do not match the graph input's");
        }
        int64_t count = 1;
        for (auto x : f.second.dims) count *= x;
        if (count != static_cast<int64_t>(f.second.data.size())) invalid(what + ": data size does not match its dims");
        TensorProto t;
        t.set_name(f.first);
        for (auto x : f.second.dims) t.add_dims(x);
        const int type = it->type().has_tensor_type() ? it->type().tensor_type().elem_type() : TensorProto::FLOAT;
        t.set_data_type(type);
        constant_tensor values;
        values.f32 = f.second.data;
        if (type == TensorProto::FLOAT) {
            for (float x : f.second.data) t.add_float_data(x);
        } else if (type == TensorProto::INT64) {
            for (int64_t x : to_ints(values, what)) t.add_int64_data(x);
        } else if (type == TensorProto::INT32 || type == TensorProto::UINT8 || type == TensorProto::INT8) {
            // uint8 and int8 are stored in int32_data too; the values' range is checked below.
            for (int64_t x : to_ints(values, what)) {
                const bool fits = type == TensorProto::INT32 || (type == TensorProto::UINT8 ? x >= 0 && x <= 255 : x >= -128 && x <= 127);
                if (!fits) invalid(what + ": value " + std::to_string(x) + " is out of " + type_text(it->type()) + "'s range");
                t.add_int32_data(static_cast<int32_t>(x));
            }
        } else {
            refuse(what + ": graph input type " + type_text(it->type()) + " cannot be fixed");
        }
        *m.mutable_graph()->add_initializer() = t;
        inputs->erase(it);
    }
}

// The detached initializers (model_file) as graph inputs of their type and dims, for ONNX's checker
// and shape inference, which then see every value the nodes read, as in the file. Returns the
// inputs added: an IR < 4 model lists its initializers as inputs already.
std::set<std::string> add_stand_in_inputs(ModelProto &m, const std::vector<detached_tensor> &detached,
                                          const std::string &path) {
    auto *g = m.mutable_graph();
    std::set<std::string> inputs, initializers, added;
    for (const auto &v : g->input()) inputs.insert(v.name());
    for (const auto &t : g->initializer()) initializers.insert(t.name());
    for (const auto &d : detached) {
        // ONNX's checker refuses a name given to two initializers, and in IR < 4 an initializer
        // that is not a graph input; it no longer sees these, so both are checked here.
        if (!initializers.insert(d.name).second)
            invalid("'" + path + "': initializer '" + d.name + "' is given twice");
        if (inputs.count(d.name)) continue;
        if (m.ir_version() < 4)
            invalid("'" + path + "' fails ONNX's model checker: " + d.name
                    + " in initializer but not in graph input");
        auto *v = g->add_input();
        v->set_name(d.name);
        auto *tt = v->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(d.elem_type);
        auto *shape = tt->mutable_shape();
        for (int64_t x : d.dims) shape->add_dim()->set_dim_value(x);
        added.insert(d.name);
    }
    return added;
}

void remove_inputs(ModelProto &m, const std::set<std::string> &names) {
    auto *inputs = m.mutable_graph()->mutable_input();
    inputs->erase(std::remove_if(inputs->begin(), inputs->end(),
                                 [&](const auto &v) { return names.count(v.name()) != 0; }),
                  inputs->end());
}

void set_dim_values(ModelProto &m, const std::map<std::string, int64_t> &dim_values) {
    std::set<std::string> used;
    auto *g = m.mutable_graph();
    std::vector<::onnx::ValueInfoProto *> values;
    for (auto &v : *g->mutable_input()) values.push_back(&v);
    for (auto &v : *g->mutable_output()) values.push_back(&v);  // the same symbol, the same value
    for (auto *v : values) {
        auto &in = *v;
        if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) continue;
        for (auto &dim : *in.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim()) {
            if (!dim.has_dim_param()) continue;
            auto it = dim_values.find(dim.dim_param());
            if (it == dim_values.end()) continue;
            if (it->second < 0) invalid("dim '" + it->first + "' is given a negative value");
            used.insert(it->first);
            dim.set_dim_value(it->second);
        }
    }
    for (const auto &v : dim_values)
        if (!used.count(v.first)) invalid("dim '" + v.first + "' is not a symbolic dim of any graph input");
}

// The version of ONNX's default domain, 0 when the model imports none.
int64_t default_opset(const ModelProto &m) {
    for (const auto &o : m.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
    return 0;
}

// What the loader knows of every value while it walks the nodes.
struct known_values {
    shape_map shapes;                            // dims where known
    std::map<std::string, std::string> non_f32;  // type text of values that are not f32 tensors
    constant_map constants;                      // initializers and Constant outputs
};

// copies: the weights the file holds (model_file), but for those a fixed input replaced
// (fold_fixed_inputs made those initializers of m), their copy under way.
known_values collect_values(const ModelProto &m, weight_copies &copies) {
    known_values k;
    auto note = [&](const ::onnx::ValueInfoProto &v) {
        if (auto d = dims_of(v.type())) k.shapes[v.name()] = *d;
        if (!is_f32_tensor(v.type())) k.non_f32[v.name()] = type_text(v.type());
    };
    for (const auto &v : m.graph().input()) note(v);
    for (const auto &v : m.graph().value_info()) note(v);
    for (const auto &v : m.graph().output()) note(v);
    for (const auto &t : m.graph().initializer()) {
        k.constants[t.name()] = read_constant(t, "initializer '" + t.name() + "'");
        k.shapes[t.name()] = k.constants[t.name()].dims;
    }
    const std::vector<detached_tensor> &detached = copies.tensors();
    std::vector<std::vector<float>> values = copies.take();
    for (size_t i = 0; i < detached.size(); ++i) {
        constant_tensor &c = k.constants[detached[i].name];
        c.dims = detached[i].dims;
        c.elem_type = detached[i].elem_type;
        c.f32 = std::move(values[i]);
        k.shapes[detached[i].name] = detached[i].dims;
    }
    return k;
}

// Every tensor a converted node still reads or writes must be f32 (shapes became attributes),
// but for the quantized ops, whose types the graph checks (src/graph/ops_quant.cpp).
void check_f32(const node_context &c, const graph::node &n, known_values &k) {
    if (takes_integer_tensors(n.op_type)) return;
    for (const auto &t : n.inputs) {
        if (t.empty()) continue;
        auto ct = k.constants.find(t);
        if (ct != k.constants.end() && ct->second.elem_type != TensorProto::FLOAT)
            c.refuse("input '" + t + "' is a constant of type '" + elem_type_name(ct->second.elem_type)
                    + "'; only f32 tensors are supported");
        if (ct == k.constants.end() && k.non_f32.count(t))
            c.refuse("input '" + t + "' is of type '" + k.non_f32[t] + "'; only f32 tensors are supported");
    }
    for (const auto &t : n.outputs)
        if (k.non_f32.count(t)) c.refuse("output '" + t + "' is of type '" + k.non_f32[t] + "'; only f32 tensors are supported");
}

// Converts the nodes in file order (ONNX requires it topological): Constants are folded into
// `k.constants`, the others go through their op rule.
std::vector<graph::node> convert_nodes(const ModelProto &m, int64_t opset, known_values &k) {
    std::vector<graph::node> out;
    std::set<std::string> names;
    const auto &nodes = m.graph().node();
    for (int i = 0; i < nodes.size(); ++i) {
        const auto &proto = nodes[i];
        graph::node n;
        n.op_type = proto.op_type();
        const std::string base = proto.name().empty() ? proto.op_type() + "_" + std::to_string(i) : proto.name();
        n.name = base;
        for (int dup = 1; names.count(n.name); ++dup) n.name = base + "_" + std::to_string(dup);
        names.insert(n.name);
        n.inputs.assign(proto.input().begin(), proto.input().end());
        n.outputs.assign(proto.output().begin(), proto.output().end());
        node_context c(proto, n, opset, k.constants, k.shapes);
        if (!proto.domain().empty() && proto.domain() != "ai.onnx")
            c.refuse("domain '" + proto.domain() + "' is not supported (only ONNX's default domain)");
        if (n.op_type == "Constant") {
            constant_tensor v = constant_node_value(c, proto);
            k.shapes[n.outputs.at(0)] = v.dims;
            k.constants[n.outputs.at(0)] = std::move(v);
            continue;
        }
        op_rule rule = find_op_rule(n.op_type);
        if (!rule) c.refuse("op '" + n.op_type + "' is not supported");
        rule(c);
        c.refuse_unhandled();
        check_f32(c, n, k);
        out.push_back(std::move(n));
    }
    return out;
}

// Initializers (the f32 constants something reads), graph inputs and outputs.
// The constants' data moves into the model: a ResNet-50 is 100 MB of weights.
void fill_graph_io(const ModelProto &m, known_values &k, graph::model &out) {
    std::set<std::string> read;
    for (const auto &n : out.nodes) read.insert(n.inputs.begin(), n.inputs.end());
    for (const auto &v : m.graph().output()) read.insert(v.name());
    // LayerNormalization's optional statistics outputs that nothing reads are left out ("").
    for (auto &n : out.nodes)
        if (n.op_type == "LayerNormalization")
            for (size_t i = 1; i < n.outputs.size(); ++i)
                if (!read.count(n.outputs[i])) n.outputs[i].clear();
    for (auto &c : k.constants) {
        if (!read.count(c.first)) continue;
        const int type = c.second.elem_type;
        if (type != TensorProto::FLOAT && type != TensorProto::UINT8 && type != TensorProto::INT8
                && type != TensorProto::INT32)
            refuse("graph output '" + c.first + "' is a constant of type '" + elem_type_name(c.second.elem_type) + "'");
        graph::tensor &t = out.initializers[c.first];
        if (type != TensorProto::FLOAT) {  // the quantized ops' integer constants
            t = to_f32_tensor(std::move(c.second), "initializer '" + c.first + "'");
            continue;
        }
        t.dims = c.second.dims;
        t.data = std::move(c.second.f32);
    }
    for (const auto &v : m.graph().input()) {
        if (k.constants.count(v.name())) continue;  // an initializer listed as an input (IR < 4)
        const auto type = graph_type(v.type());
        if (!type)
            refuse("graph input '" + v.name() + "' is of type '" + type_text(v.type()) + "'; only f32, uint8, int8 and int32 tensors are supported");
        auto d = dims_of(v.type());
        if (!d) refuse("graph input '" + v.name() + "' has no shape");
        out.inputs.push_back({v.name(), *d, *type});
    }
    for (const auto &v : m.graph().output()) {
        auto type = graph_type(v.type());
        if (k.constants.count(v.name())) type = out.initializers.count(v.name()) ? out.initializers[v.name()].dt : memory::data_type::f32;
        if (!type)
            refuse("graph output '" + v.name() + "' is of type '" + type_text(v.type()) + "'; only f32, uint8, int8 and int32 tensors are supported");
        auto it = k.shapes.find(v.name());
        out.outputs.push_back({v.name(), it == k.shapes.end() ? memory::dims() : it->second, *type});
    }
}

// A node's name in messages, as convert_nodes() will name it.
std::string node_name(const ::onnx::NodeProto &n, int index) {
    return n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
}

// The dims a value info declares, checked: a negative dim is invalid, one above max_extent unsupported.
void check_declared_dims(const ::onnx::ValueInfoProto &v, const std::string &what) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return;
    for (const auto &dim : v.type().tensor_type().shape().dim()) {
        if (!dim.has_dim_value()) continue;
        if (dim.dim_value() < 0)
            invalid(what + " '" + v.name() + "' has a negative dim " + std::to_string(dim.dim_value()));
        if (dim.dim_value() > graph::max_extent)
            refuse(what + " '" + v.name() + "' has a dim above " + std::to_string(graph::max_extent) + ": " +
                   std::to_string(dim.dim_value()));
    }
}

// The dims ONNX's shape inference gives the W of each Conv whose W no initializer, graph input
// or Constant node holds, found on a copy of the model without those Convs (their inference
// is what must not run before kernel_shape is written). A W whose dims come out of another such
// Conv stays unknown, as it would then be to ONNX's own Conv inference.
std::map<std::string, memory::dims> computed_weight_dims(const ModelProto &m,
                                                         const std::set<std::string> &weights) {
    std::map<std::string, memory::dims> out;
    if (weights.empty()) return out;
    ModelProto copy = m;
    auto *nodes = copy.mutable_graph()->mutable_node();
    nodes->erase(std::remove_if(nodes->begin(), nodes->end(), [&](const ::onnx::NodeProto &n) {
                     return n.op_type() == "Conv" && n.input_size() > 1 && weights.count(n.input(1));
                 }),
                 nodes->end());
    try {
        ::onnx::shape_inference::InferShapes(copy);
    } catch (const std::exception &) {
        return out; // the real inference reports it
    }
    for (const auto &v : copy.graph().value_info())
        if (weights.count(v.name()))
            if (auto d = dims_of(v.type())) out[v.name()] = *d;
    return out;
}

// A constant's values when it is an int64 or int32 tensor (a shape), else nothing.
std::vector<int64_t> shape_values(const TensorProto &t, const std::string &what) {
    if (t.data_type() != TensorProto::INT64 && t.data_type() != TensorProto::INT32) return {};
    return to_ints(read_constant(t, what), what);
}

// ONNX 1.12's shape inference trusts what it reads: a stride of 0 divides by zero, a Conv whose
// W has another rank than X indexes past its vectors, a huge dim with SAME padding loops for
// minutes, a short raw_data is read past its end; and it runs the inference of every op in the
// file. So before it runs: only claimed ops of the default domain; every tensor's dims and raw
// size; declared dims; the convolutions' and poolings' sizes, and a Conv's kernel_shape written
// from W where W's dims are known (ONNX then checks it against X's rank instead of indexing).
void check_before_shape_inference(ModelProto &m) {
    std::set<std::string> claimed(claimed_op_types().begin(), claimed_op_types().end());
    claimed.insert("Constant");
    std::map<std::string, memory::dims> known;              // dims before any inference
    std::map<std::string, const TensorProto *> constants;  // initializers and Constant values
    for (const auto &t : m.graph().initializer()) {
        check_raw_size(t, "initializer '" + t.name() + "'");
        known[t.name()] = memory::dims(t.dims().begin(), t.dims().end());
        constants[t.name()] = &t;
    }
    for (const auto &v : m.graph().input()) {
        check_declared_dims(v, "graph input");
        if (auto d = dims_of(v.type())) known.emplace(v.name(), *d);
    }
    std::map<std::string, int> declared_types;  // element types of declared outputs and values
    for (const auto &v : m.graph().output()) check_declared_dims(v, "graph output");
    for (const auto &v : m.graph().value_info()) check_declared_dims(v, "value");
    for (const auto *list : {&m.graph().output(), &m.graph().value_info()})
        for (const auto &v : *list)
            if (v.type().has_tensor_type()) declared_types[v.name()] = v.type().tensor_type().elem_type();
    auto &nodes = *m.mutable_graph()->mutable_node();
    for (int i = 0; i < nodes.size(); ++i) {
        const auto &n = nodes[i];
        const std::string who = "node '" + node_name(n, i) + "' (" + n.op_type() + "): ";
        if (!n.domain().empty() && n.domain() != "ai.onnx")
            refuse(who + "domain '" + n.domain() + "' is not supported (only ONNX's default domain)");
        if (!claimed.count(n.op_type())) refuse(who + "op '" + n.op_type() + "' is not supported");
        for (const auto &a : n.attribute()) {
            if (a.has_t()) check_raw_size(a.t(), who + "attribute '" + a.name() + "'");
            if (n.op_type() == "Constant" && a.name() == "value" && a.has_t() && n.output_size() == 1) {
                known[n.output(0)] = memory::dims(a.t().dims().begin(), a.t().dims().end());
                constants[n.output(0)] = &a.t();
            }
            const bool sizes = a.name() == "kernel_shape" || a.name() == "strides" || a.name() == "dilations";
            if (!sizes && a.name() != "pads") continue;
            for (int64_t v : a.ints())
                if (v < (sizes ? 1 : 0) || v > graph::max_extent)
                    invalid(who + "bad attribute " + a.name() + ": " + std::to_string(v) + " is outside [" +
                            (sizes ? "1" : "0") + ", " + std::to_string(graph::max_extent) + "]");
        }
        // A QuantizeLinear's, QLinearConv's or QLinearMatMul's output has its (y) zero point's
        // type (ONNX's inference says only that two types differ, without the node).
        const int zi = n.op_type() == "QuantizeLinear" ? 2
                       : n.op_type() == "QLinearConv" || n.op_type() == "QLinearMatMul" ? 7 : -1;
        if (zi >= 0 && (zi == 2 || n.input_size() > zi) && n.output_size() == 1 && declared_types.count(n.output(0))) {
            const int zp = n.input_size() > zi && !n.input(zi).empty()
                    ? (constants.count(n.input(zi)) ? constants[n.input(zi)]->data_type() : -1)
                    : static_cast<int>(TensorProto::UINT8);
            const int out = declared_types[n.output(0)];
            if (zp >= 0 && out != zp)
                invalid(who + "the zero point is " + elem_type_name(zp) + " but output '" + n.output(0) + "' is declared "
                        + elem_type_name(out) + ": the output has the zero point's type");
        }
        // A Reshape's or Expand's shape: ONNX propagates its values into the dims of what follows.
        if ((n.op_type() == "Reshape" || n.op_type() == "Expand") && n.input_size() > 1
            && constants.count(n.input(1)))
            for (int64_t v : shape_values(*constants[n.input(1)], who + "input '" + n.input(1) + "'"))
                if (v > graph::max_extent)
                    refuse(who + "shape value " + std::to_string(v) + " is above " + std::to_string(graph::max_extent));
    }
    // kernel_shape from W where W's dims are known: first those known before any inference, then
    // those a copy of the model without the other Convs infers.
    const auto without_kernel_shape = [](const ::onnx::NodeProto &n) {
        return n.op_type() == "Conv" && n.input_size() > 1
               && std::none_of(n.attribute().begin(), n.attribute().end(),
                               [](const auto &a) { return a.name() == "kernel_shape"; });
    };
    const auto write_kernel_shape = [&](::onnx::NodeProto &n) {
        const memory::dims &w = known[n.input(1)];
        if (w.size() < 3 || std::any_of(w.begin() + 2, w.end(), [](int64_t d) { return d < 1; }))
            return; // no spatial dims, or symbolic ones: ONNX does not read them either
        auto *k = n.add_attribute();
        k->set_name("kernel_shape");
        k->set_type(::onnx::AttributeProto::INTS);
        for (size_t d = 2; d < w.size(); ++d) k->add_ints(w[d]);
    };
    std::set<std::string> computed;
    for (auto &n : nodes) {
        if (!without_kernel_shape(n)) continue;
        if (known.count(n.input(1))) write_kernel_shape(n);
        else computed.insert(n.input(1));
    }
    for (const auto &kv : computed_weight_dims(m, computed)) known.emplace(kv);
    for (auto &n : nodes)
        if (without_kernel_shape(n) && computed.count(n.input(1)) && known.count(n.input(1)))
            write_kernel_shape(n);
}

} // namespace

graph::model load_onnx(const std::string &path, const onnx_options &options) {
    model_file file(path);
    ModelProto m = file.parse();
    graph::model out;
    out.name = m.graph().name();
    out.opset = default_opset(m);
    // A newer opset first: ONNX's checker of this version would call it invalid.
    if (out.opset > max_opset)
        refuse("'" + path + "': opset " + std::to_string(out.opset) + " is not supported (1 to 17)");
    // Before the checker, which looks for external files relative to the working directory.
    for (const auto &t : m.graph().initializer())
        if (t.data_location() == TensorProto::EXTERNAL)
            refuse("'" + path + "': initializer '" + t.name() + "': external data is not supported");
    // The weights' copies run beside the checker and shape inference (one thread's work).
    std::vector<detached_tensor> weights;
    for (const auto &d : file.detached())
        if (!options.fixed_inputs.count(d.name)) weights.push_back(d);
    weight_copies copies(std::move(weights));
    const std::set<std::string> stand_ins = add_stand_in_inputs(m, file.detached(), path);
    check_model(m, path);
    if (out.opset < 1) invalid("'" + path + "' imports no version of ONNX's default domain");
    if (m.graph().sparse_initializer_size() > 0) refuse("'" + path + "': sparse initializers are not supported");

    fold_fixed_inputs(m, options.fixed_inputs, stand_ins);
    set_dim_values(m, options.dim_values);
    check_before_shape_inference(m);
    try {
        ::onnx::shape_inference::InferShapes(m);
    } catch (const std::exception &e) {
        invalid("'" + path + "': ONNX's shape inference fails: " + e.what());
    }
    remove_inputs(m, stand_ins);
    known_values k = collect_values(m, copies);
    out.nodes = convert_nodes(m, out.opset, k);
    fill_graph_io(m, k, out);
    return out;
}

const std::vector<std::string> &onnx_claimed_ops() { return claimed_op_types(); }

} // namespace prim
