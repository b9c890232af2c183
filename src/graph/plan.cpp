// The plan builder: tensors' memories, reorders between layouts, steps run now or at every run.
#include "graph/plan.hpp"

#include "graph/op_registry.hpp"

#include <algorithm>

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

memory plan_builder::get(const std::string &t) {
    auto it = mems_.find(t);
    if (it != mems_.end()) return it->second;
    auto lazy = lazy_.find(t);
    if (lazy == lazy_.end()) throw error(status::runtime_error, "graph: tensor " + t + " has no buffer yet");
    const memory m = lazy->second();
    set(t, m, true, false);
    return m;
}

void plan_builder::set(const std::string &t, const memory &m, bool constant, bool owned) {
    lazy_.erase(t);
    mems_[t] = m;
    plain_cache_.erase(t);
    layout_cache_.erase(t);
    if (constant) constants_.insert(t); else constants_.erase(t);
    if (owned) owned_.insert(t); else owned_.erase(t);
}

void plan_builder::set_lazy_constant(const std::string &t, std::function<memory()> make) {
    mems_.erase(t);
    plain_cache_.erase(t);
    layout_cache_.erase(t);
    constants_.insert(t);
    owned_.erase(t);
    lazy_[t] = std::move(make);
}

bool plan_builder::may_overwrite(const std::string &t) const {
    // The op being lowered may not write over t, nor over a view of it, that is still read.
    return owned_.count(t) && !constants_.count(t)
           && buffer_free_after(g, t, current_op, g.ops.at(current_op).inputs);
}

memory::desc plan_builder::plain_desc(const memory::dims &d, memory::data_type dt) {
    // A rank-0 tensor is one element.
    if (d.empty()) return memory::desc({1}, dt, memory::format_tag::a);
    memory::dims strides(d.size(), 1);
    for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * d[i + 1];
    return memory::desc(d, dt, strides);
}

memory plan_builder::persistent(const memory::desc &md) {
    memory m(md, result.slab.allocate(md.get_size()));
    result.storage.push_back(m);
    return m;
}

memory plan_builder::alloc(const memory::desc &md) {
    // Placeholders are spaced by their size, so that no two seem to overlap; they are never
    // dereferenced: a step touching one settles its buffer first.
    buffer_group g;
    g.bytes = std::max<size_t>(md.get_size(), 64);
    g.keep_zero = !md.is_dense() || md.nelems_padded() != product(md.get_dims());
    const uintptr_t at = next_placeholder_;
    next_placeholder_ += (g.bytes + 127) / 64 * 64;
    memory m(md, reinterpret_cast<void *>(at));
    g.members.push_back(m);
    group_at_[at] = groups_.size();
    groups_.push_back(g);
    return m;
}

plan_builder::buffer_group *plan_builder::track(const memory &m) {
    auto it = group_at_.find(reinterpret_cast<uintptr_t>(m.get_data_handle()));
    if (it == group_at_.end()) return nullptr;
    buffer_group &g = groups_[it->second];
    g.members.push_back(m);
    if (g.real) m.set_data_handle(g.real);
    return &g;
}

memory plan_builder::view(const memory &base, const memory::desc &md) {
    memory v(md, base.get_data_handle());
    track(v);
    return v;
}

void plan_builder::settle(buffer_group &g, void *address) {
    g.real = address;
    for (auto &m : g.members) m.set_data_handle(address);
}

void plan_builder::make_persistent(buffer_group &g) {
    if (g.real) return;
    settle(g, persistent(memory::desc({static_cast<memory::dim>(g.bytes)}, memory::data_type::u8,
                                      memory::format_tag::a)).get_data_handle());
}

void plan_builder::step(const std::string &text, std::function<void()> fn, bool constant,
                        const std::vector<memory> &uses) {
    const int index = static_cast<int>(result.steps.size());
    for (const auto &m : uses) {
        buffer_group *g = track(m);
        if (!g) continue;
        if (constant) {
            make_persistent(*g);
        } else {
            if (g->first < 0) g->first = index;
            g->last = index;
        }
    }
    if (constant) {
        fn();
        result.step_texts.push_back(text + " (at load time)");
        return;
    }
    result.step_texts.push_back(text);
    result.steps.push_back({text, std::move(fn)});
}

