// The JIT convolution primitive: which layouts it runs on, how the work is split over threads,
// and the per-call repacking of layouts the kernel does not read directly.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <vector>

#include <omp.h>

#include "common/internal_reorder.hpp"
#include "jit/conv_conf.hpp"
#include "jit/conv_dw_kernel.hpp"
#include "jit/conv_kernel.hpp"
#include "jit/conv_merged_groups.hpp"
#include "jit/conv_unit_stride.hpp"
#include "jit/jit_convolution.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/work_threads.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {
namespace {

using jit::conv_call_args;
using jit::conv_conf;
using kernel_fn = void (*)(const conv_call_args *);

// A 64-byte-aligned float buffer for one call's repacked argument.
class scratch {
public:
    explicit scratch(size_t bytes)
        : p_(static_cast<float *>(std::aligned_alloc(64, (bytes + 63) / 64 * 64))) {
        if (!p_) throw error(status::out_of_memory, "convolution: cannot allocate scratch memory");
    }
    ~scratch() { std::free(p_); }
    scratch(const scratch &) = delete;
    scratch &operator=(const scratch &) = delete;
    float *get() const { return p_; }

private:
    float *p_;
};

// The valid taps of one output position along one dim: [lo, lo + count).
struct tap_range {
    int64_t lo = 0, count = 0, first_in = 0; // first_in: input index of tap lo
};
tap_range taps(const conv_conf &c, int sp, int64_t out) {
    const int64_t i0 = out * c.s[sp] - c.p[sp], dil = c.dil[sp];
    const int64_t lo = i0 >= 0 ? 0 : (-i0 + dil - 1) / dil;
    const int64_t last_in = c.i[sp] - 1 - i0;
    const int64_t hi = last_in < 0 ? -1 : std::min(c.k[sp] - 1, last_in / dil);
    tap_range r;
    r.lo = lo;
    r.count = hi >= lo ? hi - lo + 1 : 0;
    r.first_in = i0 + lo * dil;
    return r;
}

// Pointer arithmetic in bytes, done on integers so that a pointer into the padding (never
// dereferenced, e.g. when a row has no valid tap) is well defined.
template <typename T>
T *offset_ptr(T *p, int64_t bytes) {
    return reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(bytes));
}

// A desc of like's dims in the layout pattern ("aBcd16b").
memory::desc make_desc(const memory::desc &like, const std::string &pattern) {
    return memory::desc(like.get_dims(), memory::data_type::f32, pattern);
}

class jit_convolution : public primitive_impl {
public:
    std::string name() const override { return name_; }

    void execute(const exec_ptrs &args) const override {
        if (c_.mb == 0) return;
        std::unique_ptr<scratch> src_s, gathered_s, wei_s, dst_s;
        const float *src = args.src, *wei = args.wei;
        float *dst = args.dst;
        if (src_reorder_) {
            src_s = std::make_unique<scratch>(ksrc_md_.get_size());
            src_reorder_->execute(memory(src_md, const_cast<float *>(args.src)),
                                  memory(ksrc_md_, src_s->get()));
            src = src_s->get();
        }
        if (unit_stride_.enabled()) {
            gathered_s = std::make_unique<scratch>(unit_stride_.compact_md().get_size());
            unit_stride_.gather(src, gathered_s->get());
            src = gathered_s->get();
        }
        if (merged_groups_.enabled()) {
            wei_s = std::make_unique<scratch>(kwei_md_.get_size());
            merged_groups_.expand(args.wei, wei_s->get());
            wei = wei_s->get();
        } else if (wei_reorder_) {
            wei_s = std::make_unique<scratch>(kwei_md_.get_size());
            wei_reorder_->execute(memory(wei_md, const_cast<float *>(args.wei)),
                                  memory(kwei_md_, wei_s->get()));
            wei = wei_s->get();
        }
        if (dst_in_reorder_) {
            dst_s = std::make_unique<scratch>(kdst_md_.get_size());
            if (c_.chain.has_sum())
                dst_in_reorder_->execute(memory(dst_md, args.dst), memory(kdst_md_, dst_s->get()));
            dst = dst_s->get();
        }
        run(src, wei, args.bias, dst);
        if (dst_out_reorder_)
            dst_out_reorder_->execute(memory(kdst_md_, dst), memory(dst_md, args.dst));
    }

