// Activations (one prim eltwise each, later entries of its chain fused after it), the
// recognised multi-node forms ("Eltwise": swish, gelu, hardswish), and Erf, which prim has no
// eltwise algorithm for: a lone Erf runs on a small graph-level kernel, as does a Pow whose
// exponent is not a constant scalar.
#include <cmath>
#include <limits>

#include "graph/fusion_log.hpp"
#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

float scalar_input(const model &m, const node &n, size_t i, const char *what) {
    const tensor &t = constant_input(m, n, i, what);
    if (t.data.size() != 1)
        fail(n, std::string(what) + " must hold one value, not " + std::to_string(t.data.size()));
    return t.data[0];
}

bool is_model_input(const model &m, const std::string &t) {
    for (const auto &v : m.inputs)
        if (v.name == t) return true;
    return false;
}

// One of Clip's bounds: input k when given (opset 11 on; the ONNX front end turns a constant
// one into the attribute), else the attribute `name`, else `absent`. An initializer input is a
// constant; a graph input is read at every run (the name goes to `input`).
void clip_bound(const model &m, const node &n, size_t k, const char *name, float absent,
                float &value, std::string &input) {
    value = attr_float(n, name, absent);
    if (!has_input(n, k)) return;
    const std::string &t = n.inputs[k];
    if (m.initializers.count(t)) {
        value = scalar_input(m, n, k, name);
    } else if (is_model_input(m, t)) {
        input = t;
    } else {
        fail(n, std::string("input '") + name + "' (tensor '" + t + "') must be a constant or a "
                "graph input, not another node's output", status::unimplemented);
    }
}

// Clip's bounds: attributes before opset 11, optional inputs after (the front end gives
// constant ones as attributes at every opset, prim/onnx.hpp).
void clip_bounds(const model &m, const node &n, eltwise_fn &fn) {
    const float inf = std::numeric_limits<float>::infinity();
    clip_bound(m, n, 1, "min", -inf, fn.alpha, fn.alpha_input);
    clip_bound(m, n, 2, "max", inf, fn.beta, fn.beta_input);
    if (std::isnan(fn.alpha) || std::isnan(fn.beta)) fail(n, "min and max must not be NaN");
}

} // namespace

bool activation_of(const model &m, const op &o, eltwise_fn &fn) {
    const node &n = *o.n;
    const std::string &t = o.type;
    if (t == "Eltwise") fn = o.fn;
    else if (t == "Relu") fn = {algorithm::eltwise_relu, 0.f, 0.f};
    else if (t == "LeakyRelu") fn = {algorithm::eltwise_relu, attr_float(n, "alpha", 0.01f), 0.f};
    else if (t == "Elu") fn = {algorithm::eltwise_elu, attr_float(n, "alpha", 1.f), 0.f};
    else if (t == "Sigmoid") fn = {algorithm::eltwise_logistic, 0.f, 0.f};
    else if (t == "Tanh") fn = {algorithm::eltwise_tanh, 0.f, 0.f};
    else if (t == "HardSigmoid")
        fn = {algorithm::eltwise_hardsigmoid, attr_float(n, "alpha", 0.2f), attr_float(n, "beta", 0.5f)};
    else if (t == "HardSwish") fn = {algorithm::eltwise_hardswish, 1.f / 6.f, 0.5f};
    else if (t == "Sqrt") fn = {algorithm::eltwise_sqrt, 0.f, 0.f};
    else if (t == "Exp") fn = {algorithm::eltwise_exp, 0.f, 0.f};
    else if (t == "Log") fn = {algorithm::eltwise_log, 0.f, 0.f};
    else if (t == "Abs") fn = {algorithm::eltwise_abs, 0.f, 0.f};
    else if (t == "Softplus") fn = {algorithm::eltwise_soft_relu, 1.f, 0.f};
    else if (t == "Clip") {
        fn = {algorithm::eltwise_clip, 0.f, 0.f};
        clip_bounds(m, n, fn);
    } else if (t == "Pow") {
        // One value of rank 0 or 1: the result keeps X's dims (a 1x1 exponent could raise the rank).
        auto it = m.initializers.find(n.inputs[1]);
        if (it == m.initializers.end() || it->second.data.size() != 1 || it->second.dims.size() > 1) return false;
        fn = {algorithm::eltwise_pow, 1.f, it->second.data[0]};
    } else return false;
    return true;
}

