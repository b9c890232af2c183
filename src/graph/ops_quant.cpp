// The quantized ops: QuantizeLinear and DequantizeLinear as prim reorders with output scales and
// zero points; QLinearConv and ConvInteger as prim's int8 convolution, QLinearMatMul and
// MatMulInteger as its int8 inner product (a B computed at run time: ops_qmatmul_runtime_b.cpp).
// Scales and zero points must be initializers (their values are needed when the model is
// compiled). prim's primitives take no weight zero point:
// constant weights are shifted by theirs into s8 when every w - zp fits (s8 weights with a zero
// point of 0, u8 ones quantized around 128), exactly; other weights take the f32 route
// (f32_route below). The QDQ convolution (fuse_qdq.cpp) is lowered here as a QLinearConv.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "graph/conv_geometry.hpp"
#include "graph/integer_values.hpp"
#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"
#include "graph/quant_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

using dt = memory::data_type;

bool is_int8(dt t) { return t == dt::u8 || t == dt::s8; }

std::string input_name(const node &n, size_t i) { return "input " + std::to_string(i) + " (" + n.inputs[i] + ")"; }

// Fails unless input i (when given) has type want.
void want_type(const node &n, const std::vector<dt> &in, size_t i, dt want, const char *what) {
    if (i < in.size() && has_input(n, i) && in[i] != want)
        fail(n, std::string(what) + " " + input_name(n, i) + " is " + data_type_name(in[i]) + ", not " +
                    data_type_name(want),
             status::invalid_arguments);
}

void want_int8(const node &n, const std::vector<dt> &in, size_t i, const char *what) {
    if (!is_int8(in[i]))
        fail(n, std::string(what) + " " + input_name(n, i) + " is " + data_type_name(in[i]) +
                    ": u8 or s8 is supported",
             status::unimplemented);
}

// A zero point has its tensor's type (ONNX's T), whose type it must be.
void want_zero_point(const node &n, const std::vector<dt> &in, size_t zp, dt of, const char *what) {
    if (zp < in.size() && has_input(n, zp) && in[zp] != of)
        fail(n, std::string(what) + " " + input_name(n, zp) + " is " + data_type_name(in[zp]) + " but its tensor is " +
                    data_type_name(of) + ": a zero point has its tensor's type",
             status::invalid_arguments);
}

// The output's type: the zero point's (u8 when there is none).
dt output_type(const node &n, const std::vector<dt> &in, size_t zp, const char *what) {
    if (zp >= in.size() || !has_input(n, zp)) return dt::u8;
    if (!is_int8(in[zp]))
        fail(n, std::string(what) + " " + input_name(n, zp) + " is " + data_type_name(in[zp]) +
                    ": the output type must be u8 or s8",
             status::unimplemented);
    return in[zp];
}

std::vector<dt> types_quantize(const model &, const node &n, const std::vector<dt> &in) {
    want_type(n, in, 0, dt::f32, "x");
    want_type(n, in, 1, dt::f32, "y_scale");
    return {output_type(n, in, 2, "y_zero_point")};
}

std::vector<dt> types_dequantize(const model &, const node &n, const std::vector<dt> &in) {
    if (!is_int8(in[0]) && in[0] != dt::s32)
        fail(n, "x " + input_name(n, 0) + " is " + data_type_name(in[0]) + ": u8, s8 or s32 is supported",
             status::unimplemented);
    want_type(n, in, 1, dt::f32, "x_scale");
    want_zero_point(n, in, 2, in[0], "x_zero_point");
    return {dt::f32};
}

// ConvInteger and MatMulInteger: (x, w, x_zero_point, w_zero_point) -> s32.
std::vector<dt> types_integer(const model &, const node &n, const std::vector<dt> &in) {
    want_int8(n, in, 0, "the data");
    want_int8(n, in, 1, "the weights");
    want_zero_point(n, in, 2, in[0], "the data's zero point");
    want_zero_point(n, in, 3, in[1], "the weights' zero point");
    return {dt::s32};
}

// QLinearConv and QLinearMatMul: (x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp[, B]).
std::vector<dt> types_qlinear(const model &, const node &n, const std::vector<dt> &in) {
    want_int8(n, in, 0, "the data");
    want_int8(n, in, 3, "the weights");
    for (size_t s : {1, 4, 6}) want_type(n, in, s, dt::f32, "the scale");
    want_zero_point(n, in, 2, in[0], "the data's zero point");
    want_zero_point(n, in, 5, in[3], "the weights' zero point");
    want_type(n, in, 8, dt::s32, "the bias");
    return {output_type(n, in, 7, "y_zero_point")};
}

