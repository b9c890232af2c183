// The fused dw pass in int8 (jit_conv_dw_int8.hpp; doc/dw_post_op.md).
//
// Two int8 GEMM primitives do the arithmetic: the 1x1 convolution, whose lines are its output
// rows (int8_gemm_request::lines_are_rows), and the depthwise convolution (the GEMM's depthwise
// mode). The depthwise GEMM reads its src in its own form (int8_src_form.hpp): rows of e2
// pixels of cp bytes, the spatial padding included, the channels padded to whole vectors. The
// 1x1 writes its u8/s8 output rows straight into that form, cp bytes from pixel to pixel
// (dst_pixel_bytes), so its output is never copied nor converted. The padding is zero bytes:
// the pair has no zero point between its halves (dw_post_op.cpp refuses a dst zero point).
//
// Work items: (image, chunk of channels, strip of depthwise output rows), the split that
// finishes first (dw_pair_split.hpp). Channel chunks cost nothing (the depthwise convolution
// reads its own channels alone); strips cost their halo, below. A thread keeps a window of the
// form's rows in a buffer of its own (a quarter of the L2 at most, thread_buffer) and walks its
// strip in steps of R output rows. A step [a, b) reads the form's rows [a·S, (b-1)·S + K); the
// K - S of them the previous step holds move to the window's top, the 1x1 computes the others
// (a row in the padding is zeros), then the depthwise GEMM runs the step's output rows from the
// window. A strip computes again only the K - S rows above its first output row.
//
// Invariant of the window: its padding columns and the lanes past the channels are zero. Those
// bytes are cleared when a pass uses the thread's buffer after another one (or for the first
// time); after that a row is written whole (zeros, or moved) or by the 1x1 kernel, which
// writes the image's columns and channels alone, so the invariant holds from item to item and
// call to call. (Clearing the whole window per item cost the 56x56 layers a 235 KB memset per
// strip.)
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <utility>

#include <omp.h>

#include "common/dw_post_op.hpp"
#include "common/plain_layout.hpp"
#include "jit/gen/dw_pair_split.hpp"
#include "jit/gen/isa_traits.hpp" // isa_cap_below_avx2
#include "jit/gen/scratch.hpp"
#include "jit/gen/thread_pool.hpp"
#include "jit/gen/uarch.hpp"
#include "jit/gen/work_threads.hpp"
#include "jit/int8/int8_gemm.hpp"
#include "jit/int8/jit_conv_dw_int8.hpp"
#include "jit/int8/jit_conv_int8.hpp"

namespace prim {
namespace impl {
namespace {


// The pair's sizes, as the walk needs them.
struct pair_geometry {
    int64_t mb = 0, h = 0, w = 0; // images; the 1x1's output rows and columns
    int64_t ic = 0;               // the 1x1's input channels
    int64_t oh = 0, ow = 0;       // depthwise output rows and columns
    int64_t k = 0, s = 0, p = 0;  // depthwise kernel, stride, padding (rows and columns alike)
    int64_t form_rows = 0;        // rows of the depthwise's src form per image
    int64_t row_bytes = 0;        // one form row
    int64_t pixel_bytes = 0;      // one form pixel (the channels padded to whole vectors)
    int64_t channels = 0;         // the 1x1's output channels (a pixel's first bytes)
    int64_t step_rows = 1;        // R: depthwise output rows per step
    int64_t window_rows() const { return (step_rows - 1) * s + k; }
};

// How one execute cuts the work (jit/gen/dw_pair_split.hpp): a unit is whole oc panels of both
// GEMMs, a product the measure, a depthwise one counted as 8 (it takes the GEMM about 8 dense
// products' time, jit_conv_int8.cpp).
jit::dw_pair_split choose_split(const pair_geometry &g, int64_t n_units, int threads) {
    jit::dw_pair_work w;
    w.mb = g.mb;
    w.n_units = n_units;
    w.total_weight = static_cast<double>(n_units);
    w.oh = g.oh;
    w.s = g.s;
    w.k = g.k;
    w.h = g.h;
    w.pw_row = double(g.ic) * g.w;
    w.dw_row = 8.0 * g.k * g.k * g.ow;
    return jit::choose_dw_pair_split(w, threads);
}

// a + offset as a pointer (offset may be negative: a line's place before the window's rows).
char *shifted(char *a, int64_t offset) {
    return reinterpret_cast<char *>(reinterpret_cast<intptr_t>(a) + static_cast<intptr_t>(offset));
}

class jit_conv_dw_int8 : public primitive_impl {
public:
    jit_conv_dw_int8(arg_layouts layouts, std::unique_ptr<int8_gemm_primitive> pw,
                     std::unique_ptr<int8_gemm_primitive> dw, const pair_geometry &g, double flops,
                     int dw_at, int chain_len)
        : primitive_impl(std::move(layouts)), pw_(std::move(pw)), dw_(std::move(dw)), g_(g),
          flops_(flops), dw_at_(dw_at), chain_len_(chain_len), id_(++next_id_),
          unit_(std::lcm(pw_->panel_channels(), dw_->panel_channels())),
          n_units_((dst_md().get_dims()[1] + unit_ - 1) / unit_) {
        const std::string pw_name = pw_->name(), dw_name = dw_->name();
        name_ = pw_name.find("+repack") == std::string::npos ? dw_name : pw_name;
    }

