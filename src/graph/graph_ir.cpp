// Queries on the fuser's graph, attribute access and small shape helpers.
#include "graph/graph_ir.hpp"

#include <algorithm>

namespace prim {
namespace graph {
namespace detail {

std::string node_prefix(const node &n) { return n.name + " (" + n.op_type + "): "; }

void fail(const node &n, const std::string &problem, status st) {
    throw error(st, node_prefix(n) + problem);
}

bool graph_ir::is_graph_output(const std::string &t) const {
    for (const auto &o : m->outputs)
        if (o.name == t) return true;
    return false;
}

bool graph_ir::is_graph_input(const std::string &t) const {
    for (const auto &i : m->inputs)
        if (i.name == t) return true;
    return false;
}

int graph_ir::producer(const std::string &t) const {
    for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].alive && std::find(ops[i].outputs.begin(), ops[i].outputs.end(), t) !=
                                ops[i].outputs.end())
            return static_cast<int>(i);
    return -1;
}

int graph_ir::readers(const std::string &t) const {
    int count = is_graph_output(t) ? 1 : 0;
    for (const auto &o : ops) {
        if (!o.alive) continue;
        count += static_cast<int>(std::count(o.inputs.begin(), o.inputs.end(), t));
        for (const auto &e : o.post)
            if (e.operand == t) ++count;
    }
    return count;
}

bool graph_ir::read_after(const std::string &t, size_t index, const op *except) const {
    if (is_graph_output(t)) return true;
    for (size_t i = index + 1; i < ops.size(); ++i) {
        const op &o = ops[i];
        if (!o.alive || &o == except) continue;
        if (std::count(o.inputs.begin(), o.inputs.end(), t)) return true;
        for (const auto &e : o.post)
            if (e.operand == t) return true;
    }
    return false;
}

void apply_auto_pad(const std::string &auto_pad, int64_t in, int64_t s, int64_t ext, int64_t &pb,
                    int64_t &pe) {
    if (auto_pad == "VALID") pb = pe = 0;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
        const int64_t o = (in + s - 1) / s;
        const int64_t total = std::max<int64_t>(0, (o - 1) * s + ext - in);
        pb = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
        pe = total - pb;
    }
}

const memory::dims &graph_ir::dims_of(const std::string &t) const {
    auto it = shapes.find(t);
    if (it == shapes.end()) throw error(status::runtime_error, "graph: no shape for tensor " + t);
    return it->second;
}

memory::data_type graph_ir::type_of(const std::string &t) const {
    auto it = types.find(t);
    return it == types.end() ? memory::data_type::f32 : it->second;
}

namespace {
const attribute *find_attr(const node &n, const std::string &name, attribute::type want,
                           const char *type_name) {
    auto it = n.attrs.find(name);
    if (it == n.attrs.end()) return nullptr;
    if (it->second.kind != want)
        fail(n, "attribute " + name + " should be " + type_name);
    return &it->second;
}
} // namespace

bool has_attr(const node &n, const std::string &name) { return n.attrs.count(name) != 0; }

int64_t attr_int(const node &n, const std::string &name, int64_t dflt) {
    const attribute *a = find_attr(n, name, attribute::type::i, "an int");
    return a ? a->i : dflt;
}

float attr_float(const node &n, const std::string &name, float dflt) {
    const attribute *a = find_attr(n, name, attribute::type::f, "a float");
    return a ? a->f : dflt;
}

std::string attr_string(const node &n, const std::string &name, const std::string &dflt) {
    const attribute *a = find_attr(n, name, attribute::type::s, "a string");
    return a ? a->s : dflt;
}

std::vector<int64_t> attr_ints(const node &n, const std::string &name,
                               const std::vector<int64_t> &dflt) {
    const attribute *a = find_attr(n, name, attribute::type::ints, "a list of ints");
    return a ? a->ints : dflt;
}

const tensor &constant_input(const model &m, const node &n, size_t i, const char *what) {
    auto it = has_input(n, i) ? m.initializers.find(n.inputs[i]) : m.initializers.end();
    if (it == m.initializers.end())
        fail(n, std::string(what) + " (input " + std::to_string(i) +
                    ") must be an initializer: prim needs its value when the model is compiled",
             status::unimplemented);
    return it->second;
}

std::string dims_beyond_limits(const memory::dims &d) {
    if (d.size() > max_rank)
        return "rank " + std::to_string(d.size()) + ": at most " + std::to_string(max_rank) + " dims are supported";
    int64_t count = 1;
    for (auto v : d) {
        if (v < 0) return "a negative dim";
        if (v > max_extent) return "a dim above " + std::to_string(max_extent);
        if (v > 0 && count > max_elements / v) return "more than 2^40 elements";
        count *= v;
    }
    return "";
}

void check_attr_range(const node &n, const std::string &name, const std::vector<int64_t> &values,
                      int64_t lo) {
    for (auto v : values)
        if (v < lo || v > max_extent)
            fail(n, "bad attribute " + name + ": " + std::to_string(v) + " is outside [" + std::to_string(lo) +
                        ", " + std::to_string(max_extent) + "]");
}

int64_t product(const memory::dims &d) {
    int64_t p = 1;
    for (auto v : d) p *= v;
    return p;
}

std::string dims_text(const memory::dims &d) {
    if (d.empty()) return "scalar";
    std::string s;
    for (size_t i = 0; i < d.size(); ++i) s += (i ? "x" : "") + std::to_string(d[i]);
    return s;
}

bool broadcast_dims(const memory::dims &a, const memory::dims &b, memory::dims &out) {
    const size_t r = std::max(a.size(), b.size());
    out.assign(r, 1);
    for (size_t i = 0; i < r; ++i) {
        const int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
        const int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
        if (x != y && x != 1 && y != 1) return false;
        out[i] = x == 1 ? y : x;
    }
    return true;
}

} // namespace detail
} // namespace graph
} // namespace prim
