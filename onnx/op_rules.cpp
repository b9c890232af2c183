#include "op_rules.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace prim {
namespace onnx_impl {

namespace {

std::string list(const std::vector<int64_t> &v) {
    std::string s = "[";
    for (size_t k = 0; k < v.size(); ++k) s += (k ? "," : "") + std::to_string(v[k]);
    return s + "]";
}

// Opsets 1 to 5 have consumed_inputs, an in-place hint of Caffe2 with no effect on results.
void drop_consumed_inputs(node_context &c) {
    if (c.has("consumed_inputs")) c.drop("consumed_inputs");
}

// Opsets before 7 of the binary ops broadcast only when asked ("broadcast"=1), B against a
// suffix of A's dims unless "axis" says where B starts. The suffix is numpy's rule too; any
// other axis is refused.
void legacy_broadcast(node_context &c) {
    drop_consumed_inputs(c);
    const bool asked = c.peek_i("broadcast").value_or(0) != 0;
    if (c.has("broadcast")) c.drop("broadcast");
    if (!asked) { // then A and B must have the same shape (where known)
        auto a = c.shape_of(c.input(0)), b = c.shape_of(c.input(1));
        if (a && b && *a != *b)
            c.invalid("inputs of different shapes without attribute 'broadcast' = 1 (opset "
                      + std::to_string(c.opset()) + " broadcasts only when asked)");
    }
    if (auto axis = c.peek_i("axis")) {
        auto a = c.shape_of(c.input(0)), b = c.shape_of(c.input(1));
        const int64_t ra = a ? static_cast<int64_t>(a->size()) : -1;
        const int64_t rb = b ? static_cast<int64_t>(b->size()) : -1;
        if (!a || !b || (*axis != ra - rb && *axis != -rb))
            c.refuse("attribute 'axis' = " + std::to_string(*axis)
                    + " (legacy broadcasting other than numpy's suffix rule) is not supported");
        c.drop("axis");
    }
}

// The number of elements of dims d; negative when a dim is not known.
int64_t product_of(const memory::dims &d) {
    int64_t p = 1;
    for (const int64_t v : d) {
        if (v < 0) return -1;
        p *= v;
    }
    return p;
}

void no_attributes(node_context &c) { drop_consumed_inputs(c); }

void binary(node_context &c) {
    if (c.opset() < 7) legacy_broadcast(c);
}

void leaky_relu(node_context &c) {
    drop_consumed_inputs(c);
    c.take_f("alpha", 0.01f);
}

void elu(node_context &c) {
    drop_consumed_inputs(c);
    c.take_f("alpha", 1.f);
}

void hard_sigmoid(node_context &c) {
    drop_consumed_inputs(c);
    c.take_f("alpha", 0.2f);
    c.take_f("beta", 0.5f);
}

void clip(node_context &c) {
    drop_consumed_inputs(c);
    if (c.opset() < 11) {
        // Opset 6 states float's lowest and max as defaults; opset 1 states none (no bound).
        const float lo = c.opset() >= 6 ? std::numeric_limits<float>::lowest() : -INFINITY;
        const float hi = c.opset() >= 6 ? std::numeric_limits<float>::max() : INFINITY;
        c.take_f("min", lo);
        c.take_f("max", hi);
        return;
    }
    // A constant bound becomes its attribute; a bound known only at run time (a graph input)
    // stays an input, and the graph reads its value at every run (a runtime post-op parameter).
    bool runtime = false;
    const char *names[] = {"min", "max"};
    const float absent[] = {-INFINITY, INFINITY};
    for (size_t k = 1; k <= 2; ++k) {
        const std::string t = c.input(k);
        if (!t.empty() && !c.constant(t)) {
            auto shape = c.shape_of(t);
            if (shape && product_of(*shape) != 1 && product_of(*shape) >= 0)
                c.invalid(std::string("input '") + names[k - 1] + "' must be a scalar");
            runtime = true;
            continue;
        }
        auto v = c.constant_input_scalar(k, names[k - 1]);
        c.set_f(names[k - 1], v ? *v : absent[k - 1]);
        c.clear_input(k);
    }
    c.keep_inputs(runtime ? 3 : 1);
}

void gemm(node_context &c) {
    // Opsets before 7 broadcast C only when asked ("broadcast" = 1); later ones always do.
    const bool broadcast = c.opset() >= 7 || c.peek_i("broadcast").value_or(0) != 0;
    if (c.has("broadcast")) c.drop("broadcast");
    c.take_f("alpha", 1.f);
    c.take_f("beta", 1.f);
    const int64_t ta = c.take_i("transA", 0), tb = c.take_i("transB", 0);
    // C broadcasts to (M, N) one way only: a scalar, a vector of N or of 1, (M or 1, N or 1).
    auto a = c.shape_of(c.input(0)), b = c.shape_of(c.input(1)), cs = c.shape_of(c.input(2));
    if (c.input(2).empty() || !a || !b || !cs || a->size() != 2 || b->size() != 2) return;
    const int64_t m = ta ? (*a)[1] : (*a)[0], n = tb ? (*b)[0] : (*b)[1];
    if (!broadcast && *cs != memory::dims{m, n})
        c.invalid("input 'C' of dims " + list(*cs) + " is not (M, N) = (" + std::to_string(m) + ", "
                  + std::to_string(n) + ") and attribute 'broadcast' is not 1 (opset "
                  + std::to_string(c.opset()) + ")");
    if (cs->size() > 2) c.invalid("input 'C' has rank " + std::to_string(cs->size()) + ", at most 2");
    const int64_t cn = cs->empty() ? 1 : cs->back();
    const int64_t cm = cs->size() == 2 ? (*cs)[0] : 1;
    auto fits = [](int64_t cd, int64_t d) { return cd == 1 || cd == d || cd < 0 || d < 0; };
    if (!fits(cn, n) || !fits(cm, m))
        c.invalid("input 'C' of dims " + list(*cs) + " does not broadcast to (M, N) = ("
                + std::to_string(m) + ", " + std::to_string(n) + ")");
}

void batch_norm(node_context &c) {
    drop_consumed_inputs(c);
    c.take_f("epsilon", 1e-5f);
    if (c.has("momentum")) c.drop("momentum");  // training only
    if (c.has("is_test")) c.drop("is_test");    // opsets before 7: outputs past Y tell training
    if (auto spatial = c.peek_i("spatial")) {
        if (*spatial != 1) c.refuse("attribute 'spatial' = " + std::to_string(*spatial) + " is not supported (only 1)");
        c.drop("spatial");
    }
    if (c.take_i("training_mode", 0) != 0) c.refuse("attribute 'training_mode' = 1 is not supported (inference only)");
    if (c.used_outputs() > 1) c.refuse("outputs past 'Y' (training statistics) are not supported");
}

void layer_norm(node_context &c) {
    c.take_i("axis", -1);
    c.take_f("epsilon", 1e-5f);
    if (c.take_i("stash_type", 1) != 1) c.refuse("attribute 'stash_type' other than 1 (f32) is not supported");
    // The optional outputs Mean and InvStdDev (f32, reduced dims) are kept when named.
}

void flatten(node_context &c) { c.take_i("axis", 1); }

void reshape(node_context &c) {
    drop_consumed_inputs(c);
    c.take_i("allowzero", 0);  // opset 14 on; before, 0 behaved as allowzero 0
    if (c.opset() < 5) {
        if (!c.take_ints("shape")) c.invalid("attribute 'shape' is missing");
        return;
    }
    auto shape = c.constant_input_ints(1, "shape");
    if (!shape) c.invalid("input 'shape' is missing");
    c.set_ints("shape", *shape);
    c.keep_inputs(1);
}

// Expand (opsets 8, 13): the shape input becomes the attribute "shape" (ints).
void expand(node_context &c) {
    auto shape = c.constant_input_ints(1, "shape");
    if (!shape) c.invalid("input 'shape' is missing");
    c.set_ints("shape", *shape);
    c.keep_inputs(1);
}

void squeeze(node_context &c) {
    auto axes = c.opset() < 13 ? c.take_ints("axes") : c.constant_input_ints(1, "axes");
    if (!axes) {
        // No axes: every dim of size 1, which needs the dims.
        const memory::dims d = c.known_shape(0, "Squeeze without axes");
        axes.emplace();
        for (size_t k = 0; k < d.size(); ++k) {
            if (d[k] < 0) c.refuse("Squeeze without axes on input '" + c.input(0) + "' whose dims are not all known");
            if (d[k] == 1) axes->push_back(static_cast<int64_t>(k));
        }
    }
    c.set_ints("axes", *axes);
    c.keep_inputs(1);
}

void unsqueeze(node_context &c) {
    auto axes = c.opset() < 13 ? c.take_ints("axes") : c.constant_input_ints(1, "axes");
    if (!axes) c.invalid("'axes' is missing");
    c.set_ints("axes", *axes);
    c.keep_inputs(1);
}

void transpose(node_context &c) {
    if (c.take_ints("perm")) return;
    const size_t rank = c.known_shape(0, "Transpose's default perm").size();
    std::vector<int64_t> perm(rank);
    for (size_t k = 0; k < rank; ++k) perm[k] = static_cast<int64_t>(rank - 1 - k);
    c.set_ints("perm", perm);
}

void softmax(node_context &c) {
    const int64_t axis = c.take_i("axis", c.opset() < 13 ? 1 : -1);
    if (c.opset() >= 13) return;
    // Before opset 13 Softmax normalises over every dim from axis on, flattened: the same as
    // opset 13's single axis only when the dims past it are 1.
    const memory::dims d = c.known_shape(0, "Softmax before opset 13");
    const int64_t r = static_cast<int64_t>(d.size());
    const int64_t a = axis < 0 ? axis + r : axis;
    if (a < 0 || a >= r) c.invalid("attribute 'axis' = " + std::to_string(axis) + " is out of rank " + std::to_string(r));
    for (int64_t k = a + 1; k < r; ++k)
        if (d[k] != 1)
            c.refuse("attribute 'axis' = " + std::to_string(axis) + " on a rank-" + std::to_string(r)
                    + " input (opset " + std::to_string(c.opset())
                    + " normalises over the flattened trailing dims) is not supported; only the last axis");
    c.set_i("axis", a);
}

void concat(node_context &c) { c.take_i("axis", 1); }  // required from opset 4, 1 before

// auto_pad as explicit pads, when the input's spatial dims are known. ONNX: SAME gives
// ceil(in / stride) outputs, the odd padding at the end (SAME_UPPER) or the start (SAME_LOWER).
void resolve_pads(node_context &c, const std::vector<int64_t> &kernel, const std::vector<int64_t> &strides,
        const std::vector<int64_t> &dilations, bool ceil_mode) {
    const size_t sp = kernel.size();
    const std::string auto_pad = c.take_s("auto_pad", "NOTSET");
    auto pads = c.take_ints("pads");
    if (pads && pads->size() != 2 * sp)
        c.invalid("attribute 'pads' has " + std::to_string(pads->size()) + " values, needs " + std::to_string(2 * sp));
    if (auto_pad == "NOTSET") {
        if (!pads) c.set_ints("pads", std::vector<int64_t>(2 * sp, 0));
        return;
    }
    if (pads && std::any_of(pads->begin(), pads->end(), [](int64_t p) { return p != 0; }))
        c.invalid("attribute 'pads' " + list(*pads) + " given with auto_pad " + auto_pad);
    if (auto_pad == "VALID") {
        // ceil_mode with VALID counts outputs differently from zero pads: not guessed at.
        if (ceil_mode) c.refuse("attribute 'auto_pad' = VALID with ceil_mode = 1 is not supported");
        c.set_ints("pads", std::vector<int64_t>(2 * sp, 0));
        c.set_s("auto_pad", "NOTSET");
        return;
    }
    if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER")
        c.invalid("attribute 'auto_pad' = '" + auto_pad + "' is not an ONNX value");
    auto in = c.shape_of(c.input(0));
    if (!in || in->size() != sp + 2) return;  // kept as given: the executor resolves it
    std::vector<int64_t> p(2 * sp);
    for (size_t k = 0; k < sp; ++k) {
        const int64_t i = (*in)[k + 2];
        if (i < 0) return;
        const int64_t o = (i + strides[k] - 1) / strides[k];
        const int64_t total = std::max<int64_t>(0, (o - 1) * strides[k] + (kernel[k] - 1) * dilations[k] + 1 - i);
        const int64_t small = total / 2, big = total - small;
        p[k] = auto_pad == "SAME_UPPER" ? small : big;
        p[k + sp] = auto_pad == "SAME_UPPER" ? big : small;
    }
    c.set_ints("pads", p);
    c.set_s("auto_pad", "NOTSET");
}

std::vector<int64_t> take_spatial(node_context &c, const char *name, size_t sp, int64_t def) {
    auto v = c.take_ints(name, std::vector<int64_t>(sp, def));
    if (v.size() != sp)
        c.invalid(std::string("attribute '") + name + "' has " + std::to_string(v.size()) + " values, needs "
                + std::to_string(sp));
    for (int64_t x : v)
        if (x < 1) c.invalid(std::string("attribute '") + name + "' " + list(v) + " must be positive");
    return v;
}

// Conv, ConvInteger (W input 1) and QLinearConv (W input 3).
void conv_with_weights_at(node_context &c, size_t wi) {
    const memory::dims w = c.known_shape(wi, "Conv's kernel_shape");
    if (w.size() < 3) c.invalid("input 'W' has rank " + std::to_string(w.size()) + ", at least 3");
    const size_t sp = w.size() - 2;
    const std::vector<int64_t> from_w(w.begin() + 2, w.end());
    const auto kernel = c.take_ints("kernel_shape", from_w);
    if (kernel != from_w) c.invalid("attribute 'kernel_shape' " + list(kernel) + " differs from W's " + list(from_w));
    const auto strides = take_spatial(c, "strides", sp, 1);
    const auto dilations = take_spatial(c, "dilations", sp, 1);
    if (c.take_i("group", 1) < 1) c.invalid("attribute 'group' must be positive");
    resolve_pads(c, kernel, strides, dilations, false);
}

void conv(node_context &c) { conv_with_weights_at(c, 1); }

// The quantized ops read their scales, zero points and convolution weights when the model is
// compiled: those inputs must be constants (initializers, Constant nodes or fixed inputs). A
// matmul's B may be computed at run time (attention's Q·Kᵀ).
void require_constants(node_context &c, std::initializer_list<std::pair<size_t, const char *>> inputs) {
    for (const auto &in : inputs) {
        const std::string t = c.input(in.first);
        if (!t.empty() && !c.constant(t))
            c.refuse(std::string("input '") + in.second + "' (tensor '" + t
                     + "') must be a constant (an initializer, a Constant node or a fixed input): "
                       "scales, zero points and convolution weights computed at run time are not built yet");
    }
}

// QuantizeLinear / DequantizeLinear: opset 13 adds `axis` (per-axis scales); opset 10's scale is
// one value, its axis written as 13's default so the node has one form.
void quantize_linear(node_context &c) {
    require_constants(c, {{1, "scale"}, {2, "zero_point"}});
    if (c.opset() >= 13) {
        c.take_i("axis", 1);
        return;
    }
    c.set_i("axis", 1);
    const constant_tensor *s = c.constant(c.input(1));
    if (s && s->size() != 1)
        c.invalid("the scale has " + std::to_string(s->size()) + " values; opset " + std::to_string(c.opset())
                  + " quantizes per tensor (per axis from opset 13)");
}

void qlinear_conv(node_context &c) {
    require_constants(c, {{1, "x_scale"}, {2, "x_zero_point"}, {3, "w"}, {4, "w_scale"}, {5, "w_zero_point"},
                          {6, "y_scale"}, {7, "y_zero_point"}, {8, "B"}});
    conv_with_weights_at(c, 3);
}

void conv_integer(node_context &c) {
    require_constants(c, {{1, "w"}, {2, "x_zero_point"}, {3, "w_zero_point"}});
    conv_with_weights_at(c, 1);
}

void qlinear_matmul(node_context &c) {
    require_constants(c, {{1, "a_scale"}, {2, "a_zero_point"}, {4, "b_scale"}, {5, "b_zero_point"},
                          {6, "y_scale"}, {7, "y_zero_point"}});
}

void matmul_integer(node_context &c) {
    require_constants(c, {{2, "a_zero_point"}, {3, "b_zero_point"}});
}

void pool_common(node_context &c, bool is_max) {
    auto kernel = c.take_ints("kernel_shape");
    if (!kernel || kernel->empty()) c.invalid("attribute 'kernel_shape' is missing");
    const size_t sp = kernel->size();
    const auto strides = take_spatial(c, "strides", sp, 1);
    // ONNX defines dilations for MaxPool only (opset 10 on, AveragePool from 19).
    const std::vector<int64_t> dilations = is_max ? take_spatial(c, "dilations", sp, 1)
                                                  : std::vector<int64_t>(sp, 1);
    if (std::any_of(dilations.begin(), dilations.end(), [](int64_t d) { return d < 1; }))
        c.invalid("attribute 'dilations' " + list(dilations) + " must be >= 1");
    const bool ceil_mode = c.take_i("ceil_mode", 0) != 0;
    if (is_max) {
        if (c.take_i("storage_order", 0) != 0) c.refuse("attribute 'storage_order' = 1 is not supported");
        if (c.used_outputs() > 1) c.refuse("output 'Indices' is not supported");
    } else {
        c.take_i("count_include_pad", 0);
    }
    resolve_pads(c, *kernel, strides, dilations, ceil_mode);
}

void max_pool(node_context &c) { pool_common(c, true); }
void average_pool(node_context &c) { pool_common(c, false); }

const std::map<std::string, op_rule> &rules() {
    static const std::map<std::string, op_rule> table = {
        {"Abs", no_attributes}, {"Add", binary}, {"AveragePool", average_pool},
        {"ConvInteger", conv_integer}, {"DequantizeLinear", quantize_linear},
        {"MatMulInteger", matmul_integer}, {"QLinearConv", qlinear_conv},
        {"QLinearMatMul", qlinear_matmul}, {"QuantizeLinear", quantize_linear},
        {"BatchNormalization", batch_norm}, {"Clip", clip}, {"Concat", concat}, {"Conv", conv},
        {"Div", binary}, {"Elu", elu}, {"Erf", no_attributes}, {"Exp", no_attributes}, {"Expand", expand},
        {"Flatten", flatten}, {"Gemm", gemm}, {"GlobalAveragePool", no_attributes},
        {"HardSigmoid", hard_sigmoid}, {"HardSwish", no_attributes}, {"Identity", no_attributes},
        {"LayerNormalization", layer_norm}, {"LeakyRelu", leaky_relu}, {"Log", no_attributes},
        {"MatMul", no_attributes}, {"MaxPool", max_pool}, {"Mul", binary}, {"Pow", binary},
        {"Relu", no_attributes}, {"Reshape", reshape}, {"Sigmoid", no_attributes},
        {"Softmax", softmax}, {"Softplus", no_attributes}, {"Sqrt", no_attributes},
        {"Squeeze", squeeze}, {"Sub", binary}, {"Tanh", no_attributes}, {"Transpose", transpose},
        {"Unsqueeze", unsqueeze},
    };
    return table;
}

} // namespace

op_rule find_op_rule(const std::string &op_type) {
    auto it = rules().find(op_type);
    return it == rules().end() ? nullptr : it->second;
}

const std::vector<std::string> &claimed_op_types() {
    static const std::vector<std::string> ops = [] {
        std::vector<std::string> v;
        for (const auto &r : rules()) v.push_back(r.first);
        v.push_back("Constant");
        std::sort(v.begin(), v.end());
        return v;
    }();
    return ops;
}

bool takes_integer_tensors(const std::string &op_type) {
    return op_type == "QuantizeLinear" || op_type == "DequantizeLinear" || op_type == "QLinearConv"
           || op_type == "ConvInteger" || op_type == "QLinearMatMul" || op_type == "MatMulInteger";
}

constant_tensor constant_node_value(node_context &c, const ::onnx::NodeProto &proto) {
    constant_tensor t;
    int found = 0;
    for (const auto &a : proto.attribute()) {
        const std::string &n = a.name();
        if (n == "value") {
            t = read_constant(a.t(), "node '" + proto.name() + "' (Constant) attribute 'value'");
        } else if (n == "value_float") {
            t.f32 = {a.f()};
        } else if (n == "value_floats") {
            t.dims = {a.floats_size()};
            t.f32.assign(a.floats().begin(), a.floats().end());
        } else if (n == "value_int") {
            t.elem_type = ::onnx::TensorProto::INT64;
            t.values = {static_cast<double>(a.i())};
        } else if (n == "value_ints") {
            t.elem_type = ::onnx::TensorProto::INT64;
            t.dims = {a.ints_size()};
            t.values.assign(a.ints().begin(), a.ints().end());
        } else {
            continue;  // sparse_value, value_string(s): refused below as unhandled
        }
        c.drop(n);
        ++found;
    }
    c.refuse_unhandled();
    if (found != 1) c.invalid("needs exactly one value attribute, has " + std::to_string(found));
    return t;
}

} // namespace onnx_impl
} // namespace prim