// The scale (input si) and zero point (input zi, optional) of a tensor; `axis` the dim a per-axis
// scale runs along (-1: per tensor only) of extent `extent`.
qparams read_qparams(const model &m, const node &n, size_t si, size_t zi, int axis, int64_t extent,
                     const char *what) {
    qparams q;
    const std::string sname = std::string(what) + "'s scale", zname = std::string(what) + "'s zero point";
    const tensor &s = constant_input(m, n, si, sname.c_str());
    const int64_t count = product(s.dims);
    if (count != 1) {
        if (axis < 0)
            fail(n, sname + " " + input_name(n, si) + " has " + std::to_string(count) +
                        " values: only one (per tensor) is supported here",
                 status::unimplemented);
        if (s.dims.size() != 1 || count != extent)
            fail(n, sname + " " + input_name(n, si) + " has dims " + dims_text(s.dims) + " but axis " +
                        std::to_string(axis) + " has " + std::to_string(extent) + " entries");
        q.axis = axis;
    }
    q.scales = s.data;
    for (size_t k = 0; k < q.scales.size(); ++k)
        if (!std::isfinite(q.scales[k]) || q.scales[k] == 0.f)
            fail(n, sname + " " + input_name(n, si) + " holds " + std::to_string(q.scales[k]) + " at index " +
                        std::to_string(k) + ": a scale must be finite and not 0");
    q.zps.assign(q.scales.size(), 0);
    if (has_input(n, zi)) {
        const tensor &z = constant_input(m, n, zi, zname.c_str());
        if (product(z.dims) != count)
            fail(n, zname + " " + input_name(n, zi) + " has dims " + dims_text(z.dims) + " but the scale has " +
                        dims_text(s.dims));
        for (size_t k = 0; k < z.data.size(); ++k) q.zps[k] = static_cast<int32_t>(z.data[k]);
    }
    return q;
}

// The axis attribute of QuantizeLinear / DequantizeLinear resolved against rank r.
int quant_axis(const node &n, size_t r) {
    const int64_t a = attr_int(n, "axis", 1);
    const int64_t rank = static_cast<int64_t>(r);
    if (a < -rank || a >= rank)
        fail(n, "bad attribute axis=" + std::to_string(a) + " for an input of rank " + std::to_string(r));
    return static_cast<int>(a < 0 ? a + rank : a);
}

std::vector<memory::dims> infer_same(const model &m, const node &n, const std::vector<memory::dims> &in) {
    // The parameters are checked against the dims here, before anything is built.
    const int64_t count = m.initializers.count(n.inputs[1]) ? product(m.initializers.at(n.inputs[1]).dims) : 1;
    if (count != 1) {
        const int axis = quant_axis(n, in[0].size());
        (void)read_qparams(m, n, 1, 2, axis, in[0][axis], "x");
    }
    return {in[0]};
}

// Quantize / dequantize with one zero point per index of the axis (reorder takes one zero point).
// The tensor is plain; channel c of element i is (i / inner) % channels.
void per_axis_zp_step(plan_builder &b, const op &o, const memory &src, const memory &dst, const qparams &q,
                      bool quantize, bool constant) {
    const memory::dims &d = b.g.dims_of(o.inputs[0]);
    int64_t inner = 1;
    for (size_t k = static_cast<size_t>(q.axis) + 1; k < d.size(); ++k) inner *= d[k];
    const int64_t channels = d[static_cast<size_t>(q.axis)], total = product(d);
    const dt idt = quantize ? dst.get_desc().get_data_type() : src.get_desc().get_data_type();
    b.step(o.n->name + ": " + (quantize ? "quantize" : "dequantize") + " per axis " + std::to_string(q.axis) +
               " with a zero point per entry (graph loop)",
           [=] {
               const double lo = idt == dt::u8 ? 0 : idt == dt::s8 ? -128 : -2147483648.0;
               const double hi = idt == dt::u8 ? 255 : idt == dt::s8 ? 127 : 2147483647.0;
               for (int64_t i = 0; i < total; ++i) {
                   const size_t c = static_cast<size_t>((i / inner) % channels);
                   if (quantize) {
                       const float x = static_cast<const float *>(src.get_data_handle())[i];
                       double y = std::nearbyint(static_cast<double>(x / q.scales[c])) + q.zps[c];
                       y = std::isnan(y) ? 0 : std::min(hi, std::max(lo, y));
                       if (idt == dt::u8) static_cast<uint8_t *>(dst.get_data_handle())[i] = static_cast<uint8_t>(y);
                       else static_cast<int8_t *>(dst.get_data_handle())[i] = static_cast<int8_t>(y);
                   } else {
                       int32_t x = 0;
                       if (idt == dt::u8) x = static_cast<const uint8_t *>(src.get_data_handle())[i];
                       else if (idt == dt::s8) x = static_cast<const int8_t *>(src.get_data_handle())[i];
                       else x = static_cast<const int32_t *>(src.get_data_handle())[i];
                       static_cast<float *>(dst.get_data_handle())[i] =
                               static_cast<float>(static_cast<int64_t>(x) - q.zps[c]) * q.scales[c];
                   }
               }
           },
           constant, {src, dst});
}

