// Memory descriptors (shape + blocked layout) and memory objects.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "common/verbose.hpp"
#include "prim/error.hpp"
#include "prim/memory.hpp"

namespace prim {

namespace {

// The most elements a desc may have, so that its size in bytes fits an int64.
constexpr memory::dim max_elements = memory::dim(1) << 60;

[[noreturn]] void invalid(const std::string &msg) {
    throw error(status::invalid_arguments, msg);
}

using impl::dims_str;

// The queries that read the layout (offset, strides, padded dims) on a desc that has none.
[[noreturn]] void no_layout(const memory::desc &md, const char *query) {
    invalid("memory desc " + dims_str(md.get_dims()) + ": " + query
            + " needs a layout and this desc has none ("
            + (md.is_any() ? "'any': query the desc the primitive chose from its primitive_desc"
                           : "an empty, default-constructed desc")
            + ")");
}

const char *tag_pattern(memory::format_tag tag) {
    using t = memory::format_tag;
    switch (tag) {
    case t::a: return "a";
    case t::ab: return "ab";
    case t::ba: return "ba";
    case t::abc: return "abc";
    case t::acb: return "acb";
    case t::cba: return "cba";
    case t::abcd: return "abcd";
    case t::acdb: return "acdb";
    case t::cdba: return "cdba";
    case t::abcde: return "abcde";
    case t::acdeb: return "acdeb";
    case t::cdeba: return "cdeba";
    case t::abcdef: return "abcdef";
    default: return nullptr;
    }
}

template <typename where_t>
void check_data_type(memory::data_type dt, const where_t &where) {
    if (data_type_size(dt) == 0)
        invalid(where() + "data type " + std::to_string(static_cast<int>(dt))
                + " is not one of f32, s32, s8, u8");
}

} // namespace

size_t data_type_size(memory::data_type dt) {
    switch (dt) {
    case memory::data_type::f32:
    case memory::data_type::s32: return 4;
    case memory::data_type::s8:
    case memory::data_type::u8: return 1;
    default: return 0;
    }
}

const char *data_type_name(memory::data_type dt) {
    switch (dt) {
    case memory::data_type::f32: return "f32";
    case memory::data_type::s32: return "s32";
    case memory::data_type::s8: return "s8";
    case memory::data_type::u8: return "u8";
    default: return "undef";
    }
}

memory::desc::desc(const dims &d, data_type dt, format_tag tag) {
    if (tag == format_tag::any) {
        for (dim x : d)
            if (x < 0) invalid("memory desc: negative dimension in " + dims_str(d));
        kind_ = kind::any;
        dt_ = dt;
        dims_ = d;
        return;
    }
    const char *pattern = tag_pattern(tag);
    if (!pattern) invalid("memory desc: undefined format tag");
    if (std::strlen(pattern) != d.size())
        invalid("memory desc " + dims_str(d) + ": format tag '" + pattern + "' has "
                + std::to_string(std::strlen(pattern)) + " letters for rank "
                + std::to_string(d.size()));
    *this = desc(d, dt, std::string(pattern));
}

memory::desc::desc(const dims &d, data_type dt, const std::string &pattern) {
    const int n = static_cast<int>(d.size());
    // Built only for an error message: constructing a desc is on execute()'s path.
    const auto where = [&] { return "memory desc " + dims_str(d) + " '" + pattern + "': "; };
    check_data_type(dt, where);
    if (n < 1 || n > 6) invalid(where() + "rank must be 1 to 6");
    for (dim x : d)
        if (x < 0) invalid(where() + "negative dimension");
    if (static_cast<int>(pattern.size()) < n)
        invalid(where() + "layout has " + std::to_string(pattern.size()) + " letters for rank "
                + std::to_string(n));

    // Outer order: one letter per dim, uppercase when the dim also has an inner block.
    std::vector<bool> seen(n, false), blocked(n, false);
    for (int i = 0; i < n; ++i) {
        const char c = pattern[i];
        const int dim_idx = std::tolower(static_cast<unsigned char>(c)) - 'a';
        if (!std::isalpha(static_cast<unsigned char>(c)) || dim_idx < 0 || dim_idx >= n
                || seen[dim_idx])
            invalid(where() + "layout does not name each of the " + std::to_string(n)
                    + " dims exactly once");
        seen[dim_idx] = true;
        blocked[dim_idx] = std::isupper(static_cast<unsigned char>(c));
        order_.push_back(dim_idx);
    }
    // Inner blocks: <size><lowercase letter>, outermost first.
    std::vector<dim> blk(n, 1);
    size_t pos = n;
    while (pos < pattern.size()) {
        size_t end = pos;
        while (end < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[end])))
            ++end;
        if (end == pos || end >= pattern.size()) invalid(where() + "bad inner block");
        // 19 digits at most (an int64); a block that large is then refused by the size check.
        if (end - pos > 19 || (end - pos == 19 && pattern.compare(pos, 19, "9223372036854775807") > 0))
            invalid(where() + "bad inner block (too many digits)");
        const dim size = std::atoll(pattern.substr(pos, end - pos).c_str());
        const int dim_idx = pattern[end] - 'a';
        // A dim may have several inner blocks (oneDNN's VNNI weights, "AB16b64a4b": 16 then 4
        // along b); its block is their product.
        if (size < 1 || dim_idx < 0 || dim_idx >= n || !blocked[dim_idx])
            invalid(where() + "bad inner block");
        if (__builtin_mul_overflow(blk[dim_idx], size, &blk[dim_idx]))
            invalid(where() + "too large (the inner blocks of one dim overflow 64 bits)");
        inner_idx_.push_back(dim_idx);
        inner_blk_.push_back(size);
        pos = end + 1;
    }
    for (int i = 0; i < n; ++i)
        if (blocked[i] && blk[i] == 1) invalid(where() + "blocked dim without an inner block");

    kind_ = kind::blocked;
    dt_ = dt;
    dims_ = d;
    padded_.resize(n);
    strides_.resize(n);
    // Padded dims and their product, refused before anything can overflow: every stride,
    // offset and byte size computed from a desc then fits an int64. A dim of 0 counts as its
    // block (at least 1): the desc holds no element, but the strides of the dims inside it are
    // still products of the other dims ({0, 2^40, 2^40} would overflow them).
    dim extent = 1;
    for (int i = 0; i < n; ++i) {
        const dim blocks = d[i] / blk[i] + (d[i] % blk[i] != 0);
        if (__builtin_mul_overflow(blocks, blk[i], &padded_[i])
                || __builtin_mul_overflow(extent, padded_[i] ? padded_[i] : blk[i], &extent)
                || extent > max_elements)
            invalid(where() + "too large (more than 2^60 elements with padding, a dim of 0 "
                              "counted as 1)");
    }
    dim stride = 1;
    for (dim b : inner_blk_) stride *= b;
    for (int i = n - 1; i >= 0; --i) {
        const int dim_idx = order_[i];
        strides_[dim_idx] = stride;
        stride *= padded_[dim_idx] / blk[dim_idx];
    }
    span_ = 1;
    for (dim x : padded_) span_ *= x;
}

