// The JIT pooling primitive: the layouts and operands the kernel can read (checked at
// creation), each output row cut into segments of pixels that share their real taps, and rows
// spread over the OpenMP threads.
#include <cstring>
#include <vector>

#include "common/internal_reorder.hpp"
#include "common/plain_layout.hpp"
#include "common/post_op_operands.hpp"
#include "jit/gen/isa_traits.hpp"
#include "jit/pool/jit_pooling.hpp"
#include "jit/inject/kernel_chain_plan.hpp"
#include "jit/pool/pool_kernel.hpp"
#include "jit/pool/pool_walk.hpp"
#include "jit/gen/runtime_table.hpp"
#include "jit/gen/work_threads.hpp"

namespace prim {
namespace impl {
namespace {

// 0 for channels-last (channel stride 1, no block), B for a block of B channels innermost
// ("aBcd16b"), -1 for anything else (plain ncw/nchw/ncdhw with more than one pixel).
int64_t channel_block(const memory::desc &md) {
    const std::string layout = md.layout();
    const size_t digit = layout.find_first_of("0123456789");
    if (digit == std::string::npos) return md.strides()[1] == 1 ? 0 : -1;
    const std::string inner = layout.substr(digit);
    if (inner.size() < 2 || inner.back() != 'b') return -1;
    for (size_t i = 0; i + 1 < inner.size(); ++i)
        if (inner[i] < '0' || inner[i] > '9') return -1; // a second block
    return std::stoll(inner.substr(0, inner.size() - 1));
}

// The layouts the kernel runs on, when a user's layout is another one (plain ncw/nchw/ncdhw):
// that argument is repacked per call.
struct kernel_layouts {
    memory::desc src, dst;
};

class jit_pooling : public primitive_impl {
public:
    jit_pooling(cpu_isa isa, const pool_problem &prb, arg_layouts layouts, kernel_layouts k_mds,
                post_ops kchain, std::vector<memory::desc> operand_mds,
                std::shared_ptr<const jit::jit_generator> k)
        : primitive_impl(std::move(layouts)), isa_(isa), prb_(prb), k_(std::move(k_mds)),
          kchain_(std::move(kchain)), operand_mds_(std::move(operand_mds)), kernel_(std::move(k)),
          segments_(jit::pool_segments(prb)), repack_src_(k_.src != src_md()),
          repack_dst_(k_.dst != dst_md()),
          src_size_(static_cast<int64_t>(data_type_size(k_.src.get_data_type()))),
          dst_size_(static_cast<int64_t>(data_type_size(k_.dst.get_data_type()))) {
        for (size_t i = 0; i < operand_mds_.size(); ++i)
            if (has_operand(kchain_.entries()[i])
                    && kchain_.entries()[i].mask == post_ops::policy::per_mb_spatial) {
                const memory::desc &md = operand_mds_[i];
                step_.push_back(md.get_dims().back() > 1 ? jit::pool_offset(md, {{0, 0, 0, 0, 1}})
                                                                   - jit::pool_offset(md, {{0, 0, 0, 0, 0}})
                                                         : 0);
            } else {
                step_.push_back(0);
            }
    }

    std::string name() const override {
        return std::string("jit:") + cpu_isa_name(isa_) + (repack_src_ || repack_dst_ ? "+repack" : "");
    }

    void execute(const exec_ptrs &user) const override {
        if (prb_.mb == 0) return;
        // The user's plain src and dst (dst_old, for a sum) repacked into the kernel's layouts.
        std::vector<char> src_copy, dst_copy;
        const void *src = user.src;
        void *dst = user.dst;
        if (repack_src_) {
            src_copy.resize(k_.src.get_size());
            internal_reorder(src_md(), k_.src).execute(memory(src_md(), const_cast<float *>(user.src)),
                                                       memory(k_.src, src_copy.data()));
            src = src_copy.data();
        }
        if (repack_dst_) {
            dst_copy.resize(k_.dst.get_size());
            if (kchain_.has_sum())
                internal_reorder(dst_md(), k_.dst).execute(memory(dst_md(), user.dst),
                                                           memory(k_.dst, dst_copy.data()));
            dst = dst_copy.data();
        }
        run(static_cast<const char *>(src), static_cast<char *>(dst), user);
        if (repack_dst_)
            internal_reorder(k_.dst, dst_md()).execute(memory(k_.dst, dst_copy.data()),
                                                       memory(dst_md(), user.dst));
    }

private:
    // src and dst in the kernel's layouts; args: the operands and runtime parameters.
    void run(const char *src, char *dst, const exec_ptrs &args) const {
        const int64_t OD = prb_.o[SP_D], OH = prb_.o[SP_H], rows = prb_.mb * OD * OH;
        // A tap is a load and a max or add: counted as the two flops of an FMA.
        const double work = 2.0 * static_cast<double>(prb_.dst_nelems())
                            * static_cast<double>(prb_.kernel_volume());
        const int threads = jit::threads_for_work(work, rows);
        const jit::runtime_tables tables({kernel_.get()}, args.runtime_params);
        const void *table = tables.of(kernel_.get());
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
        for (int64_t row = 0; row < rows; ++row)
            run_row(src, dst, args, table, row / (OD * OH), row / OH % OD, row % OH);
    }