// A reorder step: dst = (src - zp_src) * factor + zp_dst, rounded and saturated for an integer dst;
// factors: one, or one per index of dim `axis`.
void scaled_reorder_step(plan_builder &b, const std::string &text, const memory &src, const memory &dst,
                         const std::vector<float> &factors, int axis, int32_t zp_src, int32_t zp_dst, bool constant) {
    primitive_attr a;
    a.set_output_scales(axis < 0 ? 0 : 1 << axis, factors);
    exec_args args = {{PRIM_ARG_FROM, src}, {PRIM_ARG_TO, dst}};
    for (const auto &zp : {std::make_pair(PRIM_ARG_SRC, zp_src), std::make_pair(PRIM_ARG_DST, zp_dst)}) {
        if (zp.second == 0) continue;
        a.set_zero_points_mask(zp.first, 0);
        args[PRIM_ARG_ATTR_ZERO_POINTS | zp.first] = value_buffer(b, &zp.second, dt::s32, 1);
    }
    reorder r(src.get_desc(), dst.get_desc(), a);
    std::vector<memory> uses;
    for (const auto &kv : args) uses.push_back(kv.second);
    b.step(text + ": reorder " + data_type_name(src.get_desc().get_data_type()) + " -> " +
                   data_type_name(dst.get_desc().get_data_type()) +
                   (axis < 0 ? " per tensor" : " per axis " + std::to_string(axis)),
           [r, args] { r.execute(args); }, constant, uses);
}

void lower_quantize(plan_builder &b, const op &o) {
    const node &n = *o.n;
    const bool quantize = n.op_type == "QuantizeLinear";
    const memory::dims &d = b.g.dims_of(o.inputs[0]);
    const model &m = *b.g.m;
    // The axis matters (and must be within the rank) only for a scale of more than one value.
    const bool per_axis = m.initializers.count(n.inputs[1]) && product(m.initializers.at(n.inputs[1]).dims) != 1;
    const int axis = per_axis ? quant_axis(n, d.size()) : -1;
    const qparams q = read_qparams(m, n, 1, 2, axis, axis < 0 ? 1 : d[static_cast<size_t>(axis)], "x");
    const bool constant = b.all_constant(o);
    memory src = b.plain(o.inputs[0]);
    memory dst = b.alloc(plan_builder::plain_desc(d, b.g.type_of(o.outputs[0])));
    if (!q.zp_uniform()) {
        per_axis_zp_step(b, o, src, dst, q, quantize, constant);
    } else {
        // Factor 1 / scale to quantize, scale to dequantize.
        std::vector<float> factors = q.scales;
        if (quantize)
            for (auto &f : factors) f = 1.f / f;
        scaled_reorder_step(b, n.name, src, dst, factors, q.axis, quantize ? 0 : q.zps[0], quantize ? q.zps[0] : 0,
                            constant);
    }
    b.set(o.outputs[0], dst, constant, true);
}

// Constant weights w (values of an integer type) less their zero point per channel (zp per
// tensor or one per channel, channel c of element i being i / per_channel modulo the channels: the
// batches of a batched MatMul's B repeat them), exact integers; with
// scales (one per channel, or one) times the channel's scale. fits: every value within s8.
std::vector<float> shifted_weights(const tensor &w, const qparams &zp, int64_t per_channel, int64_t channels,
                                   const std::vector<float> &scales, bool &fits) {
    std::vector<float> out(w.data.size());
    fits = true;
    for (size_t i = 0; i < w.data.size(); ++i) {
        const size_t c = static_cast<size_t>(static_cast<int64_t>(i) / per_channel % channels);
        const int32_t v = static_cast<int32_t>(w.data[i]) - zp.zps[zp.zps.size() == 1 ? 0 : c];
        fits = fits && v >= -128 && v <= 127;
        out[i] = static_cast<float>(v) * (scales.empty() ? 1.f : scales[scales.size() == 1 ? 0 : c]);
    }
    return out;
}

// Weights in a plain f32 buffer of their own (the f32 route's).
memory f32_weights_buffer(plan_builder &b, const memory::dims &d, const std::vector<float> &v) {
    memory mem = b.persistent(plan_builder::plain_desc(d, dt::f32));
    std::memcpy(mem.get_data_handle(), v.data(), v.size() * sizeof(float));
    return mem;
}

// Constant weights w (values of an integer type) less their zero point per channel (as
// shifted_weights), as s8 in a plain buffer of dims d on the builder's scratch, which
// weights_in_layout() must read before anything else asks for scratch: in the usual case a
// reorder into the primitive's layout then gives the weights the only buffer of their own (fresh
// pages once, not three times: no f32 copy, no plain s8 one). An empty memory when a value falls
// outside s8 (the f32 route's case). w's values are checked on the way (integers of w's type):
// name, the initializer's name when w is one, leaves b.unchecked_integers (an empty name: a bad
// value gives an empty memory, the build's check names it).
memory s8_weights_on_scratch(plan_builder &b, const memory::dims &d, const tensor &w, const std::string &name,
                             const qparams &zp, int64_t per_channel, int64_t channels) {
    const memory::desc md = plan_builder::plain_desc(d, dt::s8);
    int8_t *out = reinterpret_cast<int8_t *>(b.scratch((w.data.size() + sizeof(float) - 1) / sizeof(float)));
    const int64_t rows = per_channel ? static_cast<int64_t>(w.data.size()) / per_channel : 0;
    const integer_range range(w.dt);
    bool fits = true;
    // One thread: a second would save a few ms in all on a quiet machine, but each team's start
    // waits for a core, which on busy cores costs more than the loop (ResNet-50 has 53 of them).
    for (int64_t r = 0; r < rows; ++r) {
        const int32_t z = zp.zps[zp.zps.size() == 1 ? 0 : static_cast<size_t>(r % channels)];
        const float *in = w.data.data() + r * per_channel;
        int8_t *row = out + r * per_channel;
        for (int64_t k = 0; k < per_channel; ++k) {
            if (!range.holds(in[k])) {
                if (name.empty()) return memory();
                not_integer("initializer '" + name + "'", w.dt, in[k], static_cast<size_t>(r * per_channel + k));
            }
            const int32_t v = static_cast<int32_t>(in[k]) - z;
            fits = fits && v >= -128 && v <= 127;
            row[k] = static_cast<int8_t>(v);
        }
    }
    if (!name.empty()) b.unchecked_integers.erase(name);
    return fits ? memory(md, out) : memory();
}

