// prim::post_ops: building the chain with validation, reading it back, comparing chains.
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
            && zero_point == o.zero_point && dt == o.dt && mask == o.mask && src1 == o.src1;
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
