// The dw post-op in the graph (issue 29, doc/dw_post_op.md): a 1x1 convolution (with its chain)
// and the depthwise convolution that alone reads its output (with its chain) become one
// convolution whose chain holds a dw entry, so that the 1x1's output, the largest tensor of an
// inverted-residual block, never gets a buffer. int8 pairs (two QLinearConv ops of the QDQ
// passes) merge the same way where the intermediate tensor has no zero point.
#include <algorithm>
#include <cstdlib>

#include "common/dw_post_op.hpp"
#include "graph/conv_geometry.hpp"
#include "graph/fuse.hpp"
#include "graph/fusion_log.hpp"
#include "prim/convolution.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

using dt = memory::data_type;

bool is_conv(const op &o) { return o.type == "Conv" || o.type == "QLinearConv"; }
bool is_int8(const op &o) { return o.type == "QLinearConv"; }
size_t weights_at(const op &o) { return is_int8(o) ? 3 : 1; }
size_t bias_at(const op &o) { return is_int8(o) ? 8 : 2; }

conv_geometry geometry_of(const graph_ir &g, const op &o) {
    return conv_geometry_of(*o.n, g.dims_of(o.inputs[0]), g.dims_of(o.inputs[weights_at(o)]));
}

bool all_zero(const memory::dims &v) {
    for (auto x : v)
        if (x != 0) return false;
    return true;
}

// A depthwise convolution: one group per input channel (and at least two channels).
bool is_depthwise(const graph_ir &g, const op &o) {
    if (!is_conv(o) || g.dims_of(o.inputs[0]).size() != 4) return false;
    const int64_t c = g.dims_of(o.inputs[0])[1];
    return c > 1 && attr_int(*o.n, "group", 1) == c;
}

bool chain_has(const op &o, post_entry::kind k) {
    for (const auto &e : o.post)
        if (e.k == k) return true;
    return false;
}

// A constant input's values ({} when the input is left out), or nullptr when it is computed.
const std::vector<float> *constant_values(const graph_ir &g, const op &o, size_t i) {
    static const std::vector<float> none;
    if (i >= o.inputs.size() || o.inputs[i].empty()) return &none;
    auto it = g.m->initializers.find(o.inputs[i]);
    return it == g.m->initializers.end() ? nullptr : &it->second.data;
}

bool zero_or_absent(const std::vector<float> *v) {
    if (!v) return false;
    for (float x : *v)
        if (x != 0.f) return false;
    return true;
}

// "" when the 1x1 convolution p may carry a dw post-op: 2D, 1x1, stride 1, unpadded, ungrouped,
// undilated, a chain without a sum or a per-pixel operand (doc/dw_post_op.md), no dw yet.
std::string pointwise_problem(const graph_ir &g, const op &p, const conv_geometry &geo) {
    const memory::dims &w = g.dims_of(p.inputs[weights_at(p)]);
    if (w.size() != 4) return p.n->name + " is not a 2D convolution";
    if (w[2] != 1 || w[3] != 1)
        return p.n->name + " has a " + std::to_string(w[2]) + "x" + std::to_string(w[3]) +
               " kernel: the dw post-op follows a 1x1 convolution only";
    for (auto s : geo.strides)
        if (s != 1) return p.n->name + " has stride " + std::to_string(s) + ": the dw post-op follows stride 1 only";
    if (!all_zero(geo.pad_l) || !all_zero(geo.pad_r)) return p.n->name + " is padded";
    if (geo.group != 1) return p.n->name + " is grouped";
    if (!all_zero(geo.dilates)) return p.n->name + " is dilated";
    for (const auto &e : p.post) {
        if (e.k == post_entry::kind::sum) return p.n->name + "'s chain has a sum: a chain with a dw post-op takes none";
        if (e.k == post_entry::kind::dw) return p.n->name + " carries a dw post-op already";
        if (e.k == post_entry::kind::binary)
            return p.n->name + "'s chain has a binary entry (" + e.operand +
                   "): prim's fused pass declines an operand before the dw";
    }
    return "";
}