    std::string name() const override { return name_; }

    void execute(const exec_ptrs &args) const override {
        if (g_.mb == 0) return;
        // Each half's arguments: the 1x1 writes the window, the depthwise reads it.
        exec_ptrs pa = args, da = args;
        pa.dst = nullptr;
        da.src = nullptr;
        da.wei = args.dw_wei;
        da.bias = args.dw_bias;
        da.quant = dw_quant_values(args.quant);
        if (!args.post_op.empty()) {
            pa.post_op.assign(args.post_op.begin(), args.post_op.begin() + dw_at_);
            da.post_op.assign(args.post_op.begin() + dw_at_ + 1, args.post_op.begin() + chain_len_);
        }
        const std::unique_ptr<int8_gemm_call> pc = pw_->prepare(pa), dc = dw_->prepare(da);
        const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
        const jit::dw_pair_split sp = choose_split(g_, n_units_, jit::threads_for_work(flops_, max_threads));
        const int64_t items = sp.items(g_.mb);
        // Items: strips innermost, then chunks, then images.
        const auto item = [&](int64_t i) {
            const int64_t strip = i % sp.strips, chunk = i / sp.strips % sp.chunks;
            const int64_t u0 = chunk * sp.chunk_units, u1 = std::min(n_units_, u0 + sp.chunk_units);
            run_strip(*pc, *dc, i / sp.strips / sp.chunks, u0, u1, g_.oh * strip / sp.strips,
                      g_.oh * (strip + 1) / sp.strips);
        };
        const int threads = jit::threads_for_work(flops_, items);
        if (threads == 1) {
            for (int64_t i = 0; i < items; ++i) item(i);
            return;
        }
        jit::run_chunks(items, threads, item);
    }

private:
    // The panels of gemm that hold units [u0, u1) of the channels (its last panel may be narrower).
    std::pair<int64_t, int64_t> panels_of(const int8_gemm_primitive &gemm, int64_t u0, int64_t u1) const {
        const int64_t per_unit = unit_ / gemm.panel_channels();
        return {u0 * per_unit, std::min(gemm.panels(), u1 * per_unit)};
    }

    // Units [u0, u1) of channels, depthwise output rows [o0, o1) of image n, in steps (the
    // file's comment).
    void run_strip(const int8_gemm_call &pc, const int8_gemm_call &dc, int64_t n, int64_t u0,
                   int64_t u1, int64_t o0, int64_t o1) const {
        const auto [pw0, pw1] = panels_of(*pw_, u0, u1);
        const auto [dw0, dw1] = panels_of(*dw_, u0, u1);
        const pair_geometry &g = g_;
        const int64_t window_bytes = g.window_rows() * g.row_bytes;
        auto *window = reinterpret_cast<char *>(
                jit::thread_buffer<jit::thread_slot::int8_dw_window>(static_cast<size_t>(window_bytes)));
        thread_local uint64_t window_owner = 0; // the id of the pass whose invariant it holds
        if (window_owner != id_) {
            clear_padding(window);
            window_owner = id_;
        }
        int64_t first = 0, end = 0; // the form rows the window holds, row `first` at its top
        for (int64_t a = o0; a < o1; a += g.step_rows) {
            const int64_t b = std::min(o1, a + g.step_rows);
            const int64_t need0 = a * g.s, need1 = (b - 1) * g.s + g.k;
            int64_t from = need0; // the first row to compute
            if (need0 >= first && need0 < end) {
                std::memmove(window, window + (need0 - first) * g.row_bytes,
                             static_cast<size_t>((end - need0) * g.row_bytes));
                from = end;
            }
            first = need0;
            end = need1;
            fill_rows(pc, n, pw0, pw1, from, need1, first, window);
            int8_gemm_lines lines;
            lines.src = reinterpret_cast<const uint8_t *>(window);
            lines.src_first = (n * g.form_rows + first) * g.row_bytes;
            dw_->run_lines(dc, lines, n * g.oh + a, n * g.oh + b, dw0, dw1);
        }
    }

