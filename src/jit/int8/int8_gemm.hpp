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
    // The reference on the same layouts: runs a call whose src zero point the kernel's src form
    // cannot hold in its padding (u8 src, zero point -2). Required when the convolution reads
    // padding and has a src zero point; null otherwise.
    std::function<std::unique_ptr<primitive_impl>(const arg_layouts &)> reference;
};

// Builds the implementation for the best of avx512_vnni, avx512, avx2 that isa allows; null
// with the reason in why_not when it cannot take the request.
std::unique_ptr<primitive_impl> create_int8_gemm(const int8_gemm_request &req, cpu_isa isa,
                                                 std::string &why_not);

} // namespace impl
} // namespace prim
