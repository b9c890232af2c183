// The dw post-op's rules (dw_post_op.hpp).
#include "common/dw_post_op.hpp"

#include "common/post_op_operands.hpp"

namespace prim {
namespace impl {

namespace {

using dt = memory::data_type;

std::string entry_name(int i) { return "post-op " + std::to_string(i) + " (dw)"; }

std::string dims_str(const memory::dims &d) {
    std::string s;
    for (size_t i = 0; i < d.size(); ++i) s += (i ? "x" : "") + std::to_string(d[i]);
    return s;
}

// dims in the layout of `like` ('any' stays 'any'), of type t.
memory::desc with_dims(const memory::desc &like, const memory::dims &dims, dt t) {
    if (like.is_any()) return memory::desc(dims, t, memory::format_tag::any);
    return memory::desc(dims, t, like.layout());
}

bool is_int8(dt t) { return t == dt::u8 || t == dt::s8; }

std::string type_name(dt t) { return data_type_name(t); }

// The data types and scales of the pair (doc/reference.md, "The dw post-op"): f32 throughout, or
// an int8 1x1 writing u8/s8 for an int8 depthwise convolution.
std::string check_dw_types(const convolution_forward::desc &d, const post_ops::entry &e,
                           const quantization &q, const std::string &who) {
    const dt src = d.src.get_data_type(), mid = d.dst.get_data_type();
    const bool v3_dw = q.dw_wei_scale_mask >= 0 || q.dw_dst_scale_mask >= 0;
    const bool entry_scales = !e.dw.scales.empty();
    if (src == dt::f32) {
        for (dt t : {e.dw.wei_dt, e.dw.bias_dt, e.dw.dst_dt})
            if (t != dt::undef && t != dt::f32)
                return who + "with an f32 convolution the depthwise post-op is f32 too (its "
                       + type_name(t) + " weights, bias or dst)";
        for (float v : e.dw.scales)
            if (v != 1.f) return who + "scales are supported in int8 inference only (src is f32)";
        if (v3_dw) return who + "scales are supported in int8 inference only (src is f32)";
        return "";
    }
    if (!is_int8(mid))
        return who + "an int8 convolution before a dw post-op writes u8 or s8, which the depthwise "
                     "convolution reads; its dst type is " + type_name(mid);
    if (e.dw.wei_dt != dt::undef && e.dw.wei_dt != dt::s8)
        return who + "the depthwise weights of an int8 pair are s8, not " + type_name(e.dw.wei_dt);
    if (e.dw.bias_dt != dt::undef && e.dw.bias_dt != dt::f32 && e.dw.bias_dt != dt::s32)
        return who + "the depthwise bias is f32 or s32, not " + type_name(e.dw.bias_dt);
    if (q.dst_zp_mask >= 0)
        return who + "a dst zero point: the convolution's output is the depthwise convolution's "
                     "input, which takes no zero point in a dw post-op (as oneDNN)";
    const bool v3 = q.src_scale_mask >= 0 || q.wei_scale_mask >= 0 || q.dst_scale_mask >= 0 || v3_dw;
    if (entry_scales && v3)
        return who + "the entry's output scales (oneDNN 2.x) and per-argument scales (oneDNN v3) "
                     "cannot be mixed in one attribute";
    if (v3_dw && q.has_output_scales)
        return who + "output scales (oneDNN 2.x) and the depthwise's per-argument scales (oneDNN "
                     "v3) cannot be mixed in one attribute";
    if (entry_scales) {
        if (e.dw.mask != 0 && e.dw.mask != 2)
            return who + "scales mask " + std::to_string(e.dw.mask) + " is not 0 (common) or 2 (per channel)";
        const size_t want = e.dw.mask == 0 ? 1 : static_cast<size_t>(d.weights.get_dims()[0]);
        if (e.dw.scales.size() != want)
            return who + "the entry has " + std::to_string(e.dw.scales.size()) + " scales, mask "
                   + std::to_string(e.dw.mask) + " needs " + std::to_string(want);
    }
    if (q.dw_wei_scale_mask > 0 && q.dw_wei_scale_mask != 1 && q.dw_wei_scale_mask != 3)
        return who + "weights scales mask " + std::to_string(q.dw_wei_scale_mask)
               + " is not 0 (common) or per channel (1 or 3)";
    if (q.dw_dst_scale_mask > 0)
        return who + "dst scales mask " + std::to_string(q.dw_dst_scale_mask) + " must be 0 (one value)";
    return "";
}

} // namespace

std::string check_dw_chain(const post_ops &chain, bool convolution) {
    const int dw = chain.dw_index();
    if (dw < 0) return "";
    if (!convolution)
        return entry_name(dw) + ": the depthwise post-op follows a convolution only";
    for (int i = dw + 1; i < chain.len(); ++i)
        if (chain.entries()[i].kind == post_ops::kind::dw)
            return "two dw post-ops (post-ops " + std::to_string(dw) + " and " + std::to_string(i)
                   + "): a chain holds one";
    for (int i = 0; i < chain.len(); ++i)
        if (chain.entries()[i].kind == post_ops::kind::sum)
            return "a sum (post-op " + std::to_string(i) + ") in a chain with a dw post-op (post-op "
                   + std::to_string(dw) + "): as in oneDNN, such a chain takes no sum";
    return "";
}

conv_problem dw_problem(const conv_problem &prb, const post_ops::entry &e) {
    conv_problem p;
    p.nsp = prb.nsp;
    p.mb = prb.mb;
    p.g = p.ic = p.oc = prb.oc;
    for (int sp = 3 - prb.nsp; sp < 3; ++sp) {
        p.i[sp] = prb.o[sp];
        p.k[sp] = e.dw.kernel;
        p.s[sp] = e.dw.stride;
        p.p[sp] = e.dw.padding;
        p.o[sp] = (p.i[sp] + p.s[sp] - 1) / p.s[sp];
        p.p_end[sp] = (p.o[sp] - 1) * p.s[sp] - p.i[sp] + p.k[sp] - p.p[sp];
    }
    return p;
}

std::string admit_dw_convolution(const convolution_forward::desc &d, const primitive_attr &attr,
                                 int dw, convolution_forward::desc &one_by_one,
                                 memory::desc &final_dst) {
    const post_ops &chain = attr.get_post_ops();
    const quantization &q = attr.get_quantization();
    const post_ops::entry &e = chain.entries()[dw];
    const std::string who = entry_name(dw) + ": ";
    const memory::dims &s = d.src.get_dims(), &w = d.weights.get_dims(), &o = d.dst.get_dims();
    if (s.size() != 4 || o.size() != 4)
        return who + "the depthwise post-op follows a 2D convolution only (src has "
               + std::to_string(s.size()) + " dims)";
    const bool grouped = w.size() == 5;
    if (w.size() != 4 && !grouped) return ""; // make_problem names the bad weights
    const memory::dim kh = w[w.size() - 2], kw = w[w.size() - 1];
    if (kh != 1 || kw != 1)
        return who + "the depthwise post-op follows a 1x1 convolution only, this one has a "
               + std::to_string(kh) + "x" + std::to_string(kw) + " kernel";
    for (memory::dim v : d.strides)
        if (v != 1) return who + "the depthwise post-op follows a convolution of stride 1 only";
    for (const memory::dims *pad : {&d.padding_l, &d.padding_r})
        for (memory::dim v : *pad)
            if (v != 0) return who + "the depthwise post-op follows an unpadded convolution only";
    const std::string bad_types = check_dw_types(d, e, q, who);
    if (!bad_types.empty()) return bad_types;
    const dw_types types = dw_types_of(e, d.src.get_data_type(), d.dst.get_data_type());

    // The 1x1's output has src's spatial dims; the depthwise's, ceil(i / stride) of them.
    const memory::dims mid = {s[0], o[1], s[2], s[3]};
    memory::dims last = mid;
    for (int j = 2; j < 4; ++j) last[j] = (mid[j] + e.dw.stride - 1) / e.dw.stride;
    if (o != mid && o != last)
        return who + "dst dims " + dims_str(o) + " are neither the 1x1 convolution's output "
               + dims_str(mid) + " nor the depthwise output " + dims_str(last);
    // The operands of the entries before the dw broadcast against the 1x1's output.
    const std::string bad_operand = check_operand_dims(chain_slice(chain, 0, dw), mid);
    if (!bad_operand.empty()) return bad_operand;
    one_by_one = d;
    if (o != mid) one_by_one.dst = with_dims(d.dst, mid, types.mid);
    final_dst = with_dims(d.dst, last, types.dst);
    return "";
}

memory::desc dw_weights_desc(const conv_problem &dw, const dw_types &t) {
    return memory::desc({dw.oc, 1, 1, dw.k[SP_H], dw.k[SP_W]}, t.wei, memory::format_tag::goihw);
}

memory::desc dw_bias_desc(const conv_problem &dw, const dw_types &t) {
    if (t.bias == dt::undef) return memory::desc();
    return memory::desc({dw.oc}, t.bias, memory::format_tag::x);
}

dw_types dw_types_of(const post_ops::entry &e, dt src, dt mid) {
    dw_types t;
    t.int8 = src != dt::f32;
    t.mid = mid;
    t.wei = e.dw.wei_dt != dt::undef ? e.dw.wei_dt : t.int8 ? dt::s8 : dt::f32;
    t.bias = e.dw.bias_dt;
    t.dst = e.dw.dst_dt != dt::undef ? e.dw.dst_dt : mid;
    return t;
}

quantization one_by_one_quantization(const quantization &q) {
    quantization p = q;
    p.dw_wei_scale_mask = p.dw_dst_scale_mask = -1;
    return p;
}

quantization dw_quantization(const quantization &q, const post_ops::entry &e) {
    quantization d;
    if (!e.dw.scales.empty()) { // oneDNN 2.x: the entry's output scales
        d.has_output_scales = true;
        d.output_scales_mask = e.dw.mask;
        d.output_scales = e.dw.scales;
        return d;
    }
    d.src_scale_mask = q.dst_scale_mask;
    d.wei_scale_mask = q.dw_wei_scale_mask;
    d.dst_scale_mask = q.dw_dst_scale_mask;
    return d;
}

exec_ptrs::quant_values dw_quant_values(const exec_ptrs::quant_values &v) {
    exec_ptrs::quant_values d;
    d.src_scales = v.dst_scales;
    d.wei_scales = v.dw_wei_scales;
    d.dst_scales = v.dw_dst_scales;
    return d;
}

post_ops chain_slice(const post_ops &chain, int begin, int end) {
    post_ops part;
    for (int i = begin; i < end; ++i) append_entry(part, chain.entries()[i]);
    return part;
}

} // namespace impl
} // namespace prim