// The s8 weights on scratch (s8_weights_on_scratch) in layout want: reordered at once into a
// buffer of their own, or, when the primitive reads them as they are, copied into one.
memory weights_in_layout(plan_builder &b, const memory &on_scratch, const memory::desc &want) {
    if (want != on_scratch.get_desc()) return b.in_layout_memory(on_scratch, want, true);
    memory own = b.persistent(want);
    std::memcpy(own.get_data_handle(), on_scratch.get_data_handle(), want.get_size());
    return own;
}

// ONNX's int32 bias (input 8) is in the accumulator's scale (x_scale * w_scale); prim's v3 scales
// add the bias after scaling, so it goes in as f32 values.
std::vector<float> f32_bias(const model &m, const node &n, int64_t oc, const qparams &x, const qparams &w) {
    const tensor &bias = constant_input(m, n, 8, "the bias");
    if (product(bias.dims) != oc)
        fail(n, "the bias " + input_name(n, 8) + " has dims " + dims_text(bias.dims) + ", not " + std::to_string(oc));
    std::vector<float> out(static_cast<size_t>(oc));
    for (size_t c = 0; c < out.size(); ++c)
        out[c] = static_cast<float>(static_cast<double>(bias.data[c]) * x.scales[0] *
                                    w.scales[w.scales.size() == 1 ? 0 : c]);
    return out;
}

// How a quantized convolution or matmul runs: in int8 (weights that fit s8: the primitive takes
// the scales and zero points), or, for weights that do not, in f32 between a dequantizing reorder
// of the data and a requantizing reorder of the result: x_f = (x - zp_x)·s_x, weights
// (w - zp_w)·s_w, bias B·s_x·s_w, then y = round(y_f / s_y) + zp_y (an s32 dst: y_f rounded). Exact
// as long as the f32 sums are (integers below 2^24); otherwise within ±1 after requantizing.
struct f32_route {
    f32_route(plan_builder &b_, const op &o_, const node &n, const int8_setup &s_, bool int8_, bool constant_,
              const post_ops &po)
        : b(b_), o(o_), s(s_), int8(int8_), constant(constant_), xdt(b_.g.type_of(o_.inputs[0])),
          ydt(b_.g.type_of(o_.outputs[0])) {
        for (size_t k = 0; k < o.merged.size(); ++k) names += (k ? "+" : "") + o.merged[k];
        src_type = int8 ? xdt : dt::f32;
        wei_type = int8 ? dt::s8 : dt::f32;
        dst_type = int8 ? ydt : dt::f32;
        attr = int8 ? s.attr : b.attr(po);
        if (int8) args = s.args;
        if (!int8 && s.x.zps.size() != 1)
            fail(n, "the data's zero point has " + std::to_string(s.x.zps.size()) + " values: one is supported",
                 status::unimplemented);
        if (!int8 && po.has_sum()) fail(n, "a fused residual sum needs weights within s8", status::unimplemented);
    }
    // The data in layout want: as it is (int8), or dequantized (f32).
    memory src(const memory::desc &want) const {
        if (int8) return b.in_layout(o.inputs[0], want);
        const memory x = b.plain(o.inputs[0]);
        memory xf = b.alloc(plan_builder::plain_desc(b.g.dims_of(o.inputs[0])));
        scaled_reorder_step(b, names + ": dequantize the data (weights outside s8: f32 route)", x, xf, s.x.scales, -1,
                            s.x.zps[0], 0, constant);
        return b.in_layout_memory(xf, want, constant);
    }
    // The output tensor's buffer from the primitive's dst: itself (int8) or requantized (f32).
    memory output(const memory &dst, const memory::dims &dims) const {
        if (int8) return dst;
        memory y = b.alloc(plan_builder::plain_desc(dims, ydt));
        scaled_reorder_step(b, names + ": requantize (f32 route)", dst, y, {1.f / s.y.scales[0]}, -1, 0, s.y.zps[0],
                            constant);
        return y;
    }
    std::string types_text() const {
        return int8 ? std::string(data_type_name(xdt)) + ":s8:" + data_type_name(ydt)
                    : std::string("f32 (weights outside s8)");
    }

    plan_builder &b;
    const op &o;
    const int8_setup &s;
    bool int8, constant;
    dt xdt, ydt, src_type, wei_type, dst_type;
    primitive_attr attr;
    exec_args args;
    std::string names;
};

