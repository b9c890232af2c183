// The JIT convolution primitive: built whole from the configuration init_conv_conf() decides
// (conv_conf.hpp), it generates the kernels, splits the work over threads, and repacks per call
// the arguments whose layout the kernel does not read directly.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "common/internal_reorder.hpp"
#include "common/post_op_operands.hpp"
#include "jit/gen/thread_pool.hpp"
#include "jit/conv/conv_call_helpers.hpp"
#include "jit/conv/conv_conf.hpp"
#include "jit/conv/conv_dw_kernel.hpp"
#include "jit/conv/conv_kernel.hpp"
#include "jit/conv/conv_operands.hpp"
#include "jit/conv/jit_convolution.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "jit/inject/kernel_chain_plan.hpp"
#include "jit/gen/runtime_table.hpp"
#include "jit/gen/scratch.hpp"
#include "jit/gen/work_threads.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {
namespace {

using jit::conv_call_args;
using jit::conv_conf;
using jit::conv_setup;
using kernel_fn = void (*)(const conv_call_args *);

using jit::scratch;

using jit::offset_ptr;
using jit::reorder_if_differ;
using jit::tap_range;
using jit::taps;

class jit_convolution : public primitive_impl {
public:
    // Generates the kernels (or takes them from the cache); throws prim::error when code
    // generation fails.
    jit_convolution(conv_setup setup, cpu_isa isa, const jit::uarch &u)
        : primitive_impl(setup.user), s_(std::move(setup)), c_(s_.conf), u_(u),
          src_reorder_(reorder_if_differ(s_.user.src, s_.ksrc)),
          wei_reorder_(s_.merged_groups.enabled() ? nullptr : reorder_if_differ(s_.user.wei, s_.kwei)),
          dst_in_reorder_(reorder_if_differ(s_.user.dst, s_.kdst)),
          dst_out_reorder_(reorder_if_differ(s_.kdst, s_.user.dst)),
          operands_(s_, s_.operands) {
        // "jit:avx512", with "+repack" when execute() copies an argument into another layout.
        const bool repack = src_reorder_ || wei_reorder_ || dst_out_reorder_
                || s_.merged_groups.enabled();
        name_ = std::string("jit:") + cpu_isa_name(isa) + (repack ? "+repack" : "");
        // The main kernel for groups of nb_oc full oc blocks, the last group's when it has
        // fewer blocks or the tail.
        const int last_nb = static_cast<int>(c_.n_ocb - (c_.n_ocbg - 1) * c_.nb_oc);
        if (c_.n_ocbg > 1) main_kernel_ = jit::make_conv_kernel(isa, s_, c_.nb_oc, 0);
        if (c_.n_ocbg == 1 || last_nb != c_.nb_oc || c_.oc_tail)
            last_kernel_ = jit::make_conv_kernel(isa, s_, last_nb, c_.oc_tail);
        if (!main_kernel_) main_kernel_ = std::move(last_kernel_);
        // The valid kd / kh taps of every output depth / row.
        for (int64_t od = 0; od < c_.o[0]; ++od) taps_d_.push_back(taps(c_, 0, od));
        for (int64_t oh = 0; oh < c_.o[1]; ++oh) taps_h_.push_back(taps(c_, 1, oh));
    }

    std::string name() const override { return name_; }

