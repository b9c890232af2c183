// The JIT eltwise primitive: checks, then the threading over the flat buffer. The code itself
// is the eltwise kernel (eltwise_kernel.cpp), shared through the kernel cache.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "common/plain_layout.hpp"
#include "jit/eltwise_kernel.hpp"
#include "jit/jit_eltwise.hpp"
#include "jit/operand_access.hpp"
#include "jit/post_ops_injector.hpp"

namespace prim {
namespace impl {
namespace {

using jit::eltwise_call_args;
using jit::eltwise_kernel_fn;

// Above this size an out-of-place run without sum uses non-temporal stores: dst is not read,
// and bypassing the caches saves the read-for-ownership traffic of ordinary stores.
const int64_t stream_threshold_bytes = 8 << 20;
// Below this many elements one thread does the whole run.
const int64_t min_elems_per_thread = 32 * 1024;

class jit_eltwise : public primitive_impl {
public:
    jit_eltwise(cpu_isa isa, const post_ops &chain, int64_t nelems, const memory::desc &md)
        : primitive_impl({md, {}, {}, md}), isa_(isa), nelems_(nelems) {
        jit::eltwise_kernel_conf conf;
        kernel_ = jit::get_eltwise_kernel(isa, conf, chain);
        if (!chain.has_sum() && nelems * static_cast<int64_t>(sizeof(float)) >= stream_threshold_bytes) {
            conf.stream_stores = true;
            stream_kernel_ = jit::get_eltwise_kernel(isa, conf, chain);
        }
    }

    std::string name() const override { return std::string("jit:") + cpu_isa_name(isa_); }

    void execute(const exec_ptrs &args) const override {
        if (nelems_ == 0) return;
        const int vlen = isa_ == cpu_isa::avx512 ? 64 : 32;
        const bool stream = stream_kernel_ && args.src != args.dst
                && reinterpret_cast<uintptr_t>(args.dst) % vlen == 0;
        const eltwise_kernel_fn fn = (stream ? stream_kernel_ : kernel_)->entry_as<eltwise_kernel_fn>();

        const int max_threads = omp_in_parallel() ? 1 : omp_get_max_threads();
        const int nthr = static_cast<int>(std::max<int64_t>(
                1, std::min<int64_t>(max_threads, nelems_ / min_elems_per_thread)));
        if (nthr == 1) {
            const eltwise_call_args a{args.src, args.dst, nelems_};
            fn(&a);
            return;
        }
        // Equal chunks, each a multiple of 16 elements (64 bytes) so that every chunk starts
        // cache-line aligned relative to the buffer; the last chunk takes the tail.
        const int64_t chunk = ((nelems_ + nthr - 1) / nthr + 15) / 16 * 16;
#pragma omp parallel num_threads(nthr)
        {
            const int64_t start = std::min<int64_t>(nelems_, chunk * omp_get_thread_num());
            const int64_t len = std::min<int64_t>(chunk, nelems_ - start);
            if (len > 0) {
                const eltwise_call_args a{args.src + start, args.dst + start, len};
                fn(&a);
            }
        }
    }

private:
    cpu_isa isa_;
    int64_t nelems_;
    std::shared_ptr<const jit::jit_generator> kernel_, stream_kernel_;
};

} // namespace

std::unique_ptr<primitive_impl> create_jit_eltwise(const eltwise_request &req, cpu_isa isa,
                                                   std::string &why_not) {
    PRIM_DISPATCH(isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 ? cpu_isa::avx512 : cpu_isa::avx2;

    // 'any' takes the other one's layout, or plain when both are 'any'.
    memory::desc src = req.src, dst = req.dst;
    if (src.is_any() && dst.is_any()) src = dst = plain_desc(req.prb.dims);
    if (src.is_any()) src = dst;
    if (dst.is_any()) dst = src;
    PRIM_DISPATCH(src == dst, "src and dst layouts differ");
    PRIM_DISPATCH(src.get_data_type() == memory::data_type::f32, "only f32");
    PRIM_DISPATCH(src.nelems_padded() == req.prb.nelems(), "padded layout");

    // The kernel's chain: the primitive's own algorithm first, then the attribute's post-ops.
    // (The eltwise creation has checked the algorithm and its parameters, so append_eltwise
    // takes them.)
    post_ops user_chain;
    std::string unread = jit::kernel_chain(req.attr.get_post_ops(), req.dst.get_dims(), user_chain);
    if (unread.empty()) unread = jit::check_access(user_chain, {}, "eltwise");
    PRIM_DISPATCH(unread.empty(), unread);
    post_ops chain;
    chain.append_eltwise(req.alg, req.alpha, req.beta, 1.f);
    for (const post_ops::entry &e : req.attr.get_post_ops().entries()) {
        if (e.kind == post_ops::kind::sum)
            chain.append_sum(e.scale);
        else
            chain.append_eltwise(e.alg, e.alpha, e.beta, e.scale);
    }
    const std::string injector_refuses = kernel_isa == cpu_isa::avx512
            ? jit::post_ops_injector<cpu_isa::avx512>::why_not(chain)
            : jit::post_ops_injector<cpu_isa::avx2>::why_not(chain);
    PRIM_DISPATCH(injector_refuses.empty(), injector_refuses);
    return std::make_unique<jit_eltwise>(kernel_isa, chain, req.prb.nelems(), src);
}

} // namespace impl
} // namespace prim
