// prim::post_ops: building the chain with validation, reading it back, comparing chains.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "attr/algorithm_table.hpp"
#include "attr/binary_table.hpp"
#include "attr/operand_policy.hpp"
#include "attr/runtime_params.hpp"
#include "prim/error.hpp"

namespace prim {

namespace {

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

const char *kind_name(post_ops::kind k) {
    switch (k) {
    case post_ops::kind::sum: return "sum";
    case post_ops::kind::eltwise: return "eltwise";
    case post_ops::kind::binary: return "binary";
    case post_ops::kind::prelu: return "prelu";
    case post_ops::kind::dw: return "dw";
    }
    return "unknown";
}

// "an eltwise", "a sum", ... for messages.
std::string a_kind(post_ops::kind k) {
    return std::string(k == post_ops::kind::eltwise ? "an " : "a ") + kind_name(k);
}

// A runtime parameter (or, in the library's own chains, its slot) is checked at execute, with its
// value; at creation it stands for 1, a value every algorithm accepts.
float as_checked_at_creation(float v) { return impl::is_runtime_param(v) ? 1.f : v; }

} // namespace

// Floats compare by bit pattern: a parsed chain equals its printed-and-reparsed self exactly,
// and -0 differs from +0 (they print differently).
bool post_ops::entry::operator==(const entry &o) const {
    return kind == o.kind && alg == o.alg && bits_of(alpha) == bits_of(o.alpha)
            && bits_of(beta) == bits_of(o.beta) && bits_of(scale) == bits_of(o.scale)
            && zero_point == o.zero_point && dt == o.dt && mask == o.mask && src1 == o.src1
            && dw.wei_dt == o.dw.wei_dt && dw.bias_dt == o.dw.bias_dt && dw.dst_dt == o.dw.dst_dt
            && dw.kernel == o.dw.kernel && dw.stride == o.dw.stride && dw.padding == o.dw.padding
            && dw.mask == o.dw.mask && dw.scales.size() == o.dw.scales.size()
            && std::equal(dw.scales.begin(), dw.scales.end(), o.dw.scales.begin(),
                          [](float a, float b) { return bits_of(a) == bits_of(b); });
}

void post_ops::append_eltwise(algorithm alg, float alpha, float beta, float scale) {
    const std::string problem = impl::check_eltwise_params(alg, as_checked_at_creation(alpha),
            as_checked_at_creation(beta), as_checked_at_creation(scale));
    if (!problem.empty())
        throw error(status::invalid_arguments,
                "post-op " + std::to_string(len()) + " (eltwise): " + problem);
    entry e;
    e.kind = kind::eltwise;
    e.alg = alg;
    e.alpha = alpha;
    e.beta = beta;
    e.scale = scale;
    entries_.push_back(e);
}

void post_ops::append_sum(float scale, int32_t zero_point, memory::data_type dt) {
    const std::string who = "post-op " + std::to_string(len()) + " (sum): ";
    if (std::isnan(as_checked_at_creation(scale)))
        throw error(status::invalid_arguments, who + "scale is NaN");
    if (dt != memory::data_type::undef && data_type_size(dt) == 0)
        throw error(status::invalid_arguments,
                    who + "data type " + std::to_string(static_cast<int>(dt))
                            + " is not one of f32, s32, s8, u8");
    entry e;
    e.kind = kind::sum;
    e.scale = scale; // alg, alpha, beta keep their defaults so equal sums compare equal
    e.zero_point = zero_point;
    e.dt = dt;
    entries_.push_back(e);
}

void post_ops::append_binary(algorithm alg, const memory::desc &src1) {
    const std::string who = "post-op " + std::to_string(len()) + " (binary): ";
    if (src1.is_zero() || src1.is_any())
        throw error(status::invalid_arguments,
                    who + "src1 must be a complete desc (not zero, not 'any'); to let it follow "
                          "the destination, give a policy mask instead");
    append_binary(alg, impl::policy_of(src1.get_dims()), src1.get_data_type());
    entries_.back().src1 = src1;
}

void post_ops::append_binary(algorithm alg, int mask, memory::data_type dt) {
    if (dt != memory::data_type::undef && data_type_size(dt) == 0)
        throw error(status::invalid_arguments,
                    "post-op " + std::to_string(len()) + " (binary): operand data type "
                            + std::to_string(static_cast<int>(dt))
                            + " is not one of f32, s32, s8, u8");
    if (!impl::find_binary(alg)) {
        // Named when it has a name ("relu"), else by its number.
        const char *name = algorithm_name(alg);
        throw error(status::invalid_arguments,
                    "post-op " + std::to_string(len()) + " (binary): algorithm "
                            + (name ? "'" + std::string(name) + "'"
                                    : std::to_string(static_cast<int>(alg)))
                            + " is not a binary algorithm");
    }
    entry e;
    e.kind = kind::binary;
    e.alg = alg;
    e.mask = mask;
    e.dt = dt == memory::data_type::f32 ? memory::data_type::undef : dt; // undef: f32, as a sum's
    entries_.push_back(e);
}

void post_ops::append_prelu(int mask) {
    entry e;
    e.kind = kind::prelu;
    e.mask = mask;
    entries_.push_back(e);
}

void post_ops::append_dw(memory::data_type weights_dt, memory::data_type bias_dt,
                         memory::data_type dst_dt, memory::dim kernel, memory::dim stride,
                         memory::dim padding_l, int mask, const std::vector<float> &scales) {
    const std::string who = "post-op " + std::to_string(len()) + " (dw): ";
    const auto fail = [&](const std::string &what) {
        throw error(status::invalid_arguments, who + what);
    };
    const auto check_type = [&](memory::data_type t, const char *name) {
        if (t != memory::data_type::undef && data_type_size(t) == 0)
            fail(std::string(name) + " data type " + std::to_string(static_cast<int>(t))
                 + " is not one of f32, s32, s8, u8");
    };
    check_type(weights_dt, "weights");
    check_type(bias_dt, "bias");
    check_type(dst_dt, "dst");
    // Bounds that keep every size computed from them far from overflowing.
    const memory::dim max_size = memory::dim(1) << 30;
    if (kernel < 1 || kernel > max_size) fail("kernel " + std::to_string(kernel) + " must be in [1, 2^30]");
    if (stride < 1 || stride > max_size) fail("stride " + std::to_string(stride) + " must be in [1, 2^30]");
    if (padding_l < 0 || padding_l >= kernel)
        fail("padding " + std::to_string(padding_l) + " must be in [0, kernel - 1 = "
             + std::to_string(kernel - 1) + "] (a larger one puts the first window in the padding)");
    if (mask < 0) fail("scales mask " + std::to_string(mask) + " is negative");
    for (float v : scales)
        if (std::isnan(v)) fail("a scale is NaN");
    entry e;
    e.kind = kind::dw;
    e.dw.wei_dt = weights_dt;
    e.dw.bias_dt = bias_dt;
    e.dw.dst_dt = dst_dt;
    e.dw.kernel = kernel;
    e.dw.stride = stride;
    e.dw.padding = padding_l;
    e.dw.mask = mask;
    e.dw.scales = scales;
    entries_.push_back(e);
}

const post_ops::entry &post_ops::at(int index, const char *who) const {
    if (index < 0 || index >= len())
        throw error(status::invalid_arguments,
                std::string("post_ops::") + who + ": index " + std::to_string(index)
                        + " is out of range (the chain has " + std::to_string(len())
                        + " entries)");
    return entries_[static_cast<size_t>(index)];
}

post_ops::kind post_ops::get_kind(int index) const { return at(index, "get_kind").kind; }

void post_ops::get_params_eltwise(
        int index, algorithm &alg, float &alpha, float &beta, float &scale) const {
    const entry &e = at_kind(index, kind::eltwise, "get_params_eltwise");
    alg = e.alg;
    alpha = e.alpha;
    beta = e.beta;
    scale = e.scale;
}

void post_ops::get_params_sum(int index, float &scale) const {
    scale = at_kind(index, kind::sum, "get_params_sum").scale;
}

void post_ops::get_params_sum(int index, float &scale, int32_t &zero_point,
                              memory::data_type &dt) const {
    const entry &e = at_kind(index, kind::sum, "get_params_sum");
    scale = e.scale;
    zero_point = e.zero_point;
    dt = e.dt;
}

const post_ops::entry &post_ops::at_kind(int index, kind k, const char *who) const {
    const entry &e = at(index, who);
    if (e.kind != k)
        throw error(status::invalid_arguments,
                std::string("post_ops::") + who + ": entry " + std::to_string(index) + " is "
                        + a_kind(e.kind) + ", not " + a_kind(k));
    return e;
}

void post_ops::get_params_binary(int index, algorithm &alg, memory::desc &src1) const {
    const entry &e = at_kind(index, kind::binary, "get_params_binary");
    alg = e.alg;
    src1 = e.src1;
}

void post_ops::get_params_binary(int index, algorithm &alg, int &mask) const {
    const entry &e = at_kind(index, kind::binary, "get_params_binary");
    alg = e.alg;
    mask = e.mask;
}

void post_ops::get_params_prelu(int index, int &mask) const {
    mask = at_kind(index, kind::prelu, "get_params_prelu").mask;
}

void post_ops::get_params_dw(int index, memory::data_type &weights_dt,
                             memory::data_type &bias_dt, memory::data_type &dst_dt,
                             memory::dim &kernel, memory::dim &stride, memory::dim &padding_l,
                             int &mask, std::vector<float> &scales) const {
    const entry &e = at_kind(index, kind::dw, "get_params_dw");
    weights_dt = e.dw.wei_dt;
    bias_dt = e.dw.bias_dt;
    dst_dt = e.dw.dst_dt;
    kernel = e.dw.kernel;
    stride = e.dw.stride;
    padding_l = e.dw.padding;
    mask = e.dw.mask;
    scales = e.dw.scales;
}

int post_ops::dw_index() const {
    for (int i = 0; i < len(); ++i)
        if (entries_[static_cast<size_t>(i)].kind == kind::dw) return i;
    return -1;
}

bool post_ops::has_sum() const {
    for (const entry &e : entries_)
        if (e.kind == kind::sum) return true;
    return false;
}

bool post_ops::has_runtime_params() const {
    for (const entry &e : entries_)
        if (impl::is_runtime_param(e.alpha) || impl::is_runtime_param(e.beta)
            || impl::is_runtime_param(e.scale))
            return true;
    return false;
}

bool post_ops::has_operands() const {
    for (const entry &e : entries_)
        if (e.kind == kind::binary || e.kind == kind::prelu) return true;
    return false;
}

} // namespace prim