    void execute(const exec_ptrs &args) const override {
        if (c_.mb == 0) return;
        std::unique_ptr<scratch> src_s, gathered_s, wei_s, dst_s;
        const float *src = args.src, *wei = args.wei;
        float *dst = args.dst;
        if (src_reorder_) {
            src_s = std::make_unique<scratch>(s_.ksrc.get_size());
            src_reorder_->execute(memory(s_.user.src, const_cast<float *>(args.src)),
                                  memory(s_.ksrc, src_s->get()));
            src = src_s->get();
        }
        // Strided 1x1: run() gathers src's used pixels into this buffer and reads them there.
        const float *to_gather = nullptr;
        if (s_.unit_stride.enabled()) {
            gathered_s = std::make_unique<scratch>(s_.unit_stride.compact_md().get_size());
            to_gather = src;
            src = gathered_s->get();
        }
        const gather_step gather {to_gather, gathered_s ? gathered_s->get() : nullptr};
        if (s_.merged_groups.enabled()) {
            wei_s = std::make_unique<scratch>(s_.kwei.get_size());
            s_.merged_groups.expand(args.wei, wei_s->get());
            wei = wei_s->get();
        } else if (wei_reorder_) {
            wei_s = std::make_unique<scratch>(s_.kwei.get_size());
            wei_reorder_->execute(memory(s_.user.wei, const_cast<float *>(args.wei)),
                                  memory(s_.kwei, wei_s->get()));
            wei = wei_s->get();
        }
        if (dst_in_reorder_) {
            dst_s = std::make_unique<scratch>(s_.kdst.get_size());
            if (s_.chain.has_sum())
                dst_in_reorder_->execute(memory(s_.user.dst, args.dst), memory(s_.kdst, dst_s->get()));
            dst = dst_s->get();
        }
        std::vector<std::vector<float>> operand_copies;
        const std::vector<const float *> ops = operands_.prepare(args.post_op, operand_copies);
        const jit::runtime_tables tables({main_kernel_.get(), last_kernel_.get()}, args.runtime_params);
        run(gather, src, wei, args.bias, dst, ops, tables);
        if (dst_out_reorder_)
            dst_out_reorder_->execute(memory(s_.kdst, dst), memory(s_.user.dst, args.dst));
    }

private:
    // Work items (one kernel call each), outermost first: group, oc block group, image, od, oh
    // -- or, when a group's weights fit in L2 (conf.ocbg_inner), group, image, od, oh, oc block
    // group, so that the src rows of one output row are reused from L1/L2 by every oc block
    // group -- or, when the groups of a pixel lie side by side (channels last), image, od, oh,
    // oc block group, group: a group of 8 channels is half a cache line, and walking the groups
    // outermost read every src and dst line once per group (ResNeXt's 32-group 3x3 layer ran
    // at 0.55x oneDNN on two threads, bound by memory traffic). Two 8-channel groups in one
    // 16-channel block keep the group outermost: a block's plane stays in L2 between the two
    // (ResNeXt's 32 x 8 layer on the 8-lane kernels, one thread: 77 GFLOP/s with the groups
    // innermost, 89-93 outermost). Threads take contiguous chunks
    // of items; every output is computed by exactly one call in a fixed order, so results do
    // not depend on the number of threads. A strided 1x1 convolution's threads first gather
    // the used pixels (gather.from, null otherwise) into gather.to, which src points at.
    struct gather_step {
        const float *from;
        float *to;
    };
    void run(const gather_step &gather, const float *src, const float *wei, const float *bias,
             float *dst, const std::vector<const float *> &ops,
             const jit::runtime_tables &tables) const {
        const int64_t OD = c_.o[0], OH = c_.o[1];
        const int64_t work = c_.g * c_.n_ocbg * c_.mb * OD * OH;
        const jit::jit_generator &main_k = *main_kernel_, &last_k = last_kernel_ ? *last_kernel_ : main_k;
        const kernel_fn main_fn = main_k.entry_as<kernel_fn>(), last_fn = last_k.entry_as<kernel_fn>();
        const void *const main_table = tables.of(&main_k), *const last_table = tables.of(&last_k);
        // The work item's indices as an odometer, innermost digit first.
        enum { OCBG, OH_, OD_, N, G };
        const int order_inner[5] = {OCBG, OH_, OD_, N, G}, order_outer[5] = {OH_, OD_, N, OCBG, G};
        const int order_groups_inner[5] = {G, OCBG, OH_, OD_, N};
        const bool groups_side_by_side
                = c_.g > 1 && c_.src_cblk == 1 && c_.src_group(1) < c_.src_sp[2];
        const int *order = groups_side_by_side ? order_groups_inner
                                               : c_.ocbg_inner ? order_inner : order_outer;
        const int64_t size[5] = {c_.n_ocbg, OH, OD, c_.mb, c_.g};
        // Contiguous chunks of work items, several per thread, taken dynamically (thread_pool.hpp):
        // a thread that the OS delays (the machine is shared) does not hold up the others, and results
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
            conv_call_args a {};
            std::vector<int64_t> op_values(ops.size());
            a.post_op = op_values.data();
            for (int64_t w = start; w < end; ++w) {
                const int64_t ocbg = idx[OCBG], oh = idx[OH_], od = idx[OD_];
                const int64_t n = idx[N], g = idx[G];
                const tap_range &td = taps_d_[od], &th = taps_h_[oh];
                const int64_t ocb0 = ocbg * c_.nb_oc;
                a.src = offset_ptr(src, n * c_.src_n + c_.src_group(g) + ocb0 * c_.src_ocb
                                                + td.first_in * c_.src_sp[0]
                                                + th.first_in * c_.src_sp[1]);
                a.wei = offset_ptr(wei, g * c_.wei_g + ocb0 * c_.wei_ocb + td.lo * c_.wei_sp[0]
                                                + th.lo * c_.wei_sp[1]);
                a.bias = bias ? bias + g * c_.ocg + ocb0 * c_.simd_w : nullptr;
                a.dst = offset_ptr(dst, n * c_.dst_n + c_.dst_group(g) + ocb0 * c_.dst_ocb
                                                + od * c_.dst_sp[0] + oh * c_.dst_sp[1]);
                a.kd_count = td.count;
                a.kh_count = th.count;
                if (operands_.any()) operands_.values(ops, dst, n, g, ocb0, od, oh, op_values.data());
                const bool last = ocbg == c_.n_ocbg - 1;
                a.table = last ? last_table : main_table;
                (last ? last_fn : main_fn)(&a);
                for (int d = 0; d < 5; ++d) { // next item
                    if (++idx[order[d]] < size[order[d]]) break;
                    idx[order[d]] = 0;
                }
            }
        };
        if (threads == 1) {
            if (gather.from) s_.unit_stride.gather(gather.from, gather.to, 0, 1);
            return run_items(0, work);
        }
        // Chunks per thread (uarch.hpp): 4, or 16 for a short 1x1 call (below 8 MFLOP per
        // thread, 70 us on one core): with OpenMP's passive wait the other thread joins late, and
        // coarse chunks left one thread idle at the end. Measured on two threads, quiet machine,
        // best of 4: MobileNet v2's 1x1 layers at mb1 +17% (geomean of seven; 576 -> 160 7x7
        // +31%, 192 -> 64 14x14 +52%, 64 -> 384 14x14 0%). Only 1x1: rows with kh or kd taps
        // share src rows, which a finer split makes both threads read; larger calls keep 4
        // (ResNet-50 at mb2 and the 56x56 mb1 layers gained nothing from 16).
        const bool rows_share_src = c_.depthwise || c_.k[0] * c_.k[1] > 1;
        const int64_t chunks_per_thread
                = !rows_share_src && flops / threads < u_.conv_small_call_flops_per_thread
                ? u_.conv_small_call_chunks_per_thread
                : u_.conv_chunks_per_thread;
        const int64_t n_chunks = std::min<int64_t>(work, chunks_per_thread * threads);
        // The gather's rows, then the items: two calls of the chunk pool (a barrier between
        // them), each split by the threads that run it.
        if (gather.from)
            jit::run_chunks(threads, threads, [&](int64_t part) {
                s_.unit_stride.gather(gather.from, gather.to, static_cast<int>(part), threads);
            });
        jit::run_chunks(n_chunks, threads, [&](int64_t chunk) {
            run_items(work * chunk / n_chunks, work * (chunk + 1) / n_chunks);
        });
    }

