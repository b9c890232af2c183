// Identity, Flatten, Reshape, Squeeze, Unsqueeze: views of the input's plain buffer with other
// dims, no copy. Transpose: a view with permuted strides (a layout change); a consumer that
// needs the data dense reorders it then.
#include <algorithm>

#include "graph/op_registry.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

// Squeeze/Unsqueeze's axes and Reshape's shape: attributes (before opset 13 for axes, and at
// every opset from the ONNX front end, prim/onnx.hpp), else a constant input.
std::vector<int64_t> axes_of(const model &m, const node &n, bool required) {
    if (m.opset < 13 || has_attr(n, "axes")) {
        if (required && !has_attr(n, "axes")) fail(n, "attribute axes is required");
        return attr_ints(n, "axes", {});
    }
    if (!has_input(n, 1)) {
        if (required) fail(n, "input axes is required");
        return {};
    }
    const tensor &t = constant_input(m, n, 1, "axes");
    return std::vector<int64_t>(t.data.begin(), t.data.end());
}

std::vector<int64_t> shape_of(const model &m, const node &n) {
    if (has_attr(n, "shape")) return attr_ints(n, "shape", {});
    const tensor &t = constant_input(m, n, 1, "shape");
    return std::vector<int64_t>(t.data.begin(), t.data.end());
}

int64_t norm_axis(const node &n, int64_t a, size_t rank) {
    const int64_t r = static_cast<int64_t>(rank);
    if (a < -r || a >= r) fail(n, "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(r));
    return a < 0 ? a + r : a;
}

void check_reshape(const model &m, const node &n) {
    if (n.op_type == "Reshape") (void)shape_of(m, n);
    if (n.op_type == "Unsqueeze") (void)axes_of(m, n, true);
    if (n.op_type == "Squeeze") (void)axes_of(m, n, false);
}

std::vector<memory::dims> infer_shape_op(const model &m, const node &n, const std::vector<memory::dims> &in) {
    const memory::dims &x = in[0];
    const std::string &t = n.op_type;
    if (t == "Identity") return {x};
    if (t == "Flatten") {
        int64_t axis = attr_int(n, "axis", 1);
        if (axis < 0) axis += static_cast<int64_t>(x.size());
        if (axis < 0 || axis > static_cast<int64_t>(x.size()))
            fail(n, "bad attribute axis=" + std::to_string(attr_int(n, "axis", 1)) + " for rank " +
                        std::to_string(x.size()));
        return {{product(memory::dims(x.begin(), x.begin() + axis)),
                 product(memory::dims(x.begin() + axis, x.end()))}};
    }
    if (t == "Reshape") {
        const std::vector<int64_t> shape = shape_of(m, n);
        const bool allowzero = attr_int(n, "allowzero", 0) != 0;
        memory::dims out;
        int infer_at = -1;
        int64_t known = 1;
        if (shape.size() > max_rank)
            fail(n, "shape has " + std::to_string(shape.size()) + " dims: at most " + std::to_string(max_rank) +
                        " are supported", status::unimplemented);
        for (size_t i = 0; i < shape.size(); ++i) {
            int64_t v = shape[i];
            if (v == 0 && !allowzero) {
                if (i >= x.size()) fail(n, "shape copies dim " + std::to_string(i) + " that X does not have");
                v = x[i];
            }
            if (v == -1) {
                if (infer_at >= 0) fail(n, "shape has more than one -1");
                infer_at = static_cast<int>(i);
            } else if (v < 0) {
                fail(n, "shape has a negative dim " + std::to_string(v));
            } else if (v > max_extent) {
                fail(n, "shape has a dim above " + std::to_string(max_extent) + ": " + std::to_string(v),
                     status::unimplemented);
            } else {
                known *= v; // at most max_rank dims of 2^31: within int64
            }
            out.push_back(v);
        }
        if (infer_at >= 0) {
            if (known == 0 || product(x) % known != 0)
                fail(n, "shape mismatch: " + dims_text(x) + " cannot be reshaped to " + dims_text(out));
            out[infer_at] = product(x) / known;
        }
        if (product(out) != product(x))
            fail(n, "shape mismatch: " + dims_text(x) + " cannot be reshaped to " + dims_text(out));
        return {out};
    }
    if (t == "Squeeze") {
        auto axes = axes_of(m, n, false);
        std::vector<bool> drop(x.size(), false);
        if (axes.empty())
            for (size_t i = 0; i < x.size(); ++i) drop[i] = x[i] == 1;
        for (auto a : axes) {
            const int64_t i = norm_axis(n, a, x.size());
            if (x[i] != 1) fail(n, "cannot squeeze dim " + std::to_string(i) + " of " + dims_text(x) + ": it is not 1");
            drop[i] = true;
        }
        memory::dims out;
        for (size_t i = 0; i < x.size(); ++i)
            if (!drop[i]) out.push_back(x[i]);
        return {out};
    }
    if (t == "Unsqueeze") {
        auto axes = axes_of(m, n, true);
        const size_t rank = x.size() + axes.size();
        std::vector<bool> ins(rank, false);
        for (auto a : axes) {
            const int64_t i = norm_axis(n, a, rank);
            if (ins[i]) fail(n, "axes repeat " + std::to_string(a));
            ins[i] = true;
        }
        memory::dims out;
        size_t k = 0;
        for (size_t i = 0; i < rank; ++i) out.push_back(ins[i] ? 1 : x[k++]);
        return {out};
    }
    // Transpose
    std::vector<int64_t> perm = attr_ints(n, "perm", {});
    if (perm.empty())
        for (size_t i = 0; i < x.size(); ++i) perm.insert(perm.begin(), static_cast<int64_t>(i));
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted.size() != x.size() || sorted[i] != static_cast<int64_t>(i))
            fail(n, "bad attribute perm: not a permutation of the " + std::to_string(x.size()) + " dims");
    memory::dims out;
    for (auto p : perm) out.push_back(x[p]);
    return {out};
}

