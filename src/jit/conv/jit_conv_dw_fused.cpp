// The fused dw pass (doc/dw_post_op.md): a 1x1 convolution and the depthwise convolution of its
// dw post-op in one pass, f32, on the two JIT kernels the convolutions apart run (conv_kernel for
// the 1x1, conv_dw_kernel for the depthwise), so that the 1x1's output never goes to memory.
//
// Work items: (image, chunk of channel blocks, strip of depthwise output rows). A thread keeps
// the 1x1's output rows of its item's channels in a ring of K rows (K: the depthwise kernel's
// height), in a buffer of its own that stays in L1/L2 (thread_local: warm from call to call).
// For each depthwise output row of the strip it first runs the 1x1 kernel, with the chain's
// entries before the dw, on the rows that row reads and the ring does not hold yet, writing
// them into the ring; then the depthwise kernel reads the row's K taps from the ring through a
// table of row pointers (conv_kernel_conf::src_rows), adds its bias, runs the entries after the
// dw in registers and stores the output row. Each 1x1 row is computed once per item: a strip
// recomputes only the K - S rows above its first row that the strip before it computed too.
// Channel chunks split no such work: the depthwise convolution reads only its own channels.
//
// A ring row holds the chunk's channel blocks one after the other, each iw pixels of W lanes
// (the blocked layout of one row): the 1x1 kernel writes it as its dst (dst_ocb, dst_sp[2]), the
// depthwise kernel reads it as its src (src_ocb, src_sp[2]).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include <omp.h>

