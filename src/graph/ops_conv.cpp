// Conv: ONNX's attributes (group, dilations, strides, pads, auto_pad) as a prim convolution,
// layouts left to the primitive ('any') so consecutive convolutions exchange blocked data.
#include <memory>

#include "common/internal_reorder.hpp"
#include "graph/conv_geometry.hpp"
#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

conv_geometry conv_geometry_of(const node &n, const memory::dims &x, const memory::dims &w) {
    if (x.size() < 3 || x.size() > 5) fail(n, "X must have 3 to 5 dims, not " + dims_text(x));
    if (w.size() != x.size())
        fail(n, "W (" + dims_text(w) + ") must have X's rank (" + dims_text(x) + ")");
    const size_t nsp = x.size() - 2;
    conv_geometry g;
    g.group = attr_int(n, "group", 1);
    if (g.group < 1 || g.group > x[1])
        fail(n, "bad attribute group=" + std::to_string(g.group) + " for X's " + std::to_string(x[1]) + " channels");
    if (x[1] != w[1] * g.group)
        fail(n, "X has " + std::to_string(x[1]) + " channels but W (" + dims_text(w) +
                    ") with group=" + std::to_string(g.group) + " expects " + std::to_string(w[1] * g.group));
    if (w[0] % g.group != 0)
        fail(n, "W's " + std::to_string(w[0]) + " output channels are not divisible by group=" +
                    std::to_string(g.group));
    const auto kshape = attr_ints(n, "kernel_shape", memory::dims(w.begin() + 2, w.end()));
    if (kshape != memory::dims(w.begin() + 2, w.end()))
        fail(n, "bad attribute kernel_shape: W's spatial dims are " + dims_text(memory::dims(w.begin() + 2, w.end())));
    g.strides = attr_ints(n, "strides", memory::dims(nsp, 1));
    const auto dil = attr_ints(n, "dilations", memory::dims(nsp, 1));
    auto pads = attr_ints(n, "pads", memory::dims(2 * nsp, 0));
    if (g.strides.size() != nsp || dil.size() != nsp || pads.size() != 2 * nsp)
        fail(n, "bad attribute: strides and dilations need " + std::to_string(nsp) +
                    " values and pads " + std::to_string(2 * nsp));
    check_attr_range(n, "strides", g.strides, 1);
    check_attr_range(n, "dilations", dil, 1);
    check_attr_range(n, "pads", pads, 0);
    const std::string auto_pad = attr_string(n, "auto_pad", "NOTSET");
    if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER")
        fail(n, "bad attribute auto_pad=" + auto_pad);
    for (size_t i = 0; i < nsp; ++i) {
        if (g.strides[i] < 1 || dil[i] < 1) fail(n, "bad attribute: strides and dilations must be >= 1");
        if (pads[i] < 0 || pads[nsp + i] < 0) fail(n, "bad attribute: pads must be >= 0");
        const int64_t in = x[2 + i], s = g.strides[i], ext = (w[2 + i] - 1) * dil[i] + 1;
        int64_t pb = pads[i], pe = pads[nsp + i];
        apply_auto_pad(auto_pad, in, s, ext, pb, pe);
        const int64_t o = (in + pb + pe - ext) / s + 1;
        if (in + pb + pe < ext || o < 1)
            fail(n, "the kernel (extent " + std::to_string(ext) + ") does not fit the padded input (" +
                        std::to_string(in + pb + pe) + ") along spatial dim " + std::to_string(i));
        g.dilates.push_back(dil[i] - 1);
        g.pad_l.push_back(pb);
        g.pad_r.push_back((o - 1) * s + ext - in - pb);
        g.out.push_back(o);
    }
    g.out.insert(g.out.begin(), {x[0], w[0]});
    return g;
}