namespace {

void check_activation(const model &m, const node &n) {
    op o;
    o.n = &n;
    o.type = n.op_type;
    eltwise_fn fn;
    if (n.op_type == "Pow" && !activation_of(m, o, fn)) return; // an exponent tensor: lower_pow
    if (!activation_of(m, o, fn)) fail(n, "not an eltwise function", status::unimplemented);
    // Let prim check the parameters (soft_relu's alpha, NaN...), worded for this node.
    try {
        post_ops po;
        po.append_eltwise(fn.alg, fn.alpha, fn.beta);
    } catch (const error &e) {
        fail(n, std::string("bad attribute: ") + e.what());
    }
}

std::vector<memory::dims> same_dims(const model &, const node &, const std::vector<memory::dims> &in) {
    return {in[0]};
}

// Clip's bounds hold one value each (a graph input's dims are known only here).
std::vector<memory::dims> clip_dims(const model &, const node &n, const std::vector<memory::dims> &in) {
    const char *names[] = {"", "min", "max"};
    for (size_t k = 1; k < in.size() && k < 3; ++k)
        if (has_input(n, k) && product(in[k]) != 1)
            fail(n, std::string("input '") + names[k] + "' must hold one value, not "
                            + std::to_string(product(in[k])) + " (dims " + dims_text(in[k]) + ")");
    return {in[0]};
}

void lower_activation(plan_builder &b, const op &o) {
    eltwise_fn fn;
    activation_of(*b.g.m, o, fn);
    const memory::dims &out = b.g.dims_of(o.outputs[0]);
    // An eltwise primitive's own alpha and beta are fixed at creation: with a runtime parameter,
    // the primitive is the identity (clip to +-inf, exact and NaN-preserving) and the function
    // the first entry of its chain, where parameters may come at execute.
    op host = o;
    if (fn.has_runtime_params()) {
        post_entry e;
        e.fn = fn;
        host.post.insert(host.post.begin(), e);
        const float inf = std::numeric_limits<float>::infinity();
        fn = {algorithm::eltwise_clip, -inf, inf};
    }
    lowered_chain c = lower_chain(b, host, out, post_ops(), nullptr);
    memory src = b.get(o.inputs[0]);
    const bool constant = b.all_constant(o);
    memory dst = host_destination(b, c, src.get_desc(), constant);
    eltwise_forward::primitive_desc pd(
        eltwise_forward::desc(prop_kind::forward_inference, fn.alg, src.get_desc(), dst.get_desc(),
                              fn.alpha, fn.beta), b.attr(c.po));
    exec_args args = c.args;
    args[PRIM_ARG_SRC] = src;
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(step_text(o, std::string("eltwise ") + algorithm_name(fn.alg), pd.impl_name(), c),
                     eltwise_forward(pd), args, constant);
    b.set(o.outputs[0], dst, constant, true);
}

std::vector<memory::dims> infer_pow(const model &, const node &n, const std::vector<memory::dims> &in) {
    memory::dims out;
    if (!broadcast_dims(in[0], in[1], out))
        fail(n, "shape mismatch: " + dims_text(in[0]) + " and " + dims_text(in[1]) + " do not broadcast");
    return {out};
}

// Strides of a tensor of dims d read at every element of out (numpy broadcasting: 0 along the
// dims d broadcasts), aligned to out's rank.
std::vector<int64_t> broadcast_strides(const memory::dims &d, const memory::dims &out) {
    std::vector<int64_t> s(out.size(), 0);
    int64_t stride = 1;
    for (size_t k = d.size(); k-- > 0;) {
        if (d[k] != 1) s[out.size() - d.size() + k] = stride;
        stride *= d[k];
    }
    return s;
}

// Pow with a constant scalar exponent is prim's eltwise pow (and fuses as one); any other
// exponent (a graph input, an array) runs on a small graph kernel with numpy broadcasting and
// C's powf, as ONNX's reference computes it.
void lower_pow(plan_builder &b, const op &o) {
    const memory::dims &out = b.g.dims_of(o.outputs[0]);
    eltwise_fn fn;
    if (activation_of(*b.g.m, o, fn) && b.g.dims_of(o.inputs[0]) == out) return lower_activation(b, o);
    memory x = b.plain(o.inputs[0]), y = b.plain(o.inputs[1]);
    memory dst = b.alloc(plan_builder::plain_desc(out));
    const auto sx = broadcast_strides(b.g.dims_of(o.inputs[0]), out);
    const auto sy = broadcast_strides(b.g.dims_of(o.inputs[1]), out);
    const int64_t total = product(out);
    const bool constant = b.all_constant(o);
    b.step(o.n->name + ": pow graph kernel", [x, y, dst, out, sx, sy, total] {
        const float *px = static_cast<const float *>(x.get_data_handle());
        const float *py = static_cast<const float *>(y.get_data_handle());
        float *d = static_cast<float *>(dst.get_data_handle());
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < total; ++i) {
            int64_t rest = i, ix = 0, iy = 0;
            for (size_t k = out.size(); k-- > 0;) {
                const int64_t c = rest % out[k];
                rest /= out[k];
                ix += c * sx[k];
                iy += c * sy[k];
            }
            d[i] = std::pow(px[ix], py[iy]);
        }
    }, constant, {x, y, dst});
    b.set(o.outputs[0], dst, constant, true);
}

void check_erf(const model &, const node &) {}

void lower_erf(plan_builder &b, const op &o) {
    memory src = b.plain(o.inputs[0]);
    memory dst = b.alloc(src.get_desc());
    const int64_t n = product(b.g.dims_of(o.inputs[0]));
    const bool constant = b.all_constant(o);
    verbose_info(o.n->name + ": prim has no eltwise erf: Erf runs on the graph's own kernel");
    b.step(o.n->name + ": erf graph kernel", [src, dst, n] {
        const float *s = static_cast<const float *>(src.get_data_handle());
        float *d = static_cast<float *>(dst.get_data_handle());
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; ++i) d[i] = std::erf(s[i]);
    }, constant, {src, dst});
    b.set(o.outputs[0], dst, constant, true);
}

void check_internal(const model &, const node &n) {
    fail(n, "Eltwise is the graph's internal op, not an ONNX op");
}

} // namespace

std::vector<op_def> eltwise_ops() {
    std::vector<op_def> v;
    for (const char *t : {"Relu", "LeakyRelu", "Elu", "Sigmoid", "Tanh", "HardSigmoid", "HardSwish",
                          "Sqrt", "Exp", "Log", "Abs", "Softplus"})
        v.push_back({t, 1, 1, 1, check_activation, same_dims, lower_activation});
    v.push_back({"Clip", 1, 3, 1, check_activation, clip_dims, lower_activation});
    v.push_back({"Pow", 2, 2, 1, check_activation, infer_pow, lower_pow});
    v.push_back({"Eltwise", 1, 1, 1, check_internal, same_dims, lower_activation});
    v.push_back({"Erf", 1, 1, 1, check_erf, same_dims, lower_erf});
    return v;
}

} // namespace detail
} // namespace graph
} // namespace prim