#include "common/dw_post_op.hpp"
#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "jit/conv/conv_call_helpers.hpp"
#include "jit/conv/conv_operands.hpp"
#include "jit/gen/dw_pair_split.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/conv/jit_conv_dw_fused.hpp"
#include "jit/conv/jit_convolution.hpp"
#include "jit/gen/runtime_table.hpp"
#include "jit/gen/scratch.hpp"
#include "jit/gen/thread_pool.hpp"
#include "jit/gen/work_threads.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {
namespace {

using jit::conv_call_args;
using jit::conv_conf;
using jit::conv_setup;
using jit::offset_ptr;
using kernel_fn = void (*)(const conv_call_args *);
using dt = memory::data_type;

int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The 1x1's kernels: for its oc block groups before the last one, and for the last one (fewer
// blocks or the channel tail).
struct pw_kernels {
    std::shared_ptr<const jit::jit_generator> main, last;
    pw_kernels(cpu_isa isa, const conv_setup &s) {
        const conv_conf &c = s.conf;
        const int last_nb = static_cast<int>(c.n_ocb - (c.n_ocbg - 1) * c.nb_oc);
        last = jit::make_conv_kernel(isa, s, last_nb, c.oc_tail);
        main = c.n_ocbg > 1 ? jit::make_conv_kernel(isa, s, c.nb_oc, 0) : last;
    }
    const jit::jit_generator &of(const conv_conf &c, int64_t ocbg) const {
        return ocbg == c.n_ocbg - 1 ? *last : *main;
    }
};

// The depthwise kernels: one per count of channel blocks up to nb_oc, as a chunk's last call
// may take fewer, each without and with the channel tail.
struct dw_kernels {
    std::vector<std::shared_ptr<const jit::jit_generator>> full, tail; // index: blocks - 1
    dw_kernels(cpu_isa isa, const conv_setup &s) {
        const conv_conf &c = s.conf;
        for (int nb = 1; nb <= c.nb_oc && nb <= c.n_ocb; ++nb) {
            full.push_back(jit::make_conv_kernel(isa, s, nb, 0));
            tail.push_back(c.oc_tail ? jit::make_conv_kernel(isa, s, nb, c.oc_tail) : full.back());
        }
    }
    // The kernel of nb blocks, the last of them the channel tail when last is set.
    const jit::jit_generator &of(int64_t nb, bool last) const {
        return *(last ? tail : full)[static_cast<size_t>(nb - 1)];
    }
    std::vector<const jit::jit_generator *> all() const {
        std::vector<const jit::jit_generator *> v;
        for (const auto &k : full) v.push_back(k.get());
        for (const auto &k : tail) v.push_back(k.get());
        return v;
    }
};

// The ring's geometry, and the channel blocks a chunk may have: whole oc block groups of the 1x1
// kernel (units; the depthwise kernel's last call in a chunk may take fewer blocks), as many as
// the ring's budget takes and as keep the 1x1's weights of the chunk in half the L2
// (conv_ocbg_inner_weights_bytes): every row of an item reads all of them.
struct ring_geometry {
    int64_t rows = 0;      // K: the rows of one depthwise output's taps
    int64_t ocb_bytes = 0; // bytes between channel blocks in a ring row
    int64_t unit = 0;      // channel blocks per unit
    int64_t n_units = 0;   // units of the whole channel range (the last one may be partial)
    int64_t max_units = 0; // units per chunk at most
    ring_geometry(const conv_conf &pw, const conv_conf &dw, const jit::uarch &u)
        : rows(dw.k[1]), ocb_bytes(dw.i[2] * dw.simd_w * static_cast<int64_t>(sizeof(float))),
          unit(pw.nb_oc), n_units(div_up(dw.n_ocb, unit)) {
        const int64_t unit_weights = pw.icg * unit * pw.simd_w * static_cast<int64_t>(sizeof(float));
        max_units = std::min({n_units, u.conv_dw_ring_bytes / (rows * unit * ocb_bytes),
                              u.conv_ocbg_inner_weights_bytes / unit_weights});
        max_units = std::max<int64_t>(1, max_units);
    }
};

// How one execute cuts the work (jit/gen/dw_pair_split.hpp): a unit is g.unit channel blocks,
// an FMA the measure.
jit::dw_pair_split split_work(const ring_geometry &g, const conv_conf &pw, const conv_conf &dw, int threads) {
    jit::dw_pair_work w;
    w.mb = dw.mb;
    w.n_units = g.n_units;
    w.min_chunks = div_up(g.n_units, g.max_units);
    w.unit_weight = static_cast<double>(g.unit);
    w.total_weight = static_cast<double>(dw.n_ocb);
    w.oh = dw.o[1];
    w.s = dw.s[1];
    w.k = g.rows;
    w.h = pw.o[1];
    w.pw_row = double(pw.icg) * pw.o[2];
    w.dw_row = double(g.rows) * dw.k[2] * dw.o[2];
    return jit::choose_dw_pair_split(w, threads);
}

class jit_conv_dw_fused : public primitive_impl {
public:
    jit_conv_dw_fused(arg_layouts layouts, conv_setup pw, conv_setup dw, cpu_isa isa,
                      const jit::uarch &u, int dw_at, int chain_len)
        : primitive_impl(std::move(layouts)), pw_(std::move(pw)), dw_(std::move(dw)),
          pc_(pw_.conf), dc_(dw_.conf), ring_(pc_, dc_, u), dw_at_(dw_at),
          chain_len_(chain_len), src_reorder_(jit::reorder_if_differ(pw_.user.src, pw_.ksrc)),
          wei_reorder_(jit::reorder_if_differ(pw_.user.wei, pw_.kwei)),
          dst_out_reorder_(jit::reorder_if_differ(dw_.kdst, dw_.user.dst)),
          pw_operands_(pw_, pw_.operands), dw_operands_(dw_, dw_.operands),
          pw_kernels_(isa, pw_), dw_kernels_(isa, dw_) {
        const bool repack = src_reorder_ || wei_reorder_ || dst_out_reorder_;
        name_ = std::string("jit:") + cpu_isa_name(isa) + (repack ? "+repack" : "");
    }

    std::string name() const override { return name_; }