// "" when the depthwise convolution d is one the dw entry describes exactly: one output channel
// per group, a square kernel, equal strides and start paddings, and the output and end padding
// dw_problem() derives (ceil(i / S) outputs), constant weights and bias, no sum in its chain;
// `e` gets its kernel, stride and padding.
std::string depthwise_problem(const graph_ir &g, const op &d, const conv_geometry &geo,
                              post_entry::depthwise &e) {
    const memory::dims &x = g.dims_of(d.inputs[0]), &w = g.dims_of(d.inputs[weights_at(d)]);
    if (w[0] != x[1]) return d.n->name + " has " + std::to_string(w[0] / x[1]) + " output channels per group, not 1";
    if (w[2] != w[3]) return d.n->name + "'s kernel " + std::to_string(w[2]) + "x" + std::to_string(w[3]) + " is not square";
    if (geo.strides[0] != geo.strides[1]) return d.n->name + "'s strides differ along h and w";
    if (!all_zero(geo.dilates)) return d.n->name + " is dilated";
    if (geo.pad_l[0] != geo.pad_l[1]) return d.n->name + "'s start paddings differ along h and w";
    if (geo.pad_l[0] >= w[2]) return d.n->name + "'s padding is not below its kernel";
    e.kernel = w[2];
    e.stride = geo.strides[0];
    e.padding = geo.pad_l[0];
    // The depthwise problem the dw entry makes of the 1x1's output.
    impl::conv_problem one_by_one;
    one_by_one.mb = x[0];
    one_by_one.ic = one_by_one.oc = x[1];
    one_by_one.o[1] = x[2];
    one_by_one.o[2] = x[3];
    post_ops::entry entry;
    entry.kind = post_ops::kind::dw;
    entry.dw.kernel = e.kernel;
    entry.dw.stride = e.stride;
    entry.dw.padding = e.padding;
    const impl::conv_problem want = impl::dw_problem(one_by_one, entry);
    for (int sp = 0; sp < 2; ++sp)
        if (want.o[1 + sp] != geo.out[2 + sp] || want.p_end[1 + sp] != geo.pad_r[sp])
            return d.n->name + "'s output " + dims_text(geo.out) + " with end padding " +
                   std::to_string(geo.pad_r[0]) + "x" + std::to_string(geo.pad_r[1]) +
                   " is not the dw post-op's: ceil(i / " + std::to_string(e.stride) + ") = " +
                   std::to_string(want.o[1]) + "x" + std::to_string(want.o[2]) + " with end padding " +
                   std::to_string(want.p_end[1]) + "x" + std::to_string(want.p_end[2]);
    if (!constant_values(g, d, weights_at(d)) || !constant_values(g, d, bias_at(d)))
        return d.n->name + "'s weights or bias are not constant";
    if (chain_has(d, post_entry::kind::sum)) return d.n->name + "'s chain has a sum: a chain with a dw post-op takes none";
    e.n = d.n;
    e.inputs = d.inputs;
    return "";
}

// int8 (two QLinearConv ops): "" when the intermediate tensor is u8 or s8 without a zero point
// and the depthwise reads it with the scale the 1x1 wrote it with, the depthwise's output has no
// zero point either (the dw post-op has none there), and both weights are s8 without a zero
// point (no f32 route: ops_quant.cpp).
std::string int8_problem(const graph_ir &g, const op &p, const op &d) {
    if (is_int8(p) != is_int8(d)) return "one of them is int8 and the other f32";
    if (!is_int8(p)) return "";
    if (p.inputs.size() < 8 || p.inputs[6].empty()) return p.n->name + " has no output scale";
    if (!zero_or_absent(constant_values(g, p, 7))) return p.n->name + "'s output has a zero point";
    if (!zero_or_absent(constant_values(g, d, 2))) return d.n->name + "'s input has a zero point";
    if (!zero_or_absent(constant_values(g, d, 7))) return d.n->name + "'s output has a zero point";
    for (const op *o : {&p, &d})
        if (g.type_of(o->inputs[3]) != dt::s8 || !zero_or_absent(constant_values(g, *o, 5)))
            return o->n->name + "'s weights are not s8 without a zero point";
    const std::vector<float> *ys = constant_values(g, p, 6), *xs = constant_values(g, d, 1);
    if (!ys || !xs || *ys != *xs) return d.n->name + " reads its input with another scale than " + p.n->name + " wrote it with";
    return "";
}

// The chain the lowering will give the merged op, as far as creation cares: its eltwise entries
// and the dw entry (the per-channel entries fold into weights and biases).
post_ops probe_chain(const op &p, const op &d, const post_entry::depthwise &e, const graph_ir &g) {
    post_ops po;
    const auto eltwise = [&po](const op &o) {
        for (const auto &x : o.post)
            if (x.k == post_entry::kind::eltwise)
                po.append_eltwise(x.fn.alg, x.fn.alpha_input.empty() ? x.fn.alpha : PRIM_RUNTIME_F32_VAL,
                                  x.fn.beta_input.empty() ? x.fn.beta : PRIM_RUNTIME_F32_VAL);
    };
    eltwise(p);
    if (is_int8(d))
        po.append_dw(dt::s8, dt::f32, g.type_of(d.outputs[0]), e.kernel, e.stride, e.padding, 0, {});
    else
        po.append_dw(dt::f32, dt::f32, dt::f32, e.kernel, e.stride, e.padding, 0, {});
    eltwise(d);
    return po;
}