void plan_builder::finish(const std::vector<memory> &outputs) {
    for (const auto &m : outputs)
        if (buffer_group *g = track(m)) make_persistent(*g);
    // First fit over the free ranges, step by step: a buffer is placed at its first step and its
    // range is free again after its last.
    std::vector<std::pair<size_t, size_t>> free_ranges; // offset, bytes
    std::vector<size_t> offset(groups_.size(), 0);
    size_t end = 0;
    const int nsteps = static_cast<int>(result.steps.size());
    std::vector<std::vector<size_t>> starts(nsteps), ends(nsteps);
    for (size_t i = 0; i < groups_.size(); ++i) {
        buffer_group &g = groups_[i];
        if (g.real || g.first < 0) continue;
        if (g.keep_zero) {
            make_persistent(g);
            continue;
        }
        starts[g.first].push_back(i);
        ends[g.last].push_back(i);
    }
    for (int s = 0; s < nsteps; ++s) {
        for (size_t i : starts[s]) {
            const size_t bytes = (groups_[i].bytes + 63) / 64 * 64;
            auto fit = free_ranges.end();
            for (auto it = free_ranges.begin(); it != free_ranges.end(); ++it)
                if (it->second >= bytes && (fit == free_ranges.end() || it->second < fit->second)) fit = it;
            if (fit != free_ranges.end()) {
                offset[i] = fit->first;
                fit->first += bytes;
                fit->second -= bytes;
                if (!fit->second) free_ranges.erase(fit);
            } else {
                offset[i] = end;
                end += bytes;
            }
        }
        for (size_t i : ends[s]) {
            free_ranges.push_back({offset[i], (groups_[i].bytes + 63) / 64 * 64});
            // Merge neighbours so that large buffers fit again.
            std::sort(free_ranges.begin(), free_ranges.end());
            std::vector<std::pair<size_t, size_t>> merged;
            for (const auto &r : free_ranges) {
                if (!merged.empty() && merged.back().first + merged.back().second == r.first)
                    merged.back().second += r.second;
                else
                    merged.push_back(r);
            }
            free_ranges = merged;
        }
    }
    arena_bytes_ = end;
    result.arena_bytes = end;
    if (!end) return;
    memory arena = persistent(memory::desc({static_cast<memory::dim>(end / sizeof(float))},
                                    memory::data_type::f32, memory::format_tag::a));
    char *base = static_cast<char *>(arena.get_data_handle());
    for (int s = 0; s < nsteps; ++s)
        for (size_t i : starts[s]) settle(groups_[i], base + offset[i]);
}

void plan_builder::reorder_step(const std::string &text, const memory &src, const memory &dst,
                                bool constant) {
    reorder r(src.get_desc(), dst.get_desc());
    step(text, [r, src, dst] { r.execute(src, dst); }, constant, {src, dst});
}

memory plan_builder::plain(const std::string &t) {
    memory m = get(t);
    const memory::desc want = plain_desc(g.dims_of(t), g.type_of(t));
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
    if (want == plain_desc(want.get_dims(), want.get_data_type()) && want.get_dims() == g.dims_of(t)) return plain(t);
    for (const auto &copy : layout_cache_[t])
        if (copy.get_desc() == want) return copy;
    memory r = alloc(want);
    reorder_step("reorder " + t + " " + m.get_desc().layout() + " -> " + want.layout(), m, r,
                 is_constant(t));
    layout_cache_[t].push_back(r);
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
        if (e.fn.has_runtime_params()) return false; // read from graph inputs at every run
        if (e.bn)
            for (size_t i = 1; i < e.bn->inputs.size(); ++i)
                if (!is_constant(e.bn->inputs[i])) return false;
    }
    return true;
}

} // namespace detail
} // namespace graph
} // namespace prim