    void execute(const exec_ptrs &args) const override {
        if (pc_.mb == 0) return;
        std::unique_ptr<jit::scratch> src_s, wei_s, dst_s;
        const float *src = repacked(src_reorder_.get(), pw_.user.src, pw_.ksrc, args.src, src_s);
        const float *wei = repacked(wei_reorder_.get(), pw_.user.wei, pw_.kwei, args.wei, wei_s);
        float *dst = args.dst;
        if (dst_out_reorder_) {
            dst_s = std::make_unique<jit::scratch>(dw_.kdst.get_size());
            dst = dst_s->get();
        }
        // The operands of the entries before the dw and after it, each half's own.
        std::vector<const float *> before, after;
        if (!args.post_op.empty()) {
            before.assign(args.post_op.begin(), args.post_op.begin() + dw_at_);
            after.assign(args.post_op.begin() + dw_at_ + 1, args.post_op.begin() + chain_len_);
        }
        std::vector<std::vector<float>> copies;
        const call_data d {src, wei, args.bias, args.dw_wei, args.dw_bias, dst,
                           pw_operands_.prepare(before, copies), dw_operands_.prepare(after, copies),
                           jit::runtime_tables(kernels_with_tables(), args.runtime_params)};
        run(d);
        if (dst_out_reorder_)
            dst_out_reorder_->execute(memory(dw_.kdst, dst), memory(dw_.user.dst, args.dst));
    }

private:
    // What one execute's items read: the kernels' arguments after any repacking.
    struct call_data {
        const float *src, *wei, *bias, *dw_wei, *dw_bias;
        float *dst;
        std::vector<const float *> before_ops, after_ops;
        jit::runtime_tables tables;
    };

    std::vector<const jit::jit_generator *> kernels_with_tables() const {
        std::vector<const jit::jit_generator *> v = dw_kernels_.all();
        v.push_back(pw_kernels_.main.get());
        v.push_back(pw_kernels_.last.get());
        return v;
    }

    // ptr, or a copy of it in the kernel's layout (made into holder) when reorder is set.
    static const float *repacked(const internal_reorder *reorder, const memory::desc &from,
                                 const memory::desc &to, const float *ptr,
                                 std::unique_ptr<jit::scratch> &holder) {
        if (!reorder) return ptr;
        holder = std::make_unique<jit::scratch>(to.get_size());
        reorder->execute(memory(from, const_cast<float *>(ptr)), memory(to, holder->get()));
        return holder->get();
    }

    // The items: (image, chunk, strip), strips innermost (split_work()).
    void run(const call_data &d) const {
        const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
        const double flops = 2.0 * pc_.mb * pc_.ocg
                             * (pc_.icg * pc_.o[1] * pc_.o[2] + dc_.o[1] * dc_.o[2] * dc_.k[1] * dc_.k[2]);
        const int threads = jit::threads_for_work(flops, pc_.mb * ring_.n_units * dc_.o[1]);
        const jit::dw_pair_split w = split_work(ring_, pc_, dc_, std::min(threads, max_threads));
        const auto item = [&](int64_t i) {
            const int64_t strip = i % w.strips, chunk = i / w.strips % w.chunks;
            run_item(d, w, i / w.strips / w.chunks, chunk, strip);
        };
        if (threads == 1) {
            for (int64_t i = 0; i < w.items(pc_.mb); ++i) item(i);
            return;
        }
        jit::run_chunks(w.items(pc_.mb), threads, item);
    }