namespace {

std::vector<memory::dims> infer_conv(const model &, const node &n, const std::vector<memory::dims> &in) {
    if (in.size() > 2 && !in[2].empty() && in[2] != memory::dims{in[1][0]})
        fail(n, "B must have dims " + std::to_string(in[1][0]) + ", not " + dims_text(in[2]));
    return {conv_geometry_of(n, in[0], in[1]).out};
}

// A layout with blocks inside a dim ("aBcd16b"), as against a permutation of plain dims ("acdb").
bool has_inner_blocks(const memory::desc &md) {
    return md.layout().find_first_of("0123456789") != std::string::npos;
}

memory constant_buffer(plan_builder &b, const memory::dims &d, const std::vector<float> &v) {
    memory m = b.persistent(plan_builder::plain_desc(d));
    std::copy(v.begin(), v.end(), static_cast<float *>(m.get_data_handle()));
    return m;
}

// The weights t (viewed with dims wdims, grouped: (g, oc/g, ...)) in the layout the convolution
// reads. Folded per-channel factors are applied on the way: inside the tile reorder into a
// blocked layout (one pass over the weights: scaling into a scratch copy that the reorder then
// read was 10% of ResNet-50's compile), else into the weights themselves when the convolution
// reads them plain, else into a scratch copy that the generic reorder reads. Only the final
// layout gets memory of its own, once.
memory conv_weights(plan_builder &b, const std::string &t, const memory::dims &wdims, bool grouped,
                    const fold_state &fold, const memory::desc &want) {
    const memory::desc plain = plan_builder::plain_desc(wdims);
    if (fold.weight_scales.empty()) {
        memory src = b.view(b.plain(t), plain);
        if (want == plain) return src;
        memory r = b.alloc(want);
        b.reorder_step("reorder " + t + " plain -> " + want.layout(), src, r, b.is_constant(t));
        return r;
    }
    const std::vector<float> &w = b.g.m->initializers.at(t).data; // a fold needs an initializer
    impl::channel_factors factors;
    factors.leading_dims = grouped ? 2 : 1;
    for (const auto &a : fold.weight_scales) factors.lists.push_back(a.data());
    const auto scratch = [&b](size_t n) { return b.scratch(n); };
    if (want == plain) {
        memory scaled = b.persistent(plain);
        impl::reorder_scaled(plain, plain, w.data(), static_cast<float *>(scaled.get_data_handle()), factors,
                             scratch);
        return scaled;
    }
    memory r = b.alloc(want);
    b.step("reorder " + t + " plain -> " + want.layout() + " times the folded factors",
           [&] {
               impl::reorder_scaled(plain, want, w.data(), static_cast<float *>(r.get_data_handle()), factors,
                                    scratch);
           },
           true, {r});
    return r;
}

// The depthwise convolution of o's dw entry (fuse_dw_pairs.cpp), nullptr when o has none: its
// output dims and its constant bias (zeros when it has none), which the entries after the dw
// may fold into with its weights.
std::unique_ptr<dw_lowering> depthwise_of(const plan_builder &b, const op &o) {
    const post_entry::depthwise *d = dw_entry_of(o);
    if (!d) return nullptr;
    auto dw = std::make_unique<dw_lowering>();
    dw->conv = d;
    dw->out = b.g.dims_of(o.outputs[0]);
    dw->fold.oc = dw->out[1];
    dw->fold.weights_constant = true; // the fuser merges constant depthwise weights only
    dw->fold.bias.assign(static_cast<size_t>(dw->fold.oc), 0.f);
    if (d->inputs.size() > 2 && !d->inputs[2].empty()) dw->fold.bias = b.g.m->initializers.at(d->inputs[2]).data;
    return dw;
}

// The depthwise weights ({C, 1, K, K} in ONNX, grouped {C, 1, 1, K, K} in prim) and bias in the
// layouts the primitive asks (query_md), the entries folded into them on the way: reordered once,
// at load time.
void add_depthwise_args(plan_builder &b, const dw_lowering &dw, const convolution_forward::primitive_desc &pd,
                        exec_args &args) {
    const int wei_arg = PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS, bias_arg = PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS;
    const memory::dims wdims = {dw.fold.oc, 1, 1, dw.conv->kernel, dw.conv->kernel};
    args[wei_arg] = conv_weights(b, dw.conv->inputs[1], wdims, true, dw.fold, pd.query_md(wei_arg));
    const memory bias = constant_buffer(b, {dw.fold.oc}, dw.fold.bias);
    args[bias_arg] = b.in_layout_memory(bias, pd.query_md(bias_arg), true);
}

void lower_conv(plan_builder &b, const op &o) {
    const node &n = *o.n;
    const model &m = *b.g.m;
    const memory::dims &xd = b.g.dims_of(o.inputs[0]), &wd = b.g.dims_of(o.inputs[1]);
    const conv_geometry geo = conv_geometry_of(n, xd, wd);
    const bool has_bias = has_input(n, 2);
    const int64_t oc = wd[0];

    fold_state fold;
    fold.oc = oc;
    fold.weights_constant = m.initializers.count(o.inputs[1]) != 0;
    fold.bias.assign(oc, 0.f);
    if (has_bias) {
        fold.bias_constant = m.initializers.count(o.inputs[2]) != 0;
        if (fold.bias_constant) fold.bias = m.initializers.at(o.inputs[2]).data;
    }
    std::unique_ptr<dw_lowering> dw = depthwise_of(b, o);
    lowered_chain c = lower_chain(b, o, geo.out, post_ops(), &fold, dw.get());
    const bool constant = b.all_constant(o);

    // The weights as prim wants them: (g, oc/g, ic/g, k...) when grouped, the same bytes.
    memory::dims wdims = wd;
    if (geo.group > 1) {
        wdims[0] = wd[0] / geo.group;
        wdims.insert(wdims.begin(), geo.group);
    }
    memory bias_mem;
    if (fold.changed) bias_mem = constant_buffer(b, {oc}, fold.bias);
    else if (has_bias) bias_mem = b.plain(o.inputs[2]);
    const bool bias_constant = fold.changed || !has_bias || b.is_constant(o.inputs[2]);

    const auto any = [](const memory::dims &d) {
        return memory::desc(d, memory::data_type::f32, memory::format_tag::any);
    };
    const memory::desc bias_md = bias_mem.is_empty() ? memory::desc() : bias_mem.get_desc();
    auto make_pd = [&](const memory::desc &src_md) {
        return convolution_forward::primitive_desc(
            bias_mem.is_empty()
                ? convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                            src_md, any(wdims), any(geo.out), geo.strides, geo.dilates,
                                            geo.pad_l, geo.pad_r)
                : convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                            src_md, any(wdims), bias_md, any(geo.out), geo.strides,
                                            geo.dilates, geo.pad_l, geo.pad_r),
            b.attr(c.po));
    };
    convolution_forward::primitive_desc pd = make_pd(any(xd));
    // The source as its producer left it (another convolution's blocked output), when the same
    // implementation reads it: no reorder between the two. A plain source is taken only when
    // the primitive chose an unblocked layout (channels last, its choice for few channels, as
    // for a first layer's image): reading nchw directly then costs the same as channels last,
    // and the reorder is saved (MobileNet v2's 1x3x224x224 input: 0.12 ms, 2% of the mb1 run).
    // For many channels the blocked layout is worth its reorder.
    const memory::desc have = b.get(o.inputs[0]).get_desc();
    const bool plain = have == plan_builder::plain_desc(xd);
    if (pd.src_desc() != have && have.is_dense() && (!plain || !has_inner_blocks(pd.src_desc()))) {
        try {
            convolution_forward::primitive_desc given = make_pd(have);
            if (given.impl_name() == pd.impl_name()) pd = given;
        } catch (const error &) {
            // Not taken in that layout: reorder into the chosen one.
        }
    }

    memory src = b.in_layout(o.inputs[0], pd.src_desc());
    memory wei = conv_weights(b, o.inputs[1], wdims, geo.group > 1, fold, pd.weights_desc());
    exec_args args = c.args;
    if (!bias_mem.is_empty()) {
        memory bias = bias_mem;
        if (pd.bias_desc() != bias_mem.get_desc()) {
            bias = b.alloc(pd.bias_desc());
            b.reorder_step("reorder bias of " + n.name, bias_mem, bias, bias_constant);
        }
        args[PRIM_ARG_BIAS] = bias;
    }
    if (dw) add_depthwise_args(b, *dw, pd, args);
    memory dst = host_destination(b, c, pd.dst_desc(), constant);
    args[PRIM_ARG_SRC] = src;
    args[PRIM_ARG_WEIGHTS] = wei;
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(step_text(o, "convolution", pd.impl_name(), c) + " src " + pd.src_desc().layout() +
                         " dst " + pd.dst_desc().layout(),
                     convolution_forward(pd), args, constant);
    b.set(o.outputs[0], dst, constant, true);
}

} // namespace

void check_conv(const model &, const node &n) {
    (void)attr_int(n, "group", 1);
    (void)attr_string(n, "auto_pad", "NOTSET");
}

std::vector<op_def> conv_ops() { return {{"Conv", 2, 3, 1, check_conv, infer_conv, lower_conv}}; }

} // namespace detail
} // namespace graph
} // namespace prim
