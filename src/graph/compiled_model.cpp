// compiled_model: check and sort at construction; a plan (shapes, fusion, primitives) per set of
// input dims; run() copies the inputs in, runs the plan's steps, copies the outputs out.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

#include "graph/fuse.hpp"
#include "graph/graph_check.hpp"
#include "graph/integer_values.hpp"
#include "graph/op_registry.hpp"

namespace prim {
namespace graph {

using namespace detail;

namespace {

// An output buffer of type dt read back as f32 values.
void load_values(const void *src, size_t n, memory::data_type dt, float *out) {
    for (size_t i = 0; i < n; ++i) {
        switch (dt) {
            case memory::data_type::u8: out[i] = static_cast<const uint8_t *>(src)[i]; break;
            case memory::data_type::s8: out[i] = static_cast<const int8_t *>(src)[i]; break;
            case memory::data_type::s32: out[i] = static_cast<float>(static_cast<const int32_t *>(src)[i]); break;
            default: out[i] = static_cast<const float *>(src)[i]; break;
        }
    }
}

} // namespace

struct compiled_model::state {
    model m;
    options opt;
    std::vector<size_t> order;
    mutable std::mutex mu;
    // The plans of the latest input dims (at most plans_kept, the least recently used dropped);
    // current: the latest used.
    using dims_key = std::map<std::string, memory::dims>;
    static constexpr size_t plans_kept = 4;
    mutable std::vector<std::pair<dims_key, std::shared_ptr<plan>>> plans;
    mutable std::shared_ptr<plan> current;

    void use_plan(const dims_key &dims) const {
        for (size_t i = 0; i < plans.size(); ++i)
            if (plans[i].first == dims) {
                auto entry = plans[i];
                plans.erase(plans.begin() + static_cast<long>(i));
                plans.push_back(entry);
                current = entry.second;
                return;
            }
        current = build(dims);
        plans.push_back({dims, current});
        if (plans.size() > plans_kept) plans.erase(plans.begin());
    }

    std::shared_ptr<plan> build(const std::map<std::string, memory::dims> &dims) const {
        graph_ir g;
        g.m = &m;
        infer_shapes(g, order, dims);
        for (size_t i : order) {
            op o;
            o.n = &m.nodes[i];
            o.type = o.n->op_type;
            o.inputs = o.n->inputs;
            o.outputs = o.n->outputs;
            o.merged = {o.n->name};
            g.ops.push_back(o);
        }
        if (opt.fuse) {
            // The activation forms first: a GELU written as five ops is one activation the
            // QDQ passes fold into an int8 primitive's chain.
            fuse_activation_forms(g);
            fuse_qdq_convolutions(g);
            fuse_qdq_matmuls(g);
            fuse_qdq_residuals(g);
            fuse_qdq_flow(g);
            fuse_qdq_round_trips(g);
            fuse_qdq_softmaxes(g);
            fuse_post_op_chains(g);
            fuse_dw_pairs(g, opt);
        }
        plan_builder b(g, opt);
        for (const auto &in : m.inputs) {
            memory mem = b.persistent(plan_builder::plain_desc(dims.at(in.name), in.dt));
            b.set(in.name, mem, false, false);
            b.result.inputs[in.name] = mem;
        }
        for (const auto &kv : m.initializers) {
            const tensor &t = kv.second;
            if (t.dt == memory::data_type::f32) {
                b.set(kv.first, memory(plan_builder::plain_desc(t.dims), const_cast<float *>(t.data.data())),
                      true, false);
                continue;
            }
            // An integer initializer (values held as f32): a buffer of its type once per plan,
            // made (and its values checked) when an op reads the tensor from the plan; a fused
            // QDQ convolution reads its weights from the model instead, checking them on the way.
            const std::string what = "initializer '" + kv.first + "'";
            b.unchecked_integers.insert(kv.first);
            b.set_lazy_constant(kv.first, [&b, &t, what, name = kv.first] {
                memory mem = b.persistent(plan_builder::plain_desc(t.dims, t.dt));
                store_integers(t.data.data(), t.data.size(), t.dt, mem.get_data_handle(), what);
                b.unchecked_integers.erase(name);
                return mem;
            });
        }
        for (const auto &o : g.ops) {
            if (!o.alive) continue;
            b.current_op = static_cast<size_t>(&o - g.ops.data());
            try {
                find_op_def(o.type)->lower(b, o);
            } catch (const error &e) {
                const std::string msg = e.what();
                if (msg.rfind(o.n->name + " (", 0) == 0) throw;
                std::string names;
                for (size_t k = 0; k < o.merged.size(); ++k) names += (k ? "+" : "") + o.merged[k];
                throw error(e.get_status(), names + " (" + o.type + "): " + msg);
            }
        }
        for (const auto &name : b.unchecked_integers) { // read from the model only, or by no op
            const tensor &t = m.initializers.at(name);
            check_integers(t.data.data(), t.data.size(), t.dt, "initializer '" + name + "'");
        }
        std::vector<memory> outs;
        for (const auto &out : m.outputs) {
            b.result.outputs.push_back({out.name, g.dims_of(out.name), b.plain(out.name)});
            outs.push_back(b.result.outputs.back().mem);
        }
        b.finish(outs);
        b.result.log = g.log;
        return std::make_shared<plan>(std::move(b.result));
    }