    // One item of split w: image n, channel chunk, strip of depthwise output rows.
    void run_item(const call_data &d, const jit::dw_pair_split &w, int64_t n, int64_t chunk,
                  int64_t strip) const {
        const int64_t OH = dc_.o[1], K = ring_.rows;
        const int64_t oh0 = OH * strip / w.strips, oh1 = OH * (strip + 1) / w.strips;
        const int64_t chunk_blocks = w.chunk_units * ring_.unit;
        const int64_t blk0 = chunk * chunk_blocks;
        const int64_t blk1 = std::min(dc_.n_ocb, blk0 + chunk_blocks);
        const int64_t row_bytes = (blk1 - blk0) * ring_.ocb_bytes;
        float *ring = jit::thread_buffer<jit::thread_slot::dw_ring>(static_cast<size_t>(K * row_bytes));
        const auto ring_row = [&](int64_t ih) { return offset_ptr(ring, ih % K * row_bytes); };
        std::vector<const float *> rows(static_cast<size_t>(K));
        std::vector<int64_t> op_values(std::max(d.before_ops.size(), d.after_ops.size()));
        conv_call_args a {};
        a.post_op = op_values.data();
        int64_t next_ih = 0; // the first 1x1 row the ring does not hold yet
        for (int64_t oh = oh0; oh < oh1; ++oh) {
            const jit::tap_range th = jit::taps(dc_, 1, oh);
            const int64_t first = th.first_in, end = first + th.count;
            for (int64_t ih = std::max(next_ih, first); ih < end; ++ih)
                for (int64_t ocb = blk0; ocb < blk1; ocb += pc_.nb_oc) {
                    a.src = offset_ptr(d.src, n * pc_.src_n + ih * pc_.src_sp[1]);
                    a.wei = offset_ptr(d.wei, ocb * pc_.wei_ocb);
                    a.bias = d.bias ? d.bias + ocb * pc_.simd_w : nullptr;
                    a.dst = offset_ptr(ring_row(ih), (ocb - blk0) * ring_.ocb_bytes);
                    a.kd_count = a.kh_count = 1;
                    if (pw_operands_.any())
                        pw_operands_.values(d.before_ops, nullptr, n, 0, ocb, 0, ih, op_values.data());
                    call(pw_kernels_.of(pc_, ocb / pc_.nb_oc), d, a);
                }
            next_ih = std::max(next_ih, end);
            for (int64_t t = 0; t < th.count; ++t) rows[t] = ring_row(first + t);
            for (int64_t ocb = blk0; ocb < blk1; ocb += dc_.nb_oc) {
                const int64_t nb = std::min<int64_t>(dc_.nb_oc, blk1 - ocb);
                a.src = offset_ptr<const float>(nullptr, (ocb - blk0) * ring_.ocb_bytes);
                a.src_rows = rows.data();
                a.wei = offset_ptr(d.dw_wei, ocb * dc_.wei_ocb + th.lo * dc_.wei_sp[1]);
                a.bias = d.dw_bias ? d.dw_bias + ocb * dc_.simd_w : nullptr;
                a.dst = offset_ptr(d.dst, n * dc_.dst_n + ocb * dc_.dst_ocb + oh * dc_.dst_sp[1]);
                a.kd_count = 1;
                a.kh_count = th.count;
                if (dw_operands_.any())
                    dw_operands_.values(d.after_ops, d.dst, n, 0, ocb, 0, oh, op_values.data());
                call(dw_kernels_.of(nb, ocb + nb == dc_.n_ocb), d, a);
            }
        }
    }

    static void call(const jit::jit_generator &k, const call_data &d, conv_call_args &a) {
        a.table = d.tables.of(&k);
        k.entry_as<kernel_fn>()(&a);
    }

    const conv_setup pw_, dw_; // the 1x1 half (its dst: the ring) and the depthwise half
    const conv_conf &pc_, &dc_;
    const ring_geometry ring_;
    const int dw_at_, chain_len_; // the dw entry's index, the chain's length
    std::string name_;
    const std::unique_ptr<internal_reorder> src_reorder_, wei_reorder_, dst_out_reorder_;
    const jit::conv_operands pw_operands_, dw_operands_;
    const pw_kernels pw_kernels_;
    const dw_kernels dw_kernels_;
};

// The request of one half: prb with src, weights, bias and dst, the chain's entries [begin, end).
conv_request half_request(const conv_request &req, const conv_problem &prb, int begin, int end) {
    conv_request h = req;
    h.prb = prb;
    h.attr.set_post_ops(chain_slice(req.attr.get_post_ops(), begin, end));
    return h;
}

} // namespace

std::unique_ptr<primitive_impl> create_jit_conv_dw(const conv_request &req, cpu_isa isa,
                                                   std::string &why_not) {
    return create_jit_conv_dw_for(jit::current_uarch(), req, isa, why_not);
}

