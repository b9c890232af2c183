#include "plan/plan_compile.hpp"

#include <cstdio>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "common/verbose.hpp"
#include "prim/convolution.hpp"
#include "prim/eltwise.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {

namespace {

std::shared_ptr<const compiled_plan> create(const plan_key &key) {
    auto cp = std::make_shared<compiled_plan>();
    cp->key = key;
    cp->lowered = lower_plan(key.ops);
    const lowered_plan &lp = cp->lowered;
    primitive_attr attr;
    attr.set_post_ops(lp.chain);
    attr.set_max_cpu_isa(key.isa);
    attr.set_strict(key.strict);
    if (lp.has_conv) {
        const plan_op &conv = key.ops[0];
        const memory::dim oc = key.output.get_dims()[1];
        if (!lp.conv_bias_ops.empty())
            cp->conv_bias_md = memory::desc({oc}, memory::data_type::f32, memory::format_tag::x);
        const convolution_forward::desc d(prop_kind::forward_inference,
                algorithm::convolution_direct, key.input, conv.md, cp->conv_bias_md, key.output,
                conv.conv.strides, conv.conv.dilates, conv.conv.padding_l, conv.conv.padding_r);
        const convolution_forward::primitive_desc pd(d, attr);
        cp->pd = pd;
        cp->prim = std::make_shared<const convolution_forward>(pd);
        cp->weights_md = pd.weights_desc();
    } else {
        // No convolution: one pass over the input, the identity followed by the chain.
        const eltwise_forward::desc d(prop_kind::forward_inference, algorithm::eltwise_identity,
                                      key.input, key.output, 0.f, 0.f);
        const eltwise_forward::primitive_desc pd(d, attr);
        cp->pd = pd;
        cp->prim = std::make_shared<const eltwise_forward>(pd);
    }
    for (int i = 0; i < lp.chain.len(); ++i) {
        const post_ops::entry &e = lp.chain.entries()[i];
        cp->operand_mds.push_back(e.kind == post_ops::kind::binary
                ? cp->pd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1)
                : memory::desc());
    }
    return cp;
}

std::string key_string(const plan_key &k) {
    std::string s = md_str(k.input) + "|" + md_str(k.output) + "|"
            + std::to_string(static_cast<int>(k.isa)) + (k.strict ? "s" : "");
    for (const plan_op &op : k.ops) {
        s += "|" + op_string(op) + ":" + (op.md.is_zero() ? "" : md_str(op.md));
        for (const auto *v : {&op.conv.strides, &op.conv.dilates, &op.conv.padding_l,
                              &op.conv.padding_r})
            s += ":" + dims_str(*v);
    }
    return s;
}

// The plans compiled so far, the oldest dropped past a bound (a dropped plan stays alive in the
// plans that hold it).
class plan_cache {
public:
    static plan_cache &instance() {
        static plan_cache c;
        return c;
    }
    std::shared_ptr<const compiled_plan> find(const std::string &s, const plan_key &k) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = map_.find(s);
        return it != map_.end() && it->second.key == k ? it->second.plan : nullptr;
    }
    void put(const std::string &s, const plan_key &k, std::shared_ptr<const compiled_plan> p) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (map_.find(s) == map_.end()) order_.push_back(s);
        map_[s] = {k, std::move(p)};
        while (order_.size() > capacity) {
            map_.erase(order_.front());
            order_.pop_front();
        }
    }

private:
    static constexpr size_t capacity = 256;
    struct item {
        plan_key key;
        std::shared_ptr<const compiled_plan> plan;
    };
    std::mutex mutex_;
    std::unordered_map<std::string, item> map_;
    std::deque<std::string> order_;
};

} // namespace

std::shared_ptr<const compiled_plan> compile_plan(const plan_key &key, bool *hit) {
    const std::string s = key_string(key);
    if (auto p = plan_cache::instance().find(s, key)) {
        *hit = true;
        return p;
    }
    *hit = false;
    std::shared_ptr<const compiled_plan> p;
    try {
        p = create(key);
    } catch (const error &e) {
        throw error(e.get_status(), "fusion_plan " + ops_string(key.ops)
                                            + ": compile failed: " + e.what());
    }
    plan_cache::instance().put(s, key, p);
    return p;
}

} // namespace impl
} // namespace prim