    // The window's invariant (the file's comment): each row's padding columns and the lanes past
    // the channels zero; the rest is written before it is read.
    void clear_padding(char *window) const {
        const pair_geometry &g = g_;
        const int64_t right = g.p + g.w, cols = g.row_bytes / g.pixel_bytes;
        for (int64_t r = 0; r < g.window_rows(); ++r) {
            char *row = window + r * g.row_bytes;
            std::memset(row, 0, static_cast<size_t>(g.p * g.pixel_bytes));
            std::memset(row + right * g.pixel_bytes, 0, static_cast<size_t>((cols - right) * g.pixel_bytes));
            if (g.channels < g.pixel_bytes)
                for (int64_t c = g.p; c < right; ++c)
                    std::memset(row + c * g.pixel_bytes + g.channels, 0, static_cast<size_t>(g.pixel_bytes - g.channels));
        }
    }

    // Form rows [r0, r1) of image n into the window (row `first` at its top): zeros in the
    // padding, the 1x1's output rows r - p of the image between (its panels [p0, p1)).
    void fill_rows(const int8_gemm_call &pc, int64_t n, int64_t p0, int64_t p1, int64_t r0,
                   int64_t r1, int64_t first, char *window) const {
        const pair_geometry &g = g_;
        const int64_t in0 = std::max(r0, std::min(r1, g.p)), in1 = std::max(in0, std::min(r1, g.p + g.h));
        for (int64_t r = r0; r < r1; ++r)
            if (r < in0 || r >= in1)
                std::memset(window + (r - first) * g.row_bytes, 0, static_cast<size_t>(g.row_bytes));
        if (in0 == in1) return;
        // The 1x1's line L = n·h + (r - p) goes to the window's row r, past the p padding columns.
        const int64_t line0 = n * g.h + in0 - g.p;
        int8_gemm_lines lines;
        lines.dst = shifted(window, (in0 - first) * g.row_bytes + g.p * g.pixel_bytes - line0 * g.row_bytes);
        lines.dst_line_bytes = g.row_bytes;
        pw_->run_lines(pc, lines, line0, line0 + (in1 - in0), p0, p1);
    }

