// MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool as prim's pooling primitive, with
// its fused chain. ONNX's geometry (pads, auto_pad, ceil_mode, dilations) becomes explicit
// padding; the source stays in the layout its producer left it (a convolution's blocked output).
#include <algorithm>

#include "graph/op_registry.hpp"
#include "graph/post_ops_lowering.hpp"

namespace prim {
namespace graph {
namespace detail {

namespace {

bool is_global(const node &n) { return n.op_type.rfind("Global", 0) == 0; }

struct pool_geometry {
    algorithm alg = algorithm::pooling_max;
    memory::dims kernel, strides, dilates, pad_l, pad_r, out;
    // ONNX's AveragePool with count_include_pad=1 divides a window by its taps inside input + pads,
    // prim's include-padding average by the whole kernel: they differ when ceil_mode makes the last
    // window pass the end padding. Then the input is first copied into a zero-padded buffer of dims
    // `padded` (X placed at `copy_at` along each spatial dim), and the exclude-padding average
    // runs on it, so the zeros count and the taps past the end do not.
    bool pad_first = false;
    memory::dims padded, copy_at;
};

pool_geometry geometry(const node &n, const memory::dims &x) {
    if (x.size() < 3 || x.size() > 5) fail(n, "X must have 3 to 5 dims, not " + dims_text(x));
    const size_t nsp = x.size() - 2;
    pool_geometry g;
    const bool avg = n.op_type == "AveragePool" || n.op_type == "GlobalAveragePool";
    if (is_global(n)) {
        g.alg = avg ? algorithm::pooling_avg_exclude_padding : algorithm::pooling_max;
        g.kernel.assign(x.begin() + 2, x.end());
        g.strides.assign(nsp, 1);
        g.dilates.assign(nsp, 0);
        g.pad_l.assign(nsp, 0);
        g.pad_r.assign(nsp, 0);
        g.out = {x[0], x[1]};
        g.out.insert(g.out.end(), nsp, 1);
        return g;
    }
    g.kernel = attr_ints(n, "kernel_shape", {});
    if (g.kernel.size() != nsp)
        fail(n, "bad attribute kernel_shape: it needs " + std::to_string(nsp) + " values for X " + dims_text(x));
    g.strides = attr_ints(n, "strides", memory::dims(nsp, 1));
    const auto dil = attr_ints(n, "dilations", memory::dims(nsp, 1));
    const auto pads = attr_ints(n, "pads", memory::dims(2 * nsp, 0));
    if (g.strides.size() != nsp || dil.size() != nsp || pads.size() != 2 * nsp)
        fail(n, "bad attribute: strides and dilations need " + std::to_string(nsp) + " values and pads " +
                    std::to_string(2 * nsp));
    check_attr_range(n, "kernel_shape", g.kernel, 1);
    check_attr_range(n, "strides", g.strides, 1);
    check_attr_range(n, "dilations", dil, 1);
    check_attr_range(n, "pads", pads, 0);
    const std::string auto_pad = attr_string(n, "auto_pad", "NOTSET");
    if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER")
        fail(n, "bad attribute auto_pad=" + auto_pad);
    const bool ceil_mode = attr_int(n, "ceil_mode", 0) != 0;
    const bool include_pad = attr_int(n, "count_include_pad", 0) != 0;
    if (avg)
        g.alg = include_pad ? algorithm::pooling_avg_include_padding : algorithm::pooling_avg_exclude_padding;
    memory::dims pad_e; // ONNX's end padding (pad_r is what the windows use)
    for (size_t i = 0; i < nsp; ++i) {
        if (g.kernel[i] < 1 || g.strides[i] < 1 || dil[i] < 1)
            fail(n, "bad attribute: kernel_shape, strides and dilations must be >= 1");
        const int64_t in = x[2 + i], s = g.strides[i], ext = (g.kernel[i] - 1) * dil[i] + 1;
        int64_t pb = pads[i], pe = pads[nsp + i];
        if (pb < 0 || pe < 0) fail(n, "bad attribute: pads must be >= 0");
        apply_auto_pad(auto_pad, in, s, ext, pb, pe);
        if (in + pb + pe < ext)
            fail(n, "the kernel (extent " + std::to_string(ext) + ") does not fit the padded input (" +
                        std::to_string(in + pb + pe) + ") along spatial dim " + std::to_string(i));
        int64_t o = (in + pb + pe - ext + (ceil_mode ? s - 1 : 0)) / s + 1;
        // ONNX (as PyTorch): a window that would start in the end padding is dropped.
        if (ceil_mode && (o - 1) * s >= in + pb) --o;
        const int64_t pr = (o - 1) * s + ext - in - pb; // past pe only with ceil_mode
        if (avg && include_pad && pr > pe) g.pad_first = true;
        g.dilates.push_back(dil[i] - 1);
        g.pad_l.push_back(pb);
        g.pad_r.push_back(pr);
        pad_e.push_back(pe);
        g.out.push_back(o);
    }
    g.out.insert(g.out.begin(), {x[0], x[1]});
    if (g.pad_first) {
        // The padded buffer ends where the last window does or at the end padding, whichever is
        // first; the windows then only pass its end, where exclude-padding does not count.
        g.alg = algorithm::pooling_avg_exclude_padding;
        g.padded = {x[0], x[1]};
        for (size_t i = 0; i < nsp; ++i) {
            g.padded.push_back(g.pad_l[i] + x[2 + i] + std::min(pad_e[i], g.pad_r[i]));
            g.copy_at.push_back(g.pad_l[i]);
            g.pad_l[i] = 0;
            g.pad_r[i] = std::max<int64_t>(0, g.pad_r[i] - pad_e[i]);
        }
    } else {
        for (auto &p : g.pad_r) p = std::max<int64_t>(p, 0);
    }
    return g;
}

// Copies plain x (dims xd) into the plain zero-padded buffer (dims g.padded) at g.copy_at; the
// part of x past the buffer's end (never read by a window) is left out.
void pad_step(plan_builder &b, const op &o, const pool_geometry &g, const memory &x, const memory &xp) {
    const memory::dims &xd = b.g.dims_of(o.inputs[0]);
    // Spatial dims as three (leading 1s), rows = N * C.
    int64_t in[3] = {1, 1, 1}, len[3] = {1, 1, 1}, at[3] = {0, 0, 0};
    const size_t nsp = xd.size() - 2;
    for (size_t i = 0; i < nsp; ++i) {
        in[3 - nsp + i] = xd[2 + i];
        len[3 - nsp + i] = g.padded[2 + i];
        at[3 - nsp + i] = g.copy_at[i];
    }
    const int64_t rows = xd[0] * xd[1];
    b.step(o.n->name + ": zero padding graph kernel (count_include_pad with ceil_mode)",
           [x, xp, rows, in0 = in[0], in1 = in[1], in2 = in[2], l0 = len[0], l1 = len[1], l2 = len[2],
            a0 = at[0], a1 = at[1], a2 = at[2]] {
               const float *s = static_cast<const float *>(x.get_data_handle());
               float *d = static_cast<float *>(xp.get_data_handle());
#pragma omp parallel for schedule(static)
               for (int64_t r = 0; r < rows; ++r)
                   for (int64_t z = 0; z < l0; ++z)
                       for (int64_t y = 0; y < l1; ++y)
                           for (int64_t w = 0; w < l2; ++w) {
                               const int64_t iz = z - a0, iy = y - a1, iw = w - a2;
                               const bool inside = iz >= 0 && iz < in0 && iy >= 0 && iy < in1 && iw >= 0 && iw < in2;
                               d[((r * l0 + z) * l1 + y) * l2 + w] =
                                   inside ? s[((r * in0 + iz) * in1 + iy) * in2 + iw] : 0.f;
                           }
           }, b.is_constant(o.inputs[0]), {x, xp});
}

void check_pool(const model &, const node &n) {
    if (attr_int(n, "storage_order", 0) != 0)
        fail(n, "bad attribute storage_order=1: only the row-major order is supported", status::unimplemented);
    (void)attr_string(n, "auto_pad", "NOTSET");
}

std::vector<memory::dims> infer_pool(const model &, const node &n, const std::vector<memory::dims> &in) {
    return {geometry(n, in[0]).out};
}

void lower_pool(plan_builder &b, const op &o) {
    const memory::dims &xd = b.g.dims_of(o.inputs[0]);
    const pool_geometry geo = geometry(*o.n, xd);
    lowered_chain c = lower_chain(b, o, geo.out, post_ops(), nullptr);
    const bool constant = b.all_constant(o);
    // An int8 output when the fuser runs the pooling on a quantized tensor (fuse_qdq_flow.cpp).
    const auto any = memory::desc(geo.out, b.g.type_of(o.outputs[0]), memory::format_tag::any);
    const auto make_pd = [&](const memory::desc &src_md) {
        return pooling_forward::primitive_desc(
                pooling_forward::desc(prop_kind::forward_inference, geo.alg, src_md, any, geo.strides,
                                      geo.kernel, geo.dilates, geo.pad_l, geo.pad_r),
                b.attr(c.po));
    };
    // The source as its producer left it when the pooling reads it there.
    memory src = b.get(o.inputs[0]);
    if (!src.get_desc().is_dense()) src = b.plain(o.inputs[0]);
    if (geo.pad_first) {
        memory padded = b.alloc(plan_builder::plain_desc(geo.padded));
        pad_step(b, o, geo, b.plain(o.inputs[0]), padded);
        src = padded;
    }
    pooling_forward::primitive_desc pd = make_pd(src.get_desc());
    memory dst = host_destination(b, c, pd.dst_desc(), constant);
    exec_args args = c.args;
    args[PRIM_ARG_SRC] = src;
    args[PRIM_ARG_DST] = dst;
    b.primitive_step(step_text(o, "pooling", pd.impl_name(), c) + " src " + pd.src_desc().layout(),
                     pooling_forward(pd), args, constant);
    b.set(o.outputs[0], dst, constant, true);
}

} // namespace

std::vector<op_def> pool_ops() {
    return {{"MaxPool", 1, 1, 1, check_pool, infer_pool, lower_pool},
            {"AveragePool", 1, 1, 1, check_pool, infer_pool, lower_pool},
            {"GlobalAveragePool", 1, 1, 1, check_pool, infer_pool, lower_pool},
            {"GlobalMaxPool", 1, 1, 1, check_pool, infer_pool, lower_pool}};
}

} // namespace detail
} // namespace graph
} // namespace prim