    // Weights in the kernel's packed layout kwei: with 'any' the user reorders once, else
    // execute() repacks per call. Bias stays the user's plain vector. False if it is not plain.
    // (Merged small groups: the user's weights, or plain goihw for 'any', expanded per call.)
    bool set_weights_and_bias(const conv_request &req, const memory::desc &kwei) {
        kwei_md_ = kwei;
        if (merged_groups_.enabled()) {
            wei_md = merged_groups_.user_wei_md();
        } else {
            wei_md = req.wei.is_any() ? kwei_md_ : req.wei;
            if (wei_md != kwei_md_) wei_reorder_ = std::make_unique<internal_reorder>(wei_md, kwei_md_);
        }
        if (!req.with_bias) return true;
        const memory::desc plain_bias = make_desc(req.bias, "a");
        bias_md = req.bias.is_any() ? plain_bias : req.bias;
        return bias_md == plain_bias;
    }

    // "jit:avx512", with "+repack" when execute() copies an argument into another layout.
    template <cpu_isa isa>
    void set_name() {
        const bool repack = src_reorder_ || wei_reorder_ || dst_out_reorder_ || merged_groups_.enabled();
        name_ = std::string("jit:") + jit::isa_traits<isa>::name + (repack ? "+repack" : "");
    }

    // Filled by create_jit_conv.
    conv_conf c_;
    std::string name_;
    memory::desc ksrc_md_, kwei_md_, kdst_md_; // the layouts the kernel reads
    std::unique_ptr<internal_reorder> src_reorder_, wei_reorder_, dst_in_reorder_, dst_out_reorder_;
    jit::unit_stride_src unit_stride_; // strided 1x1: the kernel reads a dense copy of src
    jit::merged_groups merged_groups_; // small groups: block-diagonal weights, expanded per call
    std::shared_ptr<const jit::jit_generator> main_kernel_, last_kernel_;
    // The valid kd / kh taps of every output depth / row, computed once (init_taps).
    std::vector<tap_range> taps_d_, taps_h_;
    void init_taps() {
        for (int64_t od = 0; od < c_.o[0]; ++od) taps_d_.push_back(taps(c_, 0, od));
        for (int64_t oh = 0; oh < c_.o[1]; ++oh) taps_h_.push_back(taps(c_, 1, oh));
    }

