// MIOpen's activation modes as prim eltwise entries (doc/fusion_plan.md has the table). A mode's
// entries and which of their fields come from the arguments depend on the mode only, never on
// the values, so one compiled plan serves every alpha, beta, gamma.
#pragma once
#include <vector>

#include "prim/attr.hpp"
#include "prim/fusion_plan.hpp"

namespace prim {
namespace impl {

// One eltwise entry of a mode: x = f_alg(x; alpha, beta). A field marked at run time is a
// PRIM_RUNTIME_F32_VAL in the compiled chain and its value is given at every execute.
struct activation_step {
    algorithm alg;
    float alpha = 0.f, beta = 0.f;
    bool alpha_at_run_time = false, beta_at_run_time = false;
};

// The entries of mode with MIOpen's alpha, beta, gamma (passthru has none).
std::vector<activation_step> activation_steps(activation_mode mode, double alpha, double beta,
                                              double gamma);

// True when mode reads any of alpha, beta, gamma (then fusion_args must give them).
bool activation_reads_args(activation_mode mode);

// True for the enum's named values (an enum cast from a bad integer is not).
bool is_activation_mode(activation_mode mode);

} // namespace impl
} // namespace prim