std::unique_ptr<primitive_impl> create_jit_conv_dw_for(const jit::uarch &u,
                                                       const conv_request &req, cpu_isa isa,
                                                       std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const conv_problem &prb = req.prb;
    PRIM_DISPATCH(why_not, prb.g == 1, "the fused dw pass takes an ungrouped 1x1 convolution");
    const post_ops &chain = req.attr.get_post_ops();
    const int at = chain.dw_index();
    PRIM_DISPATCH(why_not, at >= 0, "no dw post-op: this is the pass of a 1x1 convolution and its dw");
    const post_ops::entry &e = chain.entries()[at];
    const dw_types types = dw_types_of(e, req.src.get_data_type(), req.dw_mid_dt);
    PRIM_DISPATCH(why_not, !types.int8, "an int8 pair runs on the int8 fused pass");
    const conv_problem dwp = dw_problem(prb, e);
    // The 1x1's output, as the operands before the dw see it (arg_layouts::dw_src).
    const memory::desc mid = plain_desc({prb.mb, prb.oc, prb.o[SP_H], prb.o[SP_W]});
    const cpu_isa kernel_isa = jit::conv_kernel_isa(prb, isa, u);

    // The 1x1 half: its dst desc gives it the blocking of a dense output; its rows go to the
    // ring (set below), computed one by one.
    conv_request pw_req = half_request(req, prb, 0, at);
    pw_req.dst = memory::desc(mid.get_dims(), dt::f32, memory::format_tag::any);
    conv_setup pw;
    pw.rows_apart = true;
    std::string reason = jit::make_conv_setup(pw, pw_req, kernel_isa, isa, u);
    PRIM_DISPATCH(why_not, reason.empty(), "the 1x1 convolution: " + reason);
    for (const post_ops::entry &pe : pw.chain.entries())
        PRIM_DISPATCH(why_not, !has_operand(pe) || pe.mask != post_ops::policy::per_tensor,
                      "a binary operand before the dw varying along the channels and pixels: the "
                      "fused pass reads those after the dw only");
    pw.operands = operand_descs(pw_req.attr.get_post_ops(), mid);
    reason = jit::conv_operands::check(pw, pw.operands);
    PRIM_DISPATCH(why_not, reason.empty(), reason);

    // The depthwise half: its src is the ring (set below), its weights and bias the dw entry's.
    conv_request dw_req = half_request(req, dwp, at + 1, chain.len());
    dw_req.src = memory::desc(mid.get_dims(), dt::f32, memory::format_tag::any);
    // Its weights in the kernel's packed layout (query_md gives it, as oneDNN's does for its
    // fused dw): packing them per call would cost a pass over K·K·C values each execute.
    dw_req.wei = memory::desc(dw_weights_desc(dwp, types).get_dims(), dt::f32, memory::format_tag::any);
    dw_req.bias = dw_bias_desc(dwp, types);
    dw_req.with_bias = !dw_req.bias.is_zero();
    conv_setup dw;
    reason = jit::make_conv_setup(dw, dw_req, kernel_isa, isa, u);
    PRIM_DISPATCH(why_not, reason.empty(), "the depthwise convolution: " + reason);
    PRIM_DISPATCH(why_not, dw.conf.depthwise, "one output channel: the depthwise kernel takes two or more");
    dw.operands = operand_descs(dw_req.attr.get_post_ops(), dw.user.dst);
    reason = jit::conv_operands::check(dw, dw.operands);
    PRIM_DISPATCH(why_not, reason.empty(), reason);

    // The ring's rows: blocked, iw pixels of W lanes per channel block.
    const int64_t vec_bytes = pw.conf.simd_w * static_cast<int64_t>(sizeof(float));
    const int64_t ring_ocb = dw.conf.i[2] * vec_bytes;
    PRIM_DISPATCH(why_not, 4.0 * static_cast<double>(ring_ocb) < 0x1p30,
                  "the 1x1 convolution's rows are too wide for the fused pass's 32-bit displacements");
    pw.conf.dst_ocb = ring_ocb;
    pw.conf.dst_sp[2] = vec_bytes;
    dw.conf.src_rows = true;
    dw.conf.src_ocb = ring_ocb;
    dw.conf.src_sp[2] = vec_bytes;
    dw.conf.src_sp[1] = dw.conf.src_sp[0] = 0; // rows come from the table

    arg_layouts layouts(pw.user.src, pw.user.wei, req.with_bias ? pw.user.bias : memory::desc(),
                        dw.user.dst);
    layouts.dw_wei = dw.user.wei;
    layouts.dw_bias = dw_req.bias;
    layouts.dw_src = mid;
    return jit::generating(
            [&] {
                return std::make_unique<jit_conv_dw_fused>(std::move(layouts), std::move(pw),
                                                           std::move(dw), kernel_isa, u, at,
                                                           chain.len());
            },
            why_not);
}

} // namespace impl
} // namespace prim