    // The kernels through make(conf, nb, oc_tail): the main one for groups of nb_oc full oc
    // blocks, the last group's when it has fewer blocks or the tail; then the taps. False,
    // with why_not, when code generation fails.
    template <typename make_fn>
    bool make_kernels(make_fn make, std::string &why_not) {
        try {
            const int last_nb = static_cast<int>(c_.n_ocb - (c_.n_ocbg - 1) * c_.nb_oc);
            if (c_.n_ocbg > 1) main_kernel_ = make(c_, c_.nb_oc, 0);
            if (c_.n_ocbg == 1 || last_nb != c_.nb_oc || c_.oc_tail)
                last_kernel_ = make(c_, last_nb, c_.oc_tail);
            if (!main_kernel_) main_kernel_ = std::move(last_kernel_);
        } catch (const error &e) {
            why_not = std::string("kernel generation failed: ") + e.what();
            return false;
        }
        init_taps();
        return true;
    }

private:
    // Work items (one kernel call each), outermost first: group, oc block group, image, od, oh
    // -- or, when a group's weights fit in L2 (conf.ocbg_inner), group, image, od, oh, oc block
    // group, so that the src rows of one output row are reused from L1/L2 by every oc block
    // group -- or, when the groups of a pixel lie side by side (channels last), image, od, oh,
    // oc block group, group: a group of 8 channels is half a cache line, and walking the groups
    // outermost read every src and dst line once per group (ResNeXt's 32-group 3x3 layer ran
    // at 0.55x oneDNN on two threads, bound by memory traffic). Threads take contiguous chunks
    // of items; every output is computed by exactly one call in a fixed order, so results do
    // not depend on the number of threads.
    void run(const float *src, const float *wei, const float *bias, float *dst) const {
        const int64_t OD = c_.o[0], OH = c_.o[1];
        const int64_t work = c_.g * c_.n_ocbg * c_.mb * OD * OH;
        const kernel_fn main_fn = main_kernel_->entry_as<kernel_fn>();
        const kernel_fn last_fn = last_kernel_ ? last_kernel_->entry_as<kernel_fn>() : main_fn;
        // The work item's indices as an odometer, innermost digit first.
        enum { OCBG, OH_, OD_, N, G };
        const int order_inner[5] = {OCBG, OH_, OD_, N, G}, order_outer[5] = {OH_, OD_, N, OCBG, G};
        const int order_groups_inner[5] = {G, OCBG, OH_, OD_, N};
        const bool groups_side_by_side = c_.g > 1 && c_.src_g < c_.src_sp[2];
        const int *order = groups_side_by_side ? order_groups_inner
                                               : c_.ocbg_inner ? order_inner : order_outer;
        const int64_t size[5] = {c_.n_ocbg, OH, OD, c_.mb, c_.g};
        // Contiguous chunks of work items, several per thread, taken dynamically: a thread
        // that the OS delays (the machine is shared) does not hold up the others, and results
        // stay identical because every item is computed the same way whoever takes it. Small
        // problems run on fewer threads, down to the calling one (work_threads.hpp).
        const double flops = 2.0 * c_.mb * c_.g * c_.ocg * (c_.depthwise ? 1 : c_.icg) * OD * OH
                             * c_.o[2] * c_.k[0] * c_.k[1] * c_.k[2];
        const int threads = jit::threads_for_work(flops, work);
        // Items [start, end) in order.
        const auto run_items = [&](int64_t start, int64_t end) {
            int64_t idx[5];
            for (int64_t r = start, d = 0; d < 5; ++d) {
                idx[order[d]] = r % size[order[d]];
                r /= size[order[d]];
            }
            conv_call_args a;
            for (int64_t w = start; w < end; ++w) {
                const int64_t ocbg = idx[OCBG], oh = idx[OH_], od = idx[OD_];
                const int64_t n = idx[N], g = idx[G];
                const tap_range &td = taps_d_[od], &th = taps_h_[oh];
                const int64_t ocb0 = ocbg * c_.nb_oc;
                a.src = offset_ptr(src, n * c_.src_n + g * c_.src_g + ocb0 * c_.src_ocb
                                                + td.first_in * c_.src_sp[0]
                                                + th.first_in * c_.src_sp[1]);
                a.wei = offset_ptr(wei, g * c_.wei_g + ocb0 * c_.wei_ocb + td.lo * c_.wei_sp[0]
                                                + th.lo * c_.wei_sp[1]);
                a.bias = bias ? bias + g * c_.ocg + ocb0 * c_.simd_w : nullptr;
                a.dst = offset_ptr(dst, n * c_.dst_n + g * c_.dst_g + ocb0 * c_.dst_ocb
                                                + od * c_.dst_sp[0] + oh * c_.dst_sp[1]);
                a.kd_count = td.count;
                a.kh_count = th.count;
                (ocbg == c_.n_ocbg - 1 ? last_fn : main_fn)(&a);
                for (int d = 0; d < 5; ++d) { // next item
                    if (++idx[order[d]] < size[order[d]]) break;
                    idx[order[d]] = 0;
                }
            }
        };
        if (threads == 1) return run_items(0, work);
        const int64_t n_chunks = std::min<int64_t>(work, 4 * static_cast<int64_t>(threads));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int64_t chunk = 0; chunk < n_chunks; ++chunk)
            run_items(work * chunk / n_chunks, work * (chunk + 1) / n_chunks);
    }
};

// Everything the generated code depends on (not the batch or group strides, which only the
// threading loops use), so equal layers of a network share one kernel through the cache.
std::string kernel_key(const conv_conf &c, const char *kind, int nb, int oc_tail) {
    std::ostringstream k;
    k << kind << ":" << c.simd_w << ":" << c.nb_ic << ":" << c.ic_tail << ":" << c.ur_w << ":"
      << nb << ":" << oc_tail << ":" << c.hold_bcast << ":" << c.with_bias << ":" << c.src_ic
      << ":" << c.src_icb << ":"
      << c.wei_ic << ":" << c.wei_icb << ":" << c.wei_ocb << ":" << c.dst_ocb << ":" << c.src_ocb;
    for (int sp = 0; sp < 3; ++sp)
        k << ":" << c.i[sp] << "," << c.o[sp] << "," << c.k[sp] << "," << c.s[sp] << "," << c.p[sp]
          << "," << c.dil[sp] << "," << c.src_sp[sp] << "," << c.wei_sp[sp] << "," << c.dst_sp[sp];
    k << ":" << jit::key_of(c.chain);
    return k.str();
}

