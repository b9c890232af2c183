// prim: algorithms, the post-ops chain and the primitive attribute that carries it.
#pragma once
#include <string>
#include <vector>

#include "prim/api.hpp"
#include "prim/cpu_isa.hpp"

namespace prim {

enum class algorithm {
    undef,
    convolution_direct,
    // Eltwise algorithms; formulas in doc/reference.md §1.
    eltwise_relu,
    eltwise_tanh,
    eltwise_elu,
    eltwise_square,
    eltwise_abs,
    eltwise_sqrt,
    eltwise_linear,
    eltwise_clip,
    eltwise_clip_v2,
    eltwise_soft_relu,
    eltwise_logistic,
    eltwise_exp,
    eltwise_log,
    eltwise_gelu_tanh,
    eltwise_gelu_erf,
    eltwise_swish,
    eltwise_hardsigmoid,
    eltwise_hardswish,
    eltwise_mish,
    eltwise_pow,
    eltwise_round,
    eltwise_celu,
    eltwise_selu,
    eltwise_softsign,
    eltwise_shrink,
    eltwise_thresholded_relu,
    eltwise_scaled_tanh,
    eltwise_softplus,
    eltwise_parametric_softplus,
    eltwise_identity,
    eltwise_logsigmoid, // -soft_relu(-x), oneDNN 2.x's definition
};

// Name as the fusion string prints it ("relu", "gelu_erf"), or nullptr for a non-eltwise value.
PRIM_API const char *algorithm_name(algorithm alg);

// A chain of operations applied, in order, to a primitive's output before it is stored.
class PRIM_API post_ops {
public:
    enum class kind { sum, eltwise };
    struct PRIM_API entry {
        post_ops::kind kind = kind::eltwise;
        algorithm alg = algorithm::undef; // eltwise only
        float alpha = 0.f, beta = 0.f;    // eltwise only
        float scale = 1.f;                // both
        bool operator==(const entry &o) const;
    };

    // x = scale * f_alg(x; alpha, beta). Throws invalid_arguments for an unknown algorithm, a
    // NaN parameter, or a parameter the algorithm forbids (soft_relu with alpha 0).
    void append_eltwise(algorithm alg, float alpha, float beta, float scale = 1.f);
    // x = x + scale * dst_old. Throws invalid_arguments for a NaN scale.
    void append_sum(float scale = 1.f);

    int len() const { return static_cast<int>(entries_.size()); }
    kind get_kind(int index) const;
    void get_params_eltwise(int index, algorithm &alg, float &alpha, float &beta, float &scale) const;
    void get_params_sum(int index, float &scale) const;

    const std::vector<entry> &entries() const { return entries_; }
    bool has_sum() const;
    bool operator==(const post_ops &o) const { return entries_ == o.entries_; }
    bool operator!=(const post_ops &o) const { return !(*this == o); }

private:
    const entry &at(int index, const char *who) const;
    std::vector<entry> entries_;
};

// The fusion string of a chain ("sum+relu:0.1"), as doc/reference.md §2 prints it.
PRIM_API std::string to_string(const post_ops &po);
// Parses one chain (no commas). Throws invalid_arguments naming the bad token and its position.
PRIM_API post_ops parse_post_ops(const std::string &chain);
// Parses a comma-separated list of chains; "" is one empty chain, "," two.
PRIM_API std::vector<post_ops> parse_post_ops_list(const std::string &chains);

class PRIM_API primitive_attr {
public:
    void set_post_ops(const post_ops &po) { post_ops_ = po; }
    const post_ops &get_post_ops() const { return post_ops_; }
    // Caps the instruction set for this primitive; combined with PRIM_MAX_CPU_ISA by taking the lower.
    void set_max_cpu_isa(cpu_isa isa) { max_isa_ = isa; }
    cpu_isa get_max_cpu_isa() const { return max_isa_; }
    // Strict: creation fails (unimplemented, with the reason) instead of falling back to a
    // slower implementation than the best one the ISA allows.
    void set_strict(bool strict) { strict_ = strict; }
    bool get_strict() const { return strict_; }

private:
    post_ops post_ops_;
    cpu_isa max_isa_ = cpu_isa::all;
    bool strict_ = false;
};

} // namespace prim