    const conv_setup s_;
    const conv_conf &c_; // s_.conf
    const jit::uarch u_;  // the figures it was configured with (its chunks per thread)
    std::string name_;
    // Per-call repacking of the arguments whose user layout is not the kernel's.
    const std::unique_ptr<internal_reorder> src_reorder_, wei_reorder_, dst_in_reorder_, dst_out_reorder_;
    std::shared_ptr<const jit::jit_generator> main_kernel_, last_kernel_;
    std::vector<tap_range> taps_d_, taps_h_; // the valid kd / kh taps of every od / oh
    const jit::conv_operands operands_;
};

} // namespace

std::unique_ptr<primitive_impl> create_jit_conv(const conv_request &req, cpu_isa isa,
                                                std::string &why_not) {
    return create_jit_conv_for(jit::current_uarch(), req, isa, why_not);
}

std::unique_ptr<primitive_impl> create_jit_conv_for(const jit::uarch &u, const conv_request &req,
                                                    cpu_isa isa, std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = jit::conv_kernel_isa(req.prb, isa, u);
    conv_setup setup;
    const std::string reason = jit::make_conv_setup(setup, req, kernel_isa, isa, u);
    PRIM_DISPATCH(why_not, reason.empty(), reason);
    setup.operands = impl::operand_descs(req.attr.get_post_ops(), setup.user.dst);
    const std::string unreadable = jit::conv_operands::check(setup, setup.operands);
    PRIM_DISPATCH(why_not, unreadable.empty(), unreadable);
    return jit::generating([&] { return std::make_unique<jit_convolution>(std::move(setup), kernel_isa, u); },
                           why_not);
}

} // namespace impl

