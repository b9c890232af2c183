// The plan builder: tensors' memories, reorders between layouts, steps run now or at every run.
#include "graph/plan.hpp"

namespace prim {
namespace graph {
namespace detail {

plan_builder::plan_builder(const graph_ir &gr, const options &o) : g(gr), opt(o) {}

primitive_attr plan_builder::attr(const post_ops &po) const {
    primitive_attr a;
    a.set_post_ops(po);
    a.set_max_cpu_isa(opt.max_isa);
    return a;
}

memory plan_builder::get(const std::string &t) const {
    auto it = mems_.find(t);
    if (it == mems_.end()) throw error(status::runtime_error, "graph: tensor " + t + " has no buffer yet");
    return it->second;
}

void plan_builder::set(const std::string &t, const memory &m, bool constant, bool owned) {
    mems_[t] = m;
    plain_cache_.erase(t);
    if (constant) constants_.insert(t); else constants_.erase(t);
    if (owned) owned_.insert(t); else owned_.erase(t);
}

bool plan_builder::may_overwrite(const std::string &t) const {
    return owned_.count(t) && !constants_.count(t) && !g.is_graph_output(t) &&
           !g.is_graph_input(t) && g.readers(t) == 1;
}

memory::desc plan_builder::plain_desc(const memory::dims &d) {
    // A rank-0 tensor is one element.
    if (d.empty()) return memory::desc({1}, memory::data_type::f32, memory::format_tag::a);
    memory::dims strides(d.size(), 1);
    for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * d[i + 1];
    return memory::desc(d, memory::data_type::f32, strides);
}

memory plan_builder::alloc(const memory::desc &md) { return memory(md); }

void plan_builder::step(const std::string &text, std::function<void()> fn, bool constant) {
    if (constant) {
        fn();
        result.step_texts.push_back(text + " (at load time)");
        return;
    }
    result.step_texts.push_back(text);
    result.steps.push_back({text, std::move(fn)});
}

void plan_builder::reorder_step(const std::string &text, const memory &src, const memory &dst,
                                bool constant) {
    reorder r(src.get_desc(), dst.get_desc());
    step(text, [r, src, dst] { r.execute(src, dst); }, constant);
}

memory plan_builder::plain(const std::string &t) {
    memory m = get(t);
    const memory::desc want = plain_desc(g.dims_of(t));
    if (m.get_desc() == want) return m;
    auto it = plain_cache_.find(t);
    if (it != plain_cache_.end()) return it->second;
    memory p = alloc(want);
    reorder_step("reorder " + t + " " + m.get_desc().layout() + " -> plain", m, p, is_constant(t));
    plain_cache_[t] = p;
    return p;
}

memory plan_builder::in_layout(const std::string &t, const memory::desc &want) {
    memory m = get(t);
    if (m.get_desc() == want) return m;
    if (want == plain_desc(want.get_dims()) && want.get_dims() == g.dims_of(t)) return plain(t);
    memory r = alloc(want);
    reorder_step("reorder " + t + " " + m.get_desc().layout() + " -> " + want.layout(), m, r,
                 is_constant(t));
    return r;
}

memory plan_builder::in_layout_memory(const memory &m, const memory::desc &want, bool constant) {
    if (m.get_desc() == want) return m;
    memory r = alloc(want);
    reorder_step("reorder " + m.get_desc().layout() + " -> " + want.layout(), m, r, constant);
    return r;
}

bool plan_builder::all_constant(const op &o) const {
    for (const auto &i : o.inputs)
        if (!i.empty() && !is_constant(i)) return false;
    for (const auto &e : o.post) {
        if (!e.operand.empty() && !is_constant(e.operand)) return false;
        if (e.bn)
            for (size_t i = 1; i < e.bn->inputs.size(); ++i)
                if (!is_constant(e.bn->inputs[i])) return false;
    }
    return true;
}

} // namespace detail
} // namespace graph
} // namespace prim
