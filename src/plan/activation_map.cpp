// MIOpen's activation formulas (its miopenActivationMode_t documentation) in prim's algorithms
// (doc/reference.md §1).
#include "plan/activation_map.hpp"

namespace prim {
namespace impl {

namespace {
float f(double v) { return static_cast<float>(v); }
} // namespace

std::vector<activation_step> activation_steps(activation_mode mode, double alpha, double beta,
                                              double gamma) {
    using A = algorithm;
    switch (mode) {
    case activation_mode::passthru: return {};
    case activation_mode::logistic: return {{A::eltwise_logistic}};
    // beta * tanh(alpha * x) is scaled_tanh's alpha' * tanh(beta' * x).
    case activation_mode::tanh: return {{A::eltwise_scaled_tanh, f(beta), f(alpha), true, true}};
    case activation_mode::relu: return {{A::eltwise_relu, 0.f}};
    // prim's soft_relu is log(1 + e^(alpha x)) / alpha: MIOpen's with alpha 1.
    case activation_mode::soft_relu: return {{A::eltwise_soft_relu, 1.f}};
    case activation_mode::abs: return {{A::eltwise_abs}};
    // (alpha + beta x)^gamma: linear (alpha' x + beta') then pow (1 * x^gamma).
    case activation_mode::power:
        return {{A::eltwise_linear, f(beta), f(alpha), true, true},
                {A::eltwise_pow, 1.f, f(gamma), false, true}};
    case activation_mode::clipped_relu: return {{A::eltwise_clip, 0.f, f(alpha), false, true}};
    case activation_mode::leaky_relu: return {{A::eltwise_relu, f(alpha), 0.f, true, false}};
    case activation_mode::elu: return {{A::eltwise_elu, f(alpha), 0.f, true, false}};
    }
    return {};
}

bool activation_reads_args(activation_mode mode) {
    for (const activation_step &s : activation_steps(mode, 0, 0, 0))
        if (s.alpha_at_run_time || s.beta_at_run_time) return true;
    return false;
}

bool is_activation_mode(activation_mode mode) {
    return mode >= activation_mode::passthru && mode <= activation_mode::elu;
}

} // namespace impl

const char *activation_mode_name(activation_mode mode) {
    switch (mode) {
    case activation_mode::passthru: return "passthru";
    case activation_mode::logistic: return "logistic";
    case activation_mode::tanh: return "tanh";
    case activation_mode::relu: return "relu";
    case activation_mode::soft_relu: return "soft_relu";
    case activation_mode::abs: return "abs";
    case activation_mode::power: return "power";
    case activation_mode::clipped_relu: return "clipped_relu";
    case activation_mode::leaky_relu: return "leaky_relu";
    case activation_mode::elu: return "elu";
    }
    return nullptr;
}

} // namespace prim
