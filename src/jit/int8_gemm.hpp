// The int8 GEMM primitive behind the JIT int8 inner product (jit_ip_int8.cpp) and convolution
// (jit_conv_int8.cpp): per group, dst[rows, oc] = convert(src rows · weightsᵀ), on the exact
// s32 micro-kernel (ip_int8_kernel.hpp) with the scales, bias, post-ops chain and the
// destination's quantization in registers. The src rows are made per chunk, in the thread that
// uses them, while they stay in its L2 (int8_src_rows.hpp); dst rows are channels-last.
#pragma once
#include <memory>
#include <string>

#include "common/primitive_impl.hpp"
#include "jit/int8_gemm_operands.hpp"
#include "jit/int8_src_rows.hpp"

namespace prim {
namespace impl {

struct int8_gemm_request {
    jit::int8_src_rows rows;    // one GEMM row per output pixel, read from src_rows_md; cp is
                                // set at creation, by the K group of the ISA chosen
    int64_t ip_spatial = 0;     // an inner product's K order (ic · spatial, ic outermost);
                                // 0: a convolution's (per tap, the channels)
    int64_t groups = 1, ocg = 0; // GEMMs and output channels per GEMM
    double flops = 0;
    bool with_bias = false;
    // src as the rows read it: channels-last (an inner product: plain) of src's type; execute
    // copies the user's src into it when the primitive's src layout differs.
    memory::desc src_rows_md;
    arg_layouts layouts;        // the primitive's own layouts; wei may still be 'any'
    bool packable = false;      // 'any' weights may become the packed layout (the K order allows)
    bool grouped_wei = false;   // the weights' dims start with the groups
    primitive_attr attr;
};

// Builds the implementation for the best of avx512_vnni, avx512, avx2 that isa allows; null
// with the reason in why_not when it cannot take the request.
std::unique_ptr<primitive_impl> create_int8_gemm(const int8_gemm_request &req, cpu_isa isa,
                                                 std::string &why_not);

} // namespace impl
} // namespace prim
