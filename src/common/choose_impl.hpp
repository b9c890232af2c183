// Creation's last step for every primitive: walk its implementation list, fastest first, and
// keep the first implementation that takes the request.
#pragma once
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "attr/runtime_params.hpp"
#include "common/concat_request.hpp"
#include "common/dw_post_op.hpp"
#include "common/post_op_operands.hpp"
#include "common/primitive_impl.hpp"
#include "common/quant_attr.hpp"
#include "common/verbose.hpp"
#include "prim/error.hpp"

namespace prim {
namespace impl {

// The ISA a request may use: the machine's, capped by PRIM_MAX_CPU_ISA and by the attribute.
inline cpu_isa request_isa(const primitive_attr &attr) {
    const cpu_isa cap = attr.get_max_cpu_isa();
    if (cap < cpu_isa::none || cap > cpu_isa::all)
        throw error(status::invalid_arguments,
                    "primitive_attr: cpu_isa value " + std::to_string(static_cast<int>(cap))
                            + " is not one of none, avx2, avx512, avx512_vnni, all");
    return std::min(get_effective_cpu_isa(), cap);
}

// The data types of a request when they are not all f32 (else ""): "src:weights:dst" for a
// convolution or inner product, "src0:src1:dst" for binary, "src:dst" for a primitive with one
// src (eltwise, pooling, softmax) and for concat (its inputs have one type); the others take
// f32 only (their creation refuses other types).
// (The int/long argument ranks the overloads: those taking int win where they apply.)
template <typename request>
std::string request_data_types(const request &, long) { return ""; }
template <typename request>
auto request_data_types(const request &req, int) -> decltype(req.src, req.dst, std::string()) {
    const memory::data_type s = req.src.get_data_type(), d = req.dst.get_data_type();
    if (s == memory::data_type::f32 && d == s) return "";
    return std::string(data_type_name(s)) + ":" + data_type_name(d);
}
inline std::string request_data_types(const binary_request &req, int) {
    const memory::data_type s0 = req.src0.get_data_type(), s1 = req.src1.get_data_type(),
                            d = req.dst.get_data_type(), f = memory::data_type::f32;
    if (s0 == f && s1 == f && d == f) return "";
    return std::string(data_type_name(s0)) + ":" + data_type_name(s1) + ":" + data_type_name(d);
}
inline std::string request_data_types(const concat_request &req, int) {
    const memory::data_type s = req.srcs[0].get_data_type(), d = req.dst.get_data_type();
    if (s == memory::data_type::f32 && d == s) return "";
    return std::string(data_type_name(s)) + ":" + data_type_name(d);
}
template <typename problem>
std::string request_data_types(const weighted_request<problem> &req, int) {
    const memory::data_type s = req.src.get_data_type(), w = req.wei.get_data_type(),
                            d = req.dst.get_data_type();
    if (s == memory::data_type::f32 && w == s && d == s) return "";
    return std::string(data_type_name(s)) + ":" + data_type_name(w) + ":" + data_type_name(d);
}

// Throws unimplemented when nothing takes the request, or when strict mode is on and only the
// reference would (unless the ISA cap itself is 'none').
template <typename request>
std::shared_ptr<const chosen_impl> choose_impl(primitive_kind kind,
        const std::vector<impl_entry<request>> &list, const request &req,
        const std::string &problem_str, bool empty) {
    const double start = now_ms();
    const cpu_isa isa = request_isa(req.attr);
    const char *kind_name = primitive_kind_name(kind);
    const post_ops &chain = req.attr.get_post_ops();
    // Entries before a dw post-op apply to the 1x1's output: convolution creation checks them.
    std::string bad = check_operand_dims(chain, req.dst.get_dims(), chain.dw_index() + 1);
    if (bad.empty()) bad = check_chain_types(chain, req.dst.get_data_type());
    if (bad.empty()) bad = check_dw_chain(chain, kind == primitive_kind::convolution);
    const bool weighted = kind == primitive_kind::convolution || kind == primitive_kind::inner_product;
    // Binary and softmax check their own scales at creation (quant_attr.hpp).
    const bool own_scales = weighted || kind == primitive_kind::binary || kind == primitive_kind::softmax;
    if (bad.empty() && !own_scales && req.attr.get_quantization().any())
        bad = "scales and zero points are supported by convolution, inner product and reorder "
              "only (and scales by binary and softmax)";
    if (!bad.empty())
        throw error(status::invalid_arguments, std::string(kind_name) + " " + problem_str + ": " + bad);
    const std::string data_types = request_data_types(req, 0);
    const bool quantized = !data_types.empty() || req.attr.get_quantization().any()
            || chain_is_quantized(chain);
    const bool dw = chain.dw_index() >= 0;
    // Implementations see each runtime parameter as its slot (runtime_params.hpp); the chosen
    // primitive keeps the user's attribute.
    request slotted = req;
    if (chain.has_runtime_params()) slotted.attr.set_post_ops(with_runtime_slots(chain));
    std::string reasons;
    for (const auto &entry : list) {
        std::string why_not = "int8 data, quantization or int8 post-op operands are not supported";
        if (dw && !entry.dw_post_op)
            why_not = "a chain with a dw post-op runs on the implementations that fuse it";
        std::unique_ptr<primitive_impl> impl;
        if ((!quantized || entry.quantized) && (!dw || entry.dw_post_op))
            impl = entry.create(slotted, isa, why_not);
        if (!impl) {
            if (verbose_level() >= 2)
                verbose_print(std::string("prim_verbose,dispatch,") + kind_name + ","
                              + entry.name + "," + problem_str + "," + why_not);
            reasons += std::string(reasons.empty() ? "" : "; ") + entry.name + ": " + why_not;
            continue;
        }
        if (req.attr.get_strict() && isa != cpu_isa::none && impl->name() == "ref")
            throw error(status::unimplemented,
                        std::string(kind_name) + " " + problem_str
                                + ": strict mode refuses the reference fallback ("
                                + (reasons.empty() ? "no faster implementation" : reasons) + ")");
        if (verbose_level() >= 2)
            verbose_print(std::string("prim_verbose,create,") + kind_name + "," + impl->name()
                          + "," + problem_str + "," + to_string(req.attr.get_post_ops()) + ","
                          + std::to_string(now_ms() - start));
        std::vector<memory::desc> operand_mds
                = operand_descs(chain, impl->dst_md(), impl->layouts().dw_src);
        std::vector<quant_arg> quant = quant_args(req.attr.get_quantization(), impl->src_md(),
                                                  impl->wei_md(), impl->dst_md(), impl->layouts().dw_wei);
        return std::make_shared<const chosen_impl>(chosen_impl {kind, problem_str, req.attr, empty,
                std::move(impl), std::move(operand_mds), std::move(quant), data_types});
    }
    throw error(status::unimplemented, std::string(kind_name) + " " + problem_str
                                               + ": no implementation (" + reasons + ")");
}

} // namespace impl
} // namespace prim
