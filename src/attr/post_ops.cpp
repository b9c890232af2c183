// prim::post_ops: building the chain with validation, reading it back, comparing chains.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "attr/algorithm_table.hpp"
#include "prim/error.hpp"

namespace prim {

namespace {

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

const char *kind_name(post_ops::kind k) {
    return k == post_ops::kind::sum ? "sum" : "eltwise";
}

} // namespace

// Floats compare by bit pattern: a parsed chain equals its printed-and-reparsed self exactly,
// and -0 differs from +0 (they print differently).
bool post_ops::entry::operator==(const entry &o) const {
    return kind == o.kind && alg == o.alg && bits_of(alpha) == bits_of(o.alpha)
            && bits_of(beta) == bits_of(o.beta) && bits_of(scale) == bits_of(o.scale);
}

void post_ops::append_eltwise(algorithm alg, float alpha, float beta, float scale) {
    const std::string problem = impl::check_eltwise_params(alg, alpha, beta, scale);
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

void post_ops::append_sum(float scale) {
    if (std::isnan(scale))
        throw error(status::invalid_arguments,
                "post-op " + std::to_string(len()) + " (sum): scale is NaN");
    entry e;
    e.kind = kind::sum;
    e.scale = scale; // alg, alpha, beta keep their defaults so equal sums compare equal
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
    const entry &e = at(index, "get_params_eltwise");
    if (e.kind != kind::eltwise)
        throw error(status::invalid_arguments,
                "post_ops::get_params_eltwise: entry " + std::to_string(index) + " is a "
                        + kind_name(e.kind) + ", not an eltwise");
    alg = e.alg;
    alpha = e.alpha;
    beta = e.beta;
    scale = e.scale;
}

void post_ops::get_params_sum(int index, float &scale) const {
    const entry &e = at(index, "get_params_sum");
    if (e.kind != kind::sum)
        throw error(status::invalid_arguments,
                "post_ops::get_params_sum: entry " + std::to_string(index) + " is an "
                        + kind_name(e.kind) + ", not a sum");
    scale = e.scale;
}

bool post_ops::has_sum() const {
    for (const entry &e : entries_)
        if (e.kind == kind::sum) return true;
    return false;
}

} // namespace prim