    // table: the runtime parameters' copy of the kernel's constant table, or null.
    void run_row(const char *src, char *dst, const exec_ptrs &args, const void *table, int64_t n,
                 int64_t od, int64_t oh) const {
        const tap_range td = real_taps(prb_, SP_D, od), th = real_taps(prb_, SP_H, oh);
        const int64_t id = od * prb_.s[SP_D] - prb_.p[SP_D] + td.first * (prb_.d[SP_D] + 1);
        const int64_t ih = oh * prb_.s[SP_H] - prb_.p[SP_H] + th.first * (prb_.d[SP_H] + 1);
        std::vector<int64_t> values(2 * operand_mds_.size(), 0);
        jit::pool_call_args a;
        a.post_op = values.data();
        a.table = table;
        for (const jit::pool_segment &s : segments_) {
            const int64_t iw = s.ow0 * prb_.s[SP_W] - prb_.p[SP_W] + s.first * (prb_.d[SP_W] + 1);
            const jit::pool_index out {{n, 0, od, oh, s.ow0}};
            a.src = src + jit::pool_offset(k_.src, {{n, 0, id, ih, iw}}) * src_size_;
            a.dst = dst + jit::pool_offset(k_.dst, out) * dst_size_;
            a.pixels = s.pixels;
            a.taps[0] = td.count;
            a.taps[1] = th.count;
            a.taps[2] = s.count;
            a.divisor = static_cast<float>(prb_.alg == algorithm::pooling_avg_include_padding
                                                   ? prb_.kernel_volume()
                                                   : td.count * th.count * s.count);
            for (size_t i = 0; i < args.post_op.size(); ++i) { // empty without operands
                if (!args.post_op[i]) continue;
                const int64_t size = static_cast<int64_t>(data_type_size(operand_mds_[i].get_data_type()));
                const char *at = reinterpret_cast<const char *>(args.post_op[i])
                        + jit::pool_offset(operand_mds_[i], out) * size;
                int64_t value = reinterpret_cast<int64_t>(at);
                if (kchain_.entries()[i].mask == post_ops::policy::per_tensor) // bytes from dst
                    value -= reinterpret_cast<int64_t>(a.dst);
                values[2 * i] = value;
                values[2 * i + 1] = step_[i] * size;
            }
            kernel_->entry_as<void (*)(const jit::pool_call_args *)>()(&a);
        }
    }

