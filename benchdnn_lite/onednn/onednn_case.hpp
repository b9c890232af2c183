// The oneDNN 2.6 side of --cmp=onednn: the same descriptor, data and post-ops chain run through
// oneDNN, so that one process can time both libraries alternately and check that they compute
// the same thing. Built only where oneDNN is found (PRIM_WITH_ONEDNN); elsewhere
// onednn_available() is false and the option is refused before any case runs.
//
// oneDNN gets `format any` for the source, weights and destination of convolution and inner
// product (its best layouts), a plain source for eltwise (whose post-ops oneDNN 2.6 gets wrong:
// an eltwise case with a chain is skipped), the same direction (--dir) and the
// same data (fill.hpp is a function of the index in the plain layout; binary, bnorm and lnorm
// give theirs through problem_case::input, plain, forward inference for the normalizations). Threads: oneDNN and prim
// share the OpenMP runtime, so OMP_NUM_THREADS sets both.
//
// Each driver's mapping is its own file, DRIVER/DRIVER_onednn.cpp (onednn_drivers.hpp), named
// by its row of driver_table.cpp; this file runs the result.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "problem_case.hpp"
#include "settings.hpp"

namespace bdl {

struct onednn_state;

// True when benchdnn_lite was built with oneDNN.
bool onednn_available();

// The case cannot be run through oneDNN 2.6 (an algorithm it does not have, a chain or shape
// its implementations refuse); what() says why. Not a failure of prim.
struct onednn_skip : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class onednn_case {
public:
    // Builds the oneDNN primitive for pc under the current options and chain and binds its
    // arguments (dst holds dst_old), through the driver's mapping (driver_table.hpp). Throws
    // onednn_skip.
    onednn_case(driver_kind driver, const problem_case &pc, const settings &s,
                const prim::post_ops &po);
    ~onednn_case();
    onednn_case(const onednn_case &) = delete;
    onednn_case &operator=(const onednn_case &) = delete;

    void execute();
    // oneDNN's dst in the plain layout of pc.dst_dims(). Eltwise: NaN where the source is NaN
    // (doc/reference.md §1 says every algorithm returns NaN there, oneDNN's relu, clip or exp do
    // not: a different policy, not a different function, so the check leaves them out).
    std::vector<float> result() const;
    // oneDNN's implementation name, e.g. "jit_1x1:avx512_core".
    const std::string &impl() const;

private:
    std::unique_ptr<onednn_state> st_; // the dnnl objects (onednn_state.hpp)
};

} // namespace bdl