// The depthwise QLinearConv merged into an int8 1x1 one (fuse_dw_pairs.cpp: its input, the 1x1's
// output, has no zero point and the 1x1's output scale; its output no zero point; both weights s8
// without zero points): its scales as the dw post-op's, its weights and bias as its arguments.
struct int8_depthwise {
    // The depthwise's weights scales per channel: the mask of grouped weights {C, 1, 1, K, K}
    // (g and oc/g), as quant_setup gives a grouped convolution's.
    static constexpr int per_channel_mask = 3;
    static constexpr int weights_arg = PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_WEIGHTS;

    int8_depthwise(const model &m_, const post_entry::depthwise &d_, int64_t channels_)
        : m(m_), d(d_), n(*d_.n), channels(channels_) {
        n.inputs = d.inputs;
        x = read_qparams(m, n, 1, 2, -1, 1, "x");
        w = read_qparams(m, n, 4, 5, 0, channels, "w");
        y = read_qparams(m, n, 6, 7, -1, 1, "y");
    }
    // Its weights' and output's scales (its input's is the 1x1's output scale).
    void add_scales(plan_builder &b, int8_setup &s) const {
        s.attr.set_scales_mask(weights_arg, w.axis < 0 ? 0 : per_channel_mask);
        s.args[PRIM_ARG_ATTR_SCALES | weights_arg] =
                value_buffer(b, w.scales.data(), dt::f32, static_cast<int64_t>(w.scales.size()));
        s.attr.set_scales_mask(PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST, 0);
        s.args[PRIM_ARG_ATTR_SCALES | PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_DST] =
                value_buffer(b, &y.scales[0], dt::f32, 1);
    }
    // Its s8 weights and f32 bias (zeros without one) in the layouts the primitive asks.
    void add_args(plan_builder &b, const convolution_forward::primitive_desc &pd, exec_args &args) const {
        const tensor &wt = constant_input(m, n, 3, "the weights");
        const memory wplain = s8_weights_on_scratch(b, {channels, 1, 1, d.kernel, d.kernel}, wt, n.inputs[3],
                                                    zero_points(m, n, 5, channels, "w"), d.kernel * d.kernel,
                                                    channels);
        if (wplain.is_empty())
            fail(n, "weights outside s8 in a pair merged with the dw post-op", status::unimplemented);
        args[weights_arg] = weights_in_layout(b, wplain, pd.query_md(weights_arg));
        const std::vector<float> bias = has_input(n, 8) ? f32_bias(m, n, channels, x, w)
                                                        : std::vector<float>(static_cast<size_t>(channels), 0.f);
        const int bias_arg = PRIM_ARG_ATTR_POST_OP_DW | PRIM_ARG_BIAS;
        args[bias_arg] = b.in_layout_memory(value_buffer(b, bias.data(), dt::f32, channels), pd.query_md(bias_arg),
                                            true);
    }

    const model &m;
    const post_entry::depthwise &d;
    node n; // the depthwise node with its op's inputs
    int64_t channels;
    qparams x, w, y;
};

std::vector<memory::dims> infer_qconv(const model &, const node &n, const std::vector<memory::dims> &in) {
    return {conv_geometry_of(n, in[0], in[n.op_type == "QLinearConv" ? 3 : 1]).out};
}

void lower_qconv(plan_builder &b, const op &o) {
    // The node with the op's inputs: a QDQ convolution (fuse_qdq.cpp) is a Conv node given
    // QLinearConv's inputs, its Relu in o.post.
    node n = *o.n;
    n.inputs = o.inputs;
    const model &m = *b.g.m;
    const bool qlinear = o.type == "QLinearConv";
    const size_t wi = qlinear ? 3 : 1;
    const memory::dims &xd = b.g.dims_of(o.inputs[0]), &wd = b.g.dims_of(o.inputs[wi]);
    const conv_geometry geo = conv_geometry_of(n, xd, wd);
    const int64_t oc = wd[0];
    memory::dims wdims = wd;
    if (geo.group > 1) {
        wdims[0] = wd[0] / geo.group;
        wdims.insert(wdims.begin(), geo.group);
    }
    lowered_chain chain;
    const post_ops po = int8_chain(b, o, chain);
    int8_setup s = quant_setup(b, n, qlinear, oc, geo.group > 1 ? 3 : 1, po);
    std::unique_ptr<int8_depthwise> dw;
    if (const post_entry::depthwise *d = dw_entry_of(o)) {
        dw = std::make_unique<int8_depthwise>(m, *d, oc);
        dw->add_scales(b, s);
    }
    // Weights shifted by their zero point (per tensor or per output channel): s8 when they fit,
    // else the f32 route.
    const tensor &w = constant_input(m, n, wi, "the weights");
    const qparams wzp = zero_points(m, n, qlinear ? 5 : 3, oc, "w");
    memory wplain = s8_weights_on_scratch(b, wdims, w, n.inputs[wi], wzp, product(wd) / oc, oc);
    bool fits = !wplain.is_empty();
    const bool constant = b.all_constant(o);
    if (dw && !fits) fail(n, "weights outside s8 in a pair merged with the dw post-op", status::unimplemented);
    const f32_route f32(b, o, n, s, fits, constant, po);
    // dst as the 1x1's output (dims and type); the dw entry gives the final ones.
    const dt dst_type = dw ? b.g.type_of(dw->d.inputs[0]) : f32.dst_type;
    if (!fits)
        wplain = f32_weights_buffer(b, wdims, shifted_weights(w, wzp, product(wd) / oc, oc, s.w.scales, fits));
    memory bias;
    if (!s.bias.empty()) bias = value_buffer(b, s.bias.data(), dt::f32, oc);

    const auto any = [](const memory::dims &d, dt t) { return memory::desc(d, t, memory::format_tag::any); };
    const auto d = bias.is_empty()
            ? convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                        any(xd, f32.src_type), any(wdims, f32.wei_type), any(geo.out, dst_type),
                                        geo.strides, geo.dilates, geo.pad_l, geo.pad_r)
            : convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                        any(xd, f32.src_type), any(wdims, f32.wei_type), bias.get_desc(),
                                        any(geo.out, dst_type), geo.strides, geo.dilates, geo.pad_l, geo.pad_r);
    convolution_forward::primitive_desc pd(d, f32.attr);
    exec_args args = f32.args;
    args[PRIM_ARG_SRC] = f32.src(pd.src_desc());
    args[PRIM_ARG_WEIGHTS] = fits ? weights_in_layout(b, wplain, pd.weights_desc())
                                  : b.in_layout_memory(wplain, pd.weights_desc(), true);
    if (!bias.is_empty()) args[PRIM_ARG_BIAS] = bias;
    if (dw) dw->add_args(b, pd, args);
    memory dst = host_destination(b, chain, pd.dst_desc(), constant);
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(f32.names + ": convolution " + pd.impl_name() + " " + f32.types_text() + " src " +
                             pd.src_desc().layout() + " dst " + pd.dst_desc().layout(),
                     convolution_forward(pd), args, constant);
    b.set(o.outputs[0], f32.output(dst, b.g.dims_of(o.outputs[0])), constant, true);
}