template <cpu_isa isa>
std::shared_ptr<const jit::jit_generator> make_kernel(const conv_conf &c, int nb, int oc_tail) {
    return jit::kernel_cache::instance().get_or_create(
            kernel_key(c, isa == cpu_isa::avx512 ? "conv_avx512" : "conv_avx2", nb, oc_tail),
            [&] { return std::make_unique<jit::conv_kernel<isa>>(c, nb, oc_tail); });
}

template <cpu_isa isa>
std::shared_ptr<const jit::jit_generator> make_dw_kernel(const conv_conf &c, int nb, int oc_tail) {
    return jit::kernel_cache::instance().get_or_create(
            kernel_key(c, isa == cpu_isa::avx512 ? "conv_dw_avx512" : "conv_dw_avx2", nb, oc_tail),
            [&] { return std::make_unique<jit::conv_dw_kernel<isa>>(c, nb, oc_tail); });
}

// Depthwise: channels on the lanes, its own kernel (conv_dw_kernel.hpp). src and dst are
// channel-blocked by W ('any') or nhwc; other layouts are repacked to the blocked one.
template <cpu_isa isa>
std::unique_ptr<primitive_impl> create_depthwise(const conv_request &req,
        std::unique_ptr<jit_convolution> impl, std::string &why_not) {
    using injector = jit::post_ops_injector<isa>;
    const conv_problem &prb = req.prb;
    conv_conf &c = impl->c_;
    // The regular blocking fills the sizes; the depthwise fields are set below.
    const std::string sizes = jit::init_conv_blocking(c, prb, isa, 0);
    PRIM_DISPATCH(sizes.empty(), sizes);
    const int nsp = prb.nsp, W = c.simd_w;
    const int64_t C = prb.g;
    c.depthwise = true;
    c.g = 1; // the channel blocks are the oc blocks of one group
    c.icg = c.ocg = C;
    c.nb_ic = 1;
    c.ic_tail = 0;
    c.n_ocb = (C + W - 1) / W;
    c.oc_tail = static_cast<int>(C % W);
    c.ocbg_inner = false; // each thread walks whole channel planes
    const int acc_max = jit::conv_dw_kernel<isa>::max_acc(injector::aux_vecs_count(c.chain),
                                                          c.oc_tail != 0);
    PRIM_DISPATCH(acc_max >= 1, "the post-ops chain needs too many spare vector registers");
    const int64_t OW = c.o[2], nblocks = (OW + acc_max - 1) / acc_max;
    c.ur_w = static_cast<int>((OW + nblocks - 1) / nblocks);
    // Short rows: up to 4 channel blocks per call fill the registers (7-wide rows: 4 x 7).
    c.nb_oc = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>({acc_max / c.ur_w, 4, c.n_ocb})));
    c.n_ocbg = (c.n_ocb + c.nb_oc - 1) / c.nb_oc;

    const std::string blocked = jit::blocked_data_pattern(nsp, W);
    impl->src_md = req.src.is_any() ? make_desc(req.src, blocked) : req.src;
    impl->dst_md = req.dst.is_any() ? make_desc(req.dst, blocked) : req.dst;
    auto direct = [&](const jit::data_geom &g) {
        return g.ok && g.s_c == 1 && (g.blk == 1 || g.blk == W);
    };
    jit::data_geom sg = jit::analyze_data_desc(impl->src_md, nsp);
    jit::data_geom dg = jit::analyze_data_desc(impl->dst_md, nsp);
    impl->ksrc_md_ = direct(sg) ? impl->src_md : make_desc(req.src, blocked);
    impl->kdst_md_ = direct(dg) ? impl->dst_md : make_desc(req.dst, blocked);
    if (!direct(sg)) {
        sg = jit::analyze_data_desc(impl->ksrc_md_, nsp);
        impl->src_reorder_ = std::make_unique<internal_reorder>(impl->src_md, impl->ksrc_md_);
    }
    if (!direct(dg)) {
        dg = jit::analyze_data_desc(impl->kdst_md_, nsp);
        impl->dst_in_reorder_ = std::make_unique<internal_reorder>(impl->dst_md, impl->kdst_md_);
        impl->dst_out_reorder_ = std::make_unique<internal_reorder>(impl->kdst_md_, impl->dst_md);
    }
    PRIM_DISPATCH(impl->set_weights_and_bias(
                          req, jit::packed_dw_weights_desc(req.wei.get_dims(), nsp, W)),
                  "bias must be a plain vector");
    const std::string strides = jit::set_dw_strides(c, sg, impl->kwei_md_, dg, nsp);
    PRIM_DISPATCH(strides.empty(), strides);

    impl->template set_name<isa>();
    if (!impl->make_kernels(make_dw_kernel<isa>, why_not)) return nullptr;
    return impl;
}

