// Each primitive's implementations, fastest first, reference last. The first whose create()
// accepts the request is used; the others say why not under PRIM_VERBOSE=2.
#include "common/binary_int8_loop.hpp"
#include "common/concat_request.hpp"
#include "common/pool_int8_loop.hpp"
#include "common/primitive_impl.hpp"
#include "common/softmax_request.hpp"
#include "jit/conv/jit_conv_dw_fused.hpp"
#include "jit/conv/jit_convolution.hpp"
#include "jit/binary/jit_binary.hpp"
#include "jit/eltwise/jit_eltwise.hpp"
#include "jit/ip/jit_inner_product.hpp"
#include "jit/int8/jit_conv_dw_int8.hpp"
#include "jit/int8/jit_conv_int8.hpp"
#include "jit/int8/jit_ip_int8.hpp"
#include "jit/norm/jit_normalization.hpp"
#include "jit/pool/jit_pooling.hpp"
#include "ref/ref_impls.hpp"
#include "ref/ref_normalization.hpp"
#include "ref/ref_pooling.hpp"

namespace prim {
namespace impl {

const std::vector<impl_entry<conv_request>> &conv_impl_list() {
    static const std::vector<impl_entry<conv_request>> list = {
            {"jit", create_jit_conv},
            {"jit_int8", create_jit_conv_int8, true},
            {"jit_dw_fused", create_jit_conv_dw, false, true},
            {"jit_int8_dw_fused", create_jit_conv_dw_int8, true, true},
            {"ref", create_ref_conv, true, true},
    };
    return list;
}

const std::vector<impl_entry<ip_request>> &ip_impl_list() {
    static const std::vector<impl_entry<ip_request>> list = {
            {"jit", create_jit_ip},
            {"jit_int8", create_jit_ip_int8, true},
            {"ref", create_ref_ip, true},
    };
    return list;
}

const std::vector<impl_entry<eltwise_request>> &eltwise_impl_list() {
    static const std::vector<impl_entry<eltwise_request>> list = {
            {"jit", create_jit_eltwise, true}, // int8 data and post-op operands too
            {"ref", create_ref_eltwise, true},
    };
    return list;
}

const std::vector<impl_entry<binary_request>> &binary_impl_list() {
    static const std::vector<impl_entry<binary_request>> list = {
            {"jit", create_jit_binary, true}, // int8 data and scales too
            {"loop", create_binary_int8_loop, true}, // int8 data and scales, no JIT
            {"ref", create_ref_binary, true},
    };
    return list;
}

const std::vector<impl_entry<bnorm_request>> &bnorm_impl_list() {
    static const std::vector<impl_entry<bnorm_request>> list = {
            {"jit", create_jit_bnorm, true}, // int8 post-op operands too (f32 data)
            {"ref", create_ref_bnorm, true},
    };
    return list;
}

const std::vector<impl_entry<lnorm_request>> &lnorm_impl_list() {
    static const std::vector<impl_entry<lnorm_request>> list = {
            {"jit", create_jit_lnorm, true}, // int8 post-op operands too (f32 data)
            {"ref", create_ref_lnorm, true},
    };
    return list;
}

const std::vector<impl_entry<softmax_request>> &softmax_impl_list() {
    static const std::vector<impl_entry<softmax_request>> list = {
            {"jit", create_jit_softmax, true}, // int8 src or dst by a staging block (no operands)
            {"jit_strided", create_jit_softmax_strided},
            {"ref", create_ref_softmax, true},
    };
    return list;
}

const std::vector<impl_entry<concat_request>> &concat_impl_list() {
    static const std::vector<impl_entry<concat_request>> list = {
            {"copy", create_concat_copy, true}, // any one data type: it copies bytes
            {"ref", create_ref_concat, true},
    };
    return list;
}

const std::vector<impl_entry<pool_request>> &pool_impl_list() {
    static const std::vector<impl_entry<pool_request>> list = {
            {"jit:plain", create_jit_pool_nchw},
            {"jit", create_jit_pool, true}, // f32, s8 and u8 data, int8 operands
            {"loop", create_pool_int8_loop, true}, // int8 data, channels-last
            {"ref", create_ref_pool, true},
    };
    return list;
}

} // namespace impl
} // namespace prim