std::vector<memory::dims> infer_qmatmul(const model &, const node &n, const std::vector<memory::dims> &in) {
    const memory::dims &bd = in[n.op_type == "QLinearMatMul" ? 3 : 1];
    (void)qmatmul_of(n, in[0], bd);
    memory::dims out = in[0];
    out.back() = bd.back();
    return {out};
}

void lower_qmatmul(plan_builder &b, const op &o) {
    // The node with the op's inputs: a QDQ Gemm or MatMul (fuse_qdq_matmul.cpp) is its node given
    // QLinearMatMul's inputs; a Gemm's B may be transposed (N, K).
    node n = *o.n;
    n.inputs = o.inputs;
    const model &m = *b.g.m;
    const bool qlinear = o.type == "QLinearMatMul";
    const bool trans_b = n.op_type == "Gemm" && attr_int(n, "transB", 0) != 0;
    const size_t bi = qlinear ? 3 : 1;
    const memory::dims &ad = b.g.dims_of(o.inputs[0]);
    memory::dims bd = b.g.dims_of(o.inputs[bi]);
    if (trans_b) std::swap(bd[0], bd[1]);
    const qmatmul_shape sh = qmatmul_of(n, ad, bd);
    if (!m.initializers.count(o.inputs[bi])) return lower_qmatmul_runtime_b(b, o, n, sh);
    lowered_chain chain;
    const post_ops po = int8_chain(b, o, chain);
    int8_setup s = quant_setup(b, n, qlinear, sh.n, 1, po);
    add_f32_bias(m, o, sh.n, s);
    // A constant B (K, N) less its zero point (per tensor or per column), as the weights (N, K) of
    // each batch: s8 when they fit, else the f32 route.
    const tensor &w = constant_input(m, n, bi, "B");
    tensor wt = w;
    const int64_t nk = sh.n * sh.k;
    for (int64_t bt = 0; bt < sh.batches && !trans_b; ++bt)
        for (int64_t k = 0; k < sh.k; ++k)
            for (int64_t c = 0; c < sh.n; ++c)
                wt.data[static_cast<size_t>(bt * nk + c * sh.k + k)] = w.data[static_cast<size_t>(bt * nk + k * sh.n + c)];
    const qparams wzp = zero_points(m, n, qlinear ? 5 : 3, sh.n, "B");
    const memory::dims wdims = {sh.batches * sh.n, sh.k}; // the batches' weights one after another
    // (wt is B transposed: its check's index would not be B's, so B stays for the build's check.)
    memory wei = s8_weights_on_scratch(b, wdims, wt, "", wzp, sh.k, sh.n);
    bool fits = !wei.is_empty();
    const bool constant = b.all_constant(o);
    const f32_route f32(b, o, n, s, fits, constant, po);
    if (!fits) wei = f32_weights_buffer(b, wdims, shifted_weights(wt, wzp, sh.k, sh.n, s.w.scales, fits));
    memory bias;
    if (!s.bias.empty()) bias = value_buffer(b, s.bias.data(), dt::f32, sh.n);

    const memory::dims &yd = b.g.dims_of(o.outputs[0]);
    memory src = f32.src(plan_builder::plain_desc(ad, f32.src_type));
    memory out = host_destination(b, chain, plan_builder::plain_desc(yd, f32.dst_type), constant);
    const memory::desc src2d = plan_builder::plain_desc({sh.m, sh.k}, f32.src_type),
                       wei2d = plan_builder::plain_desc({sh.n, sh.k}, f32.wei_type),
                       dst2d = plan_builder::plain_desc({sh.m, sh.n}, f32.dst_type);
    // One batch: the weights in the layout the inner product picks, reordered once at compile
    // (plain ones would be repacked at every call); batches slice plain weights.
    const memory::desc wei_req = sh.batches == 1
            ? memory::desc(wei2d.get_dims(), wei2d.get_data_type(), memory::format_tag::any) : wei2d;
    const auto d = bias.is_empty()
            ? inner_product_forward::desc(prop_kind::forward_inference, src2d, wei_req, dst2d)
            : inner_product_forward::desc(prop_kind::forward_inference, src2d, wei_req, bias.get_desc(), dst2d);
    inner_product_forward::primitive_desc pd(d, f32.attr);
    // s8 weights leave the scratch now: into the primitive's layout (one batch) or as they are.
    if (fits) wei = weights_in_layout(b, wei, sh.batches == 1 ? pd.weights_desc() : wei.get_desc());
    exec_args args = f32.args;
    if (!bias.is_empty()) args[PRIM_ARG_BIAS] = bias;
    const std::string text = f32.names + ": inner product " + pd.impl_name() + " " + f32.types_text();
    if (sh.batches == 1) {
        args[PRIM_ARG_SRC] = b.view(src, src2d);
        args[PRIM_ARG_WEIGHTS] = b.in_layout_memory(wei, pd.weights_desc(), true);
        args[PRIM_ARG_DST] = b.view(out, dst2d);
        b.primitive_step(text, inner_product_forward(pd), args, constant);
    } else {
        // One inner product per batch, each on its slice of A, of the weights and of the output.
        if (pd.weights_desc() != wei2d)
            fail(n, "the inner product wants its weights in layout " + pd.weights_desc().layout() +
                        ": a batched B is built for plain weights only",
                 status::unimplemented);
        std::vector<memory> uses = {src, wei, out};
        for (const auto &kv : args) uses.push_back(kv.second);
        const inner_product_forward ip(pd);
        const int64_t batches = sh.batches;
        b.step(text + " x" + std::to_string(batches) + " batches",
               [ip, args, src, wei, out, src2d, wei2d, dst2d, batches] {
                   exec_args a = args;
                   for (int64_t bt = 0; bt < batches; ++bt) {
                       const auto slice = [bt](const memory &base, const memory::desc &md) {
                           char *p = static_cast<char *>(base.get_data_handle());
                           return memory(md, p + static_cast<size_t>(bt) * md.get_size());
                       };
                       a[PRIM_ARG_SRC] = slice(src, src2d);
                       a[PRIM_ARG_WEIGHTS] = slice(wei, wei2d);
                       a[PRIM_ARG_DST] = slice(out, dst2d);
                       ip.execute(a);
                   }
               },
               constant, uses);
    }
    b.set(o.outputs[0], f32.output(out, yd), constant, true);
}