// For a 1x1, stride 1, unpadded problem whose src and dst rows are contiguous along h
// (h stride = width * w stride), merges m output rows into one: m is the smallest divisor of
// OH giving rows of at least 48 pixels. Adjusts the problem and both row strides.
bool flatten_rows(conv_problem &p, jit::data_geom &sg, jit::data_geom &dg) {
    const int h = SP_H, w = SP_W;
    if (p.nsp < 2 || p.k[h] != 1 || p.k[w] != 1 || p.s[h] != 1 || p.s[w] != 1 || p.p[h] != 0
            || p.p[w] != 0 || p.p_end[h] != 0 || p.p_end[w] != 0)
        return false;
    if (sg.s_sp[h] != p.i[w] * sg.s_sp[w] || dg.s_sp[h] != p.o[w] * dg.s_sp[w]) return false;
    int64_t m = 1;
    while (m < p.o[h] && (p.o[h] % m != 0 || p.o[w] * m < 48)) ++m;
    if (m == 1) return false;
    p.o[w] = p.i[w] = p.o[w] * m;
    p.o[h] = p.i[h] = p.o[h] / m;
    sg.s_sp[h] *= m;
    dg.s_sp[h] *= m;
    return true;
}

// A 1x1 convolution with stride 1 and no padding on dense rows is a matrix product over
// pixels, so several output rows can be one kernel row: short rows (14, 7 pixels) then fill
// the register blocks. But a merged row's src no longer stays in L1 while each oc block group
// reads it, so rows are merged only when the register blocking gains: by the cost model's
// efficiency, at least 5% on AVX-512 (measured, mb2, 2 threads: MobileNet-v2's 1x1 layers
// ic144-960 -> oc32-320 ran 6-12% faster unmerged, where merging gained 0-4% in the model;
// ic512 14x14 -> oc16, +8% in the model, ran 10% faster merged), any gain on AVX2, whose
// blocks of 3-6 pixels leave tails on short rows (ResNet-50's 14x14 and 7x7 1x1 layers: +1-3%).
void merge_rows_if_better(conv_problem &p, jit::data_geom &sg, jit::data_geom &dg, cpu_isa isa,
                          int aux_vecs) {
    conv_problem merged = p;
    jit::data_geom msg = sg, mdg = dg;
    if (!flatten_rows(merged, msg, mdg)) return;
    conv_conf as_is, as_merged;
    if (!jit::init_conv_blocking(as_is, p, isa, aux_vecs).empty()
            || !jit::init_conv_blocking(as_merged, merged, isa, aux_vecs).empty())
        return;
    const double min_gain = isa == cpu_isa::avx512 ? 1.05 : 1.0;
    if (as_merged.model_eff <= as_is.model_eff * min_gain) return;
    p = merged;
    sg = msg;
    dg = mdg;
}