    // "the model's inputs are 'x' (2x3), 'mask' (-1x8)": for the messages about run()'s inputs.
    std::string input_names() const {
        if (m.inputs.empty()) return "the model has no inputs";
        std::string s = m.inputs.size() == 1 ? "the model's input is " : "the model's inputs are ";
        for (size_t i = 0; i < m.inputs.size(); ++i)
            s += (i ? ", '" : "'") + m.inputs[i].name + "' (" + dims_text(m.inputs[i].dims) + ")";
        return s;
    }

    // The inputs' dims with -1 replaced by options::batch (dim 0) or by given (when not null).
    std::map<std::string, memory::dims> resolve(const std::map<std::string, tensor> *given,
                                                bool &complete) const {
        std::map<std::string, memory::dims> dims;
        complete = true;
        for (const auto &in : m.inputs) {
            memory::dims d = in.dims;
            const tensor *t = nullptr;
            if (given) {
                auto it = given->find(in.name);
                if (it == given->end())
                    throw error(status::invalid_arguments, "graph: missing input '" + in.name + "'; "
                                                                   + input_names());
                t = &it->second;
                if (t->dims.size() != d.size())
                    throw error(status::invalid_arguments, "graph: input '" + in.name + "' has dims " +
                                                               dims_text(t->dims) + ", the model declares " + dims_text(d));
                if (static_cast<int64_t>(t->data.size()) != product(t->dims))
                    throw error(status::invalid_arguments, "graph: input '" + in.name + "' holds " +
                                                               std::to_string(t->data.size()) + " values for dims " + dims_text(t->dims));
            }
            for (size_t k = 0; k < d.size(); ++k) {
                if (d[k] == -1 && k == 0 && opt.batch > 0) d[k] = opt.batch;
                if (t && d[k] == -1) d[k] = t->dims[k];
                if (t && d[k] != t->dims[k])
                    throw error(status::invalid_arguments, "graph: input '" + in.name + "' has dims " +
                                                               dims_text(t->dims) + ", the model declares " + dims_text(in.dims) +
                                                               (opt.batch > 0 ? " with batch " + std::to_string(opt.batch) : ""));
                if (d[k] == -1) complete = false;
            }
            dims[in.name] = d;
        }
        return dims;
    }
};

compiled_model::compiled_model(model m, const options &opt) : s_(new state) {
    s_->m = std::move(m);
    s_->opt = opt;
    s_->order = check_and_sort(s_->m);
    bool complete = false;
    auto dims = s_->resolve(nullptr, complete);
    if (complete) {
        s_->use_plan(dims);
    }
}

compiled_model::~compiled_model() = default;
compiled_model::compiled_model(compiled_model &&) noexcept = default;
compiled_model &compiled_model::operator=(compiled_model &&) noexcept = default;

std::map<std::string, tensor> compiled_model::run(const std::map<std::string, tensor> &inputs) const {
    std::lock_guard<std::mutex> lock(s_->mu);
    for (const auto &kv : inputs) {
        bool known = false;
        for (const auto &in : s_->m.inputs) known = known || in.name == kv.first;
        if (known) continue;
        const std::string what = s_->m.initializers.count(kv.first)
                ? " is an initializer of the model, not an input"
                : " is not an input of the model";
        throw error(status::invalid_arguments, "graph: '" + kv.first + "'" + what + "; "
                                                       + s_->input_names());
    }
    bool complete = false;
    auto dims = s_->resolve(&inputs, complete);
    s_->use_plan(dims);
    plan &p = *s_->current;
    for (auto &kv : p.inputs) {
        const tensor &t = inputs.at(kv.first);
        const memory::data_type dt = kv.second.get_desc().get_data_type();
        if (dt == memory::data_type::f32)
            std::memcpy(kv.second.get_data_handle(), t.data.data(), t.data.size() * sizeof(float));
        else
            store_integers(t.data.data(), t.data.size(), dt, kv.second.get_data_handle(),
                           "input '" + kv.first + "'");
    }
    for (const auto &st : p.steps) st.run();
    std::map<std::string, tensor> out;
    for (const auto &o : p.outputs) {
        tensor t;
        t.dims = o.dims;
        const size_t n = static_cast<size_t>(product(t.dims));
        t.dt = o.mem.get_desc().get_data_type();
        t.data.resize(n);
        load_values(o.mem.get_data_handle(), n, t.dt, t.data.data());
        out[o.name] = std::move(t);
    }
    return out;
}

std::vector<fusion_record> compiled_model::fusion_log() const {
    std::lock_guard<std::mutex> lock(s_->mu);
    return s_->current ? s_->current->log : std::vector<fusion_record>();
}

std::vector<std::string> compiled_model::steps() const {
    std::lock_guard<std::mutex> lock(s_->mu);
    return s_->current ? s_->current->step_texts : std::vector<std::string>();
}

size_t compiled_model::arena_bytes() const {
    std::lock_guard<std::mutex> lock(s_->mu);
    return s_->current ? s_->current->arena_bytes : 0;
}

std::vector<std::string> compiled_model::sorted_nodes() const {
    std::vector<std::string> v;
    for (size_t i : s_->order) v.push_back(s_->m.nodes[i].name);
    return v;
}

} // namespace graph
} // namespace prim
