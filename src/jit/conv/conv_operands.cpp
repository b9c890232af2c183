// The convolution's operand plumbing: conv_operands.hpp.
#include "jit/conv/conv_operands.hpp"

#include <cstdint>

#include "common/post_op_operands.hpp"

namespace prim {
namespace jit {

namespace {

using policy = post_ops::policy;

// per_oc: channel c at element c (any layout, blocked included, whose channels are contiguous).
bool channels_contiguous(const memory::desc &md, int64_t oc) {
    memory::dims idx(md.ndims(), 0);
    for (int64_t c = 0; c < oc; ++c) {
        idx[1] = c;
        if (md.offset(idx.data()) != c) return false;
    }
    return true;
}

// per_mb_spatial: the pixels of one image dense and in (d, h, w) order, so that merged rows
// (conv_conf.cpp) and the loops' pixel offsets read the right values.
bool pixels_dense(const memory::desc &md) {
    const memory::dims &d = md.get_dims();
    memory::dims idx(d.size(), 0);
    int64_t dense = 1;
    for (int i = md.ndims() - 1; i >= 2; --i) {
        if (d[i] > 1) {
            idx[i] = 1;
            if (md.offset(idx.data()) != dense) return false;
            idx[i] = 0;
        }
        dense *= d[i];
    }
    return true;
}

// The image stride of an operand, in elements: 0 when it has one image (broadcast along the
// batch), -1 when its images do not lie at a fixed stride (a blocked batch dim).
int64_t image_stride(const memory::desc &md) {
    const int64_t n = md.get_dims()[0];
    if (n == 1) return 0;
    memory::dims idx(md.ndims(), 0);
    idx[0] = 1;
    const int64_t s = md.offset(idx.data());
    idx[0] = n - 1;
    return md.offset(idx.data()) == s * (n - 1) ? s : -1;
}

// The layout the kernels read a per_tensor operand in: the kernel's dst layout, with the
// operand's own batch (1 when it broadcasts along it).
memory::desc kernel_layout(const memory::desc &op, const memory::desc &kdst) {
    return op.get_dims() == kdst.get_dims()
            ? kdst
            : memory::desc(op.get_dims(), memory::data_type::f32, kdst.layout());
}

// Equal placement of one image: the strides of every dim but the batch, and the blocks.
bool same_image_layout(const memory::desc &a, const memory::desc &b) {
    if (a.layout() != b.layout()) return false;
    for (int d = 1; d < a.ndims(); ++d)
        if (a.get_dims()[d] > 1 && a.strides()[d] != b.strides()[d]) return false;
    return true;
}

} // namespace

std::string conv_operands::check(const conv_setup &s, const std::vector<memory::desc> &mds) {
    for (int i = 0; i < s.chain.len(); ++i) {
        const post_ops::entry &e = s.chain.entries()[i];
        if (!impl::has_operand(e)) continue;
        const std::string who = impl::operand_name(e, i);
        if (e.mask == policy::per_oc && !channels_contiguous(mds[i], mds[i].get_dims()[1]))
            return who + ": the convolution reads per-channel operands with contiguous channels";
        if (e.mask == policy::per_mb_spatial && !pixels_dense(mds[i]))
            return who + ": the convolution reads per-pixel operands with dense (d, h, w) pixels";
        const memory::desc kmd
                = e.mask == policy::per_tensor ? kernel_layout(mds[i], s.kdst) : mds[i];
        if (image_stride(kmd) < 0)
            return who + ": the convolution reads operands whose images lie at a fixed stride";
        if (e.mask == policy::per_tensor && !same_image_layout(kmd, s.kdst))
            return who + ": a per-image operand in the kernel's layout would not match its dst";
    }
    return "";
}

conv_operands::conv_operands(const conv_setup &s, const std::vector<memory::desc> &mds)
    : c_(s.conf) {
    if (!s.chain.has_operands()) return;
    entries_.resize(s.chain.entries().size());
    for (size_t i = 0; i < entries_.size(); ++i) {
        const post_ops::entry &e = s.chain.entries()[i];
        if (!impl::has_operand(e)) continue;
        entry &en = entries_[i];
        en.present = true;
        en.access = e.mask;
        en.kmd = en.user_md = mds[i];
        if (e.mask == policy::per_tensor) {
            en.kmd = kernel_layout(mds[i], s.kdst);
            if (en.kmd != mds[i])
                en.to_kdst = std::make_unique<impl::internal_reorder>(mds[i], en.kmd);
        }
        en.stride_n = image_stride(en.kmd);
    }
}

std::vector<const float *> conv_operands::prepare(const std::vector<const float *> &user,
                                                  std::vector<std::vector<float>> &copies) const {
    std::vector<const float *> ops = user;
    for (size_t i = 0; i < entries_.size(); ++i) {
        const entry &en = entries_[i];
        if (!en.to_kdst) continue;
        copies.emplace_back(static_cast<size_t>(en.kmd.nelems_padded()));
        en.to_kdst->execute(memory(en.user_md, const_cast<float *>(user[i])),
                            memory(en.kmd, copies.back().data()));
        ops[i] = copies.back().data();
    }
    return ops;
}

void conv_operands::values(const std::vector<const float *> &ops, const float *kdst, int64_t n,
                           int64_t g, int64_t ocb0, int64_t od, int64_t oh, int64_t *out) const {
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (!entries_[i].present) continue;
        const float *op = ops[i] + n * entries_[i].stride_n; // the call's image
        switch (entries_[i].access) {
        case policy::common: out[i] = reinterpret_cast<intptr_t>(op); break;
        case policy::per_oc:
            out[i] = reinterpret_cast<intptr_t>(op + g * c_.ocg + ocb0 * c_.simd_w);
            break;
        case policy::per_mb_spatial:
            out[i] = reinterpret_cast<intptr_t>(op + (od * c_.o[1] + oh) * c_.o[2]);
            break;
        case policy::per_tensor: // minus the call's image of dst: one image laid out alike
            out[i] = reinterpret_cast<intptr_t>(op) - reinterpret_cast<intptr_t>(kdst) - n * c_.dst_n;
            break;
        }
    }
}

} // namespace jit
} // namespace prim