template <cpu_isa isa>
std::unique_ptr<primitive_impl> create_for_isa(const conv_request &req, std::string &why_not) {
    using injector = jit::post_ops_injector<isa>;
    const conv_problem &prb = req.prb;
    const post_ops &chain = req.attr.get_post_ops();
    for (const auto &e : chain.entries())
        PRIM_DISPATCH(e.kind == post_ops::kind::sum || injector::is_supported(e.alg),
                      std::string("post-op ") + algorithm_name(e.alg) + " has no JIT emitter");
    PRIM_DISPATCH(injector::aux_opmasks_count(chain) <= 6,
                  "the post-ops chain needs too many opmasks");

    auto impl = std::make_unique<jit_convolution>();
    conv_conf &c = impl->c_;
    c.with_bias = req.with_bias;
    c.chain = chain;
    if (prb.g > 1 && prb.icg() == 1 && prb.ocg() == 1)
        return create_depthwise<isa>(req, std::move(impl), why_not);
    const int nsp = prb.nsp, W = jit::isa_traits<isa>::simd_w;
    const bool grouped = req.wei.ndims() == nsp + 3;
    const std::string blocked = jit::blocked_data_pattern(nsp, W);
    const std::string nhwc = jit::channels_last_pattern(nsp);
    // Groups smaller than a vector become vector-wide ones (conv_merged_groups.hpp): from here
    // on kprb is the problem the kernel runs.
    conv_problem kprb = prb;
    impl->merged_groups_.init(kprb, W, req.wei);

    // src and dst: 'any' becomes channel-blocked when groups start on block boundaries (nhwc
    // otherwise, and for the few channels of a first layer); a given layout is read directly
    // when the kernel can, else repacked to nhwc per call.
    const bool src_blk_ok = kprb.g == 1 || kprb.icg() % W == 0;
    const bool dst_blk_ok = kprb.g == 1 || kprb.ocg() % W == 0;
    impl->src_md = req.src.is_any() ? make_desc(req.src, src_blk_ok && prb.ic >= W ? blocked : nhwc)
                                    : req.src;
    impl->dst_md = req.dst.is_any() ? make_desc(req.dst, dst_blk_ok ? blocked : nhwc) : req.dst;
    jit::data_geom sg = jit::analyze_data_desc(impl->src_md, nsp);
    const bool src_direct = sg.ok && (sg.blk == 1 || (sg.blk == W && sg.s_c == 1 && src_blk_ok));
    jit::data_geom dg = jit::analyze_data_desc(impl->dst_md, nsp);
    const bool dst_direct = dg.ok && dg.s_c == 1 && (dg.blk == 1 || (dg.blk == W && dst_blk_ok));
    impl->ksrc_md_ = src_direct ? impl->src_md : make_desc(req.src, nhwc);
    impl->kdst_md_ = dst_direct ? impl->dst_md : make_desc(req.dst, nhwc);
    if (!src_direct) {
        sg = jit::analyze_data_desc(impl->ksrc_md_, nsp);
        impl->src_reorder_ = std::make_unique<internal_reorder>(impl->src_md, impl->ksrc_md_);
    }
    if (!dst_direct) {
        dg = jit::analyze_data_desc(impl->kdst_md_, nsp);
        impl->dst_in_reorder_ = std::make_unique<internal_reorder>(impl->dst_md, impl->kdst_md_);
        impl->dst_out_reorder_ = std::make_unique<internal_reorder>(impl->kdst_md_, impl->dst_md);
    }

    // A strided 1x1 convolution reads a dense copy of the pixels it uses, with stride 1
    // (conv_unit_stride.hpp); then short rows of a 1x1 convolution may be merged.
    if (impl->unit_stride_.init(kprb, impl->ksrc_md_))
        sg = jit::analyze_data_desc(impl->unit_stride_.compact_md(), nsp);
    merge_rows_if_better(kprb, sg, dg, isa, injector::aux_vecs_count(chain));
    const std::string blocking
            = jit::init_conv_blocking(c, kprb, isa, injector::aux_vecs_count(chain));
    PRIM_DISPATCH(blocking.empty(), blocking);

    PRIM_DISPATCH(impl->set_weights_and_bias(
                          req, impl->merged_groups_.enabled()
                                       ? impl->merged_groups_.packed_md()
                                       : jit::packed_weights_desc(req.wei.get_dims(), grouped, nsp, W)),
                  "bias must be a plain vector");
    const std::string strides = jit::set_strides(c, sg, impl->kwei_md_, grouped, dg, nsp);
    PRIM_DISPATCH(strides.empty(), strides);

    impl->template set_name<isa>();
    if (!impl->make_kernels(make_kernel<isa>, why_not)) return nullptr;
    return impl;
}

} // namespace

std::unique_ptr<primitive_impl> create_jit_conv(const conv_request &req, cpu_isa isa,
                                                std::string &why_not) {
    PRIM_DISPATCH(isa >= cpu_isa::avx2, "the ISA cap is below avx2");
    if (isa >= cpu_isa::avx512) return create_for_isa<cpu_isa::avx512>(req, why_not);
    return create_for_isa<cpu_isa::avx2>(req, why_not);
}

} // namespace impl
} // namespace prim
