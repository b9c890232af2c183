// Runtime post-op parameters: slots as NaN payloads, and their substitution (runtime_params.hpp).
#include "attr/runtime_params.hpp"

#include <cmath>
#include <cstring>

#include "attr/algorithm_table.hpp"
#include "common/post_op_operands.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {

namespace {

// A quiet NaN (exponent all ones, bit 22 set) with 0xa000 in its payload, the slot below it.
// Arithmetic never produces it: x86 makes 0x7fc00000, and a NaN operand keeps its own payload.
constexpr uint32_t slot_tag = 0x7fc0a000u, slot_tag_mask = 0x7ffff000u, slot_bits = 0x00000fffu;
constexpr uint32_t sign_bit = 0x80000000u;

uint32_t bits_of(float v) {
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

float &field(post_ops::entry &e, int f) {
    return f == runtime_alpha ? e.alpha : f == runtime_beta ? e.beta : e.scale;
}

} // namespace

float runtime_slot_value(int slot) {
    if (slot < 0 || slot >= max_runtime_slots)
        throw error(status::invalid_arguments,
                    "post-ops: runtime parameters are limited to "
                            + std::to_string(max_runtime_slots / runtime_fields) + " entries");
    const uint32_t b = slot_tag | static_cast<uint32_t>(slot);
    float v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

int runtime_slot_of_bits(uint32_t bits, bool *negated) {
    if ((bits & slot_tag_mask) != slot_tag) return -1;
    if (negated) *negated = (bits & sign_bit) != 0;
    return static_cast<int>(bits & slot_bits);
}

bool is_runtime_param(float v) { return is_runtime_f32(v) || runtime_slot_of_bits(bits_of(v)) >= 0; }

bool has_runtime_fields(const post_ops::entry &e) {
    return is_runtime_f32(e.alpha) || is_runtime_f32(e.beta) || is_runtime_f32(e.scale);
}

post_ops with_runtime_slots(const post_ops &user_chain) {
    if (!user_chain.has_runtime_params()) return user_chain;
    post_ops out;
    for (int i = 0; i < user_chain.len(); ++i) {
        post_ops::entry e = user_chain.entries()[i];
        for (int f = 0; f < runtime_fields; ++f)
            if (is_runtime_f32(field(e, f))) field(e, f) = runtime_slot_value(runtime_fields * i + f);
        append_entry(out, e);
    }
    return out;
}

post_ops with_runtime_values(const post_ops &chain, const std::vector<float> &values) {
    post_ops out;
    for (int i = 0; i < chain.len(); ++i) {
        post_ops::entry e = chain.entries()[i];
        for (int f = 0; f < runtime_fields; ++f) {
            bool negated = false;
            const int slot = runtime_slot_of_bits(bits_of(field(e, f)), &negated);
            if (slot < 0) continue;
            if (static_cast<size_t>(slot) >= values.size())
                throw error(status::invalid_arguments,
                            "post-op " + std::to_string(i) + ": its runtime parameters were not given");
            field(e, f) = negated ? -values[slot] : values[slot];
        }
        append_entry(out, e); // checks the values as append_eltwise / append_sum do
    }
    return out;
}

std::string check_runtime_values(const post_ops &user_chain, const std::vector<float> &values) {
    for (int i = 0; i < user_chain.len(); ++i) {
        post_ops::entry e = user_chain.entries()[i];
        bool runtime = false;
        for (int f = 0; f < runtime_fields; ++f) {
            if (!is_runtime_f32(field(e, f))) continue;
            runtime = true;
            field(e, f) = values.at(static_cast<size_t>(runtime_fields * i + f));
        }
        if (!runtime) continue;
        const std::string who = "post-op " + std::to_string(i);
        if (e.kind == post_ops::kind::sum) {
            if (std::isnan(e.scale)) return who + " (sum): runtime scale is NaN";
            continue;
        }
        const std::string problem = check_eltwise_params(e.alg, e.alpha, e.beta, e.scale);
        if (!problem.empty()) return who + " (eltwise): runtime value: " + problem;
    }
    return "";
}

} // namespace impl
} // namespace prim
