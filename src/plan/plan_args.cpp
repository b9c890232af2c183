#include "plan/plan_args.hpp"

#include <cmath>
#include <cstring>

#include "attr/runtime_params.hpp"
#include "common/verbose.hpp"
#include "plan/activation_map.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {

namespace {

const char *setter_of(fusion_op::kind k) {
    switch (k) {
    case fusion_op::kind::convolution: return "set_convolution";
    case fusion_op::kind::bias: return "set_bias";
    case fusion_op::kind::batch_norm: return "set_batch_norm_inference";
    case fusion_op::kind::activation: return "set_activation";
    case fusion_op::kind::sum: return "set_sum";
    case fusion_op::kind::binary: return "set_binary";
    }
    return "?";
}

[[noreturn]] void invalid(const std::vector<plan_op> &ops, int i, const std::string &msg) {
    throw error(status::invalid_arguments, "fusion_plan " + ops_string(ops) + ": operator "
                                                   + std::to_string(i) + " ("
                                                   + op_string(ops[i]) + "): " + msg);
}

// Op i's arguments, or null for a sum never set (its scale defaults to 1) or an activation that
// reads none.
const fusion_args::values::op_args *args_of(const std::vector<plan_op> &ops, int i,
                                            const fusion_args::values &args) {
    const plan_op &op = ops[i];
    const fusion_args::values::op_args *a = args.find(i);
    if (a && a->kind != op.kind)
        invalid(ops, i, std::string("the arguments were set with ") + setter_of(a->kind)
                                + ", this operator takes " + setter_of(op.kind));
    const bool optional = op.kind == fusion_op::kind::sum
            || (op.kind == fusion_op::kind::activation && !activation_reads_args(op.activation));
    if (!a && !optional)
        invalid(ops, i, std::string("no arguments: call fusion_args::") + setter_of(op.kind));
    return a;
}

void check_desc(const std::vector<plan_op> &ops, int i, const memory &m, const char *name,
                const memory::desc &expected) {
    if (m.get_desc() != expected)
        invalid(ops, i, std::string(name) + " memory desc " + md_str(m.get_desc())
                                + " differs from the plan's " + md_str(expected));
    if (!m.get_data_handle() && expected.get_size() != 0)
        invalid(ops, i, std::string(name) + " memory has no data (null handle)");
}

const char *const bn_names[] = {"scale", "shift", "mean", "variance"};

// Value at channel c and output pixel s (row-major over the output's spatial dims sp) of a
// statistics memory of desc md: {C}, or 1 x C x (1 or the output's spatial dims).
double stat_at(const memory &m, const memory::desc &md, int64_t c, int64_t s,
               const memory::dims &sp) {
    const memory::dims &d = md.get_dims();
    memory::dims idx(d.size(), 0);
    if (d.size() == 1) {
        idx[0] = c;
    } else {
        idx[1] = c;
        for (size_t j = sp.size(); j-- > 0;) {
            const int64_t coord = s % sp[j];
            s /= sp[j];
            if (d[2 + j] != 1) idx[2 + j] = coord;
        }
    }
    return static_cast<const float *>(m.get_data_handle())[md.offset(idx.data())];
}

// A memory of desc md whose element at (0, c, pixel s) is v[c * S + s] (S = 1 per channel).
memory operand_memory(const memory::desc &md, const std::vector<double> &v, int64_t channels,
                      int64_t pixels) {
    memory m(md);
    float *p = static_cast<float *>(m.get_data_handle());
    const memory::dims &d = md.get_dims();
    memory::dims idx(d.size(), 0);
    for (int64_t c = 0; c < channels; ++c)
        for (int64_t s = 0; s < pixels; ++s) {
            idx[d.size() == 1 ? 0 : 1] = c; // {C}, or 1 x C x ...
            int64_t r = s;
            for (size_t j = d.size(); j-- > 2;) {
                idx[j] = d[j] == 1 ? 0 : r % d[j];
                if (d[j] != 1) r /= d[j];
            }
            p[md.offset(idx.data())] = static_cast<float>(v[c * pixels + s]);
        }
    return m;
}

memory params_memory(float alpha, float beta, float scale) {
    memory m(memory::desc({3}, memory::data_type::f32, memory::format_tag::x));
    float *p = static_cast<float *>(m.get_data_handle());
    p[0] = alpha;
    p[1] = beta;
    p[2] = scale;
    return m;
}

// The bytes of every bias and statistics buffer, in operator order: what derive_args reads.
template <typename visit_t>
void for_each_source(const std::vector<plan_op> &ops, const fusion_args::values &args,
                     visit_t visit) {
    for (int i = 0; i < static_cast<int>(ops.size()); ++i) {
        if (ops[i].kind != fusion_op::kind::bias && ops[i].kind != fusion_op::kind::batch_norm)
            continue;
        for (const memory &m : args.find(i)->mems)
            visit(static_cast<const char *>(m.get_data_handle()), m.get_desc().get_size());
    }
}

} // namespace