    const std::unique_ptr<int8_gemm_primitive> pw_, dw_; // the 1x1 half and the depthwise half
    const pair_geometry g_;
    const double flops_;
    const int dw_at_, chain_len_; // the dw entry's index, the chain's length
    const uint64_t id_;            // this pass among all (the window's owner)
    const int64_t unit_, n_units_; // channels per unit (whole panels of both GEMMs), units
    std::string name_;
    static inline std::atomic<uint64_t> next_id_ {0};
};

// attr's chain entries [begin, end) and the quantization q, as an attribute of its own.
primitive_attr half_attr(const primitive_attr &attr, int begin, int end, const quantization &q) {
    primitive_attr a;
    a.set_post_ops(chain_slice(attr.get_post_ops(), begin, end));
    if (q.has_output_scales) a.set_output_scales(q.output_scales_mask, q.output_scales);
    const std::pair<int, int> masks[] = {{PRIM_ARG_SRC, q.src_scale_mask},
                                         {PRIM_ARG_WEIGHTS, q.wei_scale_mask},
                                         {PRIM_ARG_DST, q.dst_scale_mask}};
    for (const auto &[arg, mask] : masks)
        if (mask >= 0) a.set_scales_mask(arg, mask);
    if (q.src_zp_mask >= 0) a.set_zero_points_mask(PRIM_ARG_SRC, q.src_zp_mask);
    return a;
}

} // namespace

std::unique_ptr<primitive_impl> create_jit_conv_dw_int8(const conv_request &req, cpu_isa isa,
                                                        std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const conv_problem &prb = req.prb;
    const post_ops &chain = req.attr.get_post_ops();
    const int at = chain.dw_index();
    PRIM_DISPATCH(why_not, at >= 0, "no dw post-op: this is the pass of a 1x1 convolution and its dw");
    const post_ops::entry &e = chain.entries()[at];
    const dw_types types = dw_types_of(e, req.src.get_data_type(), req.dw_mid_dt);
    PRIM_DISPATCH(why_not, types.int8, "an f32 pair runs on the f32 fused pass");
    PRIM_DISPATCH(why_not, prb.g == 1, "the fused dw pass takes an ungrouped 1x1 convolution");
    PRIM_DISPATCH(why_not, prb.oc > 1, "one output channel: the depthwise GEMM takes two or more");
    // The depthwise GEMM writes channels-last pixel rows; another dst layout gets a copy.
    const memory::desc dst_cl = channels_last_desc(req.dst.get_dims(), types.dst);
    const bool repack_dst = !req.dst.is_any() && req.dst != dst_cl;
    const std::string refusal = repack_dst ? dst_repack_refusal(chain_slice(chain, at + 1, chain.len())) : "";
    PRIM_DISPATCH(why_not, refusal.empty(), refusal);
    const conv_problem dwp = dw_problem(prb, e);
    const memory::desc mid = channels_last_desc({prb.mb, prb.oc, prb.o[SP_H], prb.o[SP_W]}, types.mid);
    const quantization &q = req.attr.get_quantization();

    // The depthwise half first: its src form is the window's layout.
    conv_request dr;
    dr.prb = dwp;
    dr.src = mid;
    dr.wei = memory::desc(dw_weights_desc(dwp, types).get_dims(), types.wei, memory::format_tag::any);
    dr.bias = dw_bias_desc(dwp, types);
    dr.with_bias = !dr.bias.is_zero();
    dr.dst = repack_dst ? dst_cl : req.dst;
    dr.attr = half_attr(req.attr, at + 1, chain.len(), dw_quantization(q, e));
    int8_gemm_request dg = int8_gemm_request_of(dr);
    dg.external_src = true;
    std::unique_ptr<int8_gemm_primitive> dw = create_int8_gemm(dg, isa, why_not);
    PRIM_DISPATCH(why_not, dw, "the depthwise convolution: " + why_not);
    const jit::int8_src_form &form = dw->src_form();

    pair_geometry g;
    g.mb = prb.mb;
    g.h = prb.o[SP_H];
    g.w = prb.o[SP_W];
    g.ic = prb.ic;
    g.oh = dwp.o[SP_H];
    g.ow = dwp.o[SP_W];
    g.k = e.dw.kernel;
    g.s = e.dw.stride;
    g.p = e.dw.padding;
    g.form_rows = form.e[1];
    g.channels = prb.oc;
    g.pixel_bytes = form.pixel_bytes(dg.geom);
    g.row_bytes = form.row_bytes(dg.geom);
    PRIM_DISPATCH(why_not, g.p + g.w <= form.e[2],
                  "the depthwise convolution reads fewer columns than the 1x1 writes (kernel less "
                  "padding below the stride)");
    const int64_t budget = jit::current_uarch().conv_dw_ring_bytes;
    g.step_rows = std::max<int64_t>(1, std::min(g.oh, (budget / g.row_bytes - g.k) / g.s + 1));

    // The 1x1 half: its lines are its output rows, written into the window's rows.
    conv_request pr = req;
    pr.dst = mid;
    pr.attr = half_attr(req.attr, 0, at, one_by_one_quantization(q));
    int8_gemm_request pg = int8_gemm_request_of(pr);
    pg.lines_are_rows = true;
    pg.dst_pixel_bytes = g.pixel_bytes;
    std::unique_ptr<int8_gemm_primitive> pw = create_int8_gemm(pg, isa, why_not);
    PRIM_DISPATCH(why_not, pw, "the 1x1 convolution: " + why_not);

    arg_layouts layouts(pw->src_md(), pw->wei_md(), req.with_bias ? pw->bias_md() : memory::desc(),
                        dw->dst_md());
    layouts.dw_wei = dw->wei_md();
    layouts.dw_bias = dw->bias_md();
    layouts.dw_src = mid;
    const double flops = pg.flops + dg.flops;
    std::unique_ptr<primitive_impl> pass = std::make_unique<jit_conv_dw_int8>(
            std::move(layouts), std::move(pw), std::move(dw), g, flops, at, chain.len());
    return repack_dst ? with_repacked_dst(std::move(pass), req.dst, false) : std::move(pass);
}

} // namespace impl
} // namespace prim
