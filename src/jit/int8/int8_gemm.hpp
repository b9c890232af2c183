// The int8 GEMM primitive behind the JIT int8 inner product (jit_ip_int8.cpp) and convolution
// (jit_conv_int8.cpp): per group, dst[rows, oc] = convert(src rows · weightsᵀ), on the exact
// s32 micro-kernel (ip_int8_kernel.hpp) with the scales, bias, post-ops chain and the
// destination's quantization in registers. The kernel reads the src in its own form
// (int8_src_form.hpp: the user's src itself, or a copy with the padding), a convolution's taps
// at their offsets; dst rows are channels-last.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"
#include "jit/int8/int8_gemm_operands.hpp"
#include "jit/int8/int8_src_form.hpp"

namespace prim {
namespace impl {

struct int8_gemm_request {
    jit::int8_conv_geometry geom; // one GEMM row per output pixel; one GEMM per group
    int64_t ip_spatial = 0;     // an inner product's K order (ic · spatial, ic outermost);
                                // 0: a convolution's (per tap, the group's channels)
    int64_t ocg = 0;            // output channels per group
    // A depthwise convolution as one GEMM-shaped walk whose lanes are the channels (geom: one
    // group of all channels; ip_int8_kernel.hpp's depthwise mode).
    bool depthwise = false;
    double flops = 0; // the threads' share of work counts in these (work_threads.hpp)
    bool with_bias = false;
    // src channels-last (an inner product: plain) of src's type, as the src form reads it;
    // execute copies the user's src into it first when the primitive's src layout differs.
    memory::desc src_cl_md;
    arg_layouts layouts;        // the primitive's own layouts; wei may still be 'any'
    bool packable = false;      // 'any' weights may become the packed layout (the K order allows)
    bool grouped_wei = false;   // the weights' dims start with the groups
    primitive_attr attr;
    // Another implementation on the same layouts, given whether the creating kernel is VNNI's:
    // runs a call whose src zero point the kernel's src form cannot hold in its padding (u8 src,
    // zero point -2 in VNNI's u8 form). Required when the convolution reads padding and has a
    // src zero point; null otherwise.
    std::function<std::unique_ptr<primitive_impl>(const arg_layouts &, bool vnni)> fallback;
    // For a driver that walks the lines itself (run_lines; the fused 1x1 + depthwise pass):
    bool lines_are_rows = false;  // lines are output rows even where pixels map one to one
    int64_t dst_pixel_bytes = 0;  // bytes from a dst pixel to the next (0: dst's channels)
    bool external_src = false;    // run_lines is given the src form; prepare reads no src
};

// What one execute prepares for the kernel calls (per-channel values, weights, runtime tables,
// the src in the kernel's form): opaque to the caller of run_lines.
struct int8_gemm_call {
    virtual ~int8_gemm_call() = default;
};

// Where run_lines reads and writes: the src form's byte b at src + b - src_first (src null: the
// prepared src), line L's first dst pixel at dst + L * dst_line_bytes.
struct int8_gemm_lines {
    const uint8_t *src = nullptr;
    int64_t src_first = 0;
    char *dst = nullptr;
    int64_t dst_line_bytes = 0;
};

// The int8 GEMM primitive. Besides execute (the whole walk, threaded), a driver may prepare a
// call and run lines of it on the calling thread: a line is a run of GEMM rows (an output row
// of a convolution; lines_are_rows makes it so for a 1x1 too).
class int8_gemm_primitive : public primitive_impl {
public:
    using primitive_impl::primitive_impl;
    virtual std::unique_ptr<int8_gemm_call> prepare(const exec_ptrs &args) const = 0;
    // Lines [line0, line1) of group 0, oc panels [panel0, panel1), by the calling thread alone.
    virtual void run_lines(const int8_gemm_call &call, const int8_gemm_lines &where,
                           int64_t line0, int64_t line1, int64_t panel0, int64_t panel1) const = 0;
    virtual const jit::int8_src_form &src_form() const = 0;
    virtual int64_t panel_channels() const = 0; // output channels per oc panel
    virtual int64_t panels() const = 0;
};

// Builds the implementation for the best of avx512_vnni, avx512, avx2 that isa allows; null
// with the reason in why_not when it cannot take the request.
std::unique_ptr<int8_gemm_primitive> create_int8_gemm(const int8_gemm_request &req, cpu_isa isa,
                                                      std::string &why_not);

} // namespace impl
} // namespace prim