namespace jit {

std::string make_conv_setup(conv_setup &setup, const impl::conv_request &req, cpu_isa kernel_isa,
                            cpu_isa isa, const uarch &u) {
    kernel_chain_needs needs;
    needs.batch_per_call = true;
    const kernel_chain_plan chain = plan_kernel_chain(kernel_isa, req.attr.get_post_ops(), req.dst, needs);
    if (!chain.why_not.empty()) return chain.why_not;
    return init_conv_conf(setup, req, kernel_isa, isa, chain, u);
}

// The kernel for one oc block group variant: nb oc blocks, the last with oc_tail valid lanes
// (0: full), generated or taken from the process-wide cache. kernel_t: conv_kernel<isa> or
// conv_dw_kernel<isa>, named by kind in the key.
template <typename kernel_t>
std::shared_ptr<const jit_generator> cached_kernel(const char *kind, const conv_setup &s, int nb,
                                                   int oc_tail) {
    struct variant {
        conv_kernel_conf conf;
        int64_t nb, oc_tail;
    } const v {s.conf, nb, oc_tail};
    return kernel_cache::instance().get_or_create(kernel_key(kind, v, s.chain), [&] {
        return std::make_unique<kernel_t>(s.conf, s.chain, nb, oc_tail);
    });
}

std::shared_ptr<const jit_generator> make_conv_kernel(cpu_isa isa, const conv_setup &s, int nb,
                                                      int oc_tail) {
    const bool avx512 = isa == cpu_isa::avx512;
    if (s.conf.depthwise)
        return avx512 ? cached_kernel<conv_dw_kernel<cpu_isa::avx512>>("conv_dw_avx512", s, nb, oc_tail)
                      : cached_kernel<conv_dw_kernel<cpu_isa::avx2>>("conv_dw_avx2", s, nb, oc_tail);
    return avx512 ? cached_kernel<conv_kernel<cpu_isa::avx512>>("conv_avx512", s, nb, oc_tail)
                  : cached_kernel<conv_kernel<cpu_isa::avx2>>("conv_avx2", s, nb, oc_tail);
}

std::unique_ptr<impl::primitive_impl> generating(
        const std::function<std::unique_ptr<impl::primitive_impl>()> &make, std::string &why_not) {
    try {
        return make();
    } catch (const error &e) {
        // Code generation failing (Xbyak) is a decline; anything else (a bad
        // PRIM_KERNEL_CACHE_CAPACITY, out of memory) is the caller's error.
        if (e.get_status() != status::runtime_error) throw;
        why_not = std::string("kernel generation failed: ") + e.what();
        return nullptr;
    }
}

} // namespace jit
} // namespace prim