op_def def(const char *type, int min_in, int max_in,
           std::vector<memory::dims> (*infer)(const model &, const node &, const std::vector<memory::dims> &),
           void (*lower)(plan_builder &, const op &),
           std::vector<dt> (*types)(const model &, const node &, const std::vector<dt> &),
           void (*check)(const model &, const node &) = nullptr) {
    op_def d;
    d.type = type;
    d.min_inputs = min_in;
    d.max_inputs = max_in;
    d.check = check;
    d.infer = infer;
    d.lower = lower;
    d.types = types;
    return d;
}

} // namespace

// A zero point given without a scale (ConvInteger, MatMulInteger): read as qparams with scale 1.
qparams zero_points(const model &m, const node &n, size_t zi, int64_t extent, const char *what) {
    qparams q;
    q.scales.assign(1, 1.f);
    q.zps.assign(1, 0);
    if (!has_input(n, zi)) return q;
    const std::string zname = std::string(what) + "'s zero point";
    const tensor &z = constant_input(m, n, zi, zname.c_str());
    const int64_t count = product(z.dims);
    if (count != 1 && count != extent)
        fail(n, zname + " " + input_name(n, zi) + " has dims " + dims_text(z.dims) + ": one value or " +
                    std::to_string(extent) + " are supported");
    q.zps.clear();
    for (float v : z.data) q.zps.push_back(static_cast<int32_t>(v));
    q.scales.assign(q.zps.size(), 1.f);
    return q;
}

// A one-value s32 or f32 buffer, written now and kept as long as the plan.
memory value_buffer(plan_builder &b, const void *v, dt type, int64_t count) {
    memory mem = b.persistent(memory::desc({count}, type, memory::format_tag::a));
    std::memcpy(mem.get_data_handle(), v, static_cast<size_t>(count) * 4);
    return mem;
}