memory::desc::desc(const dims &d, data_type dt, const dims &strides) {
    const int n = static_cast<int>(d.size());
    const auto where = [&] {
        return "memory desc " + dims_str(d) + " with strides " + dims_str(strides) + ": ";
    };
    check_data_type(dt, where);
    if (n < 1 || n > 6) invalid(where() + "rank must be 1 to 6");
    if (static_cast<int>(strides.size()) != n)
        invalid(where() + "needs one stride per dim");
    for (int i = 0; i < n; ++i)
        if (d[i] < 0 || strides[i] < 1) invalid(where() + "dims must be non-negative and strides positive");
    // The order: largest stride outermost (ties by dim index). Walking it inwards, each dim's
    // stride must clear the whole extent of the dims inside it, so no two elements share a place;
    // the reach is computed without overflow.
    for (int i = 0; i < n; ++i) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](int a, int b) { return strides[a] > strides[b]; });
    dim inner_extent = 1; // elements spanned by the dims inside the current one
    for (int k = n - 1; k >= 0; --k) {
        const int i = order_[k];
        if (d[i] > 1 && strides[i] < inner_extent)
            invalid(where() + "dims overlap in memory (each stride must reach past the dims inside it)");
        dim reach = 0;
        if (d[i] > 0
                && (__builtin_mul_overflow(d[i] - 1, strides[i], &reach)
                    || __builtin_add_overflow(reach, inner_extent, &inner_extent)
                    || inner_extent > max_elements))
            invalid(where() + "too large (its buffer would span more than 2^60 elements)");
    }
    kind_ = kind::blocked;
    dt_ = dt;
    dims_ = d;
    padded_ = d;
    strides_ = strides;
    span_ = inner_extent;
    for (dim x : d)
        if (x == 0) span_ = 0;
}

bool memory::desc::is_dense() const {
    dim n = 1;
    for (dim x : padded_) n *= x;
    return kind_ == kind::blocked && span_ == n;
}

memory::dim memory::desc::nelems_padded() const { return kind_ == kind::blocked ? span_ : 0; }