// "" when prim creates the merged convolution on an implementation at least as fast as the 1x1
// alone gets (the fused JIT pass, not the reference while the 1x1 runs on a JIT), else why not:
// int8 through the dw post-op, for one, until it is built.
std::string creation_problem(const graph_ir &g, const options &opt, const op &p, const op &d,
                             const post_entry::depthwise &e) {
    const memory::dims &x = g.dims_of(p.inputs[0]), &w = g.dims_of(p.inputs[weights_at(p)]);
    const bool int8 = is_int8(p);
    const auto any = [](const memory::dims &dims, dt t) { return memory::desc(dims, t, memory::format_tag::any); };
    // dst as the 1x1's output (its dims and type: int8's intermediate type), as oneDNN takes it;
    // the dw entry gives the final type.
    const auto make = [&](const post_ops &po) {
        primitive_attr a;
        a.set_post_ops(po);
        a.set_max_cpu_isa(opt.max_isa);
        if (int8) {
            for (int arg : {int(PRIM_ARG_SRC), int(PRIM_ARG_WEIGHTS), int(PRIM_ARG_DST)}) a.set_scales_mask(arg, 0);
            if (po.dw_index() >= 0) // the dw arguments' scales belong to a chain with a dw entry
                for (int arg : {PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST})
                    a.set_scales_mask(arg, 0);
        }
        return convolution_forward::primitive_desc(
            convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                      any(x, g.type_of(p.inputs[0])), any(w, int8 ? dt::s8 : dt::f32),
                                      memory::desc({w[0]}, dt::f32, memory::format_tag::x),
                                      any(g.dims_of(p.outputs[0]), g.type_of(p.outputs[0])), {1, 1}, {0, 0},
                                      {0, 0}, {0, 0}),
            a);
    };
    try {
        const auto fused = make(probe_chain(p, d, e, g));
        const std::string impl = fused.impl_name();
        if (impl.rfind("ref", 0) != 0) return "";
        const std::string alone = make(post_ops()).impl_name();
        if (alone.rfind("ref", 0) == 0) return "";
        return "prim's fused pass declines the pair: it would run on " + impl + " while the 1x1 alone runs on " +
               alone + " (PRIM_VERBOSE=2 says why)";
    } catch (const error &err) {
        std::string why = err.what();
        std::replace(why.begin(), why.end(), ',', ';'); // a log line's reason has no commas
        return "prim does not create the merged convolution: " + why;
    }
}

bool dw_fusion_enabled() {
    const char *v = std::getenv("PRIM_GRAPH_DW_FUSION");
    return !v || std::string(v) != "0";
}

std::string pattern_of(const op &o) { return o.pattern.empty() ? o.type : o.pattern; }

// Tries to merge the depthwise convolution at index di with the convolution writing its input.
void fuse_at(graph_ir &g, const options &opt, size_t di) {
    op &d = g.ops[di];
    const int pi = g.producer(d.inputs[0]);
    if (pi < 0 || !is_conv(g.ops[pi])) return;
    op &p = g.ops[pi];
    const auto refuse = [&](const std::string &why) { log_refused(g.log, d.n->name, p.n->name, why); };
    if (g.is_graph_output(p.outputs[0])) return refuse(p.n->name + "'s output is a graph output");
    if (g.readers(p.outputs[0]) != 1) return refuse(p.n->name + "'s output has another consumer");
    const std::string types = int8_problem(g, p, d);
    if (!types.empty()) return refuse(types);
    const std::string pw = pointwise_problem(g, p, geometry_of(g, p));
    if (!pw.empty()) return refuse(pw);
    post_entry e;
    e.k = post_entry::kind::dw;
    const std::string dwp = depthwise_problem(g, d, geometry_of(g, d), e.dw_conv);
    if (!dwp.empty()) return refuse(dwp);
    const std::string cp = creation_problem(g, opt, p, d, e.dw_conv);
    if (!cp.empty()) return refuse(cp);

    op fused = p;
    fused.post.push_back(e);
    fused.post.insert(fused.post.end(), d.post.begin(), d.post.end());
    fused.outputs = d.outputs;
    fused.merged.insert(fused.merged.end(), d.merged.begin(), d.merged.end());
    fused.pattern = pattern_of(p) + "+dw:k" + std::to_string(e.dw_conv.kernel) + "s" +
                    std::to_string(e.dw_conv.stride) + "p" + std::to_string(e.dw_conv.padding) + "(" +
                    pattern_of(d) + ")";
    p.alive = false;
    g.ops[di] = fused; // at the depthwise's place: every operand of both chains exists by then
    log_fused(g.log, fused.pattern, fused.merged);
}

} // namespace

void fuse_dw_pairs(graph_ir &g, const options &opt) {
    if (!dw_fusion_enabled()) {
        verbose_info("the dw fusion is off (PRIM_GRAPH_DW_FUSION=0)");
        return;
    }
    for (size_t i = 0; i < g.ops.size(); ++i)
        if (g.ops[i].alive && is_depthwise(g, g.ops[i])) fuse_at(g, opt, i);
}

} // namespace detail
} // namespace graph
} // namespace prim