bool is_current(const derived_args &da, const std::vector<plan_op> &ops,
                const fusion_args::values &args) {
    if (da.stamp != args.stamp) return false;
    size_t at = 0;
    bool same = true;
    for_each_source(ops, args, [&](const char *p, size_t n) {
        same = same && at + n <= da.source_bytes.size()
                && (n == 0 || std::memcmp(da.source_bytes.data() + at, p, n) == 0);
        at += n;
    });
    return same && at == da.source_bytes.size();
}

void check_args(const std::vector<plan_op> &ops, const compiled_plan &cp,
                const fusion_args::values &args) {
    for (int i = 0; i < static_cast<int>(ops.size()); ++i) {
        const fusion_args::values::op_args *a = args_of(ops, i, args);
        if (!a) continue;
        switch (ops[i].kind) {
        case fusion_op::kind::convolution: check_desc(ops, i, a->mems[0], "weights", cp.weights_md); break;
        case fusion_op::kind::binary: check_desc(ops, i, a->mems[0], "src1", ops[i].md); break;
        case fusion_op::kind::bias: check_desc(ops, i, a->mems[0], "bias", ops[i].md); break;
        case fusion_op::kind::batch_norm:
            for (int k = 0; k < 4; ++k) check_desc(ops, i, a->mems[k], bn_names[k], ops[i].md);
            break;
        default: break;
        }
    }
}

std::shared_ptr<const derived_args> derive_args(const std::vector<plan_op> &ops,
        const compiled_plan &cp, const memory::dims &out_dims, const fusion_args::values &args) {
    check_args(ops, cp, args);
    auto da = std::make_shared<derived_args>();
    da->stamp = args.stamp;
    for_each_source(ops, args, [&](const char *p, size_t n) {
        da->source_bytes.insert(da->source_bytes.end(), p, p + n);
    });
    const lowered_plan &lp = cp.lowered;
    const int64_t channels = out_dims[1];
    const memory::dims sp(out_dims.begin() + 2, out_dims.end());
    int64_t all_pixels = 1;
    for (const auto v : sp) all_pixels *= v;

    if (!lp.conv_bias_ops.empty()) {
        std::vector<double> b(static_cast<size_t>(channels), 0.0);
        for (const int i : lp.conv_bias_ops)
            for (int64_t c = 0; c < channels; ++c)
                b[c] += stat_at(args.find(i)->mems[0], ops[i].md, c, 0, sp);
        da->conv_bias = operand_memory(cp.conv_bias_md, b, channels, 1);
    }

    da->entry_args.resize(lp.sources.size());
    for (size_t e = 0; e < lp.sources.size(); ++e) {
        const entry_source &src = lp.sources[e];
        const post_ops::entry &entry = lp.chain.entries()[e];
        switch (src.what) {
        case entry_source::kind::affine_scale:
        case entry_source::kind::affine_shift: {
            // x -> a x + b through the run: a bias adds, a batch norm maps x to
            // f x + (shift - mean f) with f = scale / sqrt(variance + epsilon).
            const int64_t pixels = src.per_activation ? all_pixels : 1;
            const size_t n = static_cast<size_t>(channels * pixels);
            std::vector<double> a(n, 1.0), b(n, 0.0);
            for (const int i : src.run) {
                const fusion_args::values::op_args &oa = *args.find(i);
                for (int64_t c = 0; c < channels; ++c)
                    for (int64_t s = 0; s < pixels; ++s) {
                        const size_t k = static_cast<size_t>(c * pixels + s);
                        if (ops[i].kind == fusion_op::kind::bias) {
                            b[k] += stat_at(oa.mems[0], ops[i].md, c, s, sp);
                            continue;
                        }
                        const double scale = stat_at(oa.mems[0], ops[i].md, c, s, sp);
                        const double shift = stat_at(oa.mems[1], ops[i].md, c, s, sp);
                        const double mean = stat_at(oa.mems[2], ops[i].md, c, s, sp);
                        const double var = stat_at(oa.mems[3], ops[i].md, c, s, sp);
                        const double f = scale / std::sqrt(var + oa.epsilon);
                        a[k] *= f;
                        b[k] = b[k] * f + (shift - mean * f);
                    }
            }
            da->entry_args[e] = operand_memory(cp.operand_mds[e],
                    src.what == entry_source::kind::affine_scale ? a : b, channels, pixels);
            break;
        }
        case entry_source::kind::activation: {
            if (!has_runtime_fields(entry)) break;
            const fusion_args::values::op_args &oa = *args.find(src.op);
            const activation_step st = activation_steps(ops[src.op].activation, oa.alpha,
                                                        oa.beta, oa.gamma)[src.step];
            da->entry_args[e] = params_memory(st.alpha, st.beta, 1.f);
            break;
        }
        case entry_source::kind::sum: {
            const fusion_args::values::op_args *oa = args.find(src.op);
            da->entry_args[e] = params_memory(0.f, 0.f, oa ? oa->sum_scale : 1.f);
            break;
        }
        case entry_source::kind::binary: break; // the user's src1, passed at every execute
        }
    }
    return da;
}

} // namespace impl
} // namespace prim