size_t memory::desc::get_size() const {
    dim sums = weight_sums_dims_ > 0 ? 1 : 0;
    for (int d = 0; d < weight_sums_dims_; ++d) sums *= dims_[d];
    return static_cast<size_t>(nelems_padded()) * data_type_size(dt_) + static_cast<size_t>(sums) * 4;
}

memory::desc memory::desc::with_weight_sums(int out_dims) const {
    if (kind_ != kind::blocked || dt_ != data_type::s8 || out_dims < 0 || out_dims > 2
            || out_dims >= ndims())
        invalid("memory desc " + dims_str(dims_) + ": weight sums need an s8 layout and 1 or 2 "
                "leading output dims below its rank");
    desc d = *this;
    d.weight_sums_dims_ = out_dims;
    return d;
}

const memory::dims &memory::desc::strides() const {
    if (kind_ != kind::blocked) no_layout(*this, "strides()");
    return strides_;
}

const memory::dims &memory::desc::padded_dims() const {
    if (kind_ != kind::blocked) no_layout(*this, "padded_dims()");
    return padded_;
}

memory::dim memory::desc::offset(const dim *idx) const {
    if (kind_ != kind::blocked) no_layout(*this, "offset()");
    dim off = 0;
    dim blk[6] = {1, 1, 1, 1, 1, 1}; // a blocked desc has at most 6 dims
    for (size_t k = 0; k < inner_idx_.size(); ++k) blk[inner_idx_[k]] *= inner_blk_[k];
    for (size_t i = 0; i < dims_.size(); ++i) off += idx[i] / blk[i] * strides_[i];
    // Within the inner blocks: level k holds the index along its dim divided by the blocks of
    // that dim at the levels inside it, modulo its own size.
    dim inner = 0;
    for (size_t k = 0; k < inner_idx_.size(); ++k) {
        dim inside = 1;
        for (size_t j = k + 1; j < inner_idx_.size(); ++j)
            if (inner_idx_[j] == inner_idx_[k]) inside *= inner_blk_[j];
        inner = inner * inner_blk_[k] + idx[inner_idx_[k]] / inside % inner_blk_[k];
    }
    return off + inner;
}

std::string memory::desc::layout() const {
    if (kind_ == kind::undef) return "undef";
    if (kind_ == kind::any) return "any";
    std::string s;
    for (int dim_idx : order_) {
        bool blocked = false;
        for (int b : inner_idx_) blocked = blocked || b == dim_idx;
        s += static_cast<char>((blocked ? 'A' : 'a') + dim_idx);
    }
    for (size_t k = 0; k < inner_idx_.size(); ++k)
        s += std::to_string(inner_blk_[k]) + static_cast<char>('a' + inner_idx_[k]);
    return s;
}

// A dim whose padded size is 1 is never stepped along, so its stride places nothing: nchw and
// nhwc of 1x19x1x1 are the same placement and compare equal.
bool memory::desc::operator==(const desc &o) const {
    if (!(kind_ == o.kind_ && dt_ == o.dt_ && dims_ == o.dims_ && padded_ == o.padded_
          && inner_idx_ == o.inner_idx_ && inner_blk_ == o.inner_blk_ && span_ == o.span_
          && weight_sums_dims_ == o.weight_sums_dims_))
        return false;
    for (size_t d = 0; d < strides_.size(); ++d)
        if (padded_[d] > 1 && strides_[d] != o.strides_[d]) return false;
    return true;
}

// ---- memory ---------------------------------------------------------------------------------

struct memory::impl {
    desc md;
    void *handle = nullptr;
    std::shared_ptr<void> owned;
};

memory::memory(const desc &md, void *handle) : impl_(std::make_shared<impl>()) {
    impl_->md = md;
    impl_->handle = handle;
}

memory::memory(const desc &md) : impl_(std::make_shared<impl>()) {
    if (md.is_any() || md.is_zero())
        invalid("memory: cannot allocate a buffer for a desc without a layout ('any' or empty)");
    const size_t bytes = (md.get_size() + 63) / 64 * 64;
    void *p = bytes ? std::aligned_alloc(64, bytes) : nullptr;
    if (bytes && !p)
        throw error(status::out_of_memory, "memory: cannot allocate " + std::to_string(bytes)
                                                   + " bytes");
    if (p) std::memset(p, 0, bytes);
    impl_->md = md;
    impl_->owned = std::shared_ptr<void>(p, std::free);
    impl_->handle = p;
}

const memory::desc &memory::get_desc() const {
    if (!impl_) invalid("memory: empty memory object");
    return impl_->md;
}

void *memory::get_data_handle() const {
    if (!impl_) invalid("memory: empty memory object");
    return impl_->handle;
}

void memory::set_data_handle(void *handle) const {
    if (!impl_) invalid("memory: empty memory object");
    impl_->handle = handle;
}

} // namespace prim