// The attribute of a QLinearConv / QLinearMatMul (scales and zero points) or of ConvInteger /
// MatMulInteger (the data's zero point); wei_mask: the weights' per-channel mask.
int8_setup quant_setup(plan_builder &b, const node &n, bool qlinear, int64_t oc, int wei_mask,
                       const post_ops &po) {
    const model &m = *b.g.m;
    int8_setup s;
    s.attr = b.attr(po);
    const auto values = [&](int arg, const void *v, dt type, int64_t count) {
        s.args[arg] = value_buffer(b, v, type, count);
    };
    const qparams x = s.x = qlinear ? read_qparams(m, n, 1, 2, -1, 1, "x") : zero_points(m, n, 2, 1, "x");
    s.w.scales = s.y.scales = {1.f}; // ConvInteger / MatMulInteger: no scales, no y zero point
    s.w.zps = s.y.zps = {0};
    if (x.zps.size() != 1)
        fail(n, "the data's zero point has " + std::to_string(x.zps.size()) + " values: one is supported",
             status::unimplemented);
    if (x.zps[0] != 0) {
        s.attr.set_zero_points_mask(PRIM_ARG_SRC, 0);
        values(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, &x.zps[0], dt::s32, 1);
    }
    if (!qlinear) return s;
    const qparams w = s.w = read_qparams(m, n, 4, 5, 0, oc, "w");
    s.attr.set_scales_mask(PRIM_ARG_SRC, 0);
    values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC, &x.scales[0], dt::f32, 1);
    s.attr.set_scales_mask(PRIM_ARG_WEIGHTS, w.axis < 0 ? 0 : wei_mask);
    values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_WEIGHTS, w.scales.data(), dt::f32,
           static_cast<int64_t>(w.scales.size()));
    // A fused QDQ matmul without a QuantizeLinear after it (fuse_qdq_matmul.cpp) has no y scale:
    // its dst is f32.
    const qparams y = s.y = has_input(n, 6) ? read_qparams(m, n, 6, 7, -1, 1, "y") : s.y;
    if (has_input(n, 6)) {
        s.attr.set_scales_mask(PRIM_ARG_DST, 0);
        values(PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST, &y.scales[0], dt::f32, 1);
    }
    if (y.zps[0] != 0) {
        s.attr.set_zero_points_mask(PRIM_ARG_DST, 0);
        values(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, &y.zps[0], dt::s32, 1);
    }
    if (has_input(n, 8)) s.bias = f32_bias(m, n, oc, x, w);
    return s;
}

post_ops int8_chain(const plan_builder &b, const op &o, lowered_chain &chain, post_ops base) {
    post_ops po = std::move(base);
    for (const auto &e : o.post) {
        if (e.k == post_entry::kind::sum) {
            po.append_sum(e.sum_scale, e.sum_zero_point, b.g.type_of(e.operand));
            chain.sum_operand = e.operand;
        } else if (e.k == post_entry::kind::eltwise) {
            po.append_eltwise(e.fn.alg, e.fn.alpha, e.fn.beta);
        } else if (e.k == post_entry::kind::dw) {
            // s8 weights, an f32 bias (int8_depthwise), the depthwise output's type.
            po.append_dw(dt::s8, dt::f32, b.g.type_of(o.outputs[0]), e.dw_conv.kernel, e.dw_conv.stride,
                         e.dw_conv.padding, 0, {});
        }
    }
    return po;
}

qmatmul_shape qmatmul_of(const node &n, const memory::dims &a, const memory::dims &bd) {
    if (a.size() < 2) fail(n, "A must have at least 2 dims, not " + dims_text(a), status::unimplemented);
    if (bd.size() < 2) fail(n, "B must have at least 2 dims, not " + dims_text(bd), status::unimplemented);
    const size_t r = bd.size();
    if (a.back() != bd[r - 2])
        fail(n, "shape mismatch: A (" + dims_text(a) + ") and B (" + dims_text(bd) + ") do not agree on K");
    if (r == 2) return {product(a) / a.back(), a.back(), bd[1]};
    if (a.size() != r || !std::equal(bd.begin(), bd.end() - 2, a.begin()))
        fail(n, "A (" + dims_text(a) + ") and B (" + dims_text(bd) +
                    ") have other batch dims: broadcasting them is not built yet for the quantized MatMul",
             status::unimplemented);
    qmatmul_shape s{a[r - 2], a.back(), bd.back()};
    s.batches = product(memory::dims(bd.begin(), bd.end() - 2));
    return s;
}

// The f32 bias a fused QDQ MatMul's Add gave (fuse_qdq_matmul.cpp) added to s's bias.
void add_f32_bias(const model &m, const op &o, int64_t channels, int8_setup &s) {
    for (const auto &e : o.post) {
        if (e.k != post_entry::kind::bias_add) continue;
        if (s.bias.empty()) s.bias.assign(static_cast<size_t>(channels), 0.f);
        const tensor &v = m.initializers.at(e.operand);
        for (size_t c = 0; c < s.bias.size(); ++c) s.bias[c] += v.data[c];
    }
}

std::vector<op_def> quant_ops() {
    return {
        def("QuantizeLinear", 2, 3, infer_same, lower_quantize, types_quantize),
        def("DequantizeLinear", 2, 3, infer_same, lower_quantize, types_dequantize),
        def("ConvInteger", 2, 4, infer_qconv, lower_qconv, types_integer, check_conv),
        def("QLinearConv", 8, 9, infer_qconv, lower_qconv, types_qlinear, check_conv),
        def("MatMulInteger", 2, 4, infer_qmatmul, lower_qmatmul, types_integer),
        def("QLinearMatMul", 8, 8, infer_qmatmul, lower_qmatmul, types_qlinear),
    };
}

} // namespace detail
} // namespace graph
} // namespace prim
