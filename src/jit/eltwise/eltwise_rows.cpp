// The row plan of the JIT eltwise: eltwise_rows.hpp.
#include "jit/eltwise/eltwise_rows.hpp"

#include <cctype>
#include <optional>

#include "common/post_op_operands.hpp"

namespace prim {
namespace jit {

namespace {

// One memory dim of a dense layout: logical dim `dim` stepped by `unit`, `size` steps.
struct memory_dim {
    int dim;
    int64_t size, unit;
};

// A dense layout's memory dims, outermost first, from its pattern ("aBcd16b").
std::vector<memory_dim> memory_dims(const memory::desc &md) {
    const std::string p = md.layout();
    const int rank = md.ndims();
    std::vector<int64_t> block(rank, 1);
    std::vector<memory_dim> inner;
    for (size_t i = rank; i < p.size();) {
        size_t j = i;
        while (std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
        const int dim = p[j] - 'a';
        const int64_t b = std::stoll(p.substr(i, j - i));
        inner.push_back({dim, b, 1});
        block[dim] = b;
        i = j + 1;
    }
    std::vector<memory_dim> out;
    for (int i = 0; i < rank; ++i) {
        const int dim = std::tolower(p[i]) - 'a';
        out.push_back({dim, md.padded_dims()[dim] / block[dim], block[dim]});
    }
    out.insert(out.end(), inner.begin(), inner.end());
    return out;
}

// The operand's stride along a memory dim, in elements (0 when it broadcasts that dim), or -1
// when its offsets are not linear along it.
int64_t stride_along(const memory::desc &op, const memory_dim &m) {
    if (op.get_dims()[m.dim] == 1 || m.size == 1) return 0;
    memory::dims idx(op.ndims(), 0);
    idx[m.dim] = m.unit;
    const int64_t s = op.offset(idx.data());
    idx[m.dim] = m.unit * (m.size - 1);
    return op.offset(idx.data()) == s * (m.size - 1) ? s : -1;
}

} // namespace

std::string plan_eltwise_rows(const memory::desc &dst, const post_ops &chain,
                              const std::vector<memory::desc> &mds, int simd_w,
                              eltwise_rows &plan, post_ops &kernel_chain) {
    const std::vector<memory_dim> mdims = memory_dims(dst);
    const int k = static_cast<int>(mdims.size());
    std::vector<int64_t> dst_stride(k);
    int64_t dense = 1;
    for (int m = k - 1; m >= 0; --m) {
        dst_stride[m] = dense;
        dense *= mdims[m].size;
    }
    // Per entry with an operand: its strides along every memory dim.
    const size_t n = chain.entries().size();
    std::vector<std::vector<int64_t>> op_stride(n);
    for (size_t i = 0; i < n; ++i) {
        if (mds[i].is_zero()) continue;
        for (const memory_dim &m : mdims) op_stride[i].push_back(stride_along(mds[i], m));
    }
    // The row: the longest suffix of memory dims where each operand is constant or follows dst.
    const auto constant_from = [&](size_t i, int j) {
        for (int m = j; m < k; ++m) if (op_stride[i][m] != 0) return false;
        return true;
    };
    const auto follows_from = [&](size_t i, int j) {
        for (int m = j; m < k; ++m) if (op_stride[i][m] != dst_stride[m]) return false;
        return true;
    };
    const auto repeats_from = [&](size_t i, int j) {
        if (j > k - 1 || mdims[k - 1].size != simd_w || op_stride[i][k - 1] != 1) return false;
        for (int m = j; m < k - 1; ++m) if (op_stride[i][m] != 0) return false;
        return true;
    };
    const auto how = [&](size_t i, int j) {
        using read = eltwise_rows::read;
        return constant_from(i, j) ? read::one_value
                : follows_from(i, j) ? read::follows_dst
                : repeats_from(i, j) ? read::repeats_vector : std::optional<read>();
    };
    int j = 0;
    for (; j < k; ++j) {
        bool ok = true;
        for (size_t i = 0; i < n && ok; ++i) ok = op_stride[i].empty() || how(i, j);
        if (ok) break;
    }
    plan = eltwise_rows();
    plan.row_len = j < k ? dst_stride[j] * mdims[j].size : 1;
    // Any row length: a row shorter than a vector is one masked vector, still far quicker than
    // the reference's double arithmetic on plain copies.
    for (size_t i = 0; i < n; ++i)
        for (int m = 0; m < j && !op_stride[i].empty(); ++m)
            if (op_stride[i][m] < 0)
                return impl::operand_name(chain.entries()[i], static_cast<int>(i))
                       + ": its layout is not linear along the destination's memory dims";
    if (j > 0) plan.rows = mdims[j - 1].size;
    for (int m = 0; m + 1 < j; ++m) {
        plan.outer_sizes.push_back(mdims[m].size);
        plan.dst_outer.push_back(dst_stride[m]);
    }
    plan.operands.resize(n);
    kernel_chain = post_ops();
    for (size_t i = 0; i < n; ++i) {
        const post_ops::entry &e = chain.entries()[i];
        if (!impl::has_operand(e)) {
            impl::append_entry(kernel_chain, e);
            continue;
        }
        eltwise_rows::operand &op = plan.operands[i];
        op.present = true;
        op.how = *how(i, j);
        for (int m = 0; m + 1 < j; ++m) op.outer.push_back(op_stride[i][m]);
        op.row_step = j > 0 ? op_stride[i][j - 1] : 0;
        const int access = op.how == eltwise_rows::read::follows_dst ? post_ops::policy::per_tensor
                : op.how == eltwise_rows::read::repeats_vector ? post_ops::policy::per_oc
                                                                : post_ops::policy::common;
        // A binary operand keeps its data type, which the kernel converts from (f32 left undef,
        // so that f32 kernels' cache keys stay as they were).
        const memory::data_type t = mds[i].get_data_type();
        if (e.kind == post_ops::kind::binary)
            kernel_chain.append_binary(e.alg, access, t == memory::data_type::f32 ? memory::data_type::undef : t);
        else kernel_chain.append_prelu(access);
    }
    return "";
}

} // namespace jit
} // namespace prim
