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

std::string admit_dw_convolution(const convolution_forward::desc &d, const post_ops &chain,
                                 int dw, convolution_forward::desc &one_by_one,
                                 memory::desc &final_dst) {
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
    for (const memory::desc *md : {&d.src, &d.weights, &d.dst})
        if (md->get_data_type() != dt::f32)
            return who + "int8 through the depthwise post-op is not built yet (f32 only)";
    if (!d.bias.is_zero() && d.bias.get_data_type() != dt::f32)
        return who + "int8 through the depthwise post-op is not built yet (f32 only)";
    for (dt t : {e.dw.wei_dt, e.dw.bias_dt, e.dw.dst_dt})
        if (t != dt::undef && t != dt::f32)
            return who + "int8 through the depthwise post-op (" + data_type_name(t)
                   + " weights, bias or dst) is not built yet (f32 only)";
    for (float v : e.dw.scales)
        if (v != 1.f)
            return who + "scales of the depthwise post-op apply to int8 weights, which are not "
                         "built yet (an f32 depthwise post-op takes none)";

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
    if (o != mid) one_by_one.dst = with_dims(d.dst, mid, dt::f32);
    final_dst = o == last ? d.dst : with_dims(d.dst, last, dt::f32);
    return "";
}

memory::desc dw_weights_desc(const conv_problem &dw) {
    return memory::desc({dw.oc, 1, 1, dw.k[SP_H], dw.k[SP_W]}, dt::f32, memory::format_tag::goihw);
}

memory::desc dw_bias_desc(const conv_problem &dw, const post_ops::entry &e) {
    if (e.dw.bias_dt == dt::undef) return memory::desc();
    return memory::desc({dw.oc}, dt::f32, memory::format_tag::x);
}

post_ops chain_slice(const post_ops &chain, int begin, int end) {
    post_ops part;
    for (int i = begin; i < end; ++i) append_entry(part, chain.entries()[i]);
    return part;
}

} // namespace impl
} // namespace prim
