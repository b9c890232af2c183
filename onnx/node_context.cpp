#include "node_context.hpp"

#include "prim/error.hpp"

namespace prim {
namespace onnx_impl {

using ::onnx::AttributeProto;

node_context::node_context(const ::onnx::NodeProto &proto, graph::node &node, int64_t opset,
        const constant_map &constants, const shape_map &shapes)
    : proto_(proto), node_(node), opset_(opset), constants_(constants), shapes_(shapes) {
    for (const auto &a : proto.attribute()) {
        if (a.has_ref_attr_name()) refuse("attribute '" + a.name() + "' refers to a function attribute");
        attrs_[a.name()] = &a;
    }
}

void node_context::refuse(const std::string &what) const {
    throw error(status::unimplemented, "node '" + node_.name + "' (" + node_.op_type + "): " + what);
}

void node_context::invalid(const std::string &what) const {
    throw error(status::invalid_arguments, "node '" + node_.name + "' (" + node_.op_type + "): " + what);
}

const AttributeProto &node_context::attr(const std::string &name, int type, const char *type_name) {
    const AttributeProto &a = *attrs_.at(name);
    // Old files may leave the type unset; the field present then tells it.
    const bool ok = a.type() == type
            || (a.type() == AttributeProto::UNDEFINED
                    && ((type == AttributeProto::FLOAT && a.has_f()) || (type == AttributeProto::INT && a.has_i())
                            || (type == AttributeProto::STRING && a.has_s())
                            || (type == AttributeProto::INTS && a.ints_size() > 0)
                            || (type == AttributeProto::FLOATS && a.floats_size() > 0)));
    if (!ok) invalid("attribute '" + name + "' must be " + type_name);
    handled_.insert(name);
    return a;
}

float node_context::take_f(const std::string &name, float def) {
    const float v = has(name) ? attr(name, AttributeProto::FLOAT, "a float").f() : def;
    set_f(name, v);
    return v;
}

int64_t node_context::take_i(const std::string &name, int64_t def) {
    const int64_t v = has(name) ? attr(name, AttributeProto::INT, "an int").i() : def;
    set_i(name, v);
    return v;
}

std::string node_context::take_s(const std::string &name, const std::string &def) {
    const std::string v = has(name) ? attr(name, AttributeProto::STRING, "a string").s() : def;
    set_s(name, v);
    return v;
}

std::optional<std::vector<int64_t>> node_context::take_ints(const std::string &name) {
    if (!has(name)) return std::nullopt;
    const auto &a = attr(name, AttributeProto::INTS, "a list of ints");
    std::vector<int64_t> v(a.ints().begin(), a.ints().end());
    set_ints(name, v);
    return v;
}

std::vector<int64_t> node_context::take_ints(const std::string &name, const std::vector<int64_t> &def) {
    auto v = take_ints(name);
    if (!v) set_ints(name, def);
    return v ? *v : def;
}

void node_context::set_ints(const std::string &name, const std::vector<int64_t> &v) {
    graph::attribute a;
    a.kind = graph::attribute::type::ints;
    a.ints = v;
    node_.attrs[name] = a;
}

void node_context::set_f(const std::string &name, float v) {
    graph::attribute a;
    a.kind = graph::attribute::type::f;
    a.f = v;
    node_.attrs[name] = a;
}

void node_context::set_i(const std::string &name, int64_t v) {
    graph::attribute a;
    a.kind = graph::attribute::type::i;
    a.i = v;
    node_.attrs[name] = a;
}

void node_context::set_s(const std::string &name, const std::string &v) {
    graph::attribute a;
    a.kind = graph::attribute::type::s;
    a.s = v;
    node_.attrs[name] = a;
}

std::optional<int64_t> node_context::peek_i(const std::string &name) const {
    auto it = attrs_.find(name);
    if (it == attrs_.end()) return std::nullopt;
    return it->second->i();
}

void node_context::refuse_unhandled() const {
    for (const auto &a : attrs_)
        if (!handled_.count(a.first)) refuse("attribute '" + a.first + "' is not supported");
}

std::string node_context::input(size_t k) const {
    return k < node_.inputs.size() ? node_.inputs[k] : std::string();
}

size_t node_context::used_outputs() const {
    size_t n = 0;
    for (const auto &o : node_.outputs) n += !o.empty();
    return n;
}

std::optional<memory::dims> node_context::shape_of(const std::string &tensor) const {
    auto it = shapes_.find(tensor);
    if (it == shapes_.end()) return std::nullopt;
    return it->second;
}

memory::dims node_context::known_shape(size_t k, const char *why) const {
    auto s = shape_of(input(k));
    if (!s) refuse(std::string("the rank of input '") + input(k) + "' is not known (needed for " + why + ")");
    return *s;
}

const constant_tensor *node_context::constant(const std::string &tensor) const {
    auto it = constants_.find(tensor);
    return it == constants_.end() ? nullptr : &it->second;
}

std::optional<std::vector<int64_t>> node_context::constant_input_ints(size_t k, const char *input_name) const {
    const std::string t = input(k);
    if (t.empty()) return std::nullopt;
    const constant_tensor *c = constant(t);
    if (!c)
        refuse(std::string("input '") + input_name + "' (tensor '" + t
                + "') must be a constant (an initializer, a Constant node or a fixed input)");
    if (c->dims.size() > 1) invalid(std::string("input '") + input_name + "' must be 1-D");
    return to_ints(*c, "node '" + node_.name + "' input '" + input_name + "'");
}

std::optional<float> node_context::constant_input_scalar(size_t k, const char *input_name) const {
    const std::string t = input(k);
    if (t.empty()) return std::nullopt;
    const constant_tensor *c = constant(t);
    if (!c)
        refuse(std::string("input '") + input_name + "' (tensor '" + t
                + "') must be a constant (an initializer, a Constant node or a fixed input)");
    if (c->size() != 1) invalid(std::string("input '") + input_name + "' must be a scalar");
    if (c->elem_type != ::onnx::TensorProto::FLOAT)
        refuse(std::string("input '") + input_name + "' is " + elem_type_name(c->elem_type) + ", only f32 is supported");
    return static_cast<float>(c->at(0));
}

void node_context::keep_inputs(size_t n) {
    if (node_.inputs.size() > n) node_.inputs.resize(n);
}

void node_context::clear_input(size_t k) {
    if (k < node_.inputs.size()) node_.inputs[k].clear();
}

} // namespace onnx_impl
} // namespace prim