void lower_shape_op(plan_builder &b, const op &o) {
    const memory::dims &out = b.g.dims_of(o.outputs[0]);
    const bool constant = b.is_constant(o.inputs[0]);
    if (o.type == "Identity") {
        b.set(o.outputs[0], b.get(o.inputs[0]), constant, false);
        return;
    }
    memory p = b.plain(o.inputs[0]);
    if (o.type != "Transpose") {
        b.set(o.outputs[0], b.view(p, plan_builder::plain_desc(out, p.get_desc().get_data_type())), constant, false);
        return;
    }
    const memory::dims &x = b.g.dims_of(o.inputs[0]);
    const memory::dims in_strides = plan_builder::plain_desc(x).strides();
    std::vector<int64_t> perm = attr_ints(*o.n, "perm", {});
    if (perm.empty())
        for (size_t i = 0; i < x.size(); ++i) perm.insert(perm.begin(), static_cast<int64_t>(i));
    memory::dims strides;
    for (auto q : perm) strides.push_back(in_strides[q]);
    b.set(o.outputs[0], b.view(p, memory::desc(out, p.get_desc().get_data_type(), strides)),
          constant, false);
}

} // namespace

std::vector<op_def> shape_ops() {
    std::vector<op_def> v;
    v.push_back({"Identity", 1, 1, 1, nullptr, infer_shape_op, lower_shape_op});
    v.push_back({"Flatten", 1, 1, 1, nullptr, infer_shape_op, lower_shape_op});
    v.push_back({"Reshape", 1, 2, 1, check_reshape, infer_shape_op, lower_shape_op});
    v.push_back({"Squeeze", 1, 2, 1, check_reshape, infer_shape_op, lower_shape_op});
    v.push_back({"Unsqueeze", 1, 2, 1, check_reshape, infer_shape_op, lower_shape_op});
    v.push_back({"Transpose", 1, 1, 1, nullptr, infer_shape_op, lower_shape_op});
    for (op_def &d : v) d.views_input = true; // lower_shape_op makes views
    return v;
}

} // namespace detail
} // namespace graph
} // namespace prim