    cpu_isa isa_;
    pool_problem prb_;
    kernel_layouts k_;
    post_ops kchain_;
    std::vector<memory::desc> operand_mds_;
    std::shared_ptr<const jit::jit_generator> kernel_;
    std::vector<jit::pool_segment> segments_;
    std::vector<int64_t> step_; // per entry: a per_mb_spatial operand's elements per ow
    bool repack_src_, repack_dst_;
    int64_t src_size_, dst_size_; // bytes per element
};

// "" when the kernel can read entry i's operand (access: its kernel-chain mask) in md.
std::string check_operand(const post_ops::entry &e, int i, int access, const memory::desc &md,
                          const memory::desc &dst, int64_t vector_channels) {
    const std::string name = operand_name(e, i);
    const int rank = dst.ndims();
    std::vector<memory::dim> idx(static_cast<size_t>(rank), 0);
    if (access == post_ops::policy::per_oc) {
        for (int64_t c = 0; c < dst.get_dims()[1]; ++c) {
            idx[1] = c;
            if (md.offset(idx.data()) != c) return name + ": its channels are not contiguous";
        }
        if (channel_block(dst) > 0 && md.nelems_padded() < vector_channels)
            return name + ": not padded as the blocked dst's channels are";
    } else if (access == post_ops::policy::per_mb_spatial) {
        const memory::dim ow = md.get_dims().back();
        const memory::dim step = ow > 1 ? (idx.back() = 1, md.offset(idx.data())) : 0;
        for (memory::dim w = 0; w < ow; ++w) {
            idx.back() = w;
            if (md.offset(idx.data()) != w * step) return name + ": its ow is blocked";
        }
    } else if (access == post_ops::policy::per_tensor) {
        // The kernel reads it at dst's byte offsets.
        if (data_type_size(md.get_data_type()) != data_type_size(dst.get_data_type()))
            return name + ": per_tensor of type " + data_type_name(md.get_data_type())
                   + " beside a dst of type " + data_type_name(dst.get_data_type());
        const auto tail = [](const memory::dims &v) { return memory::dims(v.begin() + 1, v.end()); };
        if (md.layout() != dst.layout() || tail(md.strides()) != tail(dst.strides())
                || tail(md.padded_dims()) != tail(dst.padded_dims()))
            return name + ": per_tensor in another layout than dst (" + md.layout() + ", dst "
                   + dst.layout() + ")";
    }
    return "";
}

} // namespace

std::unique_ptr<primitive_impl> create_jit_pool(const pool_request &req, cpu_isa isa,
                                                std::string &why_not) {
    PRIM_DISPATCH(why_not, isa >= cpu_isa::avx2, jit::isa_cap_below_avx2);
    const pool_problem &prb = req.prb;
    const memory::data_type src_dt = req.src.get_data_type(), dst_dt = req.dst.get_data_type();
    // The window is taken in f32, as the reference takes it: its max is the reference's for
    // every type (the conversion rounds monotonically); its sum is exact for 8-bit values, but
    // the reference sums in double, which an s32 beyond 2^24 would tell apart.
    PRIM_DISPATCH(why_not, src_dt != memory::data_type::s32 || prb.is_max(),
                  "an average of an s32 src (the reference sums in double)");
    memory::desc src = req.src, dst = req.dst;
    if (src.is_any() && dst.is_any()) src = channels_last_desc(src.get_dims(), src_dt);
    if (src.is_any()) src = memory::desc(src.get_dims(), src_dt, dst.layout());
    if (dst.is_any()) dst = memory::desc(dst.get_dims(), dst_dt, src.layout());
    // The kernel reads channels-last or channel-blocked src and dst of one kind; other layouts
    // (plain ncw/nchw/ncdhw) are repacked per call into channels-last.
    kernel_layouts k {src, dst};
    if (channel_block(src) < 0 || channel_block(src) != channel_block(dst)) {
        if (channel_block(src) != 0) k.src = channels_last_desc(src.get_dims(), src_dt);
        if (channel_block(dst) != 0) k.dst = channels_last_desc(dst.get_dims(), dst_dt);
    }
    const int64_t block = channel_block(k.src);
    PRIM_DISPATCH(why_not, block == 0 || block == 8 || block == 16,
                  "channel block " + std::to_string(block) + " (8 or 16 are taken)");
    const cpu_isa kernel_isa = isa >= cpu_isa::avx512 && block != 8 ? cpu_isa::avx512 : cpu_isa::avx2;
    const int simd_w = jit::simd_w_of(kernel_isa);

    jit::kernel_chain_needs needs;
    needs.batch_per_call = true;
    needs.operand_types = true; // binary operands of any type, converted where loaded
    const jit::kernel_chain_plan plan = jit::plan_kernel_chain(kernel_isa, req.attr.get_post_ops(), dst, needs);
    PRIM_DISPATCH(why_not, plan.why_not.empty(), plan.why_not);
    const post_ops &kchain = plan.chain;

    jit::pool_kernel_conf c;
    c.avg = prb.is_max() ? 0 : 1;
    c.src_dt = static_cast<int64_t>(src_dt);
    c.dst_dt = static_cast<int64_t>(dst_dt);
    c.channels = prb.ic;
    c.block = block;
    const int rank = src.ndims();
    const int64_t src_size = static_cast<int64_t>(data_type_size(src_dt));
    const int64_t dst_size = static_cast<int64_t>(data_type_size(dst_dt));
    if (block > 0) {
        c.src_cblk = k.src.strides()[1] * src_size;
        c.dst_cblk = k.dst.strides()[1] * dst_size;
    }
    for (int j = 2; j < rank; ++j) {
        const int sp = 3 - rank + j;
        c.tap_stride[sp] = (prb.d[sp] + 1) * k.src.strides()[j] * src_size;
    }
    c.src_px_step = prb.s[SP_W] * k.src.strides()[rank - 1] * src_size;
    c.dst_px_step = k.dst.strides()[rank - 1] * dst_size;

    const std::vector<memory::desc> mds = operand_descs(req.attr.get_post_ops(), dst);
    for (int i = 0; i < kchain.len(); ++i) {
        const post_ops::entry &e = req.attr.get_post_ops().entries()[i];
        if (!has_operand(e)) continue;
        const std::string bad = check_operand(e, i, kchain.entries()[i].mask, mds[i], k.dst,
                                              c.vectors(simd_w) * simd_w);
        PRIM_DISPATCH(why_not, bad.empty(), bad);
    }
    const std::string bad_kernel = jit::pool_kernel_why_not(kernel_isa, c, plan.aux_vecs);
    PRIM_DISPATCH(why_not, bad_kernel.empty(), bad_kernel);

    arg_layouts layouts;
    layouts.src = src;
    layouts.dst = dst;
    return std::make_unique<jit_pooling>(kernel_isa, prb, std::move(layouts), std::move(k), kchain,
                                         mds, jit::get_pool_kernel(kernel_isa, c, kchain));
}

} // namespace impl
} // namespace prim
